"""Ship definitions (DESIGN section 2): the built-in Light Speed catalog, loading TOML and
JSON catalogs, and the checks that reject impossible definitions naming ship and field."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.lasers.geometry import EDGES, Edge, heading, on_edge
from spacetable.lasers.ships import (
    CARD_SIZE_MM,
    LASER_KINDS,
    MAX_CATALOG_BYTES,
    MAX_HEALTH,
    MAX_LASERS,
    MAX_SPEEDS,
    ROLES,
    Laser,
    Shield,
    ShipDef,
    ShipDefinitionError,
    builtin_catalog,
    load_catalog,
    parse_catalog,
    ship_from_mapping,
    ships_from_mapping,
)
from spacetable.lasers.tables import catalog as tables_catalog
from tests._paths import ROOT

CARD_W, CARD_L = CARD_SIZE_MM
HW, HL = CARD_W / 2, CARD_L / 2

#: Outward normal of each edge in the card's local frame.
OUTWARD: dict[Edge, tuple[float, float]] = {
    "front": (0.0, 1.0),
    "back": (0.0, -1.0),
    "left": (-1.0, 0.0),
    "right": (1.0, 0.0),
}


def edges_of(point: tuple[float, float], size: tuple[float, float] = CARD_SIZE_MM) -> set[Edge]:
    """The edges of a ``size`` card that a local point lies on."""
    x, y = point
    hw, hl = size[0] / 2, size[1] / 2
    found: set[Edge] = set()
    if math.isclose(y, hl, abs_tol=1e-6):
        found.add("front")
    if math.isclose(y, -hl, abs_tol=1e-6):
        found.add("back")
    if math.isclose(x, -hw, abs_tol=1e-6):
        found.add("left")
    if math.isclose(x, hw, abs_tol=1e-6):
        found.add("right")
    return found


def points_outward(laser: Laser, size: tuple[float, float] = CARD_SIZE_MM) -> bool:
    """Whether a laser leaves its card through the edge it sits on (not across the card)."""
    dx, dy = heading(laser.angle_deg)
    return any(dx * OUTWARD[e][0] + dy * OUTWARD[e][1] > 1e-9 for e in edges_of(laser.at, size))


# --------------------------------------------------------------------------- built-in catalog


@pytest.fixture(scope="module")
def catalog() -> dict[str, ShipDef]:
    return builtin_catalog("lightspeed")


def test_catalog_has_ten_ships_one_per_speed(catalog: dict[str, ShipDef]) -> None:
    assert len(catalog) == 10
    assert all(len(ship.speeds) == 1 for ship in catalog.values())
    assert sorted(ship.speed for ship in catalog.values()) == list(range(1, 11))


def test_catalog_health_powers_and_shields(catalog: dict[str, ShipDef]) -> None:
    assert {ship.health for ship in catalog.values()} == {1, 2, 3, 4}
    powers = {laser.power for ship in catalog.values() for laser in ship.lasers}
    assert powers == {1, 2, 3}
    assert any(ship.shields for ship in catalog.values())
    for ship in catalog.values():
        assert ship.lasers, ship.key
        assert ship.vp == ship.health  # Light Speed scores health
        assert ship.role == "warship"
        assert ship.card_size == CARD_SIZE_MM
        assert all(laser.kind == "normal" for laser in ship.lasers)


def test_catalog_keys_and_names(catalog: dict[str, ShipDef]) -> None:
    assert {key: ship.name for key, ship in catalog.items()} == {
        "moth": "Moth",
        "sidewinder": "Sidewinder",
        "wasp": "Wasp",
        "intruder": "Intruder",
        "viper": "Viper",
        "ghost": "Ghost",
        "lancer": "Lancer",
        "avenger": "Avenger",
        "destroyer": "Destroyer",
        "dreadnought": "Dreadnought",
    }
    assert all(key == ship.key for key, ship in catalog.items())


def test_catalog_lasers_leave_through_their_edge(catalog: dict[str, ShipDef]) -> None:
    for ship in catalog.values():
        for laser in ship.lasers:
            assert on_edge(laser.at, CARD_W, CARD_L), (ship.key, laser)
            assert points_outward(laser), (ship.key, laser)


def test_rulebook_moth(catalog: dict[str, ShipDef]) -> None:
    moth = catalog["moth"]
    assert moth.speed == 1
    assert moth.health == 1
    assert sorted(laser.power for laser in moth.lasers) == [1, 2]


def test_rulebook_sidewinder(catalog: dict[str, ShipDef]) -> None:
    assert catalog["sidewinder"].speed == 2
    assert catalog["sidewinder"].health == 2


def test_rulebook_intruder(catalog: dict[str, ShipDef]) -> None:
    intruder = catalog["intruder"]
    assert len(intruder.lasers) == 2
    assert len(intruder.shields) >= 1


def test_rulebook_viper_and_destroyer(catalog: dict[str, ShipDef]) -> None:
    assert catalog["viper"].health == 3
    assert any(laser.power == 3 for laser in catalog["destroyer"].lasers)


def test_rulebook_ghost_and_avenger_fire_after_the_intruder(catalog: dict[str, ShipDef]) -> None:
    assert catalog["ghost"].speed > catalog["intruder"].speed
    assert catalog["avenger"].speed > catalog["intruder"].speed


def test_smallest_ship_has_one_forward_laser(catalog: dict[str, ShipDef]) -> None:
    wasp = catalog["wasp"]
    assert wasp.health == 1
    assert len(wasp.lasers) == 1
    (laser,) = wasp.lasers
    assert laser.angle_deg == 0.0
    assert edges_of(laser.at) == {"front"}


def test_largest_ship_fires_in_four_directions(catalog: dict[str, ShipDef]) -> None:
    dreadnought = catalog["dreadnought"]
    assert dreadnought.health == 4
    assert [s.key for s in catalog.values() if s.health == 4] == ["dreadnought"]
    assert {laser.angle_deg % 360 for laser in dreadnought.lasers} == {0.0, 90.0, 180.0, 270.0}
    sides = set().union(*(edges_of(laser.at) for laser in dreadnought.lasers))
    assert sides == set(EDGES)


def test_unknown_builtin_catalog() -> None:
    with pytest.raises(ShipDefinitionError, match="no built-in catalog named 'nope'"):
        builtin_catalog("nope")


# --------------------------------------------------------------------------- files

SAMPLE_TOML = """\
# two ships, written by hand
[ships.scout]
name = "Scout"
speed = 3
health = 2
lasers = [
  { at = [0.0, 44.0], angle = 0.0, power = 2 },
  { at = [31.5, -10], angle = -90, power = 1, kind = "ion" },
]
shields = [{ edge = "front", from = -10.0, to = 10.0 }]

