"""The hex fleet tactical bot: targets by the odds, out of the enemies' arcs, jumps out
when crippled."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from spacetable.bots.hexfleet._seat import (
    Seat,
    ends_from,
    facing_toward,
    in_arc,
    sorted_moves,
)
from spacetable.games.hexfleet.cards import Card, CardsRanOut, full_deck, parse_card
from spacetable.games.hexfleet.hexes import Hex, distance, in_forward_arc
from spacetable.games.hexfleet.match import (
    RANGE,
    EndActivation,
    Fire,
    HexAction,
    Jump,
    Move,
    RaiseShields,
    Return,
)
from spacetable.games.hexfleet.odds import salvo_odds
from spacetable.games.hexfleet.ships import FULL_SALVO, Ship

#: How much an enemy that must first move to reach a hex counts against it (one that can
#: fire at it where it stands counts fully).
REACH_WEIGHT = 0.4
#: How much an enemy that has acted this turn counts (its chit is out of the cup: it
#: acts again next turn at the soonest).
ACTED_WEIGHT = 0.7
#: The most promising firing positions weighed with where the ship can go after firing.
SHOTS_WEIGHED = 4
#: What standing in the enemies' reach costs against the damage a shot from there does.
EXPOSURE_WEIGHT = 1.0
#: The cost of each hex a ship ends beyond the distance it could close and fire from.
APPROACH_WEIGHT = 2.0
#: What a weapon system is worth beyond its point when losing it shortens the salvo
#: (by the share of a full salvo lost), and a shield point when it lets more suits
#: through (by their share of the deck).
SALVO_WEIGHT, SHIELD_WEIGHT = 4.0, 4.0
#: What silencing a ship's weapons is worth beyond the systems, per card of its salvo.
SILENCE_WEIGHT = 1.0
#: The last turns in which a side ahead on strength jumps out to keep its lead.
LATE_TURNS = 2
#: A crippled ship: weapon systems at or below this share, or all systems below ``WEAK``.
CRIPPLED, WEAK = 0.25, 0.4


@dataclass(frozen=True, slots=True)
class Weights:
    """The tactical bot's judgement in numbers (the module's constants by default; a
    stronger policy of the expert's may weigh otherwise)."""

    reach: float = REACH_WEIGHT
    acted: float = ACTED_WEIGHT
    exposure: float = EXPOSURE_WEIGHT
    approach: float = APPROACH_WEIGHT
    salvo: float = SALVO_WEIGHT
    shield: float = SHIELD_WEIGHT
    silence: float = SILENCE_WEIGHT
    late_turns: int = LATE_TURNS
    crippled: float = CRIPPLED
    weak: float = WEAK


#: The tactical level's weights.
TACTICAL = Weights()


def suit_shares(view: dict[str, Any]) -> dict[str, float]:
    """Each suit's share of the cards still to be drawn (the full deck's once the discards
    hold every card): the chance that the next card turned is of that suit."""
    gone = [card[-1] for card in view["deck"]["discards"]]
    left = {suit: 13 - gone.count(suit) for suit in "SHDC"}
    total = sum(left.values())
    if total == 0:
        return dict.fromkeys("SHDC", 0.25)
    return {suit: n / total for suit, n in left.items()}


def expected_hits(attacker: Ship, target: Ship, shares: dict[str, float]) -> float:
    """The hits ``attacker``'s salvo at ``target`` is expected to score (each card turned
    hits if its suit gets through the shields)."""
    return attacker.salvo * sum(shares[suit] for suit in target.hit_by())


def point_values(
    target: Ship, shares: dict[str, float], weights: Weights = TACTICAL
) -> tuple[float, float, float]:
    """What losing one weapon system, shield point and propulsion cell costs ``target``:
    a system point each, more for the weapon system that shortens its salvo or the shield
    point that lets more suits through its shields, less for a weapon system once it
    cannot fight anyway."""
    if target.weapons_left > 0:
        fewer = replace(target, weapons_left=target.weapons_left - 1)
        weapons = 1.0 + weights.salvo * (target.salvo - fewer.salvo) / FULL_SALVO[target.weapons]
    else:
        weapons = 0.5
    shields = 1.0
    if target.shields_up:
        softer = target.damaged("H")
        through = sum(shares[suit] for suit in softer.hit_by() - target.hit_by())
        shields += weights.shield * through
    return weapons, shields, 1.0


