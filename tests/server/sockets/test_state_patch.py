"""Sending what changed (issue 21 item 5): each socket that takes patches gets the whole
``state`` once, then ``state_patch`` messages that rebuild, step by step, exactly the state
a socket taking whole states gets from the same broadcast, in all four games. The patches
are checked with a JSON Patch implementation of its own (the ``jsonpatch`` package), over
seeded bot matches and random JSON; and against a real server, a client that asks for
patches gets them, a ``resync`` gets the whole state again, and one that does not ask
gets whole states as before."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.server.lab.state_bytes import measure_game
from spacetable.server.sockets.state_patch import diff
from tests._loops import apart
from tests._server import Client, Server, running_server, seated


def reference_apply(doc: Any, patch: list[dict[str, Any]]) -> Any:
    """Apply ``patch`` with the ``jsonpatch`` package (RFC 6902), not the project's code."""
    return jsonpatch.apply_patch(doc, patch)


def check(old: Any, new: Any) -> list[dict[str, Any]]:
    patch = diff(old, new)
    assert reference_apply(copy.deepcopy(old), patch) == new
    return patch


def test_a_log_that_grew_sends_only_its_new_lines() -> None:
    log: list[dict[str, Any]] = [{"turn": 1, "text": "a"}, {"turn": 1, "text": "b"}]
    old = {"log": log, "turn": 1}
    new = {"log": [*log, {"turn": 2, "text": "c"}], "turn": 2}
    assert check(old, new) == [
        {"op": "add", "path": "/log/-", "value": {"turn": 2, "text": "c"}},
        {"op": "replace", "path": "/turn", "value": 2},
    ]


def test_keys_with_slashes_and_tildes_and_types_that_python_confuses() -> None:
    same = list(range(100))  # unchanged, and longer than the changes: they are sent alone
    old = {"a/b": 1, "c~d": [1, 2, 3], "flag": 1, "n": 1, "gone": None, "same": same}
    new = {"a/b": 2, "c~d": [1, 3], "flag": True, "n": 1.0, "new": {"x": []}, "same": same}
    patch = check(old, new)
    paths = {op["path"] for op in patch}
    assert {"/a~1b", "/flag", "/n", "/gone", "/new"} <= paths
    assert check({"x": 1}, {"x": 1}) == []  # nothing changed: nothing to send


def test_a_list_whose_entries_all_changed_is_replaced_whole() -> None:
    old = {"reach": [{"at": [i, 0], "steps": "F" * i} for i in range(20)]}
    new = {"reach": [{"at": [i, 1], "steps": "L" + "F" * i} for i in range(18)]}
    assert check(old, new) == [{"op": "replace", "path": "/reach", "value": new["reach"]}]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-2, 2) | st.text("ab/~", max_size=3),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text("ab/~", max_size=3), inner, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_any_two_json_values(old: Any, new: Any) -> None:
    check(old, new)


@settings(max_examples=100, deadline=None)
@given(st.lists(JSON, max_size=8), st.lists(JSON, max_size=4))
def test_lists_that_grow_or_shrink(start: list[Any], more: list[Any]) -> None:
    check({"log": start}, {"log": start + more})
    check({"log": start + more}, {"log": start})


#: A shorter match of each game than the bench's (the same rooms, fewer turns).
BODIES: dict[str, dict[str, Any]] = {
    "lightspeed": {"ruleset": "lightspeed", "seats": 3},
    "stellar": {"ruleset": "stellar", "seats": 2, "battle_size": "dispute"},
    "ftl": {"ruleset": "ftl", "seats": 3, "turn_limit": 6},
    "hexfleet": {"ruleset": "hexfleet", "seats": 4, "scenario": "skirmish", "turn_limit": 2},
}


@pytest.mark.parametrize("game", list(BODIES))
def test_patched_sockets_rebuild_every_state_of_a_bot_match(game: str) -> None:
    report = apart(
        measure_game,
        game,
        body=BODIES[game],
        spectators=2,
        seed=3,
        check=True,
        apply=reference_apply,
    )
    assert report["over"], f"the {game} match did not end"
    assert report["gaps"] == 0
    assert report["mismatches"] == 0
    views = BODIES[game]["seats"] + 1
    assert report["checked_states"] >= views * 3
    # Each view's patched socket got one whole state, then patches (a patch longer than
    # the whole state it stands for is sent whole).
    for probe in report["probes"]["patched"]:
        kinds = [m["type"] for m in probe.raw]
        assert kinds[0] == "state" and "state_patch" in kinds, kinds
    assert report["patched_spectator"] < report["whole_spectator"]
    assert report["patched_player"] < report["whole_player"]


def test_a_hex_fleet_battle_sends_less_than_half_its_bytes() -> None:
    # The headline: a 4-player hex battle's states were up to 190 KiB each, after every
    # action; its patches carry the log's new lines, the ships that changed, and the reach
    # whole when the active ship moved (most of what is left: docs/scaling.md). This short
    # battle is mostly moves; the bench's longer one saves more.
    report = apart(
        measure_game, "hexfleet", body=BODIES["hexfleet"], spectators=100, seed=3, check=False
    )
    assert report["patched_spectator"] * 2 < report["whole_spectator"]
    assert report["crowd_state_bytes_per_action"] == pytest.approx(
        100 * report["patched_spectator"], rel=0.01
    )


# -- against a real server --------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with running_server(db, "--bot-pace", "0.05", "--message-rate", "0", room_seed=11) as running:
        yield running


def test_a_page_that_asks_for_patches_gets_them_and_a_resync_on_request(server: Server) -> None:
    room = server.create_room(ruleset="hexfleet", scenario="duel", turn_limit=6)
    plain = Client(server, room)
    patched = Client(server, room, patches=reference_apply)
    host = seated(server, room, "Host")
    host.send(type="bot", seat=1)
    host.send(type="ready", ready=True)
    host.wait_type("state")
    host.send(type="leave")  # a bot stands in: the bots play the duel out

    def states(client: Client, resync_after: int | None = None) -> dict[int, dict[str, Any]]:
        found: dict[int, dict[str, Any]] = {}
        while True:
            message = client.wait(lambda m: m["type"] in ("state", "state_patch", "result"))
            if message["type"] == "result":
                return found
            assert client.state is not None
            found[client.state["seq"]] = copy.deepcopy(client.state)
            if len(found) == resync_after:
                client.send(type="resync")  # as a page that found a gap

    rebuilt, whole = states(patched, resync_after=3), states(plain)  # the match goes on
    assert len(whole) > 5 and list(whole.values())[-1]["phase"] == "over"
    # The same states, to the last field and number, and one more: the resync's, whole.
    assert {seq: rebuilt[seq] for seq in whole} == whole
    [resynced] = set(rebuilt) - set(whole)
    assert rebuilt[resynced]["phase"] == "activation"
    sent = [m for m in patched.received if m["type"] in ("state", "state_patch")]
    assert sent[0]["type"] == "state"
    assert any(m["type"] == "state" and m["seq"] == resynced for m in sent)
    # (A patch longer than the state it brings is sent as the whole state.)
    assert sum(m["type"] == "state_patch" for m in sent) > len(sent) / 2
    assert patched.received[-1]["type"] == "result"
    assert {"state"} == {m["type"] for m in plain.received} & {"state", "state_patch"}
    for client in (plain, patched, host):
        client.close()
