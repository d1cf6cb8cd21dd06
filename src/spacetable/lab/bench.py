"""Benchmark of the battle resolvers: ``spacetable bench`` calls :func:`run_bench`.

It measures tables per second on one fixed-seed table (by default 4 players x 10 Light
Speed ships, one of each catalog ship, plus a 12-rock asteroid, on a table about four times
the cards' area): the pure-Python reference, the compiled single-table kernel on one core,
and batches of candidate placements on the batch threads (one a core). Compile time is
excluded (each path is warmed up first) and reported apart as ``warmup_s``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from spacetable.lasers._kernels.battle import repeat_resolve
from spacetable.lasers.battle import Card, Rules, resolve
from spacetable.lasers.fast import batch_threads, pack, resolve_batch_full, resolve_packed
from spacetable.lasers.geometry import Pose, rect_inside, rects_touch
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import DEFAULT_ASTEROID_ROCKS, catalog

PLAYER_NAMES = ("red", "blue", "green", "yellow")
#: Share of the table's surface the cards cover in :func:`random_table`.
DENSITY = 0.25


def table_side(n_cards: int, density: float = DENSITY) -> float:
    """Side (mm) of a square table on which ``n_cards`` standard cards cover ``density``."""
    return math.sqrt(n_cards * CARD_SIZE_MM[0] * CARD_SIZE_MM[1] / density)


def random_table(
    seed: int, players: int = 4, ships_per_player: int = 10
) -> tuple[list[Card], Rules]:
    """A random Light Speed table: one 12-rock asteroid, then each player's ships (the
    catalog's ships in speed order, cycling, random ones past the catalog's size) at random
    poses on a square table (:func:`table_side`), no two cards touching. The same seed gives
    the same table."""
    if not 2 <= players <= len(PLAYER_NAMES):
        raise ValueError(f"players must be 2 to {len(PLAYER_NAMES)}, got {players}")
    rng = random.Random(seed)
    fleet = sorted(catalog("lightspeed").values(), key=lambda s: (s.speed, s.key))
    names = PLAYER_NAMES[:players]
    side = table_side(players * ships_per_player + 1)
    cards: list[Card] = []

    def place(cid: str, ship: ShipDef | None, owner: str | None, rocks: int) -> None:
        for _ in range(10_000):
            pose = Pose(
                rng.uniform(-side / 2, side / 2),
                rng.uniform(-side / 2, side / 2),
                rng.uniform(0.0, 360.0),
            )
            card = Card(cid, pose, ship, owner, rocks)
            if rect_inside(card.rect, side, side) and not any(
                rects_touch(card.rect, other.rect) for other in cards
            ):
                cards.append(card)
                return
        raise RuntimeError(f"no room left for card {cid!r}")  # pragma: no cover

    place("asteroid", None, None, DEFAULT_ASTEROID_ROCKS)
    for player in names:
        for index in range(ships_per_player):
            ship = fleet[index] if index < len(fleet) else rng.choice(fleet)
            place(f"{player}-{index}-{ship.key}", ship, player, 0)
    return cards, Rules(names)


def _rate(run: Callable[[int], object], seconds: float, rounds: int = 5) -> float:
    """Calls per second of ``run(n)`` (which makes ``n`` calls): the best of ``rounds``
    rounds of about ``seconds / rounds`` each, like ``timeit`` (other processes on the
    machine only ever slow a round down)."""
    n = 1
    while True:  # calibrate: enough calls per batch to make timer overhead negligible
        start = time.perf_counter()
        run(n)
        took = time.perf_counter() - start
        if took >= seconds / rounds / 4 or took >= 0.05:
            break
        n *= 2
    best = 0.0
    for _ in range(rounds):
        done = 0
        spent = 0.0
        while spent < seconds / rounds or done == 0:
            start = time.perf_counter()
            run(n)
            spent += time.perf_counter() - start
            done += n
        best = max(best, done / spent)
    return best


def run_bench(seed: int = 0, seconds: float = 2.0, candidates: int = 10_000) -> dict[str, Any]:
    """Measure tables per second of the reference, the fast path (one core) and batches
    (the batch threads) on :func:`random_table` ``(seed)``; each path is timed for about
    ``seconds``. Returns a flat JSON-ready dict."""
    cards, rules = random_table(seed)
    fleet = catalog("lightspeed")
    table = pack(cards, rules, ships=fleet)
    n_lasers = int(table.lf.shape[0])
    args = (table.geometry, table.ents)

    start = time.perf_counter()
    resolve_packed(table)
    repeat_resolve(1, *args, table.rule_ints, table.event_capacity)
    rng = np.random.default_rng(seed)
    side = table_side(len(cards))
    rows = np.empty((0, 5))
    while rows.shape[0] < candidates:
        more = np.column_stack(
            [
                np.zeros(candidates),
                rng.integers(0, len(table.ship_defs), candidates),
                rng.uniform(-side / 2, side / 2, (candidates, 2)),
                rng.uniform(0.0, 360.0, candidates),
            ]
        )
        valid = resolve_batch_full(table, more).valid
        rows = np.vstack([rows, more[valid]])
    rows = rows[:candidates]
    resolve_batch_full(table, rows)
    warmup = time.perf_counter() - start

    def reference(n: int) -> None:
        for _ in range(n):
            resolve(cards, rules)

    def fast(n: int) -> None:
        repeat_resolve(n, *args, table.rule_ints, table.event_capacity)

    def fast_api(n: int) -> None:
        for _ in range(n):
            resolve_packed(table)

    def batch(n: int) -> None:
        for _ in range(n):
            resolve_batch_full(table, rows)

    reference_rate = _rate(reference, seconds)
    fast_rate = _rate(fast, seconds)
    api_rate = _rate(fast_api, seconds)
    batch_rate = _rate(batch, seconds) * candidates
    ships = sum(1 for c in cards if c.ship is not None)
    return {
        "table": (
            f"{len(rules.players)} players, {ships} Light Speed ships, 1 asteroid "
            f"({DEFAULT_ASTEROID_ROCKS} rocks), {n_lasers} lasers, {side:.0f} x {side:.0f} mm, "
            f"seed {seed}"
        ),
        "cards": len(cards),
        "lasers": n_lasers,
        "reference_tables_per_s": reference_rate,
        "fast_tables_per_s": fast_rate,
        "fast_api_tables_per_s": api_rate,
        "batch_tables_per_s": batch_rate,
        "batch_candidates": candidates,
        "fast_vs_reference": fast_rate / reference_rate,
        "batch_vs_reference": batch_rate / reference_rate,
        "numba_threads": batch_threads(),
        "warmup_s": warmup,
    }
