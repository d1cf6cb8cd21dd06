"""The fast battle path: the whole resolution compiled with numba, for bots and the lab.

:func:`pack` turns a table (cards and rules) into numpy arrays once; one compiled function
then plays every speed step (``spacetable.lasers._kernels``). It repeats the
arithmetic of :mod:`spacetable.lasers.geometry` in the same order and the rules of
:mod:`spacetable.lasers.battle` in the same order, so :func:`resolve_fast` returns exactly
what :func:`spacetable.lasers.battle.resolve` returns: scores, winner, kill piles, every
card's state and the same event log, floats included (``tests/lasers/test_fast.py`` holds it to
that on random tables).

:func:`resolve_batch` scores many candidate placements of one more card on a base table at
once, in chunks on several threads (the compiled code runs without the interpreter's lock),
without event logs: what a bot needs to choose where to drop its next card. The base
table's ray casts are done once; each candidate only casts its own lasers and checks the
base lasers against itself. Candidates that touch or overlap a base card are not played:
their row of scores is NaN.

Compiled code is cached on disk (``cache=True``, in ``__pycache__``): in a fresh checkout the
first batch compiles for about 25-30 CPU-s (the battle's kernels, which :func:`resolve_fast`
shares, included); later processes load the cache in about a second.
"""

from __future__ import annotations

import itertools
import math
import os
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from spacetable.lasers import events as ev
from spacetable.lasers._kernels import layout as k
from spacetable.lasers._kernels.batch import batch_chunk
from spacetable.lasers._kernels.battle import resolve_table
from spacetable.lasers._kernels.rays import all_hits
from spacetable.lasers.battle import DELAY_SPEED, Card, Outcome, Rules, ShipResult
from spacetable.lasers.geometry import EDGES, Pose, _cos_sin
from spacetable.lasers.ships import CARD_SIZE_MM, LASER_KINDS, ShipDef
from spacetable.lasers.tables import CARGO_CUBES

