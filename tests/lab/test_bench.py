"""The benchmark: ``run_bench`` reports every rate, and pytest-benchmark timings of the fast
path (run once as plain tests under the default ``--benchmark-disable``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from spacetable.lab.bench import random_table, run_bench, table_side
from spacetable.lasers.fast import Candidate, pack, resolve_batch, resolve_packed
from spacetable.lasers.geometry import rect_inside, rects_touch


def test_random_table_is_seeded_and_legal() -> None:
    cards, rules = random_table(3)
    again, _ = random_table(3)
    assert cards == again
    assert len(rules.players) == 4
    assert sum(c.ship is not None for c in cards) == 40
    assert [c.rocks for c in cards if c.ship is None] == [12]
    side = table_side(len(cards))
    for i, card in enumerate(cards):
        assert rect_inside(card.rect, side, side)
        assert not any(rects_touch(card.rect, other.rect) for other in cards[i + 1 :])
    small, small_rules = random_table(1, players=2, ships_per_player=3)
    assert len(small) == 7 and small_rules.players == ("red", "blue")


def test_run_bench_reports_positive_rates() -> None:
    result = run_bench(seed=1, seconds=0.02, candidates=300)
    for key in (
        "reference_tables_per_s",
        "fast_tables_per_s",
        "fast_api_tables_per_s",
        "batch_tables_per_s",
        "fast_vs_reference",
        "batch_vs_reference",
        "warmup_s",
    ):
        assert isinstance(result[key], float) and result[key] > 0, key
    assert result["numba_threads"] >= 1
    assert result["cards"] == 41 and result["lasers"] > 60
    assert "4 players" in result["table"]


def test_benchmark_fast_resolve(benchmark: Any) -> None:
    table = pack(*random_table(0))
    outcome = benchmark(resolve_packed, table)
    assert sum(outcome.scores.values()) != 0 or outcome.winner is None


def test_benchmark_batch(benchmark: Any) -> None:
    cards, rules = random_table(0)
    table = pack(cards, rules)
    rng = np.random.default_rng(0)
    side = table_side(len(cards))
    rows = [
        Candidate(0, int(rng.integers(len(table.ship_defs))), *rng.uniform(-side / 2, side / 2, 2))
        for _ in range(1000)
    ]
    scores = benchmark(resolve_batch, table, rows)
    assert scores.shape == (1000, 4)
    assert np.isfinite(scores).any()
