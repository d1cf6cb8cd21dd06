"""A PostgreSQL database of one's own for a test: a fresh schema in the database that
``SPACETABLE_TEST_POSTGRES_URL`` names (``.ci/run`` sets it), dropped afterwards.

The test database outlives test runs, and a test that stores matches finishing far in the
future (to list them first) would otherwise push every later run's matches off the first
page. A schema per test keeps each test's matches its own.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from spacetable.server.storage import normalise_url

POSTGRES = os.environ.get("SPACETABLE_TEST_POSTGRES_URL")


@contextmanager
def postgres_schema() -> Iterator[str]:
    """Yield a storage URL whose tables live in a new, empty schema; drop it on exit.
    Skips the test when no PostgreSQL URL is set."""
    if not POSTGRES:
        pytest.skip("set SPACETABLE_TEST_POSTGRES_URL to test PostgreSQL storage")
    schema = f"test_{secrets.token_hex(6)}"
    # No pool: a test may restart PostgreSQL in between, killing any kept connection.
    admin = create_engine(normalise_url(POSTGRES), poolclass=NullPool)
    try:
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        separator = "&" if "?" in POSTGRES else "?"
        yield f"{POSTGRES}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        try:
            with admin.begin() as connection:
                connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        finally:
            admin.dispose()