__all__ = [
    "BatchResult",
    "Candidate",
    "PackedTable",
    "batch_threads",
    "candidate_card",
    "pack",
    "resolve_batch",
    "resolve_batch_full",
    "resolve_fast",
    "resolve_packed",
    "stop_batch_threads",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

_RESULTS = ("space", "blocked", "damage", "ion", "mine")
_VAPORIZE_REASONS = ("pulse", "own-cargo", "destroyed")
_LEFT_REASONS = ("depleted", "emptied")
_SHIELD_TOL = 1e-9  # Shield.covers' default tolerance, applied once when packing


def _radius(half_width: float, half_length: float) -> float:
    """A card's bounding-circle radius with a safety margin far above rounding and EPSILON."""
    return math.sqrt(half_width * half_width + half_length * half_length) * (1 + 1e-9) + 1e-6


class Candidate(NamedTuple):
    """One more card for :func:`resolve_batch`: its owner (index into the players), its ship
    (index into :attr:`PackedTable.ship_defs`), pose, and rocks (-1: the default, cargo cubes
    for a Stellar Conflict cargo ship and 0 otherwise)."""

    owner: int
    ship: int
    x: float
    y: float
    rotation_deg: float = 0.0
    rocks: int = -1


@dataclass(eq=False)
class PackedTable:
    """A table packed into numpy arrays for the compiled kernels (see :func:`pack`).

    ``ship_defs`` are the definitions batch candidates may use (``Candidate.ship`` indexes
    them); candidates are cards of ``candidate_size``. Array layouts are the column
    constants of ``spacetable.lasers._kernels.layout``.
    """

    cards: tuple[Card, ...]
    rules: Rules
    ship_defs: tuple[ShipDef, ...]
    candidate_size: tuple[float, float]
    cf: FloatArray
    ci: IntArray
    ents: IntArray
    lf: FloatArray
    li: IntArray
    si: IntArray
    sf: FloatArray
    corners: FloatArray
    rule_ints: IntArray
    dci: IntArray
    dspeeds: IntArray
    dlf: FloatArray
    dli: IntArray
    dsi: IntArray
    dsf: FloatArray
    cand_size: FloatArray
    event_capacity: int
    _hits: k.Hits | None = field(default=None, repr=False)

    def ship_index(self, key: str) -> int:
        """Index in :attr:`ship_defs` of the definition with this key."""
        for index, ship in enumerate(self.ship_defs):
            if ship.key == key:
                return index
        raise KeyError(f"no ship definition {key!r} in this packed table")

    @property
    def geometry(self) -> k.Geometry:
        """The arrays the kernels cast rays on: (cf, ci, lf, li, si, sf)."""
        return (self.cf, self.ci, self.lf, self.li, self.si, self.sf)

    @property
    def defs(self) -> k.Defs:
        """The candidate ship definitions: (dci, dspeeds, dlf, dli, dsi, dsf)."""
        return (self.dci, self.dspeeds, self.dlf, self.dli, self.dsi, self.dsf)

    def hits(self) -> k.Hits:
        """Every base laser's hit list, nearest first (computed once, for batches)."""
        if self._hits is None:
            self._hits = all_hits(self.geometry)
        return self._hits


def pack(
    cards: Sequence[Card],
    rules: Rules,
    ships: Sequence[ShipDef] | Mapping[str, ShipDef] | None = None,
    candidate_size: tuple[float, float] = CARD_SIZE_MM,
) -> PackedTable:
    """Pack a table for the compiled kernels.

    ``ships`` lists the definitions batch candidates may use (a catalog mapping works too);
    the definitions of the table's own ships are appended after them, so candidate ship
    indices of the given ones are their positions. Raises ``ValueError`` for duplicate card
    ids, an owner who is not one of ``rules.players`` or a negative speed. Origins,
    directions and rotations are computed here with the reference's own functions, so the
    floats match.
    """
    cards = tuple(cards)
    players = rules.players
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise ValueError("card ids must be distinct")
    n = len(cards)
    cf = np.zeros((k.NCF, n), np.float64)
    ci = np.zeros((n, k.NCI), np.int64)
    corners = np.zeros((n, 8), np.float64)
    ents: list[tuple[int, int]] = []
    lf: list[tuple[float, float, float, float]] = []
    li: list[tuple[int, int, int]] = []
    si: list[int] = []
    sf: list[tuple[float, float]] = []
    firings = laser_firings = 0
    for i, card in enumerate(cards):
        rect = card.rect
        c, s = _cos_sin(card.pose.rotation_deg)
        hw, hl = rect.half_width, rect.half_length
        cf[:, i] = (card.pose.x, card.pose.y, c, s, hw, hl, _radius(hw, hl))
        corners[i] = [v for corner in rect.corners() for v in corner]
        ci[i, k.ROCKS] = card.rocks
        ci[i, k.OWNER] = -1
        if card.ship is None:
            continue
        if card.owner not in players:
            raise ValueError(f"card {card.id!r}: owner {card.owner!r} is not a player")
        ship = card.ship.scaled(card.size)
        if min(ship.speeds) < 0:  # the reference never fires them; ship files forbid them
            raise ValueError(f"card {card.id!r}: negative speeds are not supported")
        ci[i, k.IS_SHIP] = 1
        ci[i, k.OWNER] = players.index(card.owner)
        ci[i, k.HEALTH] = ship.health
        ci[i, k.VP] = ship.vp
        ci[i, k.CARGO] = int(ship.role == "cargo")
        ci[i, k.LZ0 : k.LZN + 1] = (len(lf), len(ship.lasers))
        ci[i, k.SH0 : k.SHN + 1] = (len(si), len(ship.shields))
        ents.extend((speed, i) for speed in ship.speeds)
        for laser in ship.lasers:
            lf.append((*card.pose.to_world(*laser.at), *card.pose.direction(laser.angle_deg)))
            li.append((i, laser.power, LASER_KINDS.index(laser.kind)))
        for shield in ship.shields:
            si.append(EDGES.index(shield.edge))
            sf.append((shield.start - _SHIELD_TOL, shield.end + _SHIELD_TOL))
        firings += len(ship.speeds)
        laser_firings += len(ship.speeds) * len(ship.lasers)
    defs = _ship_defs(cards, ships)
    dci, dspeeds, dlf, dli, dsi, dsf = _pack_defs(defs, rules, candidate_size)
    half = (candidate_size[0] / 2.0, candidate_size[1] / 2.0)
    return PackedTable(
        cards=cards,
        rules=rules,
        ship_defs=defs,
        candidate_size=candidate_size,
        cf=cf,
        ci=ci,
        ents=np.array([(i, speed) for speed, i in sorted(ents)], np.int64).reshape(-1, 2),
        lf=np.array(lf, np.float64).reshape(-1, 4),
        li=np.array(li, np.int64).reshape(-1, 3),
        si=np.array(si, np.int64),
        sf=np.array(sf, np.float64).reshape(-1, 2),
        corners=corners,
        rule_ints=np.array(
            [len(players), rules.ruleset == "stellar", rules.piracy, rules.stolen_goods], np.int64
        ),
        dci=dci,
        dspeeds=dspeeds,
        dlf=dlf,
        dli=dli,
        dsi=dsi,
        dsf=dsf,
        cand_size=np.array([*candidate_size, _radius(*half)], np.float64),
        event_capacity=firings + 4 * laser_firings + 3 * n + 8,
    )


def _ship_defs(
    cards: Sequence[Card], ships: Sequence[ShipDef] | Mapping[str, ShipDef] | None
) -> tuple[ShipDef, ...]:
    given = list(ships.values()) if isinstance(ships, Mapping) else list(ships or ())
    for card in cards:
        if card.ship is not None and card.ship not in given:
            given.append(card.ship)
    return tuple(given)


def _pack_defs(
    defs: Sequence[ShipDef], rules: Rules, size: tuple[float, float]
) -> tuple[IntArray, IntArray, FloatArray, IntArray, IntArray, FloatArray]:
    dci = np.zeros((len(defs), k.NDCI), np.int64)
    speeds: list[int] = []
    dlf: list[tuple[float, float, float]] = []
    dli: list[tuple[int, int]] = []
    dsi: list[int] = []
    dsf: list[tuple[float, float]] = []
    for d, definition in enumerate(defs):
        ship = definition.scaled(size)
        cargo = ship.role == "cargo"
        rocks = CARGO_CUBES[len(rules.players)] if cargo and rules.ruleset == "stellar" else 0
        dci[d] = (
            ship.health,
            ship.vp,
            int(cargo),
            rocks,
            len(speeds),
            len(ship.speeds),
            len(dlf),
            len(ship.lasers),
            len(dsi),
            len(ship.shields),
        )
        speeds.extend(sorted(ship.speeds))  # sorted: merged into the (speed, card) schedule
        for laser in ship.lasers:
            dlf.append((laser.at[0], laser.at[1], laser.angle_deg))
            dli.append((laser.power, LASER_KINDS.index(laser.kind)))
        for shield in ship.shields:
            dsi.append(EDGES.index(shield.edge))
            dsf.append((shield.start - _SHIELD_TOL, shield.end + _SHIELD_TOL))
    return (
        dci,
        np.array(speeds, np.int64),
        np.array(dlf, np.float64).reshape(-1, 3),
        np.array(dli, np.int64).reshape(-1, 2),
        np.array(dsi, np.int64),
        np.array(dsf, np.float64).reshape(-1, 2),
    )


def resolve_fast(cards: Sequence[Card], rules: Rules) -> Outcome:
    """Play the battle with the compiled kernel; the same :class:`Outcome` (event log
    included) as :func:`spacetable.lasers.battle.resolve`."""
    return resolve_packed(pack(cards, rules))


def resolve_packed(table: PackedTable) -> Outcome:
    """Play the battle on a packed table and decode the result and event log."""
    out = resolve_table(table.geometry, table.ents, table.rule_ints, table.event_capacity, True)
    winner, (w, dmg, _, _, _, scores), (ev_i, ev_f, step_ships), ne, nss = out
    players = table.rules.players
    cards = table.cards
    ids = [c.id for c in cards]
    ci = table.ci.tolist()
    li = table.li.tolist()
    origins = table.lf[:, :2].tolist()
    ships_fired = step_ships[:nss].tolist()
    events: list[ev.Event] = []
    kill_piles: dict[str, list[str]] = {p: [] for p in players}
    damage_order: dict[int, list[int]] = {}
    for row, (px, py) in zip(ev_i[:ne].tolist(), ev_f[:ne].tolist(), strict=True):
        kind = row[0]
        if kind == k.EV_STEP:
            start, count = row[2], row[3]
            events.append(ev.StepBegan(row[1], tuple(ids[j] for j in ships_fired[start:][:count])))
        elif kind == k.EV_LASER:
            speed, ship, index, laser, target, edge, result, damage = row[1:9]
            _, power, laser_kind = li[laser]
            hit = target >= 0
            events.append(
                ev.LaserFired(
                    speed,
                    ids[ship],
                    index,
                    power,
                    LASER_KINDS[laser_kind],
                    (origins[laser][0], origins[laser][1]),
                    (px, py) if hit else None,
                    ids[target] if hit else None,
                    EDGES[edge] if hit else None,
                    _RESULTS[result],
                    damage,
                )
            )
            if damage:
                order = damage_order.setdefault(target, [])
                if ci[ship][k.OWNER] not in order:
                    order.append(ci[ship][k.OWNER])
        elif kind == k.EV_DELAY:
            definition = cards[row[1]].ship
            assert definition is not None
            tokens = row[2]
            delayed = tuple(s + DELAY_SPEED * tokens for s in definition.speeds)
            events.append(ev.Delayed(ids[row[1]], tokens, delayed))
        elif kind == k.EV_TAKE:
            events.append(ev.RocksTaken(ids[row[1]], ids[row[2]], row[3]))
        elif kind == k.EV_VAPOR:
            events.append(ev.RocksVaporized(ids[row[1]], row[2], _VAPORIZE_REASONS[row[3]]))
        elif kind == k.EV_DESTROYED:
            pile = players[row[2]] if row[2] >= 0 else None
            if pile is not None:
                kill_piles[pile].append(ids[row[1]])
            events.append(ev.Destroyed(ids[row[1]], pile))
        elif kind == k.EV_GOODS:
            events.append(ev.GoodsTransferred(ids[row[1]], ids[row[2]], row[3]))
        else:
            events.append(ev.CardLeft(ids[row[1]], _LEFT_REASONS[row[2]]))
    state = w.tolist()
    damage_rows = dmg.tolist()
    ships = {
        card.id: ShipResult(
            bool(state[i][k.W_ON]),
            state[i][k.W_ROCKS],
            {players[p]: damage_rows[i][p] for p in damage_order.get(i, [])},
            state[i][k.W_DELAY],
        )
        for i, card in enumerate(cards)
        if card.ship is not None
    }
    asteroids = {card.id: state[i][k.W_ROCKS] for i, card in enumerate(cards) if card.ship is None}
    return Outcome(
        dict(zip(players, scores.tolist(), strict=True)),
        players[winner] if winner >= 0 else None,
        kill_piles,
        ships,
        asteroids,
        events,
    )


@dataclass(frozen=True, slots=True)
class BatchResult:
    """Scores of a batch: ``scores[i, p]`` for candidate ``i`` and player ``p`` (seat
    order), ``winners[i]`` a player index, -1 on a draw, -2 for a candidate that touches a
    base card (then ``valid[i]`` is False and its scores are 0)."""

    scores: IntArray
    winners: IntArray
    valid: NDArray[np.bool_]


def _candidates(table: PackedTable, candidates: ArrayLike) -> FloatArray:
    """Candidate rows as a (n, 6) float array, checked."""
    raw = np.asarray(candidates, dtype=np.float64)
    if raw.size == 0:
        return np.zeros((0, 6), np.float64)
    if raw.ndim != 2 or raw.shape[1] not in (5, 6):
        raise ValueError("candidates must be rows of (owner, ship, x, y, rotation[, rocks])")
    if raw.shape[1] == 5:
        raw = np.hstack([raw, np.full((raw.shape[0], 1), -1.0)])
    if not np.isfinite(raw).all():
        raise ValueError("candidates must hold finite numbers")
    for column, low, high, name in (
        (0, 0, len(table.rules.players) - 1, "owner indices"),
        (1, 0, len(table.ship_defs) - 1, "ship indices"),
        (5, -1, 2**62, "rocks"),
    ):
        values = raw[:, column]
        if (values != np.floor(values)).any() or (values < low).any() or (values > high).any():
            raise ValueError(f"candidate {name} must be whole numbers from {low} to {high}")
    return np.ascontiguousarray(raw)


class _Threads:
    """The threads that score a batch's chunks at once: as many as numba would use
    (``NUMBA_NUM_THREADS``, the machine's cores unless set), started at the first batch.
    A process forked from one that used them starts its own (threads do not survive a
    fork)."""

    def __init__(self) -> None:
        self.count = max(1, int(numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()  # (bots of several rooms may start it at once)

    def pool(self) -> ThreadPoolExecutor:
        """The running pool, started if need be."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.count, thread_name_prefix="batch")
            return self._pool

    def forget(self) -> None:
        """In a forked child: the parent's threads (and whoever held the lock) are not
        there."""
        self._pool = None
        self._lock = threading.Lock()

    def stop(self) -> None:
        """Stop the threads (started again by the next batch)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()


_THREADS = _Threads()
os.register_at_fork(after_in_child=_THREADS.forget)


def batch_threads() -> int:
    """How many threads score a batch's chunks at once."""
    return _THREADS.count


def stop_batch_threads() -> None:
    """Stop the batch threads until the next batch: for a process about to fork children,
    which should not fork with threads running."""
    _THREADS.stop()


def resolve_batch_full(
    base: PackedTable | tuple[Sequence[Card], Rules],
    candidates: ArrayLike,
    *,
    check_touch: bool = True,
) -> BatchResult:
    """Score ``base`` plus each candidate card (rows of :class:`Candidate` fields), one
    battle per candidate, in chunks on :data:`_THREADS` at once (no event logs).

    The candidate joins the table as its last card, like ``resolve(cards + [card], rules)``.
    With ``check_touch`` a candidate that touches or overlaps a base card
    (``geometry.rects_touch``) is not played: it is flagged invalid. Whether it lies on the
    table's surface is not checked.
    """
    table = base if isinstance(base, PackedTable) else pack(*base)
    rows = _candidates(table, candidates)
    n_players = len(table.rules.players)
    scores = np.zeros((rows.shape[0], n_players), np.int64)
    winners = np.full(rows.shape[0], -1, np.int64)
    if rows.shape[0]:
        hits = table.hits()

        def score(start: int, end: int) -> None:
            batch_chunk(
                table.geometry, table.ents, table.corners, hits, table.defs, table.cand_size,
                rows[start:end], table.rule_ints, check_touch, scores[start:end],
                winners[start:end],
            )  # fmt: skip

        n_chunks = min(rows.shape[0], 4 * _THREADS.count)
        if n_chunks <= 1 or _THREADS.count <= 1:
            score(0, rows.shape[0])
        else:
            # Chunks go to whichever thread is free (a busy core does not hold up the batch);
            # each writes its own rows of the results.
            edges = [i * rows.shape[0] // n_chunks for i in range(n_chunks + 1)]
            pool = _THREADS.pool()
            done = [pool.submit(score, a, b) for a, b in itertools.pairwise(edges)]
            for future in done:
                future.result()
    return BatchResult(scores, winners, winners != -2)


def resolve_batch(
    base: PackedTable | tuple[Sequence[Card], Rules],
    candidates: ArrayLike,
    *,
    check_touch: bool = True,
) -> FloatArray:
    """Scores (candidates x players, seat order) of ``base`` plus each candidate card, as
    floats; the row of a candidate that touches a base card is NaN. See
    :func:`resolve_batch_full` for winners and the validity mask."""
    result = resolve_batch_full(base, candidates, check_touch=check_touch)
    scores = result.scores.astype(np.float64)
    scores[~result.valid] = np.nan
    return scores


def candidate_card(table: PackedTable, candidate: Candidate, card_id: str = "candidate") -> Card:
    """The :class:`Card` a batch candidate stands for (to replay it with the reference)."""
    ship = table.ship_defs[candidate.ship]
    rocks = candidate.rocks
    if rocks < 0:
        rocks = int(table.dci[candidate.ship, k.D_ROCKS])
    return Card(
        card_id,
        Pose(candidate.x, candidate.y, candidate.rotation_deg),
        ship,
        table.rules.players[candidate.owner],
        rocks,
        table.candidate_size,
    )
