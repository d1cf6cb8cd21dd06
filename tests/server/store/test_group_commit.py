"""Group commit (issue 35, item 2), alone: the writes that come while a transaction
commits share the next one, a write that fails alone fails only its own room, and a
database that is away fails the whole group (each room tries again, as alone)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from spacetable.server.store.group_commit import GroupCommit, Write


class Refused(Exception):
    """What the fake database raises for a write that fails alone."""


class FakeDatabase:
    """Records each transaction's writes; the first one waits until it is let go, so that
    the test knows what waited meanwhile."""

    def __init__(self) -> None:
        self.transactions: list[list[Write]] = []
        self.first_began = threading.Event()
        self.let_go = threading.Event()
        self.away = False

    def write_all(self, writes: list[Write]) -> None:
        if not self.transactions:
            self.first_began.set()
            self.let_go.wait(10)
        if self.away:
            raise ConnectionError("the database is away")
        if any(write[0] == "stale" for write in writes):
            raise Refused
        self.transactions.append(list(writes))

    def write_one(self, write: Write) -> None:
        self.write_all([write])


def test_writes_that_come_during_a_commit_share_the_next_one() -> None:
    database = FakeDatabase()
    group = GroupCommit(database.write_all, database.write_one, Refused)

    async def rooms() -> list[Any]:
        first = asyncio.ensure_future(group.write(("room", 0)))
        await asyncio.to_thread(database.first_began.wait, 10)
        later = [asyncio.ensure_future(group.write(("room", n))) for n in range(1, 31)]
        await asyncio.sleep(0)  # every later write is waiting now
        database.let_go.set()
        return await asyncio.gather(first, *later)

    assert asyncio.run(rooms()) == [None] * 31
    assert database.transactions == [[("room", 0)], [("room", n) for n in range(1, 31)]]
    assert (group.commits, group.writes) == (2, 31)


def test_a_write_that_fails_alone_fails_only_its_room() -> None:
    database = FakeDatabase()
    group = GroupCommit(database.write_all, database.write_one, Refused)

    async def rooms() -> list[Any]:
        first = asyncio.ensure_future(group.write(("room", 0)))
        await asyncio.to_thread(database.first_began.wait, 10)
        later = [group.write(("room", 1)), group.write(("stale", 2)), group.write(("room", 3))]
        tasks = [asyncio.ensure_future(write) for write in later]
        await asyncio.sleep(0)
        database.let_go.set()
        return await asyncio.gather(first, *tasks, return_exceptions=True)

    first, one, stale, three = asyncio.run(rooms())
    assert (first, one, three) == (None, None, None)
    assert isinstance(stale, Refused)
    assert database.transactions == [[("room", 0)], [("room", 1)], [("room", 3)]]


def test_a_database_away_fails_the_whole_group() -> None:
    database = FakeDatabase()
    database.away = True
    database.let_go.set()
    group = GroupCommit(database.write_all, database.write_one, Refused)

    async def rooms() -> list[Any]:
        writes = [group.write(("room", n)) for n in range(3)]
        return await asyncio.gather(*writes, return_exceptions=True)

    outcomes = asyncio.run(rooms())
    assert all(isinstance(outcome, ConnectionError) for outcome in outcomes)
    database.away = False

    async def again() -> None:
        await group.write(("room", 0))

    asyncio.run(again())
    assert database.transactions == [[("room", 0)]]
    database.away = True
    with pytest.raises(ConnectionError):
        asyncio.run(again())


def test_a_closed_group_ends_its_thread_and_a_later_write_still_goes_in() -> None:
    database = FakeDatabase()
    database.let_go.set()
    group = GroupCommit(database.write_all, database.write_one, Refused)

    async def one(n: int) -> None:
        await group.write(("room", n))

    asyncio.run(one(0))
    thread = group._thread
    assert thread is not None
    group.close()
    thread.join(10)
    assert not thread.is_alive()
    asyncio.run(one(1))
    assert database.transactions == [[("room", 0)], [("room", 1)]]


def test_an_inline_group_commits_on_the_loop_what_its_rooms_gathered_together() -> None:
    committed_on: list[threading.Thread] = []
    transactions: list[list[Write]] = []

    def write_all(writes: list[Write]) -> None:
        committed_on.append(threading.current_thread())
        if any(write[0] == "stale" for write in writes):
            raise Refused
        transactions.append(list(writes))

    group = GroupCommit(write_all, lambda write: write_all([write]), Refused, inline=True)

    loop_threads: list[threading.Thread] = []

    async def rooms() -> list[Any]:
        loop_threads.append(threading.current_thread())
        writes = [group.write(("room", 0)), group.write(("stale", 1)), group.write(("room", 2))]
        return await asyncio.gather(*writes, return_exceptions=True)

    first, stale, third = asyncio.run(rooms())
    assert (first, third) == (None, None) and isinstance(stale, Refused)
    # One try of the three together, refused; then each alone: only the stale one fails.
    assert transactions == [[("room", 0)], [("room", 2)]]
    assert set(committed_on) == set(loop_threads)  # the loop's own thread
    assert group._thread is None  # no writer thread was started
