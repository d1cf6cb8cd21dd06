"""Light Speed and Stellar Conflict as parallel environments: the placing round on a grid.

In the real game every player puts his card in hand on the table whenever he likes, at
any spot and any angle. Here a step is a **round** of placements: each agent holding a
card either places it at one of the grid's poses or waits (keeps it in hand this round).

**The grid** (:class:`Grid`): the table is cut into ``columns`` x ``rows`` equal cells
(12 x 8 by default: 100 mm cells on the 1200 x 800 mm table); a pose is a cell's centre
and one of ``turns`` headings (8 by default: 0, 45, ... 315 degrees counter-clockwise).
A pose is legal when the rules let the card lie there (wholly on the table, touching no
card: :meth:`~spacetable.games._laser_match.LaserMatch.check_placement`).

**A round.** The placements of one round are applied one after the other, the first
agent turning with the rounds (round k starts with seat ``k mod n``), each at the round's
time (``round_seconds`` apart, 2 s by default): a pose another card took earlier in the
same round is refused, and that agent waits (its info's ``refused`` says why). Whoever
places his last card calls stop (Light Speed, and Stellar Conflict's ``stop``
deployment): the cards still in hand freeze, and a placement that comes after the stop in
the same round drops its card at its pose (the card froze where its player was putting
it). Under Stellar Conflict's timer the countdown runs on the rounds' clock; once it
has run out the cards in hand freeze. **After the freeze** an agent still holding a card
has one round to drop it at a pose (the same pose actions) or discard it; a card still
undecided after that round is discarded (the server's stop countdown, ``Timeout``).

**Stellar Conflict's fleet** is chosen a ship a step before the placing: ``pick k`` adds
the k-th ship of the agent's race (in the catalog's order, Cargo and Flag ships left out)
while the fleet's credits allow it, and ``done`` sends the fleet (secret to the others
until its cards come out).

**Actions** (``Discrete(n)``): 0 wait, 1 discard, then (Stellar Conflict) ``done`` and
one ``pick`` a ship of the largest race, then one for each pose, in the order cell
(row by row from the bottom left) then heading. The ``action_mask`` allows what the rules
allow now.

**Observations** are drawn from the seat's own view of the match (never a deck's order,
never another's fleet before it is played): the phase, the countdown left, for each seat
(the agent's own first) the cards left, whether it holds, has decided or has chosen its
fleet, then a slot for every card a seat may play (its pool: Light Speed's ten ships, or
its race's ships): on the table, where (x, y as a share of half the table), its heading's
sine and cosine, in hand, discarded, and the ships the agent picked for its fleet; then
the asteroids with their rocks.

**Rewards** at the end only: by place (winner first, then the score), +1/-1/0 in a duel.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from spacetable.core.match import Action, IllegalAction
from spacetable.envs._base import MAX_CYCLES, Observation, fraction, observed, seat_order
from spacetable.envs._parallel import MatchParallelEnv
from spacetable.games._deployment import Discard, Drop, Place, Timeout
from spacetable.games._laser_match import LaserMatch, Phase
from spacetable.games.lightspeed.match import fleet
from spacetable.games.stellar.actions import Fleet, TimerExpired
from spacetable.games.stellar.fleets import RACES, check_fleet, race_ships
from spacetable.games.stellar.options import MAX_ASTEROIDS
from spacetable.lasers.geometry import Pose, beyond_reach, card_reach
from spacetable.lasers.ships import CARD_SIZE_MM

WAIT, DISCARD = 0, 1
#: Rocks or cubes an asteroid or a card is observed against (a share of this many).
ROCKS_SCALE = 32.0


@dataclass(frozen=True, slots=True)
class Grid:
    """The poses a card may be put at: the centres of ``columns`` x ``rows`` cells of the
    table, each at ``turns`` headings evenly spread from 0 degrees."""

    columns: int = 12
    rows: int = 8
    turns: int = 8

    def __post_init__(self) -> None:
        if min(self.columns, self.rows, self.turns) < 1:
            raise ValueError(f"a grid needs at least one column, row and heading: {self}")

    def poses(self, table_mm: tuple[float, float]) -> tuple[tuple[float, float, float], ...]:
        """Every pose ``(x, y, rotation_deg)`` on a table of ``table_mm``, cell by cell
        (row by row from the bottom left), heading by heading."""
        width, height = table_mm
        return tuple(
            (
                -width / 2 + (column + 0.5) * width / self.columns,
                -height / 2 + (row + 0.5) * height / self.rows,
                360.0 * turn / self.turns,
            )
            for row in range(self.rows)
            for column in range(self.columns)
            for turn in range(self.turns)
        )


def choosable(race: str) -> tuple[str, ...]:
    """The ships of ``race`` a fleet may pick (its Cargo and Flag ships join by
    themselves), in the catalog's order."""
    return tuple(k for k, s in race_ships(race).items() if s.role not in ("cargo", "flag"))


