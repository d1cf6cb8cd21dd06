"""Ship definitions (DESIGN section 2): the built-in Light Speed catalog, loading TOML and
JSON catalogs, round trips and scaling (refused definitions: test_ship_refusals.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.lasers.geometry import EDGES, Edge, heading, on_edge
from spacetable.lasers.ships import (
    CARD_SIZE_MM,
    LASER_KINDS,
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
    ship_from_mapping,
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


def test_every_builtin_ship_lies_within_the_limits(catalog: dict[str, ShipDef]) -> None:
    # The bounds refuse no real card: every catalog ship loads (the fixture) and sits well
    # inside them.
    for ship in [*catalog.values(), *tables_catalog("stellar").values()]:
        assert ship.health <= MAX_HEALTH // 10
        assert len(ship.speeds) <= MAX_SPEEDS // 2
        assert len(ship.lasers) <= MAX_LASERS // 2
