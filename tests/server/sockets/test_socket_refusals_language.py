"""The games' refusals and the malformed-message errors over the socket are in each reader's
language (issue 23), as the room's own sentences are (test_socket_language.py): a French
page and an English page in the same room make the same mistake and each is told in his
own words, in every game. A real server process, real sockets; ``--runup-seconds 0`` so
that a laser round takes cards at once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from spacetable.games.stellar import race_ships
from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
from tests._server import Client, Server, running_server
from tests.server.hostile.test_http import post

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("refusals-language") / "matches.db"
    with running_server(db, "--runup-seconds", "0") as running:
        yield running


def _seat(server: Server, room: str, name: str, headers: dict[str, str]) -> Client:
    client = Client(server, room, headers=headers)
    client.send(type="join", name=name)
    client.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    return client


def _started(server: Server, phase: str, **options: Any) -> tuple[Client, Client]:
    """A French player (Ann) and an English one (Bob) in a new room, its match begun."""
    room = server.create_room(**options)
    ann, bob = _seat(server, room, "ann", FRENCH), _seat(server, room, "bob", ENGLISH)
    for client in (ann, bob):
        client.send(type="ready", ready=True)
    for client in (ann, bob):
        client.wait(lambda m: m["type"] == "state" and m["phase"] == phase)
    return ann, bob


def _refused(client: Client, **message: Any) -> str:
    client.send(**message)
    reason: str = client.wait_type("refused")["reason"]
    return reason


def _error(client: Client, text: str) -> str:
    client.send_raw(text)
    said: str = client.wait_type("error")["message"]
    return said


def test_malformed_messages_are_told_in_the_readers_language(server: Server) -> None:
    room = server.create_room()
    french, english = Client(server, room, headers=FRENCH), Client(server, room, headers=ENGLISH)
    try:
        bad_seat = '{"type": "bot", "seat": 1.5}'
        assert _error(english, bad_seat) == (
            "bad bot message: seat: Input should be a valid integer, got a number with a "
            "fractional part"
        )
        assert _error(french, bad_seat) == (
            "message bot incorrect\u00a0: seat\u00a0: La valeur doit être un nombre entier, "
            "pas un nombre à virgule"
        )
        assert _error(english, '{"type": "ready", "k0": 1}') == (
            "bad ready message: unknown field 'k0'"
        )
        assert _error(french, '{"type": "ready", "k0": 1}') == (
            "message ready incorrect\u00a0: champ inconnu 'k0'"
        )
        assert _error(french, '{"type": "join", "name": ""}') == (
            "message join incorrect\u00a0: name\u00a0: Le texte doit avoir au moins "
            "1\u00a0caractère"
        )
        assert _error(french, '{"type": "chat", "channel": "all"}') == (
            "message chat incorrect\u00a0: channel\u00a0: La valeur doit être 'players' ou "
            "'spectators'"
        )
        assert _error(french, "[]") == (
            "un message doit être un objet JSON avec un «\u00a0type\u00a0»"
        )
    finally:
        french.close()
        english.close()


def test_a_message_that_is_not_json_or_too_long_is_told_in_the_readers_language(
    server: Server,
) -> None:
    """The JSON reader's words and where it stopped, and pydantic's words for a
    dictionary too long (by the error's type and context), each in his reader's language."""
    room = server.create_room()
    french, english = Client(server, room, headers=FRENCH), Client(server, room, headers=ENGLISH)
    try:
        # The JSON parser's own words, and where it stopped, in the reader's language.
        assert _error(english, '{"type": "ready"') == (
            "message is not valid JSON: unexpected end of data: line 1 column 17 (char 16)"
        )
        assert _error(french, '{"type": "ready"') == (
            "le message n'est pas du JSON valide\u00a0: fin des données inattendue\u00a0: "
            "ligne 1 colonne 17 (caractère 16)"
        )
        assert _error(french, '{"type" "ready"}') == (
            "le message n'est pas du JSON valide\u00a0: caractère inattendu, «\u00a0:\u00a0» "
            "attendu après la clé\u00a0: ligne 1 colonne 9 (caractère 8)"
        )
        # A dictionary too long: pydantic's words by the error's type and context.
        thirteen = {f"k{i}": i for i in range(13)}
        too_many = json.dumps({"type": "act", "action": thirteen})
        assert _error(english, too_many) == (
            "bad act message: action: Dictionary should have at most 12 items after "
            "validation, not more"
        )
        assert _error(french, too_many) == (
            "message act incorrect\u00a0: action\u00a0: L'objet doit avoir au plus 12 "
            "entrées, pas davantage"
        )
    finally:
        french.close()
        english.close()


def test_ftl_plots_are_refused_in_each_players_language(server: Server) -> None:
    ann, bob = _started(server, "plot", ruleset="ftl")
    try:
        assert _refused(bob, type="plot", orders=["bob:R+10"]) == (
            "piece 'bob': 'R+10': a rotation is a multiple of 15 degrees from -180 to +180"
        )
        assert _refused(ann, type="plot", orders=["ann:R+10"]) == (
            "pièce «\u00a0ann\u00a0»\u00a0: «\u00a0R+10\u00a0»\u00a0: une rotation est un "
            "multiple de 15 degrés, de -180 à +180"
        )
        assert _refused(ann, type="plot", orders=["ann:S8.5"]) == (
            "pièce «\u00a0ann\u00a0»\u00a0: «\u00a0S8.5\u00a0»\u00a0: une course va de 1 à 8 "
            "pouces, par demi-pouces"
        )
        assert _refused(ann, type="draft", orders=["bob:R+45"]) == (
            "ordre «\u00a0R+45\u00a0» pour «\u00a0bob\u00a0»\u00a0: cette pièce est à bob"
        )
        assert _refused(bob, type="plot", orders=["ann:R+45"]) == (
            "order 'R+45' for 'ann': that piece is ann's"
        )
        assert _refused(ann, type="unplot") == "il n'y a pas d'ordres à reprendre"
        assert _refused(ann, type="act", action={"type": "move"}) == (
            "Faster Than Light se joue en donnant ses ordres\u00a0: pas de act"
        )
    finally:
        ann.close()
        bob.close()


def test_a_light_speed_card_is_refused_in_each_players_language(server: Server) -> None:
    ann, bob = _started(server, "fast", ruleset="lightspeed")
    try:
        french = _refused(ann, type="drop", x=0, y=0, rotation=0)
        assert french.startswith("personne n'a encore crié «\u00a0stop\u00a0»\u00a0: posez votre ")
        english = _refused(bob, type="drop", x=0, y=0, rotation=0)
        assert english.startswith("nobody has called stop yet: place your ")
        off = {"x": 5000, "y": 0, "rotation": 0}
        assert _refused(ann, type="place", **off).endswith(" serait hors de la table")
        assert _refused(bob, type="place", **off).endswith(" would lie off the table")
        assert _refused(ann, type="fleet", ships=["x"]) == ("Light Speed n'a pas d'action fleet")
        # The asteroid in the middle of the table: a card put on it overlaps it.
        over = _refused(ann, type="place", x=0, y=0, rotation=0)
        assert over.startswith("votre ") and over.endswith(" chevaucherait l'astéroïde"), over
        assert _refused(bob, type="place", x=0, y=0, rotation=0).endswith(
            " would overlap the asteroid"
        )
    finally:
        ann.close()
        bob.close()


def test_a_stellar_fleet_is_refused_in_each_players_language(server: Server) -> None:
    ann, bob = _started(server, "preparation", ruleset="stellar", races=["wiss", "vak"])
    try:
        wiss = race_ships("wiss")
        cargo = next(key for key, ship in wiss.items() if ship.role == "cargo")
        glint, grub = "wiss-glint", "vak-grub"
        assert wiss[glint].name == "Glint" and race_ships("vak")[grub].name == "Grub"
        french = _refused(ann, type="fleet", ships=[cargo])
        assert french == (
            f"votre cargo {wiss[cargo].name} se met de lui-même en haut de votre "
            "paquet\u00a0: ne le prenez pas"
        )
        assert _refused(ann, type="fleet", ships=[grub]) == (
            "le Grub est un vaisseau Vak\u00a0: vous commandez les Wiss"
        )
        assert _refused(bob, type="fleet", ships=[glint]) == (
            "the Glint is a Wiss ship: you command the Vak"
        )
        assert _refused(ann, type="place", x=0, y=0, rotation=0) == (
            "choisissez d'abord votre flotte"
        )
    finally:
        ann.close()
        bob.close()


def test_a_hex_fleet_act_is_refused_in_each_players_language(server: Server) -> None:
    ann, bob = _started(server, "activation", ruleset="hexfleet", scenario="duel")
    try:
        assert _refused(ann, type="act", action={"type": "move"}) == (
            "il manque 'ship' à l'action move"
        )
        assert _refused(bob, type="act", action={"type": "move"}) == "move action lacks 'ship'"
        assert _refused(ann, type="act", action={"type": "warp", "ship": "x"}).startswith(
            "type d'action inconnu 'warp' (connus\u00a0: "
        )
        assert _refused(ann, type="act", action={"type": "move", "ship": 3, "steps": "F"}) == (
            "action move\u00a0: 'ship' doit être un texte, pas 3"
        )
        assert _refused(ann, type="plot", orders=[]) == (
            "Flotte hex se joue une action à la fois\u00a0: pas de plot"
        )
        assert _refused(bob, type="plot", orders=[]) == (
            "Hex fleet is played one action at a time: there is no plot"
        )
    finally:
        ann.close()
        bob.close()


def test_a_room_the_server_refuses_is_told_as_a_phrase(server: Server) -> None:
    """``POST /api/rooms`` with an option out of range: the lobby shows ``says`` in its
    reader's language; ``detail`` stays pydantic's English."""
    body = json.dumps({"ruleset": "ftl", "seats": 2, "plot_timer_s": 0})
    status, answer = post(server, "/api/rooms", body)
    assert status == 422, answer
    assert answer["detail"] == "plot_timer_s: Input should be greater than 0"
    said = Phrase.from_json(answer["says"]).text(translator("fr"))
    assert said == "plot_timer_s\u00a0: La valeur doit être strictement supérieure à 0"
