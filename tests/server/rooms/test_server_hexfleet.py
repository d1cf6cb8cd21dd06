"""Hex fleet rooms against a real server: one action at a time, as the chit cup says.

The player whose ship is activated acts (``act``); everyone, spectators included, gets each
``acted`` frame (the action, its events, the lines of the log, the state after it) and the
new state; a bot acts when its ship's chit comes out; a refused action names the problem
and changes nothing; a finished battle is stored as frames and replays exactly from its
seed and action log.
"""

from __future__ import annotations

import json
import urllib.error
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from spacetable.core.endings import with_ending
from spacetable.games.hexfleet import HexMatch
from tests._golden import matches_golden, room_log_path
from tests._server import Client, Server, running_server, seated

#: The rooms' seeds (``--room-seed``): the battle against the bot plays from this one,
#: the battle the blank chit ends at once from the next (both rooms are created first,
#: whatever tests run); the other tests' rooms follow.
ROOM_SEED = 5


@dataclass(frozen=True)
class Seeded:
    """The server, and its first two rooms: their seeds are known."""

    server: Server
    battle: str  # a duel of 12 turns, seed ROOM_SEED
    over_at_once: str  # a duel of one turn whose blank chit comes out first, ROOM_SEED + 1


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeded]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    # No message rate limit: the tests act as fast as the server answers.
    with running_server(
        db, "--bot-pace", "0.05", "--message-rate", "0", room_seed=ROOM_SEED
    ) as running:
        battle = running.create_room(ruleset="hexfleet", scenario="duel", turn_limit=12)
        over = running.create_room(ruleset="hexfleet", scenario="duel", turn_limit=1)
        yield Seeded(running, battle, over)


@pytest.fixture(scope="module")
def server(seeded: Seeded) -> Server:
    return seeded.server


def active_ship(state: dict[str, Any]) -> dict[str, Any] | None:
    activation = state["activation"]
    if activation is None:
        return None
    ship: dict[str, Any] = next(s for s in state["ships"] if s["id"] == activation["ship"])
    return ship


def simple_action(state: dict[str, Any]) -> dict[str, Any]:
    """What a plain player does with his active ship: come back if jumped, fire at the
    first target the view says he can, else close in, else end the activation."""
    activation = state["activation"]
    ship = active_ship(state)
    assert ship is not None
    if activation["placing"]:
        taken = {tuple(s["at"]) for s in state["ships"] if s["at"] is not None}
        free = next((q, r) for q in range(3, 9) for r in range(0, 4) if (q, r) not in taken)
        return {"type": "return", "ship": ship["id"], "q": free[0], "r": free[1], "facing": 2}
    if "fire" not in activation["done"]:
        for target in state["aim"]:
            if target.get("problem") is None:
                return {"type": "fire", "ship": ship["id"], "target": target["ship"]}
    if "moved" not in activation["done"] and state["reach"]:
        longest = max(state["reach"], key=lambda m: m["steps"].count("F"))
        return {"type": "move", "ship": ship["id"], "steps": longest["steps"]}
    return {"type": "done", "ship": ship["id"]}


def next_state(client: Client) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state")


def act(client: Client, action: dict[str, Any]) -> dict[str, Any]:
    """Send one action; the ``acted`` frame or the ``refused`` answer."""
    client.send(type="act", action=action)
    return client.wait(lambda m: m["type"] in ("acted", "refused"))


def test_a_room_plays_hexfleet_one_action_at_a_time(server: Server) -> None:
    room = server.create_room(ruleset="hexfleet", scenario="skirmish", turn_limit=9)
    watcher = Client(server, room)
    message = watcher.wait_type("room")
    assert message["ruleset"] == "hexfleet" and message["pacing"] == "turns"
    assert message["options"]["scenario"] == "skirmish"
    watcher.close()


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"scenario": "custom"}, "a custom battle needs 'fleets'"),
        ({"scenario": "armada"}, "scenario"),
        (
            {
                "scenario": "custom",
                "fleets": [[{"class": "light", "weapons": "heavy"}], [{"class": "heavy"}]],
            },
            "fleet 1, ship 1: a light ship carries light weapons, not heavy",
        ),
        ({"scenario": "custom", "fleets": [[{"class": "frigate"}], [{"class": "heavy"}]]}, "class"),
        ({"scenario": "duel", "seats": 5}, "seats"),
        ({"scenario": "duel", "board": [4, 40]}, "board"),
        ({"scenario": "duel", "turn_limit": 0}, "turn_limit"),
    ],
)
def test_a_room_with_bad_options_is_refused_naming_the_option(
    server: Server, body: dict[str, Any], problem: str
) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/rooms", {"ruleset": "hexfleet", **body})
    assert refused.value.code == 422
    assert problem in json.load(refused.value)["detail"]


