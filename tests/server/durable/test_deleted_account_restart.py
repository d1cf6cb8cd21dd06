"""A deleted account's correspondence match ends even when no process holds its room (issue
67 item 1): Alice and Bob play hex fleet by correspondence, the server dies with nobody
connected; on the next server Alice deletes her account before anyone opens the room. The
room is rebuilt from storage and she resigns there: Bob's My games is empty, the stored
match says she resigned (renamed anonymous) and Bob, opening the room, sees it over with
her seat empty. On SQLite and PostgreSQL."""

from __future__ import annotations

from tests._accounts import session_cookie
from tests._server import Client
from tests.server.durable._restart import db, kill, servers, start
from tests.server.hostile.test_deleted_account_seats import delete_account, my_games, sit

__all__ = ["db"]


def test_a_deleted_account_resigns_a_correspondence_room_nobody_holds(db: str) -> None:
    with servers() as started:
        first = start(db)
        started.append(first)
        cookies = {name: session_cookie(first.http, name) for name in ("Alice", "Bob")}
        room = first.create_room(ruleset="hexfleet", scenario="duel", turn_hours=24)
        alice, bob = sit(first, room, cookies["Alice"]), sit(first, room, cookies["Bob"])
        bob.wait(lambda m: m["type"] == "state" and m["phase"] != "lobby")
        alice.close()
        bob.close()
        kill(first)

        second = start(db)
        started.append(second)
        assert [g["room"] for g in my_games(second, cookies["Bob"])["games"]] == [room]
        assert delete_account(second, cookies["Alice"]) == 204
        assert my_games(second, cookies["Bob"])["games"] == []
        stored = second.get("/api/matches?player=Bob")
        assert [(m["winner"], m["ending"], m["ending_by"]) for m in stored] == [
            ("Bob", "resigned", ["anonymous"])
        ]
        bob = Client(second, room, headers={"Cookie": cookies["Bob"]})
        seats = bob.wait(lambda m: m["type"] == "room")
        assert seats["phase"] == "over", seats
        assert [s["kind"] for s in seats["seats"]] == ["empty", "human"], seats
        bob.close()
