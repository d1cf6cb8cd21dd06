"""A match's chat in storage (issue 19): stored and read back with the match, and a
database made before the chat column (SQLite, and PostgreSQL when
SPACETABLE_TEST_POSTGRES_URL is set) gains it when the server opens it, its matches kept."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import JSON, Column, Float, Integer, MetaData, String, Table, create_engine, insert
from sqlalchemy.pool import NullPool

from spacetable.server.store.storage import Storage, StoredMatch, normalise_url
from tests._postgres import postgres_schema

CHAT: list[dict[str, Any]] = [
    {"t": 1.25, "seat": 0, "name": "Ann", "channel": "players", "text": "<b>hi</b>", "quick": None},
    {
        "t": 3.5,
        "seat": None,
        "name": "spectator 1",
        "channel": "spectators",
        "text": None,
        "quick": "wp",
    },
]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'matches.db'}"
        return
    with postgres_schema() as schema_url:
        yield schema_url


def a_match(chat: list[dict[str, Any]] | None = None) -> StoredMatch:
    return StoredMatch(
        id=uuid.uuid4().hex,
        room="room",
        ruleset="lightspeed",
        options={"players": ["Ann", "Bob"]},
        seats=[{"seat": 0, "player": "Ann"}, {"seat": 1, "player": "Bob"}],
        seed=7,
        actions=[],
        events=[],
        result={"winner": "Ann"},
        chat=chat if chat is not None else [],
    )


def test_a_match_keeps_its_chat(url: str) -> None:
    storage = Storage(url)
    try:
        match = a_match(CHAT)
        storage.save(match)
        stored = storage.get(match.id)
        assert stored is not None
        assert stored.chat == CHAT
        assert stored.to_json()["chat"] == CHAT
    finally:
        storage.close()


def old_schema(url: str) -> None:
    """The ``matches`` table as releases before issue 19 made it (no ``chat``), with one
    match in it."""
    engine = create_engine(normalise_url(url), poolclass=NullPool)
    metadata = MetaData()
    table = Table(
        "matches",
        metadata,
        Column("id", String(64), primary_key=True),
        Column("room", String(64), index=True),
        Column("ruleset", String(32)),
        Column("options", JSON),
        Column("seats", JSON),
        Column("seed", Integer),
        Column("actions", JSON),
        Column("events", JSON),
        Column("result", JSON),
        Column("started_at", Float),
        Column("finished_at", Float, index=True),
    )
    metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(
            insert(table).values(
                id="old",
                room="room",
                ruleset="lightspeed",
                options={},
                seats=[],
                seed=1,
                actions=[],
                events=[],
                result={"winner": None},
                started_at=1.0,
                finished_at=2.0,
            )
        )
    engine.dispose()


def test_a_database_made_before_the_chat_gains_it_and_keeps_its_matches(url: str) -> None:
    old_schema(url)
    storage = Storage(url)
    try:
        old = storage.get("old")
        assert old is not None
        assert old.chat == []  # matches stored before had no chat
        assert old.result == {"winner": None}
        match = a_match(CHAT)
        storage.save(match)
        stored = storage.get(match.id)
        assert stored is not None and stored.chat == CHAT
        assert [m["id"] for m in storage.page()] == [match.id, "old"]
    finally:
        storage.close()
    again = Storage(url)  # a second start finds the column there and changes nothing
    try:
        stored = again.get(match.id)
        assert stored is not None and stored.chat == CHAT
    finally:
        again.close()
