"""A PostgreSQL database of one's own for a test: a fresh schema in the database that
``SPACETABLE_TEST_POSTGRES_URL`` names (``.ci/run`` sets it), dropped afterwards.

The test database outlives test runs, and a test that stores matches finishing far in the
future (to list them first) would otherwise push every later run's matches off the first
page. A schema per test keeps each test's matches its own.

A test that stops or restarts PostgreSQL does it to a server of its own
(:func:`own_postgres`), never to the shared one the other workers' tests store in.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from spacetable.server.store.storage import normalise_url
from tests._server import free_port

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


class OwnPostgres:
    """A PostgreSQL server of a test's own: a cluster made with ``initdb`` in a temporary
    folder, listening on a free port. For the tests that stop and restart PostgreSQL: the
    shared server (``SPACETABLE_TEST_POSTGRES_URL``) stays up for the tests that run beside
    them in the other workers (stopping it failed their storage: seen in a full run)."""

    def __init__(self, bindir: Path, folder: Path, port: int) -> None:
        self.bindir, self.folder, self.port = bindir, folder, port
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def run(self, *command: str) -> None:
        """Run one of PostgreSQL's programs; a RuntimeError with its output if it fails."""
        # PostgreSQL refuses to run as root: as root, its programs run as ``postgres``.
        user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*user, *command], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")

    def pg_ctl(self, command: str) -> None:
        """``start``, ``stop`` or ``restart`` the server, waiting until it is done."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -F"
        data = str(self.folder / "data")
        log = str(self.folder / "log")
        self.run(str(self.bindir / "pg_ctl"), command, "-w", "-D", data, "-l", log, "-o", options)


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """Start a PostgreSQL server of the test's own (:class:`OwnPostgres`); stop it and
    remove its folder after. Skips the test when PostgreSQL's programs are not installed
    (or, run as root, there is no ``postgres`` user to run them)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found or (os.geteuid() == 0 and shutil.which("runuser") is None):
        pytest.skip("no PostgreSQL programs (initdb, pg_ctl) to start a server of our own")
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("no postgres user to run a PostgreSQL server as")
    folder = Path(tempfile.mkdtemp(prefix="spacetable-pg-"))
    try:
        if os.geteuid() == 0:
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        server = OwnPostgres(found[-1].parent, folder, free_port())
        server.run(
            str(server.bindir / "initdb"), "-D", str(folder / "data"), "-U", "postgres",
            "--auth=trust", "--no-sync",
        )  # fmt: skip
        server.pg_ctl("start")
        try:
            yield server
        finally:
            with contextlib.suppress(RuntimeError):  # a test that failed may have stopped it
                server.pg_ctl("stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
