"""``POST /api/resolve`` settles any game's file through the game registry, as the
command line does: a laser table or a Faster Than Light turn, against a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests._paths import ROOT
from tests._server import Server, running_server
from tests.server.hostile.test_http import post

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("db") / "matches.db") as running:
        yield running


def test_an_ftl_turn_is_resolved_and_drawn(server: Server) -> None:
    turn = (EXAMPLES / "ftl-sprint-hits-missile.json").read_text("utf-8")
    status, answer = post(server, "/api/resolve", turn)
    assert status == 200, answer
    assert answer["ruleset"] == "ftl"
    golden = EXAMPLES.parent / "tests" / "golden" / "ftl-sprint-hits-missile.result.json"
    assert answer["result"] == json.loads(golden.read_text("utf-8"))
    assert 'data-piece="blue-m3"' in answer["svg"]
    assert "table" not in answer


def test_a_laser_table_still_comes_back_checked(server: Server) -> None:
    status, answer = post(server, "/api/resolve", (EXAMPLES / "fig1-sample-game.json").read_text())
    assert status == 200, answer
    assert answer["ruleset"] == "lightspeed"
    assert answer["result"]["winner"] == "red"
    assert answer["table"]["cards"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"ruleset": "chess"}', "unknown ruleset 'chess'"),
        ('{"ruleset": "ftl", "players": ["a", "b"], "pieces": [], "orders": []}', "'pieces'"),
        ("[1]", "must hold a JSON object"),
    ],
)
def test_files_no_game_settles_get_a_400_naming_the_problem(
    server: Server, body: str, message: str
) -> None:
    status, answer = post(server, "/api/resolve", body)
    assert status == 400
    assert message in answer["error"]


def test_a_hex_combat_script_refused_says_why_as_a_phrase(server: Server) -> None:
    """The referee page writes a refusal in its reader's language: the answer holds it as a
    phrase (its English message and values) beside the English ``error``."""
    script = {
        "ruleset": "hexfleet",
        "ships": {
            "a": {"class": "heavy", "owner": "red"},
            "b": {"class": "heavy", "owner": "blue"},
        },
        "steps": [{"raise_shields": "a"}, {"fire": "a", "at": "b"}],
        "cards": ["KS", "10S", "2H"],
    }
    status, answer = post(server, "/api/resolve", json.dumps(script))
    assert status == 400, answer
    assert answer["error"] == "the cards ran out at step 2 (fire a at b): the script lists 3"
    said = answer["says"]
    assert said["message"] == "the cards ran out at step {step} ({what}): the script lists {n}"
    assert said["params"]["step"] == 2 and said["params"]["n"] == 3
    assert said["params"]["what"] == {
        "message": "fire {ship} at {target}",
        "params": {"ship": "a", "target": "b"},
    }
