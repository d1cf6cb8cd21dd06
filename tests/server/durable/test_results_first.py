"""A result that reached the players is stored: the server is killed (SIGKILL) the moment a
player's socket receives it, and the server started after it on the same database has the
match, which replays exactly. The room comes back over, its result shown, never as a live
match."""

from __future__ import annotations

import pytest

from spacetable.core.replays import replay_record
from spacetable.games.ftl import FtlMatch
from spacetable.games.hexfleet import HexMatch
from tests._server import Client, seated
from tests.server.durable._restart import db, kill, servers, start

#: Each test starts two server processes (the one killed, the one after it): on a busy
#: machine that alone may take minutes.
pytestmark = pytest.mark.timeout(900)

__all__ = ["db"]


def test_a_result_the_players_saw_survives_a_kill_right_after_it(db: str) -> None:
    with servers() as started:
        # The hex duel of seed 6 ends at once: its blank chit comes out first.
        first = start(db, room_seed=6)
        started.append(first)
        room = first.create_room(ruleset="hexfleet", scenario="duel", turn_limit=1)
        ann = seated(first, room, "Ann")
        ann.send(type="bot", seat=1, level="easy")
        ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
        ann.send(type="ready")
        result = ann.wait_type("result")
        kill(first)  # the very moment the result is seen

        second = start(db)
        started.append(second)
        stored = second.stored_match(result["match_id"])
        assert stored["result"] == result["result"]
        assert replay_record(stored, HexMatch).exact
        # The room is back as it ended: over, its result shown to whoever comes.
        watcher = Client(second, room)
        again = watcher.wait_type("room")
        assert again["phase"] == "over" and again["match_id"] == result["match_id"]
        assert watcher.wait_type("result")["result"] == result["result"]


def test_a_resignation_the_players_saw_survives_a_kill_right_after_it(db: str) -> None:
    with servers() as started:
        first = start(db, room_seed=12)
        started.append(first)
        room = first.create_room(ruleset="ftl", turn_limit=5)
        ann, bob = seated(first, room, "Ann"), seated(first, room, "Bob")
        ann.send(type="ready")
        bob.send(type="ready")
        ann.wait(lambda m: m["type"] == "state" and m["phase"] == "plot")
        ann.send(type="plot", orders=["Ann:S2"])
        bob.send(type="plot", orders=["Bob:R+45"])
        ann.wait_type("turn")
        bob.send(type="resign")
        result = ann.wait_type("result")
        kill(first)

        second = start(db)
        started.append(second)
        stored = second.stored_match(result["match_id"])
        assert stored["result"]["ending"] == "resigned" and stored["result"]["winner"] == "Ann"
        assert len(stored["actions"]) == 2
        assert replay_record(stored, FtlMatch).exact