def hit_value(target: Ship, shares: dict[str, float], weights: Weights = TACTICAL) -> float:
    """What one hit on ``target`` is worth on average over the damage card's suit
    (:func:`point_values`)."""
    damage = shares["D"] + shares["H"] + shares["S"]
    if damage <= 0:
        return 1.0
    weapons, shields, propulsion = point_values(target, shares, weights)
    return (shares["D"] * weapons + shares["H"] * shields + shares["S"] * propulsion) / damage


def salvo_worth(
    attacker: Ship,
    target: Ship,
    pile: list[Card],
    discards: list[Card],
    shares: dict[str, float],
    weights: Weights = TACTICAL,
) -> float:
    """What a salvo of ``attacker`` at ``target`` is worth: each system's expected loss
    by the exact odds of the cards left (:func:`~spacetable.games.hexfleet.odds.
    salvo_odds`) at its :func:`point_values`, and a bonus for the chance to silence its
    weapons for good."""
    try:
        odds = salvo_odds(attacker, target, pile, discards)
    except (ValueError, CardsRanOut):
        return expected_hits(attacker, target, shares) * hit_value(target, shares, weights)
    weapons, shields, propulsion = point_values(target, shares, weights)
    total = sum(
        weight * (o[1] * weapons + o[2] * shields + o[3] * propulsion)
        for o, weight in odds.outcomes
    )
    silenced = float(odds.p_weapons_out) if target.weapons_left else 0.0
    return total / odds.denominator + weights.silence * silenced * target.salvo


#: Every facing (bits 0 to 5): an all-round ship has every target in its arc.
ALL_FACINGS = 0b111111


@functools.lru_cache(maxsize=4096)
def arc_facings(dq: int, dr: int) -> int:
    """The facings (bit ``f`` for facing ``f``) from which a hex ``(dq, dr)`` away lies in
    a ship's forward arc (:func:`~spacetable.games.hexfleet.hexes.in_forward_arc`: the arc
    depends only on the offset between the hexes)."""
    origin, there = Hex(0, 0), Hex(dq, dr)
    return sum(1 << f for f in range(6) if in_forward_arc(origin, f, there))


def reaches(attacker: Ship, at: Hex) -> bool:
    """Whether ``attacker``, where it stands, can fire at a ship at ``at``."""
    if attacker.at is None or attacker.salvo == 0 or distance(attacker.at, at) > RANGE:
        return False
    return attacker.cls.all_round or in_forward_arc(attacker.at, attacker.facing, at)


