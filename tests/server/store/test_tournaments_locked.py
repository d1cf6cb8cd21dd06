"""A tournament's write waits for a SQLite file another process holds (``store/
tournaments.py``, ``Storage.threads_engine``): the rooms' writer gives up after 0.25 s
(it runs on the event loop), a tournament's join, made on a thread, waits seconds. Under a
loaded machine, 30 joins at once through two processes answered "database is locked"."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from spacetable.server.store.storage import SQLITE_BUSY_SECONDS, Storage
from spacetable.server.store.tournaments import Tournament, TournamentStore

#: How long the other process holds the file: past the rooms' writer's wait.
HELD_SECONDS = 4 * SQLITE_BUSY_SECONDS


def test_a_join_waits_for_a_file_another_process_holds_past_a_quarter_second(
    tmp_path: Path,
) -> None:
    path = tmp_path / "club.db"
    storage = Storage(str(path))
    try:
        store = TournamentStore(storage)
        store.create(
            Tournament("t1", "Club night", "ftl", {}, 2, 3, None, False, 0.0, "board", "d", "D")
        )
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the other process writes, and holds the file
        answers: list[object] = []

        def join() -> None:
            try:
                answers.append(store.join("t1", "k1", "Ann", 1500))
            except Exception as exc:  # what the player would be answered instead
                answers.append(exc)

        joining = threading.Thread(target=join)
        joining.start()
        # The other process's write lasts a second: the join, meanwhile, waits (it may
        # also not have started yet on a loaded machine; either way it must not fail).
        joining.join(HELD_SECONDS)
        assert answers == [], answers
        other.execute("COMMIT")
        other.close()
        joining.join()
        assert answers == [(1, 0)]
        assert [p.name for p in store.players("t1")] == ["Ann"]
    finally:
        storage.close()
