"""The laser battle shared by Light Speed and Stellar Conflict (DESIGN section 4).

:func:`resolve` is the clear, scalar reference: it takes the cards as they lie when
deployment ends and plays the battle speed step by speed step, returning the
:class:`Outcome` with its event log. ``spacetable.lasers.fast`` compiles the same rules for bots.

The rulings are numbered as in DESIGN section 4; comments cite them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from spacetable.lasers.events import (
    CardLeft,
    Delayed,
    Destroyed,
    Event,
    GoodsTransferred,
    LaserFired,
    RocksTaken,
    RocksVaporized,
    StepBegan,
)
from spacetable.lasers.geometry import Pose, RayHit, Rect, edge_coordinate, ray_hit, ray_may_touch
from spacetable.lasers.ships import CARD_SIZE_MM, Laser, ShipDef

Ruleset = Literal["lightspeed", "stellar"]
RULESETS: tuple[Ruleset, ...] = ("lightspeed", "stellar")

#: Speed added by each Delay token (ruling 10).
DELAY_SPEED = 2


@dataclass(frozen=True, slots=True)
class Card:
    """A card on the table when deployment ends: a ship (``ship`` and ``owner`` set) or an
    asteroid (both ``None``). ``rocks`` counts rocks or cargo cubes on it."""

    id: str
    pose: Pose
    ship: ShipDef | None = None
    owner: str | None = None
    rocks: int = 0
    size: tuple[float, float] = CARD_SIZE_MM

    @property
    def is_asteroid(self) -> bool:
        """True for an asteroid card."""
        return self.ship is None

    @property
    def rect(self) -> Rect:
        """The card's rectangle on the table."""
        return Rect(self.pose, self.size[0], self.size[1])

    def lasers(self) -> tuple[Laser, ...]:
        """The ship's lasers scaled to this card's size (empty for an asteroid)."""
        return self.ship.scaled(self.size).lasers if self.ship else ()


@dataclass(frozen=True, slots=True)
class Rules:
    """How a battle is scored and which optional rules apply."""

    players: tuple[str, ...]
    ruleset: Ruleset = "lightspeed"
    piracy: bool = False
    stolen_goods: bool = False

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:
            raise ValueError(f"a battle needs 2 to 4 players, got {len(self.players)}")
        if len(set(self.players)) != len(self.players):
            raise ValueError("player names must be distinct")
        if self.ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {self.ruleset!r}")


@dataclass(slots=True)
class ShipResult:
    """A card's state at the end of the battle."""

    alive: bool
    rocks: int
    damage: dict[str, int] = field(default_factory=dict)
    delay_tokens: int = 0


@dataclass(slots=True)
class Outcome:
    """The battle's result: scores, winner (``None`` on a draw), kill piles, every card's
    final state and the event log."""

    scores: dict[str, int]
    winner: str | None
    kill_piles: dict[str, list[str]]
    ships: dict[str, ShipResult]
    asteroids: dict[str, int]
    events: list[Event]

    def to_json(self) -> dict[str, Any]:
        """The DESIGN section 3 result object."""
        return {
            "scores": dict(self.scores),
            "winner": self.winner,
            "kill_piles": {p: list(ids) for p, ids in self.kill_piles.items()},
            "ships": {
                cid: {
                    "alive": s.alive,
                    "rocks": s.rocks,
                    "damage": {p: d for p, d in s.damage.items() if d},
                    "delay_tokens": s.delay_tokens,
                }
                for cid, s in self.ships.items()
            },
            "asteroids": {cid: {"rocks": rocks} for cid, rocks in self.asteroids.items()},
            "events": [e.to_json() for e in self.events],
        }


@dataclass(frozen=True, slots=True)
class _Shot:
    """One laser's effect on one target within a speed step."""

    ship: str
    target: str
    value: int  # how many pulses it takes part in (ruling 4)
    vaporize: bool  # stolen from one's own cargo ship (ruling 9)


