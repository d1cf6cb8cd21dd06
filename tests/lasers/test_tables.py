"""Table files (DESIGN section 3): reading, checking, writing back."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from spacetable.lasers.tables import (
    MAX_CARDS,
    MAX_TABLE_BYTES,
    TableError,
    load_table,
    parse_table,
    table_from_json,
)
from tests._paths import ROOT

FIG1 = ROOT / "examples" / "fig1-sample-game.json"


def fig1() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIG1.read_text(encoding="utf-8"))
    return data


def test_fig1_sample_game_plays_as_the_rulebook_tells() -> None:
    outcome = load_table(FIG1).resolve()
    result = outcome.to_json()
    # The Moth mines 2 and nicks the Blue Ghost; the Sidewinder kills it.
    moth_shots = [e for e in result["events"] if e.get("ship") == "red-moth"]
    assert [e["result"] for e in moth_shots if e["type"] == "laser"] == ["mine", "damage"]
    assert result["ships"]["blue-ghost"] == {
        "alive": False,
        "rocks": 0,
        "damage": {"red": 3},
        "delay_tokens": 0,
    }
    assert result["kill_piles"] == {"red": ["blue-ghost"], "blue": []}
    # The Intruder hits the Red Ghost's shield and fires its other laser into space.
    intruder = [
        e["result"]
        for e in result["events"]
        if e["type"] == "laser" and e["ship"] == "blue-intruder"
    ]
    assert intruder == ["blocked", "space"]
    # The Red Ghost hits the Intruder's shield and damages the Avenger.
    red_ghost = [
        (e["result"], e["target"])
        for e in result["events"]
        if e["type"] == "laser" and e["ship"] == "red-ghost"
    ]
    assert red_ghost == [("blocked", "blue-intruder"), ("damage", "blue-avenger")]
    # The Blue Ghost never fires; the Avenger mines 2.
    assert not any(e.get("ship") == "blue-ghost" for e in result["events"] if e["type"] == "laser")
    assert result["ships"]["blue-avenger"]["rocks"] == 2
    assert result["asteroids"] == {"asteroid": {"rocks": 8}}
    assert result["scores"] == {"red": 4, "blue": 2}
    assert result["winner"] == "red"


def test_round_trip_through_json() -> None:
    table = load_table(FIG1)
    again = table_from_json(json.loads(json.dumps(table.to_json())))
    assert again == table
    assert again.resolve().to_json() == table.resolve().to_json()


def test_defaults_for_rocks_and_cargo_cubes() -> None:
    data = fig1()
    del data["cards"][0]["rocks"]
    assert parse_table(json.dumps(data)).cards[0].rocks == 12
    for players, cubes in ((["a", "b"], 8), (["a", "b", "c"], 5), (["a", "b", "c", "d"], 4)):
        stellar = {
            "ruleset": "stellar",
            "players": players,
            "ships": {"hauler": {"name": "Hauler", "speed": 8, "health": 3, "role": "cargo"}},
            "cards": [{"id": "h", "owner": "a", "ship": "hauler", "x": 0, "y": 0}],
        }
        assert table_from_json(stellar).cards[0].rocks == cubes


def test_table_ships_extend_and_override_the_catalog() -> None:
    data = fig1()
    data["ships"] = {"moth": {"name": "Big Moth", "speed": 1, "health": 4, "lasers": []}}
    table = table_from_json(data)
    moth = next(c for c in table.cards if c.id == "red-moth")
    assert moth.ship is not None and moth.ship.name == "Big Moth"
    assert table.resolve().ships["red-moth"].rocks == 0


def _broken(change: Any) -> str:
    data = fig1()
    change(data)
    with pytest.raises(TableError) as info:
        table_from_json(data)
    return str(info.value)


def test_touching_cards_are_named() -> None:
    def touch(d: dict[str, Any]) -> None:
        # The Moth's front edge (y = -106) moved onto the asteroid's back edge (y = -44).
        d["cards"][1]["y"] = -88.0

    assert _broken(touch) == "cards 'asteroid' and 'red-moth' touch or overlap"


def test_overlapping_rotated_cards_are_named() -> None:
    def overlap(d: dict[str, Any]) -> None:
        d["cards"][4].update(x=150, y=250, rotation=33)

    assert "'red-sidewinder' and 'blue-ghost' touch or overlap" in _broken(overlap)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"][1].update(ship="falcon"), "card 'red-moth': unknown ship 'falcon'"),
        (lambda d: d["cards"][1].update(owner="green"), "card 'red-moth': owner 'green' is not"),
        (lambda d: d.update(players=["a", "b", "c", "d", "e"]), "got 5"),
        (lambda d: d.update(players=["red"]), "got 1"),
        (lambda d: d.update(players=["red", "red"]), "distinct"),
        (lambda d: d.update(ruleset="chess"), "'ruleset' must be one of"),
        (lambda d: d.update(variant={"stolen_goods": True}), "not a lightspeed option"),
        (lambda d: d["cards"].append(copy.deepcopy(d["cards"][1])), "two cards have the id"),
        (lambda d: d["cards"][1].update(x="left"), "card 'red-moth': 'x' must be a number"),
        (lambda d: d["cards"][1].update(rocks=-1), "card 'red-moth': 'rocks' must be"),
        (lambda d: d["cards"][0].update(owner="red"), "an asteroid has no 'owner'"),
        (lambda d: d["cards"][1].update(colour="red"), "unknown field(s) colour"),
        (lambda d: d.update(table={"width": 300, "height": 300}), "lies (partly) off the"),
        (lambda d: d.update(cards=[]), "'cards' must be a non-empty list"),
        # Bounds (docs/formats.md, Limits).
        (lambda d: d.update(card_size=[1e300, 1e300]), "card_size must lie within 1..1000"),
        (lambda d: d.update(card_size=[10**400, 88]), "card_size must be a number, got an"),
        (lambda d: d.update(card_size=[0, 88]), "card_size must be positive"),
        (lambda d: d.update(table={"width": 1e9, "height": 800}), "'table' must lie within"),
        (lambda d: d["cards"][1].update(size=[63, 5000]), "card 'red-moth': 'size' must lie"),
        (lambda d: d["cards"][1].update(x=1e300), "card 'red-moth': 'x' must lie within"),
        (lambda d: d["cards"][1].update(y=-20_000), "card 'red-moth': 'y' must lie within"),
        (lambda d: d["cards"][1].update(x=10**400), "card 'red-moth': 'x' must be a number"),
        (lambda d: d["cards"][1].update(rotation=True), "'rotation' must be a number"),
        (lambda d: d["cards"][0].update(rocks=10**300), "'rocks' must be a whole number from"),
        (lambda d: d["cards"][0].update(rocks=101), "'rocks' must be a whole number from 0 to 100"),
        (lambda d: d["cards"][1].update(id="x" * 201), "cards[1] needs an 'id' string of 1 to"),
        (lambda d: d.update(players=["red", "b" * 201]), "'players' names must be strings of"),
        (
            lambda d: d.update(
                ships={"moth": {"name": "Moth", "speed": 1, "health": 10**300, "lasers": []}}
            ),
            "ship 'moth': 'health' must be at most 100",
        ),
        (
            lambda d: d.update(
                ships={
                    "bad": {
                        "name": "Bad",
                        "speed": 1,
                        "health": 1,
                        "lasers": [{"at": [0, 40], "power": 1}],
                    }
                }
            ),
            "ship 'bad': lasers[0].at [0.0, 40.0] is not on the edge",
        ),
        (
            lambda d: d.update(
                ships={
                    "bad": {
                        "name": "Bad",
                        "speed": 1,
                        "health": 1,
                        "shields": [{"edge": "left", "from": 0, "to": 50}],
                    }
                }
            ),
            "ship 'bad': shields[0]: 0..50 lies off the left edge",
        ),
    ],
)
def test_invalid_tables_say_what_is_wrong(change: Any, message: str) -> None:
    assert message in _broken(change)


def test_malformed_json_names_the_place() -> None:
    with pytest.raises(TableError, match=r"malformed JSON at line 1, column"):
        parse_table('{"ruleset": "lightspeed",')
    with pytest.raises(TableError, match="must hold a JSON object"):
        parse_table("[1, 2]")


def test_more_cards_than_the_limit_are_refused() -> None:
    data = fig1()
    rock = data["cards"][0]
    data["cards"] = [
        {**rock, "id": f"rock{i}", "x": i % 20 * 100, "y": i // 20 * 100}
        for i in range(MAX_CARDS + 1)
    ]
    with pytest.raises(TableError, match="'cards' lists 201 cards, at most 200"):
        table_from_json(data)
    data["cards"] = data["cards"][:MAX_CARDS]
    assert len(table_from_json(data).cards) == MAX_CARDS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested more than 1024 deep"),
        ('{"ruleset": ' + "9" * 400 + "}", "a number too large"),
        ('{"x": NaN}', "malformed JSON at line 1, column 7"),
        (b'{"x": "\xff"}', "not UTF-8"),
        (" " * (MAX_TABLE_BYTES + 1), "larger than 1,048,576 bytes"),
    ],
    ids=["100k-deep nesting", "400-digit integer", "NaN", "latin-1", "too large"],
)
def test_hostile_json_is_refused_in_one_line(text: str | bytes, message: str) -> None:
    with pytest.raises(TableError, match=message) as info:
        parse_table(text)
    assert "\n" not in str(info.value)


def test_a_byte_order_mark_is_accepted() -> None:
    text = FIG1.read_text(encoding="utf-8")
    assert parse_table("\ufeff" + text) == parse_table(text.encode("utf-8-sig")) == load_table(FIG1)
