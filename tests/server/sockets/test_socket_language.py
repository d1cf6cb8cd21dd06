"""The room's sentences over the socket are in each reader's language (issue 23): two
people in the same room make the same mistake, and each is told in the language of his
own page (its ``lang`` cookie, else his browser's Accept-Language), at the same moment.
A real server process, real sockets."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests._server import Client, Server, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("socket-language") / "matches.db") as running:
        yield running


def _error(client: Client) -> str:
    message: str = client.wait_type("error")["message"]
    return message


#: "take a seat first; bots join before the match", in French.
BOT_BEFORE_SEAT_FR = "prenez d'abord une place\u00a0; les bots arrivent avant la partie"


def test_each_reader_is_told_in_his_own_language(server: Server) -> None:
    room = server.create_room()
    french = Client(server, room, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    english = Client(server, room, headers={"Accept-Language": "en-GB,en;q=0.9"})
    cookie = Client(server, room, headers={"Accept-Language": "en", "Cookie": "lang=fr"})
    try:
        for client in (french, english, cookie):
            client.send(type="bot", seat=1, level="easy")  # a bot before taking a seat
        assert _error(french) == BOT_BEFORE_SEAT_FR
        assert _error(english) == "take a seat first; bots join before the match"
        assert _error(cookie) == BOT_BEFORE_SEAT_FR  # the page's cookie before the browser
        # A sentence with places filled: the numbers and names the reader's way.
        french.send(type="join", name="Ann")
        french.wait_type("welcome")
        english.send(type="join", name="Bob", seat=0)
        assert _error(english) == "seat 0 is taken"
        cookie.send(type="join", name="Cid", seat=0)
        assert _error(cookie) == "la place 0 est prise"
        french.send(type="chat", text="x" * 201)
        assert _error(french) == (
            "discussion\u00a0: un message fait au plus 200 caractères (celui-ci en a 201)"
        )
    finally:
        for client in (french, english, cookie):
            client.close()


def test_a_room_that_does_not_exist_is_said_in_french(server: Server) -> None:
    client = Client(server, "nosuchroom", headers={"Accept-Language": "fr"})
    try:
        assert _error(client) == "pas de salle 'nosuchroom'"
    finally:
        client.close()