def shot(card: Card, laser: Laser, cards: Iterable[Card]) -> tuple[Card | None, RayHit | None]:
    """The first card (other than ``card``) that ``laser`` touches, with the hit (ruling 2)."""
    origin = card.pose.to_world(*laser.at)
    direction = card.pose.direction(laser.angle_deg)
    best: tuple[Card | None, RayHit | None] = (None, None)
    for other in cards:
        if other.id == card.id:
            continue
        rect = other.rect
        if not ray_may_touch(origin, direction, rect):
            continue
        hit = ray_hit(origin, direction, rect)
        if hit is not None and (best[1] is None or hit.distance < best[1].distance):
            best = (other, hit)
    return best


def shielded(target: Card, hit: RayHit) -> bool:
    """Whether the point where a laser touched ``target`` lies on a shield (ruling 3)."""
    if target.ship is None:
        return False
    for shield in target.ship.scaled(target.size).shields:
        if shield.edge in hit.edges and shield.covers(edge_coordinate(shield.edge, hit.local)):
            return True
    return False


def distribute(pool: int, values: Sequence[int]) -> tuple[list[int], int]:
    """Share ``pool`` rocks among lasers by the rulebook's pulses (ruling 4).

    ``values[i]`` is how many rocks laser ``i`` would take. Returns what each laser took and
    how many rocks were vaporized.
    """
    taken = [0] * len(values)
    vaporized = 0
    for pulse in (1, 2, 3):
        firing = [i for i, v in enumerate(values) if v >= pulse]
        if not firing or pool == 0:
            continue
        if pool < len(firing):
            vaporized += pool
            pool = 0
            continue
        for i in firing:
            taken[i] += 1
        pool -= len(firing)
    return taken, vaporized


#: A battle resolver: the cards and rules in, the outcome with its event log out.
#: :func:`resolve` is the reference; ``spacetable.lasers.fast.resolve_fast`` gives the same
#: outcome and events, compiled.
Resolver = Callable[[Sequence[Card], Rules], Outcome]


def resolve(cards: Sequence[Card], rules: Rules) -> Outcome:
    """Play the laser battle on ``cards`` under ``rules`` and return its outcome.

    The table is not validated here (see ``spacetable.lasers.tables``): cards are assumed not to
    touch. Events are ordered by speed step, then card order, then laser order.
    """
    return _Battle(cards, rules).run()