class _LaserEnv(MatchParallelEnv):
    """A laser game's match, its placing round on a :class:`Grid`."""

    #: Whether the players choose fleets first (Stellar Conflict).
    fleets: ClassVar[bool] = False
    #: Asteroid slots in an observation.
    asteroid_slots: ClassVar[int] = 2

    def __init__(
        self,
        seats: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        grid: Grid | None = None,
        round_seconds: float = 2.0,
        render_mode: str | None = None,
        max_cycles: int = MAX_CYCLES,
    ) -> None:
        self.grid = grid or Grid()
        self.round_seconds = float(round_seconds)
        super().__init__(seats, options, render_mode=render_mode, max_cycles=max_cycles)
        self.poses = self.grid.poses(self.match.options.table_size_mm)

    # -- layout -------------------------------------------------------------------------------

    def pool(self, player: str) -> tuple[str, ...]:
        """The ships ``player`` may play, in their observation slots' order."""
        return tuple(fleet())

    def pool_slots(self) -> int:
        """Card slots a seat has in an observation."""
        return len(fleet())

    def pick_count(self) -> int:
        """``pick`` actions (0 without fleets)."""
        return 0

    @property
    def _first_pose(self) -> int:
        return 2 + (1 + self.pick_count() if self.fleets else 0)

    def action_count(self) -> int:
        """Wait, discard, the fleet's actions and one a pose."""
        grid = self.grid
        return self._first_pose + grid.columns * grid.rows * grid.turns

    def observation_size(self) -> int:
        """Phase, countdown, per seat 4 numbers and its card slots, the asteroids, a 1."""
        seats = len(self.possible_agents)
        return 4 + seats * (4 + 8 * self.pool_slots()) + 4 * self.asteroid_slots + 1

    # -- the episode --------------------------------------------------------------------------

    def began(self) -> None:
        """No fleet picked yet; the free poses are worked out again."""
        self._picks: dict[str, list[str]] = {a: [] for a in self.possible_agents}
        self._free: tuple[int, np.ndarray] | None = None

    @property
    def clock(self) -> float:
        """The server's time of this round (s)."""
        return self.rounds * self.round_seconds

    def free_poses(self) -> np.ndarray:
        """1 for each grid pose a card in hand may lie at now (the rules' check), else 0.

        The table only grows during the round, so a pose once refused stays refused: only
        the poses still free that a card put down since could touch (their circumscribed
        circles meet) are checked again."""
        match: LaserMatch[Any, Any] = self.match
        cards = match.table_cards()
        holder = next((p for p in match.players if match.hand(p) is not None), None)
        if holder is None:
            return np.zeros(len(self.poses), np.int8)
        if self._free is None:
            candidates: Iterable[int] = range(len(self.poses))
            free = np.zeros(len(self.poses), np.int8)
        else:
            counted, free = self._free
            if counted == len(cards):
                return free
            reach = card_reach(*CARD_SIZE_MM)
            candidates = {
                int(index)
                for card in cards[counted:]
                for index in np.flatnonzero(free)
                if not beyond_reach(Pose(*self.poses[index]), reach, _pose(card), reach)
            }
            free = free.copy()
        for index in candidates:
            x, y, turn = self.poses[index]
            free[index] = match.check_placement(holder, x, y, turn) is None
        self._free = (len(cards), free)
        return free

    def mask(self, agent: str) -> np.ndarray:
        """What ``agent`` may do now (1: allowed)."""
        match: LaserMatch[Any, Any] = self.match
        allowed = np.zeros(self.action_count(), np.int8)
        if match.phase == Phase.PREPARATION:
            self._fleet_mask(agent, allowed)
        elif match.hand(agent) is not None and match.phase != Phase.OVER:
            allowed[self._first_pose :] = self.free_poses()
            allowed[DISCARD] = match.is_legal(Discard(agent, max(self.clock, match.clock)))
            allowed[WAIT] = match.phase != Phase.STOP  # after the freeze: drop or discard
        if not allowed.any():
            allowed[WAIT] = 1
        return allowed

    def _fleet_mask(self, agent: str, allowed: np.ndarray) -> None:
        """Stellar Conflict's fleet: each ship still affordable, and done."""
        allowed[WAIT] = 1

    def play_round(self, actions: Mapping[str, int]) -> dict[str, str]:
        """Apply the round's placements (or picks) in turn, then the freeze's timers."""
        match: LaserMatch[Any, Any] = self.match
        t = self.clock
        refused: dict[str, str] = {}
        stop_round = match.phase == Phase.STOP
        agents = list(self.possible_agents)
        first = self.rounds % len(agents)
        for agent in agents[first:] + agents[:first]:
            chosen = actions.get(agent, WAIT)
            try:
                action = self.action_of(agent, chosen, t)
                if action is not None:
                    match.apply(action)
            except IllegalAction as exc:
                refused[agent] = str(exc)
        if stop_round and match.phase == Phase.STOP:
            match.apply(Timeout(t))  # the round after the freeze was its countdown
        deadline = match.deadline
        if (
            match.phase == Phase.DEPLOYMENT
            and deadline is not None
            and deadline <= t + self.round_seconds
        ):
            match.apply(TimerExpired(max(deadline, match.clock)))
        return refused

    def action_of(self, agent: str, chosen: int, t: float) -> Action | None:
        """The match's action for ``agent``'s action ``chosen`` at ``t`` (``None``:
        nothing for the match). Raises :class:`IllegalAction` for one out of range."""
        if not 0 <= chosen < self.action_count():
            raise IllegalAction(f"no action {chosen} (0 to {self.action_count() - 1})")
        if chosen == WAIT:
            return None
        if chosen == DISCARD:
            return Discard(agent, t)
        if chosen < self._first_pose:
            return self.fleet_action(agent, chosen, t)
        x, y, turn = self.poses[chosen - self._first_pose]
        if self.match.phase == Phase.STOP:
            return Drop(agent, x, y, turn, t)
        return Place(agent, x, y, turn, t)

    def fleet_action(self, agent: str, chosen: int, t: float) -> Action | None:
        """Stellar Conflict's ``done`` and ``pick`` (none in Light Speed)."""
        raise IllegalAction("this game has no fleet to choose")

    # -- what an agent sees -------------------------------------------------------------------

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation (from its view of the match) and action mask."""
        view = self.match.view(agent)
        phase = view["phase"]
        deadline = view.get("deadline")
        countdown = view.get("countdown_seconds") or 0.0
        left = 0.0 if deadline is None else fraction(deadline - self.clock, countdown)
        features = [
            float(phase == Phase.PREPARATION),
            float(phase in (Phase.FAST, Phase.DEPLOYMENT)),
            float(phase == Phase.STOP),
            left,
        ]
        cards = {card["id"]: card for card in view["table"]}
        own = set(view.get("fleet") or self._picks.get(agent, ()))
        for seat in seat_order(self.possible_agents, agent):
            status = view["players"][seat]
            pool = self.pool(seat)
            features += [
                fraction(status["cards_left"] or 0, len(pool)),
                float(status["holding"] is not None),
                float(status["decided"]),
                float(status.get("fleet_chosen", True)),
            ]
            for ship in pool:
                features += _card_slot(
                    cards.get(f"{seat}-{ship}"),
                    view["table_size_mm"],
                    in_hand=status["holding"] == ship,
                    discarded=status["discarded"] == ship,
                    picked=seat == agent and ship in own,
                )
            features += [0.0] * 8 * (self.pool_slots() - len(pool))
        asteroids = [card for card in view["table"] if card.get("type") == "asteroid"]
        for slot in range(self.asteroid_slots):
            if slot < len(asteroids):
                rock = asteroids[slot]
                x, y = _place(rock, view["table_size_mm"])
                features += [1.0, x, y, fraction(rock.get("rocks", 0), ROCKS_SCALE)]
            else:
                features += [0.0] * 4
        features.append(1.0)
        return observed(features, self.mask(agent))

    # -- the end ------------------------------------------------------------------------------

    def ranks(self, match: Any) -> dict[str, tuple[float, ...]]:
        """The battle's winner first, then by score."""
        outcome = match.result()
        return {p: (float(outcome.winner == p), float(outcome.scores[p])) for p in match.players}

    def svg(self) -> str:
        """The table as it stands (and the battle once resolved): the game's drawing."""
        return self.game.svg(self.match.to_table(), self.match.result())


