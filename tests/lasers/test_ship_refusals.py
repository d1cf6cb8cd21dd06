"""Ship definitions that are refused, each with an error naming the file, the ship and the
field at fault (DESIGN section 2), the bounds of what is accepted, and hostile or oversized
catalogs stopped early."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spacetable.lasers.ships import (
    CARD_SIZE_MM,
    MAX_CATALOG_BYTES,
    Shield,
    ShipDefinitionError,
    load_catalog,
    parse_catalog,
    ship_from_mapping,
    ships_from_mapping,
)
from tests.lasers.test_ships import write

CARD_W, CARD_L = CARD_SIZE_MM
HW, HL = CARD_W / 2, CARD_L / 2


# --------------------------------------------------------------------------- bad definitions


def base() -> dict[str, Any]:
    """A valid definition that each error case below breaks in one place."""
    return {
        "name": "Scout",
        "speed": 3,
        "health": 2,
        "lasers": [{"at": [0.0, 44.0], "angle": 0.0, "power": 2}],
        "shields": [{"edge": "front", "from": -10.0, "to": 10.0}],
    }


def test_base_definition_is_valid() -> None:
    assert ship_from_mapping("scout", base()).name == "Scout"


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation that sets ``data[a][i][b] = value`` for ``path`` like ``lasers.0.at``."""

    def mutate(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return mutate


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        del data[key]

    return mutate


BAD: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    (
        "laser inside the card",
        _set("lasers.0.at", [0.0, 40.0]),
        ["lasers[0].at", "not on the edge"],
    ),
    (
        "laser outside the card",
        _set("lasers.0.at", [0.0, 50.0]),
        ["lasers[0].at", "not on the edge"],
    ),
    (
        "laser beyond a corner",
        _set("lasers.0.at", [40.0, 44.0]),
        ["lasers[0].at", "not on the edge"],
    ),
    ("laser at the centre", _set("lasers.0.at", [0, 0]), ["lasers[0].at", "not on the edge"]),
    ("laser at not a point", _set("lasers.0.at", [0.0]), ["lasers[0].at"]),
    ("laser at a string", _set("lasers.0.at", ["0", "44"]), ["lasers[0].at[0]", "number"]),
    ("shield off the front", _set("shields.0.from", -40.0), ["shields[0]", "off the front edge"]),
    (
        "shield off the left",
        _set("shields.0", {"edge": "left", "from": 0, "to": 50}),
        ["shields[0]", "off the left edge"],
    ),
    (
        "shield from > to",
        _set("shields.0", {"edge": "front", "from": 10, "to": -10}),
        ["shields[0]", "'from'", "'to'"],
    ),
    ("shield bad edge", _set("shields.0.edge", "top"), ["shields[0].edge"]),
    ("shield missing to", _set("shields.0", {"edge": "back", "from": 0}), ["shields[0].to"]),
    ("missing health", _drop("health"), ["missing 'health'"]),
    ("missing speed", _drop("speed"), ["missing 'speed'"]),
    ("health 0", _set("health", 0), ["'health'", "at least 1"]),
    ("health float", _set("health", 2.5), ["'health'", "integer"]),
    ("health 2.0", _set("health", 2.0), ["'health'", "integer"]),
    ("health string", _set("health", "2"), ["'health'", "integer"]),
    ("health bool", _set("health", True), ["'health'", "integer"]),
    ("power 0", _set("lasers.0.power", 0), ["lasers[0]", "'power'"]),
    ("power 4", _set("lasers.0.power", 4), ["lasers[0]", "'power'", "1, 2 or 3"]),
    ("power missing", _set("lasers.0", {"at": [0.0, 44.0]}), ["lasers[0]", "missing 'power'"]),
    ("unknown laser kind", _set("lasers.0.kind", "plasma"), ["lasers[0]", "'kind'"]),
    ("unknown field", _set("colour", "red"), ["unknown field", "colour"]),
    ("unknown laser field", _set("lasers.0.range", 5), ["lasers[0]", "unknown field", "range"]),
    ("speeds decreasing", _set("speed", [6, 2]), ["'speed'", "increasing"]),
    ("speeds repeated", _set("speed", [2, 2]), ["'speed'", "distinct"]),
    ("speeds empty", _set("speed", []), ["'speed'", "empty"]),
    ("speed float", _set("speed", 1.5), ["'speed'", "integer"]),
    ("unknown role", _set("role", "pirate"), ["'role'"]),
    ("empty name", _set("name", ""), ["'name'"]),
    ("lasers not a list", _set("lasers", {"at": [0, 44]}), ["'lasers'", "list"]),
    # Bounds (docs/formats.md, Limits): a renderer draws one dot per health point, and the
    # resolver's work grows with speeds x lasers.
    ("health 101", _set("health", 101), ["'health'", "at most 100", "got 101"]),
    ("health 200000", _set("health", 200_000), ["'health'", "at most 100"]),
    ("health 10**300", _set("health", 10**300), ["'health'", "at most 100", "301 digits"]),
    ("health 1e300", _set("health", 1e300), ["'health'", "integer"]),
    ("vp 101", _set("vp", 101), ["'vp'", "at most 100"]),
    ("credits 10**20", _set("credits", 10**20), ["'credits'", "at most 100"]),
    ("speed 100", _set("speed", 100), ["'speed'", "at most 99"]),
    ("11 speeds", _set("speed", list(range(11))), ["'speed'", "11 speeds", "at most 10"]),
    ("8000 speeds", _set("speed", list(range(8000))), ["'speed'", "8000 speeds"]),
    (
        "21 lasers",
        _set("lasers", [{"at": [0.0, 44.0], "power": 1}] * 21),
        ["'lasers'", "21 entries", "at most 20"],
    ),
    (
        "21 shields",
        _set("shields", [{"edge": "front", "from": 0, "to": 1}] * 21),
        ["'shields'", "21 entries", "at most 20"],
    ),
    ("angle 361", _set("lasers.0.angle", 361.0), ["lasers[0].angle", "-360..360"]),
    ("power 10**300", _set("lasers.0.power", 10**300), ["lasers[0]", "'power'", "at most"]),
    ("at 10**400", _set("lasers.0.at", [10**400, 0]), ["lasers[0].at[0]", "must be a number"]),
    ("long name", _set("name", "x" * 101), ["'name'", "100 characters"]),
    ("long notes", _set("notes", "x" * 2001), ["'notes'", "2000 characters"]),
]


