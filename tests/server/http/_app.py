"""The app in the test's process, over a SQLite database of its own (Starlette's
``TestClient``): for the HTTP tests whose subject is not the server process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from starlette.testclient import TestClient

from spacetable.server.app import create_app
from spacetable.server.store.storage import Storage

#: The address the tests' client calls the app at (the origin its checks accept).
BASE_URL = "http://127.0.0.1"


@contextmanager
def app_client(folder: Path) -> Iterator[TestClient]:
    """A client of a new app storing its matches in ``folder``; the storage is closed after."""
    storage = Storage(f"sqlite:///{folder / 'matches.db'}")
    try:
        yield TestClient(create_app(storage), base_url=BASE_URL)
    finally:
        storage.close()