[ships.hexai]
name = "Hexai"
speed = [2, 6]
health = 3
vp = 2
credits = 5
role = "flag"
notes = "fires twice"
lasers = [{ at = [-31.5, 0.0], angle = 90.0, power = 3, kind = "penetrating" }]
shields = [
  { edge = "left", from = -44.0, to = 44.0 },
  { edge = "back", from = 0, to = 31.5 },
]
"""

SAMPLE_JSON: dict[str, Any] = {
    "ships": {
        "scout": {
            "name": "Scout",
            "speed": 3,
            "health": 2,
            "lasers": [
                {"at": [0.0, 44.0], "angle": 0.0, "power": 2},
                {"at": [31.5, -10], "angle": -90, "power": 1, "kind": "ion"},
            ],
            "shields": [{"edge": "front", "from": -10.0, "to": 10.0}],
        },
        "hexai": {
            "name": "Hexai",
            "speed": [2, 6],
            "health": 3,
            "vp": 2,
            "credits": 5,
            "role": "flag",
            "notes": "fires twice",
            "lasers": [{"at": [-31.5, 0.0], "angle": 90.0, "power": 3, "kind": "penetrating"}],
            "shields": [
                {"edge": "left", "from": -44.0, "to": 44.0},
                {"edge": "back", "from": 0, "to": 31.5},
            ],
        },
    }
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_catalog_toml_and_json_give_the_same_ships(tmp_path: Path) -> None:
    from_toml = load_catalog(write(tmp_path, "fleet.toml", SAMPLE_TOML))
    from_json = load_catalog(str(write(tmp_path, "fleet.json", json.dumps(SAMPLE_JSON))))
    assert from_toml == from_json
    assert list(from_toml) == ["scout", "hexai"]
    assert from_toml["hexai"].notes == from_json["hexai"].notes == "fires twice"

    scout = from_toml["scout"]
    assert scout == ShipDef(
        "scout",
        "Scout",
        (3,),
        2,
        (Laser((0.0, 44.0), 0.0, 2), Laser((31.5, -10.0), -90.0, 1, "ion")),
        (Shield("front", -10.0, 10.0),),
        vp=2,  # defaults to health
    )
    assert isinstance(scout.lasers[1].at[1], float)  # integers in the file become floats
    assert isinstance(scout.lasers[1].angle_deg, float)


def test_multi_speed_ship(tmp_path: Path) -> None:
    hexai = load_catalog(write(tmp_path, "fleet.toml", SAMPLE_TOML))["hexai"]
    assert hexai.speeds == (2, 6)
    assert hexai.speed == 2
    assert hexai.health == 3
    assert hexai.vp == 2
    assert hexai.credits == 5
    assert hexai.role == "flag"
    assert hexai.lasers == (Laser((-31.5, 0.0), 90.0, 3, "penetrating"),)
    assert hexai.shields == (Shield("left", -44.0, 44.0), Shield("back", 0.0, 31.5))
    assert hexai.to_json()["speed"] == [2, 6]
    assert ship_from_mapping("hexai", hexai.to_json()) == hexai


def test_builtin_catalog_file_loads_from_disk_and_as_json(
    tmp_path: Path, catalog: dict[str, ShipDef]
) -> None:
    source = ROOT / "src" / "spacetable" / "data" / "lightspeed.toml"
    toml_copy = write(tmp_path, "lightspeed.toml", source.read_text(encoding="utf-8"))
    assert load_catalog(toml_copy) == catalog
    as_json = {"ships": {key: ship.to_json() for key, ship in catalog.items()}}
    assert load_catalog(write(tmp_path, "lightspeed.json", json.dumps(as_json))) == catalog


def test_name_defaults_to_key_and_angle_to_zero() -> None:
    ship = ship_from_mapping(
        "plain", {"speed": 1, "health": 1, "lasers": [{"at": [0, 44], "power": 1}]}
    )
    assert ship.name == "plain"
    assert ship.lasers == (Laser((0.0, 44.0), 0.0, 1),)
    assert ship.shields == ()
    assert ship.vp == 1


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


# --------------------------------------------------------------------------- round trips, scaling


def test_builtin_ships_round_trip_through_json(catalog: dict[str, ShipDef]) -> None:
    for key, ship in catalog.items():
        again = ship_from_mapping(key, json.loads(json.dumps(ship.to_json())))
        assert again == ship


@st.composite
def lasers(draw: st.DrawFn) -> Laser:
    edge = draw(st.sampled_from(EDGES))
    along = draw(st.floats(-1.0, 1.0))
    at = {
        "front": (along * HW, HL),
        "back": (along * HW, -HL),
        "left": (-HW, along * HL),
        "right": (HW, along * HL),
    }[edge]
    angle = draw(st.floats(-360.0, 360.0, allow_nan=False))
    return Laser(at, angle, draw(st.integers(1, 3)), draw(st.sampled_from(LASER_KINDS)))


@st.composite
def shields(draw: st.DrawFn) -> Shield:
    edge = draw(st.sampled_from(EDGES))
    half = HW if edge in ("front", "back") else HL
    a, b = sorted(draw(st.floats(-half, half)) for _ in range(2))
    return Shield(edge, a, b)


@st.composite
def ships(draw: st.DrawFn) -> ShipDef:
    return ShipDef(
        key=draw(st.text("abcdefghij_", min_size=1, max_size=10)),
        name=draw(st.text(min_size=1, max_size=20)),
        speeds=tuple(sorted(draw(st.sets(st.integers(0, 20), min_size=1, max_size=3)))),
        health=draw(st.integers(1, 4)),
        lasers=tuple(draw(st.lists(lasers(), max_size=4))),
        shields=tuple(draw(st.lists(shields(), max_size=3))),
        vp=draw(st.integers(0, 10)),
        credits=draw(st.integers(0, 10)),
        role=draw(st.sampled_from(ROLES)),
    )


@settings(max_examples=300)
@given(ships())
def test_ship_to_json_round_trips(ship: ShipDef) -> None:
    data = json.loads(json.dumps(ship.to_json()))
    assert ship_from_mapping(ship.key, data) == ship


@settings(max_examples=100)
@given(ships(), st.floats(40.0, 150.0), st.floats(40.0, 200.0))
def test_scaled_ship_keeps_lasers_and_shields_on_its_edges(
    ship: ShipDef, width: float, length: float
) -> None:
    size = (width, length)
    big = ship.scaled(size)
    assert big.card_size == size
    assert (big.key, big.name, big.speeds, big.health, big.vp) == (
        ship.key,
        ship.name,
        ship.speeds,
        ship.health,
        ship.vp,
    )
    for old, new in zip(ship.lasers, big.lasers, strict=True):
        assert on_edge(new.at, width, length)
        assert edges_of(new.at, size) == edges_of(old.at)
        assert (new.angle_deg, new.power, new.kind) == (old.angle_deg, old.power, old.kind)
    for old_shield, new_shield in zip(ship.shields, big.shields, strict=True):
        half = (width if new_shield.edge in ("front", "back") else length) / 2
        assert new_shield.edge == old_shield.edge
        assert -half - 1e-9 <= new_shield.start <= new_shield.end <= half + 1e-9
    # the scaled definition is itself valid on the bigger card
    assert ship_from_mapping(ship.key, big.to_json(), card_size=size) == big


def test_scaled_builtin_ships_on_a_bigger_card(catalog: dict[str, ShipDef]) -> None:
    size = (70.0, 120.0)
    for ship in catalog.values():
        big = ship.scaled(size)
        for laser in big.lasers:
            assert on_edge(laser.at, *size), (ship.key, laser)
            assert points_outward(laser, size), (ship.key, laser)
        # the scaled definition checks out against the bigger card
        assert ship_from_mapping(ship.key, big.to_json(), card_size=size) == big
    moth = catalog["moth"].scaled(size)
    assert moth.lasers[0].at == pytest.approx((-15.0 * 70.0 / 63.0, 60.0))
    assert catalog["moth"].scaled(CARD_SIZE_MM) is catalog["moth"]


def test_too_many_definitions_are_refused() -> None:
    one = base()
    with pytest.raises(ShipDefinitionError, match="201 ship definitions, at most 200"):
        ships_from_mapping({f"s{i}": one for i in range(201)})
    assert len(ships_from_mapping({f"s{i}": one for i in range(200)})) == 200


def test_every_builtin_ship_lies_within_the_limits(catalog: dict[str, ShipDef]) -> None:
    # The bounds refuse no real card: every catalog ship loads (the fixture) and sits well
    # inside them.
    for ship in [*catalog.values(), *tables_catalog("stellar").values()]:
        assert ship.health <= MAX_HEALTH // 10
        assert len(ship.speeds) <= MAX_SPEEDS // 2
        assert len(ship.lasers) <= MAX_LASERS // 2


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