class _Battle:
    """Mutable state of one battle; used once by :func:`resolve`."""

    def __init__(self, cards: Sequence[Card], rules: Rules) -> None:
        self.cards = list(cards)
        self.rules = rules
        self.on_table = {c.id: c for c in self.cards}
        self.rocks = {c.id: c.rocks for c in self.cards}
        self.damage: dict[str, dict[str, int]] = {c.id: defaultdict(int) for c in self.cards}
        self.delays = {c.id: 0 for c in self.cards}
        self.has_fired: set[str] = set()
        self.kill_piles: dict[str, list[str]] = {p: [] for p in rules.players}
        self.events: list[Event] = []

    def speeds(self, card: Card) -> tuple[int, ...]:
        """A ship's speeds with its Delay tokens (ruling 10)."""
        assert card.ship is not None
        return tuple(s + DELAY_SPEED * self.delays[card.id] for s in card.ship.speeds)

    def run(self) -> Outcome:
        last = -1
        while True:
            ships = [c for c in self.on_table.values() if c.ship is not None]
            upcoming = [s for c in ships for s in self.speeds(c) if s > last]
            if not upcoming:
                break
            last = min(upcoming)
            self.step(last, [c for c in ships if last in self.speeds(c)])
        return self.outcome()

    def step(self, speed: int, firing: list[Card]) -> None:
        """One speed step (rulings 1-5, 8-11)."""
        self.events.append(StepBegan(speed, tuple(c.id for c in firing)))
        self.has_fired.update(c.id for c in firing)
        table = list(self.on_table.values())  # ruling 1: the cards at the start of the step
        shots: dict[str, list[_Shot]] = defaultdict(list)
        damaged_by: dict[str, set[str]] = defaultdict(set)
        for card in firing:
            for index, laser in enumerate(card.lasers()):
                self.fire(speed, card, index, laser, table, shots, damaged_by)
        self.share_rocks(shots)
        self.end_step(damaged_by)

    def fire(
        self,
        speed: int,
        card: Card,
        index: int,
        laser: Laser,
        table: list[Card],
        shots: dict[str, list[_Shot]],
        damaged_by: dict[str, set[str]],
    ) -> None:
        """Fire one laser and record its damage, delay and mining/stealing claims."""
        assert card.owner is not None
        origin = card.pose.to_world(*laser.at)
        target, hit = shot(card, laser, table)
        damage = 0
        if target is None or hit is None:
            result = "space"
        elif target.ship is None:
            result = "mine"
            value = {"normal": laser.power, "ion": 0, "penetrating": 1}[laser.kind]
            if value:
                shots[target.id].append(_Shot(card.id, target.id, value, False))
        elif laser.kind != "penetrating" and shielded(target, hit):
            result = "blocked"
        elif laser.kind == "ion":
            result = "ion"
        else:
            result = "damage"
            damage = 1 if laser.kind == "penetrating" else laser.power
        self.events.append(
            LaserFired(
                speed,
                card.id,
                index,
                laser.power,
                laser.kind,
                origin,
                hit.point if hit else None,
                target.id if target else None,
                hit.edges[0] if hit else None,
                result,
                damage,
            )
        )
        if target is None or target.ship is None:
            return
        if result == "ion" and target.id not in self.has_fired:
            self.delays[target.id] += 1
            self.events.append(Delayed(target.id, self.delays[target.id], self.speeds(target)))
        if damage:
            self.damage[target.id][card.owner] += damage
            damaged_by[target.id].add(card.id)
            if self.steals_from(target):
                # Rulings 8 and 9: as many pulses as the damage dealt; stolen from one's own
                # cargo ship, the cubes are vaporized (a Stellar Conflict rule only).
                own_cargo = self.is_cargo(target) and target.owner == card.owner
                shots[target.id].append(_Shot(card.id, target.id, damage, own_cargo))

    def is_cargo(self, card: Card) -> bool:
        """A Stellar Conflict cargo ship: the role means nothing under Light Speed (ruling 9)."""
        role = card.ship.role if card.ship is not None else None
        return self.rules.ruleset == "stellar" and role == "cargo"

    def steals_from(self, target: Card) -> bool:
        """Whether a laser that damages ``target`` also steals from it (rulings 8, 9)."""
        return self.is_cargo(target) or (self.rules.ruleset == "lightspeed" and self.rules.piracy)

    def share_rocks(self, shots: dict[str, list[_Shot]]) -> None:
        """Mining and stealing, each target's start-of-step pool shared by pulses (ruling 4)."""
        pools = {target: self.rocks[target] for target in shots}
        gains: dict[str, int] = defaultdict(int)
        for target, claims in shots.items():
            taken, vaporized = distribute(pools[target], [s.value for s in claims])
            self.rocks[target] -= sum(taken) + vaporized
            if vaporized:
                self.events.append(RocksVaporized(target, vaporized, "pulse"))
            by_ship: dict[tuple[str, bool], int] = defaultdict(int)
            for claim, count in zip(claims, taken, strict=True):
                if count:
                    by_ship[(claim.ship, claim.vaporize)] += count
            for (ship, vaporize), count in by_ship.items():
                if vaporize:
                    self.events.append(RocksVaporized(target, count, "own-cargo"))
                else:
                    self.events.append(RocksTaken(target, ship, count))
                    gains[ship] += count
        for ship, count in gains.items():
            self.rocks[ship] += count

    def end_step(self, damaged_by: dict[str, set[str]]) -> None:
        """Deaths, kill piles, stolen goods and cards leaving the table (rulings 5, 6, 9,
        11)."""
        dead = [
            c
            for c in self.on_table.values()
            if c.ship is not None and sum(self.damage[c.id].values()) >= c.ship.health
        ]
        dead_ids = {c.id for c in dead}
        for card in dead:
            pile = self.kill_pile_for(card)
            if pile is not None:
                self.kill_piles[pile].append(card.id)
            self.events.append(Destroyed(card.id, pile))
            del self.on_table[card.id]
        for card in dead:
            self.lose_cargo(card, damaged_by[card.id], dead_ids)
        for card in list(self.on_table.values()):
            if self.rocks[card.id] > 0:
                continue
            if card.ship is None:
                reason = "depleted"
            elif self.is_cargo(card):
                reason = "emptied"
            else:
                continue
            self.events.append(CardLeft(card.id, reason))
            del self.on_table[card.id]

    def lose_cargo(self, card: Card, shooters: set[str], dead: set[str]) -> None:
        """A destroyed ship's rocks vaporize, or go to its killer under Stolen Goods: the one
        ship that damaged it in this step, if that ship survives the step (ruling 11)."""
        count = self.rocks[card.id]
        if not count:
            return
        self.rocks[card.id] = 0
        assert card.ship is not None
        takes_goods = self.rules.stolen_goods and self.rules.ruleset == "stellar"
        killer = next(iter(shooters)) if len(shooters) == 1 else None
        if takes_goods and not self.is_cargo(card) and killer is not None and killer not in dead:
            self.rocks[killer] += count
            self.events.append(GoodsTransferred(card.id, killer, count))
        else:
            self.events.append(RocksVaporized(card.id, count, "destroyed"))

    def kill_pile_for(self, card: Card) -> str | None:
        """Whose kill pile a destroyed ship goes to (ruling 6)."""
        players = self.rules.players
        if len(players) == 2:
            return players[1] if card.owner == players[0] else players[0]
        damage = self.damage[card.id]
        most = max(damage.values())
        leaders = [p for p in players if damage.get(p, 0) == most]
        if card.owner in leaders:
            return card.owner
        return leaders[0] if len(leaders) == 1 else None

    def outcome(self) -> Outcome:
        """Scores and winner (ruling 7)."""
        rules = self.rules
        by_id = {c.id: c for c in self.cards}
        scores = dict.fromkeys(rules.players, 0)
        enemy_kills = dict.fromkeys(rules.players, 0)
        for player, pile in self.kill_piles.items():
            for cid in pile:
                ship = by_id[cid].ship
                assert ship is not None
                worth = ship.vp if rules.ruleset == "stellar" else ship.health
                if by_id[cid].owner == player:
                    scores[player] -= worth
                else:
                    scores[player] += worth
                    enemy_kills[player] += 1
        for card in self.on_table.values():
            if card.owner in scores:
                scores[card.owner] += self.rocks[card.id]
        best = max(scores.values())
        leaders = [p for p in rules.players if scores[p] == best]
        if len(leaders) > 1 and rules.ruleset == "stellar":
            most = max(enemy_kills[p] for p in leaders)
            leaders = [p for p in leaders if enemy_kills[p] == most]
        ships = {
            c.id: ShipResult(
                c.id in self.on_table,
                self.rocks[c.id],
                {p: d for p, d in self.damage[c.id].items() if d},
                self.delays[c.id],
            )
            for c in self.cards
            if c.ship is not None
        }
        asteroids = {c.id: self.rocks[c.id] for c in self.cards if c.ship is None}
        return Outcome(
            scores,
            leaders[0] if len(leaders) == 1 else None,
            self.kill_piles,
            ships,
            asteroids,
            self.events,
        )
