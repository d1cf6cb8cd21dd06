"""The load benchmark runs end to end against a real server process (a tiny load: the
numbers themselves are measured with ``spacetable loadtest``, not asserted here)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest

from spacetable._loadclient import CARD_L, CARD_W, decode_pose, encode_pose, seat_spots
from spacetable.loadtest import LoadSettings, percentiles, run_loadtest


def test_pose_numbers_round_trip_through_coordinates() -> None:
    for seq in (0, 1, 999, 1000, 123_456, 699_999):
        x, y = encode_pose(seq)
        assert decode_pose(x, y) == seq


def test_seat_spots_never_touch_each_other() -> None:
    spots = [spot for seat in seat_spots(4) for spot in seat]
    assert len(spots) == len(set(spots))
    assert all(len(seat) >= 10 for seat in seat_spots(4))  # a whole deck each
    for i, (x1, y1) in enumerate(spots):
        for x2, y2 in spots[i + 1 :]:
            assert abs(x1 - x2) > CARD_W or abs(y1 - y2) > CARD_L


def test_percentiles() -> None:
    assert percentiles([]) == {"count": 0, "p50": None, "p90": None, "p99": None, "max": None}
    stats = percentiles([float(v) for v in range(1, 101)])
    assert stats["count"] == 100
    assert stats["p50"] == 51.0
    assert stats["p99"] == 100.0


def test_a_small_load_plays_whole_matches_and_times_poses_and_placements() -> None:
    async def from_a_running_loop() -> dict[str, Any]:
        # As from a notebook, or beside Playwright's loop in a test session.
        return run_loadtest(LoadSettings(rooms=2, seconds=4.0, warmup=1.0, pin=False))

    # A thread of the test's own to run that loop in: the session's main thread may be
    # running Playwright's already.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        report = pool.submit(asyncio.run, from_a_running_loop()).result()
    assert report["clients"] == 8
    assert report["connections_lost"] == 0
    assert report["pose_latency_ms"]["count"] > 100  # 8 clients x 20 Hz x 4 s, seen by 3 others
    assert report["place_latency_ms"]["count"] > 0
    assert report["messages_in_per_s"] > 0 and report["messages_out_per_s"] > 0
    assert report["pose_latency_ms"]["p50"] <= report["pose_latency_ms"]["p99"]
    assert report["ok"] == (
        report["pose_latency_ms"]["p99"] < 50.0 and report["place_latency_ms"]["p99"] < 50.0
    )


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="rooms must be >= 1"):
        run_loadtest(LoadSettings(rooms=0))
