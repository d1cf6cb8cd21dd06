"""A second copy of a room cannot leave it unplayable (issue 36 item 7's soak).

When a process misses its lock renewals for longer than their TTL, another process
rebuilds its rooms while the first still plays them: two copies for a moment. The first
copy to store an action wins and the other is stopped (a second writer of the same
action is refused). But once the winning copy has finished the match, whose actions
leave the live tables with it, the stale copy's next action had no stored action to
collide with: it was stored, with the room's row of the old match, and the room became
a match whose stored actions start past 0, which no process could rebuild ("action 0 is
missing from the log": its players never got it back). The stale copy is refused."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from spacetable.server.store.live_store import LiveRoom, LiveStore, StaleWriter, StoredAction
from spacetable.server.store.storage import Storage
from tests.server.durable._restart import db

__all__ = ["db"]

ROOM = "StAl1234"


def _room(match_number: int, phase: str = "playing") -> LiveRoom:
    return LiveRoom(
        id=ROOM,
        ruleset="ftl",
        seats_count=2,
        game={"turn_limit": 3},
        seed=12,
        phase=phase,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        match_number=match_number,
        match={"id": f"m{match_number}", "seed": 12, "players": ["Ann", "Bob"]},
        created=5.0,
    )


def _plot(match_number: int, seq: int) -> StoredAction:
    return StoredAction(match_number, seq, float(seq), {"type": "plot", "orders": []})


@pytest.fixture
def live(db: str) -> Iterator[LiveStore]:
    """The live store of a database of its own (SQLite, and PostgreSQL when it is there)."""
    storage = Storage(db)
    try:
        yield LiveStore(storage)
    finally:
        storage.close()


def test_a_stale_copy_cannot_write_into_a_match_the_other_copy_finished(live: LiveStore) -> None:
    live.write(_room(1), ROOM, [_plot(1, 0), _plot(1, 1)])  # both copies saw these
    # The copy that holds the room plays the match's last action and stores the
    # finished match (its actions leave), then a rematch begins.
    with Session(live.storage.engine) as session, session.begin():
        live.writer(_room(1, "over"), ROOM, [_plot(1, 2)], finished=1)(session)
    live.write(_room(2), ROOM, [_plot(2, 0)])
    # The stale copy, still in match 1, stores its own third action.
    with pytest.raises(StaleWriter):  # before: stored
        live.write(_room(1), ROOM, [_plot(1, 2)])
    loaded = live.load(ROOM)
    assert loaded is not None
    assert loaded.match_number == 2  # before: 1, with only action 2 of it
    assert [(a.match_number, a.seq) for a in loaded.actions] == [(2, 0)]


def test_actions_that_follow_the_stored_ones_are_stored(live: LiveStore) -> None:
    live.write(_room(1), ROOM, [_plot(1, 0)])
    live.write(None, ROOM, [_plot(1, 1), _plot(1, 2)])
    live.write_many([(None, ROOM, [_plot(1, 3)], []), (None, ROOM, [_plot(1, 4)], [])])
    loaded = live.load(ROOM)
    assert loaded is not None
    assert [a.seq for a in loaded.actions] == [0, 1, 2, 3, 4]
