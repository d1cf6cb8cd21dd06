"""A deleted account's unfinished matches end, resigned, and its seats are freed (issue 67
item 1, docs/accounts.md "Deleting your account"): Alice, seated in a hex fleet match
with Bob (by correspondence, or played live), deletes her account; Bob's room shows the
match over, Alice resigned, and Bob's rating moves as for any resignation; a stranger who
signs up as "alice" finds nothing in My games and cannot take her seat; the stored match
names nobody "Alice" and replays exactly. A real server, its accounts made over HTTP."""

from __future__ import annotations

import functools
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from spacetable.cli import app
from tests._accounts import session_cookie
from tests._server import Client, Server, running_server

PASSWORD = "12345678"


def _request(server: Server, method: str, path: str, cookie: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        server.http + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Cookie": cookie, "content-type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        raw = response.read()
        return json.loads(raw) if raw else response.status


def delete_account(server: Server, cookie: str) -> Any:
    """``DELETE /api/accounts/me`` with the account's password: 204 once deleted."""
    return _request(server, "DELETE", "/api/accounts/me", cookie, {"password": PASSWORD})


def my_games(server: Server, cookie: str) -> dict[str, Any]:
    found: dict[str, Any] = _request(server, "GET", "/api/me/games", cookie)
    return found


def sit(server: Server, room: str, cookie: str) -> Client:
    client = Client(server, room, headers={"Cookie": cookie})
    client.send(type="join", name="x")
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    client.send(type="ready")
    return client


def _newer(seen: int, message: dict[str, Any]) -> bool:
    """A ``state`` after version ``seen``."""
    return bool(message["type"] == "state" and message["version"] > seen)


def play_first_turn(players: dict[str, Client]) -> None:
    """Each activation ends at once (``done``, by the ship's player) until both players
    have acted and turn 1 is over: the match is past its opening (a match resigned before
    is not rated, issue 67 item 7)."""
    any_client = next(iter(players.values()))
    state = any_client.wait(lambda m: m["type"] == "state" and m["phase"] != "lobby")
    acted: set[str] = set()
    while not (acted == set(players) and state["turn"] >= 2):
        assert state["phase"] != "over", state
        activation = state["activation"]
        ship = next(s for s in state["ships"] if s["id"] == activation["ship"])
        players[ship["owner"]].send(type="act", action={"type": "done", "ship": ship["id"]})
        acted.add(ship["owner"])
        state = any_client.wait(functools.partial(_newer, state["version"]))


def stored_of(server: Server, player: str) -> dict[str, Any]:
    listed = server.get(f"/api/matches?player={player}")
    assert len(listed) == 1, listed
    return server.stored_match(listed[0]["id"])


def check_gone(server: Server, db: Path, room: str, bob: Client) -> None:
    """What everyone sees once Alice's account is deleted (her match already over)."""
    result = bob.wait(lambda m: m["type"] == "result")
    assert result["result"]["ending"] == "resigned", result
    assert result["result"]["ending_by"] == ["Alice"], result
    seats = bob.wait(lambda m: m["type"] == "room")["seats"]
    assert [s["kind"] for s in seats] == ["empty", "human"], seats
    assert seats[0]["name"] == "Alice"  # the board of the match just over still names her side
    # No rematch with her seat empty: Bob is told to open a new room.
    bob.send(type="rematch")
    refused = bob.wait_type("error")["message"]
    assert refused == "a player left this room for good: open a new room to play again"
    profile = server.get("/api/players/Bob")
    assert profile["ratings"]["hexfleet"]["wins"] == 1, profile
    assert profile["ratings"]["hexfleet"]["rating"] > 0, profile

    # A stranger takes the freed name: nothing of Alice's is his.
    stranger = session_cookie(server.http, "alice")
    assert my_games(server, stranger) == {"name": "alice", "waiting": 0, "games": []}
    opened = Client(server, room, headers={"Cookie": stranger})
    welcome = opened.wait(lambda m: m["type"] == "welcome")
    assert welcome["role"] == "spectator", welcome
    opened.send(type="join", name="alice", seat=0)
    assert opened.wait_type("error")
    opened.send(type="rematch")
    assert opened.wait_type("error")
    opened.close()

    stored = stored_of(server, "Bob")
    assert "Alice" not in json.dumps(stored), stored
    assert "alice" not in json.dumps(stored).lower(), stored
    outcome = CliRunner().invoke(app, ["replay", stored["id"], "--db", f"sqlite:///{db}"])
    assert outcome.exit_code == 0, outcome.output
    assert "replays exactly" in outcome.output


def test_a_deleted_account_resigns_its_correspondence_match_and_frees_its_seat(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    with running_server(db, "--message-rate", "0", room_seed=5) as server:
        cookies = {name: session_cookie(server.http, name) for name in ("Alice", "Bob")}
        room = server.create_room(ruleset="hexfleet", scenario="duel", turn_hours=24)
        alice, bob = sit(server, room, cookies["Alice"]), sit(server, room, cookies["Bob"])
        play_first_turn({"Alice": alice, "Bob": bob})
        assert [g["room"] for g in my_games(server, cookies["Alice"])["games"]] == [room]
        # The delete page says what would end before she confirms.
        listed = _request(server, "GET", "/api/accounts/me/unfinished", cookies["Alice"])
        assert listed == {
            "matches": [
                {"room": room, "game": "Hex fleet", "opponents": ["Bob"], "correspondence": True}
            ]
        }
        alice.close()  # she deletes it from another page; the room is open for Bob

        assert delete_account(server, cookies["Alice"]) == 204
        check_gone(server, db, room, bob)
        assert my_games(server, cookies["Bob"])["games"] == []
        bob.close()


def test_a_deleted_account_resigns_a_live_match_it_is_playing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with running_server(db, "--message-rate", "0", room_seed=5) as server:
        cookies = {name: session_cookie(server.http, name) for name in ("Alice", "Bob")}
        room = server.create_room(ruleset="hexfleet", scenario="duel")
        alice, bob = sit(server, room, cookies["Alice"]), sit(server, room, cookies["Bob"])
        play_first_turn({"Alice": alice, "Bob": bob})
        listed = _request(server, "GET", "/api/accounts/me/unfinished", cookies["Alice"])
        assert [(m["room"], m["correspondence"]) for m in listed["matches"]] == [(room, False)]

        # She also watches a room whose match has not begun, from a socket of her session.
        other = server.create_room(ruleset="hexfleet", scenario="duel")
        watching = Client(server, other, headers={"Cookie": cookies["Alice"]})
        assert watching.wait(lambda m: m["type"] == "welcome")["role"] == "spectator"

        assert delete_account(server, cookies["Alice"]) == 204
        # Her own socket, still open, watches from now on: it plays for nobody.
        assert alice.wait(lambda m: m["type"] == "welcome")["role"] == "spectator"
        check_gone(server, db, room, bob)
        # The watching socket sits as a guest now, never as the deleted account (whose
        # seat a new "alice" would take).
        watching.send(type="join", name="Alice")
        watching.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        seats = watching.wait(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "human")
        assert seats["seats"][0]["registered"] is False, seats
        watching.close()
        alice.close()
        bob.close()


def test_a_wrong_password_resigns_nothing(tmp_path: Path) -> None:
    with running_server(tmp_path / "m.db", "--message-rate", "0", room_seed=5) as server:
        cookies = {name: session_cookie(server.http, name) for name in ("Alice", "Bob")}
        room = server.create_room(ruleset="hexfleet", scenario="duel", turn_hours=24)
        alice, bob = sit(server, room, cookies["Alice"]), sit(server, room, cookies["Bob"])
        bob.wait(lambda m: m["type"] == "state" and m["phase"] != "lobby")
        try:
            _request(server, "DELETE", "/api/accounts/me", cookies["Alice"], {"password": "no"})
        except urllib.error.HTTPError as exc:
            assert exc.code == 401
        else:
            raise AssertionError("deleted with a wrong password")
        assert [g["room"] for g in my_games(server, cookies["Alice"])["games"]] == [room]
        assert not [m for m in bob.received if m["type"] == "result"]
        alice.close()
        bob.close()


def _plot_turn(players: dict[str, Client], turn: int, orders: dict[str, list[str]]) -> None:
    for name, client in players.items():
        client.wait(lambda m: m["type"] == "state" and m["phase"] == "plot" and m["turn"] == turn)
        client.send(type="plot", orders=orders.get(name, []))


def test_a_deleted_player_s_name_leaves_a_finished_ftl_match_which_still_replays(
    tmp_path: Path,
) -> None:
    """Issue 67 item 19: FTL names a ship after its player (``Alice``), its missiles
    ``Alice-m1``, and the plotted orders name them (``Alice:L``); the match's options list
    the players. Once Alice deletes her account, the stored match, its replay's answer and
    ``spacetable replay`` read "anonymous" there, and it still replays exactly."""
    db = tmp_path / "m.db"
    with running_server(db, "--message-rate", "0", room_seed=5) as server:
        cookies = {name: session_cookie(server.http, name) for name in ("Alice", "Bob")}
        room = server.create_room(ruleset="ftl", turn_limit=2)
        players = {name: sit(server, room, cookies[name]) for name in ("Alice", "Bob")}
        _plot_turn(players, 1, {"Alice": ["Alice:L"], "Bob": ["Bob:S2"]})
        _plot_turn(players, 2, {"Alice": ["Alice-m1:S3", "Alice:R+15"], "Bob": ["Bob:L"]})
        result = players["Bob"].wait(lambda m: m["type"] == "result")
        before = server.stored_match(result["match_id"])
        written = json.dumps(before)
        assert "Alice-m1" in written and "Alice:L" in written  # what is to be renamed
        assert before["options"]["players"] == ["Alice", "Bob"]
        for client in players.values():
            client.close()

        assert delete_account(server, cookies["Alice"]) == 204
        after = server.stored_match(result["match_id"])
        assert "Alice" not in json.dumps(after), after
        assert after["options"]["players"] == ["anonymous", "Bob"]
        actions = [a for a in after["actions"] if a.get("player") == "anonymous"]
        assert [a["orders"] for a in actions] == [
            ["anonymous:L"],
            ["anonymous-m1:S3", "anonymous:R+15"],
        ]
        listed = server.get("/api/matches?player=Bob")[0]
        assert listed["players"] == ["anonymous", "Bob"]
        outcome = CliRunner().invoke(app, ["replay", after["id"], "--db", f"sqlite:///{db}"])
        assert outcome.exit_code == 0, outcome.output
        assert "replays exactly" in outcome.output
        assert "Alice" not in outcome.output