def _pose(card: Mapping[str, Any]) -> Pose:
    """A card's pose on the table."""
    return Pose(card["x"], card["y"], card["rotation"])


def _place(card: Mapping[str, Any], table_mm: list[float]) -> tuple[float, float]:
    """A card's centre as a share of half the table, each way."""
    return fraction(card["x"], table_mm[0] / 2), fraction(card["y"], table_mm[1] / 2)


def _card_slot(
    card: Mapping[str, Any] | None,
    table_mm: list[float],
    *,
    in_hand: bool,
    discarded: bool,
    picked: bool,
) -> list[float]:
    """The 8 numbers of one card: on the table, x, y, heading's sine and cosine, in hand,
    discarded, picked for the agent's fleet."""
    if card is None:
        return [0.0, 0.0, 0.0, 0.0, 0.0, float(in_hand), float(discarded), float(picked)]
    x, y = _place(card, table_mm)
    turn = math.radians(card["rotation"])
    return [1.0, x, y, math.sin(turn), math.cos(turn), 0.0, float(discarded), float(picked)]


class LightSpeedEnv(_LaserEnv):
    """Light Speed's fast round and battle as a PettingZoo ``ParallelEnv`` (2 to 4 seats;
    options as :class:`~spacetable.games.lightspeed.match.LightSpeedOptions` reads them)."""

    key: ClassVar[str] = "lightspeed"
    metadata: ClassVar[dict[str, Any]] = {**_LaserEnv.metadata, "name": "spacetable_lightspeed_v0"}