class _Plan:
    """One decision's view of the battle: the enemies, the card odds and the exposure of
    each hex (computed once per hex)."""

    def __init__(self, seat: Seat, view: dict[str, Any], weights: Weights = TACTICAL) -> None:
        shares = suit_shares(view)
        self.weights = weights
        self.seat = seat
        self.strength: dict[str, float] = view["strength"]
        self.cup = frozenset(view["cup"])
        self.shares = shares
        self.enemies = seat.enemies()
        self._placed = [e.at for e in self.enemies if e.at is not None]
        self.threats = [e for e in self.enemies if e.salvo > 0]
        ship = seat.ship
        self.salvo = ship.salvo
        self._worth: dict[str, float] = {}
        discards = [parse_card(c) for c in view["deck"]["discards"]]
        gone = set(discards)
        self.pile = [c for c in full_deck() if c not in gone]
        self.discards = discards
        # What each threat's salvo is expected to cost the active ship.
        mine = hit_value(ship, shares, weights) if ship.weapons_left else 1.0
        self.danger = {e.id: expected_hits(e, ship, shares) * mine for e in self.threats}
        self._exposure: dict[Hex, float] = {}
        self._end_cost: dict[Hex, float] = {}
        #: :meth:`shots_from` by hex.
        self.shots_table: dict[Hex, tuple[tuple[float, Ship | None], ...]] = {}

    def ahead(self) -> bool:
        """Whether the active ship's side leads every other on strength."""
        mine = self.strength[self.seat.player]
        return all(mine > v for p, v in self.strength.items() if p != self.seat.player)

    def exposure(self, at: Hex) -> float:
        """What the enemies are expected to do to the active ship at ``at``: fully for
        those that can fire at it there, in part for those that must move first."""
        known = self._exposure.get(at)
        if known is not None:
            return known
        total = 0.0
        q, r = at.q, at.r
        acted, reach = self.weights.acted, self.weights.reach
        for enemy in self.threats:
            there = enemy.at
            assert there is not None
            danger = self.danger[enemy.id] * (1.0 if enemy.id in self.cup else acted)
            dq, dr = there.q - q, there.r - r
            far = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if far <= RANGE and (enemy.cls.all_round or in_arc(there, enemy.facing, at)):
                total += danger
            elif far <= RANGE + enemy.propulsion_left:
                total += reach * danger
        self._exposure[at] = total
        return total

    def best_shot(self, at: Hex, facing: int) -> tuple[float, Ship | None]:
        """The most valuable target the active ship can fire at from ``at`` facing
        ``facing``, and the damage a salvo at it is worth."""
        known = self.shots_table.get(at)
        if known is None:
            known = self.shots_table[at] = self.shots_from(at)
        return known[facing]

    def shots_from(self, at: Hex) -> tuple[tuple[float, Ship | None], ...]:
        """:meth:`best_shot` from ``at`` for each facing."""
        all_round = self.seat.ship.cls.all_round
        reach: list[tuple[Ship, int]] = []
        if self.salvo > 0:
            for enemy in self.enemies:
                there = enemy.at
                if there is None:
                    continue
                dq, dr = there.q - at.q, there.r - at.r
                if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 > RANGE:
                    continue
                reach.append((enemy, ALL_FACINGS if all_round else arc_facings(dq, dr)))
        out = []
        for facing in range(6):
            best, value, bit = None, 0.0, 1 << facing
            for enemy, arcs in reach:
                if arcs & bit:
                    worth = self.worth(enemy)
                    if worth > value:
                        best, value = enemy, worth
            out.append((value, best))
        return tuple(out)

    def worth(self, target: Ship) -> float:
        """What the active ship's salvo at ``target`` is worth (:func:`salvo_worth`)."""
        known = self._worth.get(target.id)
        if known is None:
            ship = self.seat.ship
            known = salvo_worth(ship, target, self.pile, self.discards, self.shares, self.weights)
            self._worth[target.id] = known
        return known

    def gap(self, at: Hex) -> int:
        """How many hexes beyond the distance it could close and fire from next time the
        active ship stands at ``at`` from its nearest enemy."""
        ship = self.seat.ship
        q, r = at.q, at.r
        near = min(
            ((abs(h.q - q) + abs(h.r - r) + abs(h.q - q + h.r - r)) // 2 for h in self._placed),
            default=0,
        )
        return max(0, near - (RANGE + max(0, ship.propulsion_left - 2)))

    def end_cost(self, at: Hex) -> float:
        """What ending the activation at ``at`` costs: the exposure there, and each hex
        too far to close and fire next time."""
        known = self._end_cost.get(at)
        if known is None:
            known = self._end_cost[at] = self.exposure(at) + self.weights.approach * self.gap(at)
        return known

    def retreat_cost(self, at: Hex, facing: int, movement: int) -> float:
        """The least :meth:`end_cost` the active ship can reach from ``at`` facing
        ``facing`` with ``movement`` hexes of movement."""
        cost = self.end_cost(at)
        if movement <= 0:
            return cost
        blocked = self.seat.blocked(self.seat.ship.id)
        ends = ends_from(at, facing, movement, self.seat.board, blocked)
        return min([cost, *map(self.end_cost, ends)])

    def states(self) -> list[tuple[Hex, int, str]]:
        """Where the active ship may end its move: where it is (no steps) and every
        reachable (hex, facing), with the steps."""
        ship = self.seat.ship
        assert ship.at is not None
        here = [(ship.at, ship.facing, "")]
        seat = self.seat
        if seat.movement <= 0:
            return here
        blocked = seat.blocked(ship.id)
        return here + list(sorted_moves(ship.at, ship.facing, seat.movement, seat.board, blocked))


class TacticalBot:
    """Raises its shields first, then closes to reach and arc of the target where a salvo
    is worth most (expected hits by the cards still to be drawn, weighted toward ships
    about to lose their weapons) while keeping out of the enemies' reach, fires, and falls
    back out of reach with the movement left; a crippled ship jumps out."""

    def __init__(self, weights: Weights = TACTICAL) -> None:
        #: The weights it judges by (the tactical level's unless told).
        self.weights = weights

    def choose(self, view: dict[str, Any], rng: random.Random) -> HexAction:
        """The next action of ``view["player"]``'s active ship (deterministic; ``rng`` is
        unused)."""
        seat = Seat.of(view)
        plan = _Plan(seat, view, self.weights)
        player, ship = seat.player, seat.ship
        if seat.placing:
            return self.place(plan)
        returns_on = self.jump(plan)
        if returns_on is not None:
            assert ship.at is not None
            _, target = plan.best_shot(ship.at, ship.facing)
            if "fire" not in seat.done and target is not None:
                return Fire(player, ship.id, target.id, 0.0)  # a parting salvo
            return Jump(player, ship.id, returns_on, 0.0)
        if seat.can_raise():
            return RaiseShields(player, ship.id, 0.0)
        if "fire" not in seat.done and ship.salvo > 0:
            action = self.attack(plan)
            if action is not None:
                return action
        return self.fall_back(plan)

    def place(self, plan: _Plan) -> HexAction:
        """A returning ship goes where the enemies can do least to it, then where it has
        the best shot, facing its nearest enemy."""
        seat = plan.seat
        best: tuple[float, int, Hex] | None = None
        aims = [e.at for e in plan.enemies if e.at is not None]
        for at in seat.free_hexes():
            facing = facing_toward(at, min(aims, key=lambda e: distance(at, e))) if aims else 0
            shot, _ = plan.best_shot(at, facing)
            score = plan.exposure(at) - shot
            if best is None or score < best[0]:
                best = (score, facing, at)
        assert best is not None
        _, facing, at = best
        return Return(seat.player, seat.ship.id, at.q, at.r, facing, 0.0)

    def jump(self, plan: _Plan) -> int | None:
        """The turn the active ship comes back on if it should jump now (0: it leaves),
        else ``None``. A ship with no weapons leaves for good (what it keeps still counts
        at the turn limit). In the enemies' reach, a crippled ship, or any ship of a side
        ahead on strength in the last turns, comes back on the last turn; when that is
        too late, it leaves unless it is its side's last fighting ship."""
        seat, ship, weights = plan.seat, plan.seat.ship, plan.weights
        if not seat.can_jump() or ship.at is None:
            return None
        if ship.weapons_left == 0:
            return 0
        crippled = (
            ship.weapons_left <= weights.crippled * ship.weapons_total
            or ship.strength() < weights.weak * ship.full_strength()
        )
        late = seat.turn >= seat.turn_limit - weights.late_turns and plan.ahead()
        if not (crippled or late) or plan.exposure(ship.at) <= 0:
            return None
        if seat.turn < seat.turn_limit:
            return seat.turn_limit
        others = [
            s for s in seat.ships.values()
            if s.owner == seat.player and s.id != ship.id and s.fighting
        ]  # fmt: skip
        return 0 if others else None

    def attack(self, plan: _Plan) -> HexAction | None:
        """Fire from here, or move to where a salvo is worth most against what the ship
        risks where it can end the activation after it; ``None`` if no target can be
        reached this activation, or if keeping away is worth more than any shot."""
        seat, ship = plan.seat, plan.seat.ship
        # Each firing position with its rank: the shot against the exposure there.
        shots: list[tuple[float, float, Hex, int, str, Ship]] = []
        table, exposure, weigh = plan.shots_table, plan.exposure, plan.weights.exposure
        for at, facing, steps in plan.states():
            row = table.get(at)
            if row is None:
                row = table[at] = plan.shots_from(at)
            shot, target = row[facing]
            if target is not None:
                rank = shot - weigh * exposure(at) - 0.01 * len(steps)
                shots.append((rank, shot, at, facing, steps, target))
        if not shots:
            return None
        shots.sort(key=itemgetter(0))
        best: tuple[float, str, Ship] | None = None
        for _, shot, at, facing, steps, target in shots[-SHOTS_WEIGHED:]:
            after = plan.retreat_cost(at, facing, seat.movement - len(steps))
            score = shot - weigh * after - 0.01 * len(steps)
            if best is None or score > best[0] + 1e-9 or (score > best[0] - 1e-9 and not steps):
                best = (score, steps, target)
        assert ship.at is not None and best is not None
        away = -weigh * plan.retreat_cost(ship.at, ship.facing, seat.movement)
        score, steps, target = best
        if score < away:
            return None
        if not steps:
            return Fire(seat.player, ship.id, target.id, 0.0)
        return Move(seat.player, ship.id, steps, 0.0)

    def fall_back(self, plan: _Plan) -> HexAction:
        """With nothing (more) to fire at: end where the enemies can do least, yet near
        enough to close and fire next time; then end the activation."""
        seat, ship = plan.seat, plan.seat.ship
        end = EndActivation(seat.player, ship.id, 0.0)
        if seat.movement <= 0 or not plan.enemies:
            return end
        best: tuple[float, str] | None = None
        for at, _, steps in plan.states():
            score = plan.end_cost(at) + 0.01 * len(steps)
            if best is None or score < best[0] - 1e-9:
                best = (score, steps)
        assert best is not None
        return Move(seat.player, ship.id, best[1], 0.0) if best[1] else end
