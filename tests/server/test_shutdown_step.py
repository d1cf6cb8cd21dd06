"""A step of the server's shutdown that takes long is named in the log while it is
awaited (server/stopping.py): a stop that hangs says where."""

from __future__ import annotations

import asyncio
import logging

import pytest

from spacetable.server.stopping import shutdown_step


def test_a_step_that_is_not_done_in_time_is_named_and_still_awaited(
    caplog: pytest.LogCaptureFixture,
) -> None:
    done: list[str] = []

    async def stop() -> None:
        loop = asyncio.get_running_loop()
        slow: asyncio.Future[None] = loop.create_future()

        async def the_rooms() -> None:
            await slow
            done.append("the rooms")

        # Not done after 0 s: said; then finished from outside, and awaited to its end.
        loop.call_soon(slow.set_result, None)
        await shutdown_step("the rooms", the_rooms(), after=0)
        await shutdown_step("the sweeper", asyncio.sleep(0), after=60)

    with caplog.at_level(logging.WARNING, logger="spacetable.server.stopping"):
        asyncio.run(stop())
    assert done == ["the rooms"]
    assert [r.getMessage() for r in caplog.records] == [
        "stopping: still waiting for the rooms after 0 s"
    ]


def test_a_step_s_error_still_reaches_the_shutdown() -> None:
    async def broken() -> None:
        raise RuntimeError("the saves failed")

    with pytest.raises(RuntimeError, match="the saves failed"):
        asyncio.run(shutdown_step("the rooms", broken()))
