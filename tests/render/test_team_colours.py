"""The team colours are drawn as they are called (issue 36 item 11): "red" was drawn in
Okabe and Ito's vermillion, an orange, in the tutorials, the referee and printed cards.
The same colours in the browser (shell/colours.js) as in the SVG and PDF renderers."""

from __future__ import annotations

import colorsys
import re

from spacetable.games.hexfleet.script import read
from spacetable.render._drawing import PLAYER_COLOURS, TEAM_HEX
from spacetable.render.hexfleet_svg import _side_colours
from tests._paths import ROOT

COLOURS_JS = ROOT / "src" / "spacetable" / "web" / "js" / "shell" / "colours.js"
#: Where each name's hue lies (degrees on the colour wheel).
HUES = {"red": (-12.0, 12.0), "blue": (190.0, 230.0), "green": (140.0, 175.0),
        "purple": (280.0, 345.0)}  # fmt: skip


def _hue_deg(colour: str) -> float:
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue = colorsys.rgb_to_hsv(red, green, blue)[0] * 360
    return hue - 360 if hue > 348 else hue  # reds lie on both sides of 0


def test_each_team_colour_has_the_hue_of_its_name() -> None:
    for name, colour in TEAM_HEX.items():
        low, high = HUES[name]
        assert low <= _hue_deg(colour) <= high, f"{name} is drawn {colour}"


def test_the_browser_and_the_renderers_draw_the_same_team_colours() -> None:
    browser = re.search(r"PLAYER_COLOURS = \[([^\]]*)\]", COLOURS_JS.read_text())
    assert browser is not None
    assert re.findall(r'"(#[0-9a-f]{6})"', browser.group(1)) == [
        TEAM_HEX[name] for name in PLAYER_COLOURS
    ]
    ships = {"a": {"class": "light", "owner": "red"}, "b": {"class": "light", "owner": "blue"}}
    script = read({"ruleset": "hexfleet", "ships": ships, "steps": [], "cards": []})
    assert _side_colours(script) == {"red": TEAM_HEX["red"], "blue": TEAM_HEX["blue"]}