def test_a_battle_against_the_bot_to_its_end_is_stored_and_replays_exactly(
    seeded: Seeded,
) -> None:
    server, room = seeded.server, seeded.battle
    ann = seated(server, room, "Ann")
    ann.send(type="bot", seat=1, level="easy")
    ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
    watcher = Client(server, room)
    watcher.send(type="watch")
    ann.send(type="ready")
    state = ann.wait(lambda m: m["type"] == "state" and m["phase"] in ("activation", "over"))
    frames_seen = 0
    while state["phase"] != "over":
        ship = active_ship(state)
        if ship is not None and ship["owner"] == "Ann":
            frame = act(ann, simple_action(state))
            assert frame["type"] == "acted", frame
            assert frame["player"] == "Ann" and frame["log"], frame
            frames_seen += 1
        state = next_state(ann)
    result = ann.wait_type("result")
    assert result["result"]["reason"] in ("last-side", "no-side", "turn-limit")
    bot_frames = [m for m in ann.received if m["type"] == "acted" and m["player"] != "Ann"]
    assert bot_frames, "the bot never acted"
    assert frames_seen > 0
    # The spectator saw every frame the player saw, in the same order.
    watcher.wait_type("result")
    seen = [m["action"] for m in watcher.received if m["type"] == "acted"]
    assert seen == [m["action"] for m in ann.received if m["type"] == "acted"]
    stored = server.stored_match(result["match_id"])
    frames = stored["events"]
    assert frames[0]["action"] is None and frames[0]["log"]
    assert len(frames) == len(stored["actions"]) + 1
    replayed = HexMatch.from_record(
        {
            "ruleset": "hexfleet",
            "options": stored["options"],
            "seed": stored["seed"],
            "actions": stored["actions"],
        }
    )
    outcome = replayed.result()
    assert outcome is not None and with_ending(outcome.to_json()) == result["result"]
    assert replayed.log == [line for f in frames for line in f["log"]]
    assert [s for s in replayed.snapshot()["ships"]] == frames[-1]["ships"]
    # The seeded battle is the same on every run: its actions, who won and how.
    assert stored["seed"] == ROOM_SEED
    played = {
        "seed": stored["seed"],
        "options": stored["options"],
        "actions": [{k: v for k, v in a.items() if k != "t"} for a in stored["actions"]],
        "result": result["result"],
    }
    assert matches_golden(room_log_path("hexfleet", ROOM_SEED), played)
    ann.close()
    watcher.close()


def test_refusals_name_the_problem_and_change_nothing(server: Server) -> None:
    room = server.create_room(ruleset="hexfleet", scenario="duel", turn_limit=30)
    ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
    watcher = Client(server, room)
    watcher.send(type="watch")
    ann.send(type="ready")
    bob.send(type="ready")
    state = ann.wait(lambda m: m["type"] == "state" and m["phase"] == "activation")
    ship = active_ship(state)
    assert ship is not None
    mover, idle = (ann, bob) if ship["owner"] == "Ann" else (bob, ann)
    other = next(s for s in state["ships"] if s["id"] != ship["id"])
    refusals = [
        (idle, {"type": "done", "ship": ship["id"]}, f"{ship['name']} is {ship['owner']}'s ship"),
        (mover, {"type": "fire", "ship": other["id"], "target": ship["id"]}, "is activated, not"),
        (mover, {"type": "warp", "ship": ship["id"]}, "unknown action type 'warp'"),
        (mover, {"type": "move", "ship": ship["id"]}, "move action lacks 'steps'"),
        (mover, {"type": "move", "ship": ship["id"], "steps": "FXF"}, "letters F, L and R"),
        (mover, {"type": "move", "ship": ship["id"], "steps": "F" * 9}, "9 steps cost 9"),
        (mover, {"type": "jump", "ship": ship["id"], "returns_on": 1}, "comes back on a later"),
        (mover, {"type": "fire", "ship": ship["id"], "target": other["id"]}, "hexes away"),
        (mover, {"type": "return", "ship": ship["id"], "q": 1, "r": 1, "facing": 0}, "already on"),
    ]
    for client, action, words in refusals:
        answer = act(client, action)
        assert answer["type"] == "refused", (action, answer)
        assert words in answer["reason"], (action, answer["reason"])
    mover.send(type="plot", orders=["x:R+15"])
    answer = mover.wait(lambda m: m["type"] in ("refused", "error"))
    assert "one action at a time" in answer.get("reason", answer.get("message", ""))
    mover.send_raw('{"type": "act", "action": ')
    answer = mover.wait(lambda m: m["type"] == "error")
    assert answer["message"]
    watcher.send(type="act", action={"type": "done", "ship": ship["id"]})
    answer = watcher.wait(lambda m: m["type"] == "error")
    assert "only seated players" in answer["message"]
    # Nothing moved: the next legal action is still the first of the battle.
    frame = act(mover, {"type": "shields", "ship": ship["id"]})
    assert frame["type"] == "acted"
    assert frame["events"][0]["type"] == "shields" and len(frame["events"][0]["cards"]) == 2
    assert not any(m["type"] == "acted" for m in watcher.received[:-1] if m is not frame)
    for client in (ann, bob, watcher):
        client.close()


def test_a_battle_over_before_anyone_acts_still_ends_and_is_stored(seeded: Seeded) -> None:
    # With one turn, the blank chit comes out first one time in three (as in this room's
    # seed): the battle is over as it begins (a draw at full strength). The room must end
    # it as any other.
    server = seeded.server
    ann = seated(server, seeded.over_at_once, "Ann")
    ann.send(type="bot", seat=1, level="easy")
    ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
    ann.send(type="ready")
    first = ann.wait(lambda m: m["type"] == "state" and m["phase"] in ("activation", "over"))
    assert first["phase"] == "over"
    result = ann.wait_type("result", timeout=10)
    assert result["result"]["reason"] == "turn-limit"
    assert result["result"]["winner"] is None
    stored = server.stored_match(result["match_id"])
    assert stored["seed"] == ROOM_SEED + 1
    assert stored["actions"] == [] and len(stored["events"]) == 1
    ann.close()
