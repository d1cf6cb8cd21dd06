"""Ship art: every ship its own silhouette, one source for the SVG faces and the browser;
and the seat colours it is painted in, told apart by colour-blind players."""

from __future__ import annotations

import itertools
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import catalog, load_table
from spacetable.registry import game
from spacetable.render import _drawing
from spacetable.render import svg as svg_module
from spacetable.render.cards import card_svg
from spacetable.render.ship_art import race_of_key, ship_art
from tests._paths import ROOT

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


# -- the seat colours the art is painted in ---------------------------------------------------

#: Machado, Oliveira and Fernandes (2009): how people with each full colour-vision
#: deficiency see linear RGB.
_SIMULATIONS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _lab_seen(colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else float(((v + 0.055) / 1.055) ** 2.4)

    rgb = [linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (
        min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb, strict=True)))) for row in matrix
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def test_seat_colours_stay_apart_for_colour_blind_players() -> None:
    colours = [_drawing.TEAM_HEX[name] for name in _drawing.PLAYER_COLOURS]
    for deficiency, matrix in _SIMULATIONS.items():
        for a, b in itertools.combinations(colours, 2):
            seen = math.dist(_lab_seen(a, matrix), _lab_seen(b, matrix))
            assert seen >= 15, f"{a} and {b} look alike with {deficiency} (ΔE {seen:.1f})"


def test_the_browser_paints_seats_in_the_renderers_colours() -> None:
    web = Path(svg_module.__file__).parents[1] / "web"
    colours_js = (web / "js" / "shell" / "colours.js").read_text()
    found = re.search(r"const PLAYER_COLOURS = \[([^\]]*)\]", colours_js)
    assert found is not None
    js = re.findall(r'"(#[0-9a-fA-F]{6})"', found.group(1))
    assert js == [_drawing.TEAM_HEX[name] for name in _drawing.PLAYER_COLOURS]


def test_a_battle_picture_draws_each_shot_in_its_owners_colour() -> None:
    table = load_table(ROOT / "examples" / "fig1-sample-game.json")
    root = ET.fromstring(svg_module.table_svg(table, table.resolve()))
    owners = {c.id: c.owner for c in table.cards}
    colours = _drawing.player_colours(table.players)
    shots = [g for g in root.iter(f"{NS}g") if "laser" in (g.get("class") or "").split()]
    assert shots
    widths = {}
    for shot in shots:
        owner = owners[shot.get("data-ship", "")]
        assert owner is not None and shot.get("data-colour") == colours[owner]
        power = next(c for c in (shot.get("class") or "").split() if c.startswith("power-"))
        widths[power] = float(shot.findall(f"{NS}line")[1].get("stroke-width", "0"))
    assert sorted(widths.values()) == [widths[p] for p in sorted(widths)]  # wider, stronger