@functools.cache
def _largest_race() -> int:
    return max(len(race_ships(race)) for race in RACES)


@functools.cache
def _most_picks() -> int:
    return max(len(choosable(race)) for race in RACES)


class StellarEnv(_LaserEnv):
    """Stellar Conflict's fleets, deployment and battle as a PettingZoo ``ParallelEnv``
    (2 to 4 seats; options as :class:`~spacetable.games.stellar.options.StellarOptions`
    reads them)."""

    key: ClassVar[str] = "stellar"
    metadata: ClassVar[dict[str, Any]] = {**_LaserEnv.metadata, "name": "spacetable_stellar_v0"}
    fleets: ClassVar[bool] = True
    asteroid_slots: ClassVar[int] = MAX_ASTEROIDS

    def pool(self, player: str) -> tuple[str, ...]:
        """Every ship of ``player``'s race."""
        return tuple(race_ships(self.match.options.race(player)))

    def pool_slots(self) -> int:
        """The largest race's ships."""
        return _largest_race()

    def pick_count(self) -> int:
        """The most ships a race may pick from."""
        return _most_picks()

    def _fleet_mask(self, agent: str, allowed: np.ndarray) -> None:
        allowed[WAIT] = 1
        if self.match.fleet(agent) is not None:
            return
        allowed[2] = 1
        options = self.match.options
        race, picks = options.race(agent), self._picks[agent]
        for index, ship in enumerate(choosable(race)):
            if ship not in picks and check_fleet(race, (*picks, ship), options.battle_size) is None:
                allowed[3 + index] = 1

    def fleet_action(self, agent: str, chosen: int, t: float) -> Action | None:
        """``done`` sends the fleet picked so far; ``pick k`` adds a ship to it."""
        picks = self._picks[agent]
        if chosen == 2:
            return Fleet(agent, tuple(picks), t)
        if self.match.phase != Phase.PREPARATION or self.match.fleet(agent) is not None:
            raise IllegalAction("the fleets are chosen before the deployment, once")
        options = self.match.options
        race = options.race(agent)
        ships = choosable(race)
        if chosen - 3 >= len(ships):
            raise IllegalAction(f"the {race} have {len(ships)} ships to pick from")
        ship = ships[chosen - 3]
        problem = check_fleet(race, (*picks, ship), options.battle_size)
        if problem is not None:
            raise IllegalAction(problem)
        picks.append(ship)
        return None
