"""``POST /api/resolve`` settles any game's file through the game registry, as the
command line does: a laser table or a Faster Than Light turn, against a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
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


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        (
            '{"ruleset": "ftl",',
            "malformed JSON at line 1, column 19: unexpected end of data",
            "JSON mal formé ligne 1, colonne 19\u00a0: fin des données inattendue",
        ),
        (
            '{"ruleset": [1 2]}',
            "malformed JSON at line 1, column 16: unexpected character, expected ',' or ']'",
            "JSON mal formé ligne 1, colonne 16\u00a0: caractère inattendu, «\u00a0,\u00a0» "
            "ou «\u00a0]\u00a0» attendu",
        ),
        (
            '\n\n  {"cards": [01]}',
            "malformed JSON at line 3, column 14: number with leading zero is not allowed",
            "JSON mal formé ligne 3, colonne 14\u00a0: un nombre ne peut pas commencer par un zéro",
        ),
        (
            "",
            "malformed JSON at line 1, column 1: Input is a zero-length, empty document",
            "JSON mal formé ligne 1, colonne 1\u00a0: le document est vide (aucun octet)",
        ),
        (
            '{"a": tru}',
            "malformed JSON at line 1, column 7: invalid literal, expected 'true'",
            "JSON mal formé ligne 1, colonne 7\u00a0: littéral invalide, «\u00a0true\u00a0» "
            "attendu",
        ),
    ],
    ids=["cut short", "no comma", "leading zero", "empty", "literal"],
)
def test_a_body_that_is_not_json_is_refused_in_either_language(
    server: Server, body: str, english: str, french: str
) -> None:
    """The referee pages show the server's words for a file that is not JSON (the
    browser's own are English whatever the page's language): the parser's problem, its
    line and column, as a phrase the page writes in French (the English byte for byte)."""
    status, answer = post(server, "/api/resolve", body)
    assert status == 400, answer
    assert answer["error"] == english
    said = Phrase.from_json(answer["says"])
    assert said.text() == english
    assert said.text(translator("fr")) == french


def test_a_body_that_is_not_utf8_is_refused_in_either_language(server: Server) -> None:
    status, answer = post(server, "/api/resolve", b'{"ruleset": "caf\xe9"}')
    assert status == 400, answer
    assert answer["error"] == "the text is not UTF-8 (byte 16)"
    said = Phrase.from_json(answer["says"]).text(translator("fr"))
    assert said == "le texte n'est pas de l'UTF-8 (octet 16)"


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


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        (
            {"ruleset": "ftl", "players": ["red"], "pieces": []},
            "'players' must name 2 to 4 players, got 1",
            "«\u00a0players\u00a0» doit nommer de 2 à 4\u00a0joueurs, pas 1",
        ),
        (
            {"ruleset": "ftl", "players": ["red", "blue"], "pieces": [], "extra": 1},
            "unknown top-level field(s): 'extra'",
            "champ(s) de premier niveau inconnu(s)\u00a0: 'extra'",
        ),
        (
            json.loads((ROOT / "examples" / "ftl-collision.json").read_text("utf-8"))
            | {"orders": [{"piece": "red", "order": "S9"}]},
            "piece 'red': 'S9': a sprint is 1 to 8 inches in steps of half an inch",
            "pièce «\u00a0rouge\u00a0»\u00a0: «\u00a0S9\u00a0»\u00a0: une course va de 1 à 8 "
            "pouces, par demi-pouces",
        ),
        (
            {"ruleset": "hexfleet", "ships": {}, "steps": [], "cards": [], "extra": 1},
            "unknown top-level field(s): 'extra'",
            "champ(s) de premier niveau inconnu(s)\u00a0: 'extra'",
        ),
    ],
    ids=["one player", "an unknown field", "a sprint too long", "a script's unknown field"],
)
def test_a_refused_turn_file_or_script_says_why_as_a_phrase(
    server: Server, body: dict[str, object], english: str, french: str
) -> None:
    """An FTL turn file's refusals (and a file's header's, in any game with phrases) carry
    ``says``: the referee page writes it in French."""
    status, answer = post(server, "/api/resolve", json.dumps(body))
    assert status == 400, answer
    assert answer["error"] == english
    said = Phrase.from_json(answer["says"])
    assert said.text() == english
    assert said.text(translator("fr")) == french


def _sample_table(**changes: object) -> dict[str, object]:
    """The rulebook's sample table with some top-level fields changed."""
    table: dict[str, object] = json.loads((EXAMPLES / "fig1-sample-game.json").read_text("utf-8"))
    return table | changes


def _with_card(**changes: object) -> dict[str, object]:
    """The sample table with its first ship card changed."""
    table = _sample_table()
    cards = [dict(card) for card in table["cards"]]  # type: ignore[attr-defined]
    first_ship = next(i for i, card in enumerate(cards) if card.get("type") != "asteroid")
    cards[first_ship] |= changes
    return table | {"cards": cards}


_NBSP = "\u00a0"
_MOTH = {"name": "Moth", "speed": 3, "health": 2, "lasers": [], "shields": []}


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        (
            _with_card(id="red-moth", ship="kraken"),
            "card 'red-moth': unknown ship 'kraken' (not in the lightspeed catalog or the "
            "file's 'ships')",
            f"carte 'red-moth'{_NBSP}: vaisseau inconnu 'kraken' (ni dans le catalogue de "
            f"lightspeed ni dans les «{_NBSP}ships{_NBSP}» du fichier)",
        ),
        (
            _with_card(id="red-moth", x="far"),
            "card 'red-moth': 'x' must be a number, got 'far'",
            f"carte 'red-moth'{_NBSP}: «{_NBSP}x{_NBSP}» doit être un nombre, pas 'far'",
        ),
        (
            _sample_table(ships={"moth": _MOTH | {"health": 1000}}),
            "ship 'moth': 'health' must be at most 100, got 1000",
            f"vaisseau 'moth'{_NBSP}: «{_NBSP}health{_NBSP}» doit valoir au plus 100, pas 1000",
        ),
        (
            _sample_table(
                ships={"moth": _MOTH | {"shields": [{"edge": "left", "from": -100, "to": 2}]}}
            ),
            "ship 'moth': shields[0]: -100..2 lies off the left edge (-44..44 mm)",
            f"vaisseau 'moth'{_NBSP}: shields[0]{_NBSP}: -100..2 sort du bord gauche (-44..44 mm)",
        ),
    ],
    ids=["an unknown ship", "a card's x", "a ship's health", "a shield off its edge"],
)
def test_a_refused_table_file_says_why_as_a_phrase(
    server: Server, body: dict[str, object], english: str, french: str
) -> None:
    """A Light Speed table file's refusals, and those of the ship definitions it brings,
    carry ``says``: the laser referee page writes them in French, card and ship named."""
    status, answer = post(server, "/api/resolve", json.dumps(body))
    assert status == 400, answer
    assert answer["error"] == english
    said = Phrase.from_json(answer["says"])
    assert said.text() == english
    assert said.text(translator("fr")) == french
