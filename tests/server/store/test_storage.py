"""Match storage on SQLite, and on PostgreSQL when SPACETABLE_TEST_POSTGRES_URL is set
(``.ci/run`` starts Debian's PostgreSQL and sets it)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacetable.bots.lasers import make_bot
from spacetable.bots.lasers.arena import play_match, play_stellar_match
from spacetable.core.match import Match
from spacetable.games.lightspeed import LightSpeedMatch
from spacetable.games.stellar import StellarMatch, StellarOptions
from spacetable.lasers.battle import Outcome
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import (
    PAGE_LIMIT,
    Storage,
    StoredMatch,
    UnknownMatch,
    normalise_url,
)
from tests._postgres import postgres_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        store = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
        yield store
        store.close()
        return
    with postgres_schema() as url:
        store = Storage(url)
        yield store
        store.close()


def stored_from(match: Match[Any, Any], room: str = "room") -> StoredMatch:
    outcome = match.result()
    assert isinstance(outcome, Outcome)
    result = outcome.to_json()
    return StoredMatch(
        id=uuid.uuid4().hex,
        room=room,
        ruleset=match.ruleset,
        options=match.options.to_json(),
        seats=[{"seat": i, "player": p, "kind": "bot"} for i, p in enumerate(match.players)],
        seed=match.seed,
        actions=[a.to_json() for a in match.actions],
        events=result.pop("events"),
        result=result,
    )


def test_a_stored_match_replays_to_the_same_event_log(storage: Storage) -> None:
    played = play_match([make_bot("random"), make_bot("random")], seed=42)
    record = stored_from(played)
    storage.save(record)
    loaded = storage.get(record.id)
    assert loaded is not None
    assert loaded.to_json() == record.to_json()
    options = LightSpeedMatch.options_from_json(loaded.options)
    replayed = LightSpeedMatch.replay(options, loaded.seed, loaded.actions)
    outcome = replayed.result()
    assert outcome is not None
    assert outcome.to_json()["events"] == loaded.events
    assert outcome.scores == loaded.result["scores"]


def test_a_stored_stellar_match_replays_to_the_same_event_log(storage: Storage) -> None:
    options = StellarOptions(
        ("red", "blue", "green"), ("hexai", "wiss", "vak"), "dispute", stolen_goods=True
    )
    played = play_stellar_match([make_bot("easy")] * 3, seed=7, options=options)
    record = stored_from(played)
    storage.save(record)
    loaded = storage.get(record.id)
    assert loaded is not None
    assert loaded.ruleset == "stellar" and loaded.summary()["ruleset"] == "stellar"
    assert any(a["type"] == "fleet" for a in loaded.actions)
    replayed = StellarMatch.from_record(loaded.to_json())
    outcome = replayed.result()
    assert outcome is not None
    assert outcome.to_json()["events"] == loaded.events
    assert outcome.scores == loaded.result["scores"]
    assert replayed.options == options


def test_recent_lists_newest_first_and_get_misses_cleanly(storage: Storage) -> None:
    records = []
    for seed in (1, 2, 3):
        record = stored_from(play_match([make_bot("random"), make_bot("random")], seed))
        record.finished_at = 1_000_000.0 + seed
        storage.save(record)
        records.append(record)
    recent = [m.id for m in storage.recent(limit=500)]
    positions = [recent.index(r.id) for r in records]
    assert positions == sorted(positions, reverse=True)
    assert storage.get("no-such-match") is None
    summary = records[0].summary()
    assert summary["players"] == ["red", "blue"] and "scores" in summary


def test_a_connection_still_in_use_as_the_storage_closes_is_closed_when_let_go(
    storage: Storage,
) -> None:
    """A save or a read on another thread may hold a connection as the server closes its
    storage: that connection is closed when it comes back, not left open for the garbage
    collector (psycopg warns of an open connection deleted: an unrelated test failed with
    that warning in a fresh-clone run)."""
    in_use = storage.engine.raw_connection()
    driver = in_use.dbapi_connection
    storage.close()
    assert _usable(driver)
    in_use.close()  # let go, back to the pool that was
    assert not _usable(driver)


def _usable(driver: Any) -> bool:
    """Whether a DB-API connection still answers a query."""
    try:
        driver.cursor().execute("SELECT 1")
    except Exception:  # each driver's own error for a closed connection
        return False
    return True


def test_postgres_urls_use_psycopg() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_the_match_list_pages_through_every_match_once(storage: Storage) -> None:
    played = play_match([make_bot("random"), make_bot("random")], seed=5)
    future = time.time() + 1e9  # newer than any match other tests or runs stored
    mine = []
    for i in range(7):
        record = stored_from(played)
        # Two by two they finish at the same time: the id orders them, no page cuts one off.
        record.finished_at = future + i // 2
        storage.save(record)
        mine.append(record.id)
    expected = [m["id"] for m in storage.page(limit=7)]
    assert sorted(expected) == sorted(mine)
    # Older, three at a time, from the newest: each page starts where the last ended.
    pages = [storage.page(limit=3)]
    while len(pages) < 3:
        pages.append(storage.page(limit=3, before=pages[-1][-1]["id"]))
    assert [m["id"] for page in pages for m in page][:7] == expected
    # And back: the three just newer than the oldest, still listed newest first.
    assert [m["id"] for m in storage.page(limit=3, after=expected[-1])] == expected[-4:-1]
    assert storage.page(after=expected[0]) == []
    with pytest.raises(UnknownMatch, match="no-such-match"):
        storage.page(before="no-such-match")
    with pytest.raises(ValueError, match="limit"):
        storage.page(limit=PAGE_LIMIT + 1)


def test_the_save_queue_retries_in_order_while_the_table_is_away(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "matches.db"
    storage = Storage(f"sqlite:///{db}")
    queue = SaveQueue(storage, limit=3, first_retry=0.01, longest_retry=0.05)
    records = [
        stored_from(play_match([make_bot("random"), make_bot("random")], seed)) for seed in range(5)
    ]
    with sqlite3.connect(db) as raw:  # every save fails now, as with a database away
        raw.execute("ALTER TABLE matches RENAME TO away")
    assert all(queue.put(record) for record in records[:3])
    assert not queue.put(records[3])  # the queue is full: dropped, and the log says which
    assert records[3].id in caplog.text
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE away RENAME TO matches")
    assert queue.wait_stored(timeout=30)
    assert [storage.get(r.id) is not None for r in records] == [True, True, True, False, False]
    # Shutdown: one more try for what waits; what the database still refuses is logged.
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE matches RENAME TO away")
    assert queue.put(records[4])
    queue.close()
    assert queue.pending() == 0 and "not stored" in caplog.text and records[4].id in caplog.text
    assert not queue.put(records[4])
    storage.close()


def test_a_match_on_its_way_to_the_database_can_be_waited_for(tmp_path: Path) -> None:
    """What lets ``GET /api/matches/{id}`` answer for a match that has just ended: the
    queue says whether it holds the match and waits until it is stored."""
    db = tmp_path / "matches.db"
    storage = Storage(f"sqlite:///{db}")
    queue = SaveQueue(storage, first_retry=0.01, longest_retry=0.05)
    record = stored_from(play_match([make_bot("random"), make_bot("random")], seed=3))
    assert not queue.wait_for(record.id, timeout=5)  # not queued: no wait at all
    with sqlite3.connect(db) as raw:  # saves fail: the match stays in the queue
        raw.execute("ALTER TABLE matches RENAME TO away")
    assert queue.put(record)
    assert queue.wait_for(record.id, timeout=0.05)  # queued, still not stored
    assert queue.pending() == 1
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE away RENAME TO matches")
    # The queue's next try may store the match before the wait begins (then there is
    # nothing to wait for): either way, once the wait returns the match is stored.
    queue.wait_for(record.id, timeout=30)
    assert storage.get(record.id) is not None
    assert not queue.wait_for(record.id, timeout=5)  # stored: gone from the queue
    queue.close()
    storage.close()


def test_processes_starting_together_on_a_new_database_all_open_it(tmp_path: Path) -> None:
    """``serve --workers`` starts its processes at once on one new SQLite file: each looks
    for the tables, and all but the first to create them used to fail with "table matches
    already exists". Here as many real processes open a new database at the same moment."""
    url = f"sqlite:///{tmp_path / 'new.db'}"
    code = (
        "import sys\n"
        "from spacetable.server.store.live_store import LiveStore\n"
        "from spacetable.server.store.storage import Storage\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"  # all start together, their imports done
        "LiveStore(Storage(sys.argv[1]))\n"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for process in processes:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    said = [(p.communicate()[1], p.returncode) for p in processes]
    failures = [err for err, status in said if status != 0]
    assert not failures, failures[0]
    assert Storage(url).recent(10) == []


def test_a_plain_file_path_is_a_sqlite_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `spacetable serve --db matches.db` as a user types it: a path, not a URL.
    monkeypatch.chdir(tmp_path)
    stored = Storage("matches.db")
    assert stored.url == f"sqlite:///{tmp_path / 'matches.db'}"
    with sqlite3.connect(tmp_path / "matches.db") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "matches" in tables
    assert stored.recent(5) == []


def _listed(match_id: str, ruleset: str, names: list[str], finished: float) -> StoredMatch:
    """A stored match of ``ruleset`` between ``names`` (their seats as a room stores them)."""
    return StoredMatch(
        id=match_id,
        room="room",
        ruleset=ruleset,
        options={},
        seats=[
            {"seat": i, "player": f"player{i}", "name": name, "kind": "human"}
            for i, name in enumerate(names)
        ],
        seed=1,
        actions=[],
        events=[],
        result={"winner": None},
        finished_at=finished,
    )


def test_the_match_list_filters_by_game_and_by_player(storage: Storage) -> None:
    """Issue 36 item 18: the match list of one game, or one player's; a player is found by
    the name he sat under whatever its case, never by part of a name or by another field."""
    future = time.time() + 2e9  # newer than any match other tests stored
    tag = uuid.uuid4().hex[:6]  # names no other test's matches hold
    ann, bob, odd = f"Ann{tag}", f"bob{tag}", f"Zoé_%{tag}"
    stored = [
        _listed(f"{tag}-1", "ftl", [ann, bob], future + 1),
        _listed(f"{tag}-2", "lightspeed", [bob, f"x{ann}"], future + 2),
        _listed(f"{tag}-3", "ftl", [odd, bob], future + 3),
        _listed(f"{tag}-4", "hexfleet", [ann, odd], future + 4),
        _listed(f"{tag}-5", "ftl", [ann, "human"], future + 5),
    ]
    for record in stored:
        storage.save(record)

    def ids(**filters: Any) -> list[str]:
        return [m["id"] for m in storage.page(**filters) if m["id"].startswith(tag)]

    assert ids() == [f"{tag}-{i}" for i in (5, 4, 3, 2, 1)]
    assert ids(ruleset="ftl") == [f"{tag}-5", f"{tag}-3", f"{tag}-1"]
    # Ann's, in any case, not x<Ann>'s; 'human' is a seat's kind, not a name.
    assert ids(player=ann.lower()) == [f"{tag}-5", f"{tag}-4", f"{tag}-1"]
    assert ids(player=ann, ruleset="ftl") == [f"{tag}-5", f"{tag}-1"]
    assert ids(player=odd) == [f"{tag}-4", f"{tag}-3"]  # LIKE's % and _ are letters here
    assert ids(player=f"Ann{tag}"[:-1]) == []
    assert ids(player="human") == [f"{tag}-5"]
    # Pages of one player's matches, older from the newest, and back.
    first = storage.page(limit=2, player=ann)
    assert [m["id"] for m in first] == [f"{tag}-5", f"{tag}-4"]
    older = storage.page(limit=2, before=first[-1]["id"], player=ann)
    assert [m["id"] for m in older] == [f"{tag}-1"]
    newer = storage.page(limit=2, after=older[0]["id"], player=ann)
    assert [m["id"] for m in newer] == [f"{tag}-5", f"{tag}-4"]
