"""Servers of a test module's own, as module fixtures: ``server = seeded_server(...)`` in a
module gives its tests a server whose rooms' seeds do not depend on other modules' tests
(the first room plays from the seed given, the next from the seeds after it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests import _server
from tests.browser.conftest import BOT_PACE, Server

#: Bots that place a card about every 0.1 s, and a short stop window: Light Speed matches
#: that end in seconds.
QUICK = ("--bot-pace", "0.02", "--stop-seconds", "2")


def seeded_server(folder: str, room_seed: int) -> Callable[..., Iterator[Server]]:
    """A module fixture ``server``: a server of the module's own (its database in a
    temporary ``folder``) whose first room plays from ``room_seed``, its bots at the
    session server's pace (:data:`tests.browser.conftest.BOT_PACE`)."""

    @pytest.fixture(scope="module", name="server")
    def fixture(
        tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
    ) -> Iterator[Server]:
        db = tmp_path_factory.mktemp(folder) / "matches.db"
        pace = ("--bot-pace", str(BOT_PACE))
        with _server.running_server(db, *pace, room_seed=room_seed) as running:
            yield Server(running.http)

    return fixture


def quick_server_for(folder: str, room_seed: int) -> Callable[..., Iterator[_server.Server]]:
    """A module fixture ``quick_server``: a server of the module's own whose bots play
    :data:`QUICK`, its first room from ``room_seed``."""

    @pytest.fixture(scope="module", name="quick_server")
    def fixture(
        tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
    ) -> Iterator[_server.Server]:
        db = tmp_path_factory.mktemp(folder) / "matches.db"
        with _server.running_server(db, *QUICK, room_seed=room_seed) as running:
            yield running

    return fixture
