"""Every frame of a whole match of each game, both ways, is one the protocol's JSON Schema
(``spacetable protocol schema``) accepts; a frame with a renamed field is refused.

One server (in this process, as tests/server's other room tests) plays a Light Speed
match to its battle, a Stellar Conflict match resigned during its deployment, an FTL
match to its turn limit and a hex fleet duel against a bot to its end, with chat, a draw
offered and declined, a rematch asked and declined, pings, a resync, an absence and its
choice on the way; every message each client sent and received is validated."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, cast

import jsonpatch
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from typer.testing import CliRunner

from spacetable.cli import app
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from tests._laser_play import play_to_the_battle
from tests._server import Client, Server, running_server, seated
from tests.server.rooms.test_server_hexfleet import act, active_ship, next_state, simple_action
from tests.server.rooms.test_server_stellar import within


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    result = CliRunner().invoke(app, ["protocol", "schema"])
    assert result.exit_code == 0, result.output
    printed: dict[str, Any] = json.loads(result.output)
    Draft202012Validator.check_schema(printed)
    return printed


def validator(schema: dict[str, Any], direction: str) -> Draft202012Validator:
    return Draft202012Validator({**schema, "$ref": f"#/$defs/{direction}"})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "matches.db"
    with running_server(
        db,
        *("--bot-pace", "0.05", "--message-rate", "0", "--grace-seconds", "30", "--test-clock"),
        *("--abandon-seconds", "600", "--stop-seconds", "1"),
        room_seed=11,
    ) as running:
        yield running


class Recorded:
    """Every client made while recording, and every message each sent."""

    def __init__(self) -> None:
        self.clients: list[Client] = []
        self.sent: list[dict[str, Any]] = []

    def received(self) -> list[dict[str, Any]]:
        # A ``placed`` that stands for a state is folded into one by the client: not a frame.
        return [m for c in self.clients for m in c.received if not m.get("folded")]


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    record = Recorded()
    made, send = Client.__init__, Client.send

    def init(self: Client, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        record.clients.append(self)

    def sending(self: Client, **message: Any) -> None:
        record.sent.append(message)
        send(self, **message)

    monkeypatch.setattr(Client, "__init__", init)
    monkeypatch.setattr(Client, "send", sending)
    return record


def problems(schema: dict[str, Any], direction: str, message: dict[str, Any]) -> list[str]:
    """What the schema refuses in ``message``: the problems of its type's own branch (a
    ``oneOf`` says only that no branch fits), or of the whole for an unknown type."""
    whole = validator(schema, direction)
    if whole.is_valid(message):
        return []
    for branch in schema["$defs"][direction]["oneOf"]:
        if branch["properties"]["type"].get("const") == message.get("type"):
            own = Draft202012Validator({**schema, **branch})
            return [f"{e.json_path}: {e.message}"[:300] for e in own.iter_errors(message)]
    return ["no branch of that type"]


def check(schema: dict[str, Any], record: Recorded, *expected: str) -> None:
    """Every frame of ``record`` is valid, and the server sent each type of ``expected``."""
    for message in record.received():
        assert not (said := problems(schema, "server", message)), (message["type"], said)
    for message in record.sent:
        assert not (said := problems(schema, "client", message)), (message["type"], said)
    seen = {m["type"] for m in record.received()}
    assert set(expected) <= seen, set(expected) - seen


def test_a_light_speed_match_with_chat_draw_and_rematch(
    schema: dict[str, Any], server: Server, recorded: Recorded
) -> None:
    room = server.create_room(ruleset="lightspeed")
    ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
    watcher = Client(server, room, patches=jsonpatch.apply_patch)
    watcher.send(type="watch")
    ann.send(type="chat", text="hello", channel="players")
    bob.wait_type("chat")
    ann.send(type="open_chat", open=True)
    ann.send(type="ping")
    ann.wait_type("pong")
    for client in (ann, bob):
        client.send(type="ready", ready=True)
    first = {k: c.wait_type("state") for k, c in (("ann", ann), ("bob", bob))}
    ann.send(type="offer_draw")
    bob.wait_type("draw_offer")
    bob.send(type="answer_draw", accept=False)
    ann.wait_type("draw_declined")
    ann.send(type="pose", x=10.0, y=20.0, rotation=30.0)
    assert "Ann" in bob.wait_type("poses")["poses"]
    ann.send_raw('{"type": "chat", "txt": "a renamed field"}')  # not recorded: refused
    assert "txt" in ann.wait_type("error")["message"]
    watcher.send(type="resync")
    battles = play_to_the_battle({"ann": ann, "bob": bob}, first)
    assert battles["ann"]["type"] == "battle"
    watcher.wait_type("battle")
    ann.send(type="rematch")
    bob.wait(lambda m: m["type"] == "room" and m["seats"][0]["rematch"])
    bob.send(type="decline_rematch")
    ann.wait_type("rematch_declined")
    bob.send(type="chat", quick="gg")
    ann.wait(lambda m: m["type"] == "chat" and m["quick"] == "gg")
    check(
        schema,
        recorded,
        *("welcome", "room", "state", "state_patch", "chat", "chat_history", "pong"),
        *("draw_offer", "draw_declined", "placed", "battle", "rematch_declined", "stop"),
        *("poses", "error"),
    )
    for client in recorded.clients:
        client.close()


def test_a_stellar_match_with_an_absence_and_a_resignation(
    schema: dict[str, Any], server: Server, recorded: Recorded
) -> None:
    room = server.create_room(
        ruleset="stellar", battle_size="dispute", races=["vak", "wiss"], deployment="stop"
    )
    ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
    ann.send(type="race", race="hexai")
    bob.wait(lambda m: m["type"] == "room" and m["options"]["races"][0] == "hexai")
    for client in (ann, bob):
        client.send(type="ready")
    for client in (ann, bob):
        client.wait(lambda m: m["type"] == "state" and m["phase"] == "preparation")
    ann.send(type="fleet", ships=["no-such-ship"])
    ann.wait_type("refused")
    ann.send(type="fleet", ships=within("hexai", 10))
    bob.send(type="fleet", ships=within("wiss", 10)[:3])
    ann.wait(lambda m: m["type"] == "state" and m["phase"] == "deployment")
    token = next(m["token"] for m in bob.received if m["type"] == "welcome" and m["token"])
    bob.close()
    ann.wait(lambda m: m["type"] == "absent")
    server.post("/api/test/clock", {"advance": 31})  # the grace is over
    ann.wait(lambda m: m["type"] == "absent" and m["choices"])
    ann.send(type="absence", seat=1, choice="wait")
    ann.wait_type("absence_choice")
    back = Client(server, room)
    back.send(type="rejoin", token=token)
    back.wait(lambda m: m["type"] == "welcome" and m["role"] == "player", 5)
    back.send(type="resign")
    result = ann.wait_type("result")
    assert result["result"]["ending"] == "resigned"
    check(schema, recorded, "refused", "absent", "absence_choice", "result")
    for client in recorded.clients:
        client.close()


def test_an_ftl_match_to_its_turn_limit(
    schema: dict[str, Any], server: Server, recorded: Recorded
) -> None:
    room = server.create_room(ruleset="ftl", turn_limit=2)
    ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
    for client in (ann, bob):
        client.send(type="ready")
    for turn in (1, 2):
        for client in (ann, bob):
            client.wait(lambda m: m["type"] == "state" and m["turn"] == turn)  # noqa: B023
        ann.send(type="draft", orders=["nowhere:R+45"])
        ann.send(type="plot", orders=["nowhere:R+45"])
        ann.wait(lambda m: m["type"] in ("refused", "error"))
        ann.send(type="plot", orders=[])
        ann.send(type="unplot")
        ann.send(type="plot", orders=[])
        bob.send(type="plot", orders=[])
        ann.wait(lambda m: m["type"] == "turn" and m["turn"] == turn)  # noqa: B023
    ann.wait_type("result")
    check(schema, recorded, "turn", "result", "state")
    for client in recorded.clients:
        client.close()


def test_a_hexfleet_duel_against_a_bot_to_its_end(
    schema: dict[str, Any], server: Server, recorded: Recorded
) -> None:
    room = server.create_room(ruleset="hexfleet", scenario="duel", turn_limit=3)
    ann = seated(server, room, "Ann")
    ann.send(type="bot", seat=1, level="easy")
    ann.wait(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
    ann.send(type="ready")
    state = ann.wait(lambda m: m["type"] == "state" and m["phase"] in ("activation", "over"))
    ann.send(type="offer_draw")
    ann.wait(lambda m: m["type"] == "draw_declined" and m["bot"])
    while state["phase"] != "over":
        ship = active_ship(state)
        if ship is not None and ship["owner"] == "Ann":
            act(ann, simple_action(state))
        state = next_state(ann)
    ann.wait_type("result")
    check(schema, recorded, "acted", "result", "draw_declined")
    ann.close()


def test_a_frame_with_a_renamed_field_is_refused(schema: dict[str, Any]) -> None:
    server, client = validator(schema, "server"), validator(schema, "client")
    welcome = wire(to_page.Welcome("player", 0, "Ann", "t0k", "sp"))
    assert server.is_valid(welcome)
    renamed = {("seat_index" if k == "seat" else k): v for k, v in welcome.items()}
    assert not server.is_valid(renamed)
    assert not server.is_valid({**wire(to_page.Error("no")), "text": "no"})
    assert client.is_valid({"type": "join", "name": "Ann"})
    assert not client.is_valid({"type": "join", "nick": "Ann"})
    assert not server.is_valid({"type": "no_such_message"})
    seat: dict[str, Any] = {
        **dict.fromkeys(
            ("connected", "ready", "stand_in", "rematch", "host", "bot_account"), False
        ),
        **{"seat": 0, "kind": "human", "name": "Ann", "level": None, "registered": True},
        "rating": {"rating": 12.5, "provisional": True},
    }
    seats = [cast(to_page.SeatView, seat)]
    room = wire(to_page.RoomNews("r", "ftl", "plots", {}, seats, "over", "m", None, None))
    assert server.is_valid(room)
    assert not server.is_valid({**room, "seats": [{**seat, "rating": {"ratng": 12.5}}]})
    assert not server.is_valid({**room, "seats": [{**seat, "hosts": False}]})


def test_the_hand_written_pose_and_seq_frames_match_their_declarations(
    schema: dict[str, Any],
) -> None:
    from spacetable.server.sockets.connection import encode
    from spacetable.server.sockets.state_patch import state_frame

    server = validator(schema, "server")
    view = {
        **{"ruleset": "lightspeed", "phase": "fast", "player": None, "hand": None},
        **{"table": [], "stopped_by": None, "table_size_mm": [914.4, 609.6], "players": {}},
        **{"asteroids": "single", "piracy": False},
    }
    state = wire(to_page.State(view, {"stop": None, "countdown": None}, 1.5, 3, None))
    frame = state_frame(encode(state), 7)
    header = 2 if frame[1] & 0x7F < 126 else 4  # a short frame's, or a 16-bit length's
    text = json.loads(frame[header:])
    assert text == {**state, "seq": 7} and server.is_valid(text)
    poses = wire(to_page.Poses({"Ann": {"x": 1.0, "y": 2.0, "rotation": 3.0, "ship": "s"}}, 40))
    assert server.is_valid(poses)
    rng = random.Random(1)
    assert not server.is_valid({**poses, "next": rng.random()})  # milliseconds are whole
