"""Ship art: every ship its own silhouette, one source for the SVG faces and the browser."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from spacetable.core.registry import game
from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import catalog
from spacetable.render.ship_art import race_of_key, ship_art
from spacetable.render.svg import card_svg

NS = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
POINT = re.compile(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)")


def _all_ships() -> dict[str, ShipDef]:
    return {**catalog("lightspeed"), **catalog("stellar")}


def test_every_ship_in_every_catalog_has_art_of_its_own() -> None:
    ships = {**catalog("lightspeed"), **catalog("stellar")}
    drawings = {key: repr(ship_art(ship)) for key, ship in ships.items()}
    assert len(set(drawings.values())) == len(ships), "two ships share a drawing"


def test_the_same_ship_is_always_drawn_the_same() -> None:
    moth = catalog("lightspeed")["moth"]
    assert ship_art(moth) == ship_art(moth)


def test_art_stays_on_the_card_between_the_badges_and_the_name() -> None:
    # SVG axes on a 63 x 88 card: the speed badge tops the card at y < -33, the name's
    # letters start below y = 25.5, the health dots run down x > 23.5 above y = -5.
    for key, ship in _all_ships().items():
        for part in ship_art(ship):
            for x, y in ((float(a), float(b)) for a, b in POINT.findall(part["d"])):
                assert abs(x) <= 28 and -33 <= y <= 25.5, (key, x, y)
            assert part["fill"] == "team" or part["fill"].startswith("#")


def test_races_are_told_by_their_keys() -> None:
    assert race_of_key("wiss-glint") == "wiss"
    assert race_of_key("tetrakori-seeker") == "tetrakori"
    assert race_of_key("moth") is None
    assert race_of_key("vakuum") is None


def test_the_four_races_draw_different_families_of_shapes() -> None:
    stellar = catalog("stellar")

    def family(race: str) -> set[str]:
        return {
            p["d"][0] + str(p["d"].count("A") > 0) + str(p["d"].count("Q") > 0)
            for k, s in stellar.items()
            if k.startswith(race)
            for p in ship_art(s)
        }

    hexai = [p for k, s in stellar.items() if k.startswith("hexai-") for p in ship_art(s)]
    assert sum(p["d"].count("L") == 5 for p in hexai) > len(hexai) / 2  # hexagons
    wiss = [p for k, s in stellar.items() if k.startswith("wiss-") for p in ship_art(s)]
    assert any("Q" in p["d"] for p in wiss)  # curves
    tetrakori = [p for k, s in stellar.items() if k.startswith("tetrakori-") for p in ship_art(s)]
    assert sum("A" in p["d"] for p in tetrakori) > len(tetrakori) / 3  # round segments
    assert family("vak") != family("wiss")


def test_bigger_ships_fill_more_of_the_card() -> None:
    ships = catalog("lightspeed")

    def extent(key: str) -> float:
        ys = [float(v) for p in ship_art(ships[key]) for v in NUMBER.findall(p["d"])[1::2]]
        return max(ys) - min(ys)

    assert extent("moth") < extent("viper") < extent("dreadnought")


def test_card_faces_draw_the_art_in_the_owners_colour() -> None:
    moth = catalog("lightspeed")["moth"]
    root = ET.fromstring(card_svg(moth, "blue"))
    art = [g for g in root.iter(f"{NS}g") if g.get("class") == "art"]
    assert len(art) == 1 and art[0].get("data-ship") == "moth"
    paths = art[0].findall(f"{NS}path")
    assert [p.get("d") for p in paths] == [p["d"] for p in ship_art(moth)]
    team = [p for p, part in zip(paths, ship_art(moth), strict=True) if part["fill"] == "team"]
    assert team and all(p.get("fill") == "#0072b2" for p in team)


@pytest.mark.parametrize(("key", "ruleset"), [("lightspeed", "lightspeed"), ("stellar", "stellar")])
def test_the_browser_gets_the_same_art_as_a_game_resource(key: str, ruleset: str) -> None:
    served = game(key).resource("art")
    ships = catalog(ruleset)
    assert set(served) == set(ships)
    assert all(served[k] == ship_art(s) for k, s in ships.items())


def test_games_do_not_import_the_renderer_to_register() -> None:
    code = (
        "import sys, spacetable.games.lightspeed, spacetable.games.stellar;"
        "print(any(m.startswith('spacetable.render') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