@pytest.mark.parametrize(
    ("mutate", "fragments"), [(m, f) for _, m, f in BAD], ids=[d for d, _, _ in BAD]
)
def test_bad_definition_names_ship_and_field(
    mutate: Callable[[dict[str, Any]], None], fragments: list[str]
) -> None:
    data = base()
    mutate(data)
    with pytest.raises(ShipDefinitionError) as info:
        ship_from_mapping("scout", data)
    message = str(info.value)
    assert "'scout'" in message
    for fragment in fragments:
        assert fragment in message


@pytest.mark.parametrize(
    ("mutate", "fragments"), [(m, f) for _, m, f in BAD[:8]], ids=[d for d, _, _ in BAD[:8]]
)
def test_bad_definition_in_a_file_names_file_ship_and_field(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], None], fragments: list[str]
) -> None:
    data = base()
    mutate(data)
    good = {"name": "Fine", "speed": 1, "health": 1}
    path = write(tmp_path, "fleet.json", json.dumps({"ships": {"fine": good, "broken_ship": data}}))
    with pytest.raises(ShipDefinitionError) as info:
        load_catalog(path)
    message = str(info.value)
    assert str(path) in message
    assert "'broken_ship'" in message
    for fragment in fragments:
        assert fragment in message


def test_bad_toml_ship_names_file_ship_and_field(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "fleet.toml",
        "[ships.broken]\nspeed = 1\nhealth = 1\nlasers = [{ at = [0.0, 43.0], power = 1 }]\n",
    )
    with pytest.raises(ShipDefinitionError, match=re.escape(str(path))) as info:
        load_catalog(path)
    assert "'broken'" in str(info.value)
    assert "lasers[0].at" in str(info.value)


@pytest.mark.parametrize(
    ("name", "text", "fragment"),
    [
        ("bad.toml", "[ships.moth\nspeed = 1\n", "not valid TOML"),
        ("bad.toml", "[ships.moth]\nspeed = \n", "not valid TOML"),
        ("bad.json", '{"ships": {"moth": {"speed": 1,}}}', "not valid JSON"),
        ("bad.json", "", "not valid JSON"),
        ("empty.toml", "", "no 'ships' table"),
        ("list.json", "[1, 2]", "no 'ships' table"),
        ("noships.json", '{"ships": {}}', "no 'ships' table"),
        ("wrong.toml", 'ships = "moth"\n', "no 'ships' table"),
    ],
)
def test_malformed_file_names_the_file(tmp_path: Path, name: str, text: str, fragment: str) -> None:
    path = write(tmp_path, name, text)
    with pytest.raises(ShipDefinitionError) as info:
        load_catalog(path)
    assert str(path) in str(info.value)
    assert fragment in str(info.value)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(ShipDefinitionError, match="cannot read") as info:
        load_catalog(path)
    assert str(path) in str(info.value)


def test_parse_catalog_names_its_source() -> None:
    with pytest.raises(ShipDefinitionError, match=r"^somewhere: ship 'x': missing 'health'"):
        parse_catalog('{"ships": {"x": {"speed": 1}}}', "json", "somewhere")


# Non-finite numbers are refused: TOML allows `nan` and `inf` and Python's json accepts
# NaN/Infinity, and such an angle would crash the battle later.
@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (_set("lasers.0.angle", math.nan), "lasers[0].angle"),
        (_set("lasers.0.angle", math.inf), "lasers[0].angle"),
        (_set("shields.0", {"edge": "front", "from": math.nan, "to": math.nan}), "shields[0]"),
        (_set("shields.0", {"edge": "front", "from": math.nan, "to": 5.0}), "shields[0]"),
    ],
    ids=["angle-nan", "angle-inf", "shield-nan-nan", "shield-nan-to"],
)
def test_non_finite_numbers_are_rejected(
    mutate: Callable[[dict[str, Any]], None], fragment: str
) -> None:
    data = base()
    mutate(data)
    with pytest.raises(ShipDefinitionError) as info:
        ship_from_mapping("scout", data)
    assert "'scout'" in str(info.value)
    assert fragment in str(info.value)


def test_non_finite_laser_position_is_rejected() -> None:
    for at in ([math.nan, 44.0], [0.0, math.inf]):
        data = base()
        data["lasers"][0]["at"] = at
        with pytest.raises(ShipDefinitionError, match=re.escape("lasers[0].at")):
            ship_from_mapping("scout", data)


def test_shield_may_cover_a_whole_side_edge() -> None:
    data = base()
    data["shields"] = [
        {"edge": "right", "from": -HL, "to": HL},
        {"edge": "back", "from": -HW, "to": HW},
    ]
    ship = ship_from_mapping("scout", data)
    assert ship.shields == (Shield("right", -HL, HL), Shield("back", -HW, HW))
    assert ship.shields[0].covers(HL)
    assert ship.shields[0].covers(-HL)
    assert not ship.shields[0].covers(HL + 0.01)


def test_too_many_definitions_are_refused() -> None:
    one = base()
    with pytest.raises(ShipDefinitionError, match="201 ship definitions, at most 200"):
        ships_from_mapping({f"s{i}": one for i in range(201)})
    assert len(ships_from_mapping({f"s{i}": one for i in range(200)})) == 200


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[ships.a]\nhealth = " + "9" * 5000, "not valid TOML"),
        ("a = " + "[" * 100_000 + "]" * 100_000, "not valid TOML"),
    ],
    ids=["5000-digit integer", "100k-deep array"],
)
def test_hostile_toml_catalog_names_the_file(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ShipDefinitionError, match=fragment):
        load_catalog(path)


def test_catalog_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_CATALOG_BYTES + 1))
    with pytest.raises(ShipDefinitionError, match=r"huge\.json: the file is larger than"):
        load_catalog(path)
