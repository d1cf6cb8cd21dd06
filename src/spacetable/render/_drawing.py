"""What every renderer draws with (private to :mod:`spacetable.render`): SVG elements,
text, lines and shapes, stable number formatting, the house font and colours, and the
players' team colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

SVG_NS = "http://www.w3.org/2000/svg"
#: Team colour names in seat order.
PLAYER_COLOURS: tuple[str, ...] = ("red", "blue", "green", "purple")
#: After Okabe and Ito's palette for colour-blind readers (as the browser's seat colours),
#: but for red: their vermillion is an orange, and players read the colour's name. This
#: scarlet stays about as far from the green (CIELAB distance, simulated protanopia and
#: deuteranopia) as the vermillion did, and as light on the dark table.
TEAM_HEX = {"red": "#ff330f", "blue": "#0072b2", "green": "#009e73", "purple": "#cc79a7"}
#: The house font stack, and the house colours: the space around a table, the side panel,
#: the yellow of a hit and the ink of text.
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SPACE, PANEL, HIT, INK = "#0a0f1f", "#f6f4ef", "#ffd23f", "#1d2230"
#: A point in SVG coordinates.
Point = tuple[float, float]


def fmt_num(value: float, digits: int = 2) -> str:
    """A number as short, stable text (``12``, ``-3.5``, ``0.07``)."""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def add_element(
    parent: ET.Element, tag: str, text: str | None = None, /, **attrs: str | float
) -> ET.Element:
    """Append a child element. Attribute names use ``_`` for ``-`` and ``cls`` for
    ``class``; numbers are formatted with :func:`fmt_num`."""
    el = ET.SubElement(parent, tag)
    for key, value in attrs.items():
        el.set("class" if key == "cls" else key.replace("_", "-"), _value(value))
    if text is not None:
        el.text = text
    return el


def _value(value: str | float) -> str:
    return value if isinstance(value, str) else fmt_num(value)


def add_text(parent: ET.Element, x: float, y: float, text: str, size: float, **attrs: str) -> None:
    """A text element, centred and dark unless ``attrs`` say otherwise."""
    style: dict[str, str | float] = {"text_anchor": "middle", "fill": INK, **attrs}
    add_element(parent, "text", text, x=x, y=y, font_size=size, **style)


def add_line(
    parent: ET.Element, a: Point, b: Point, colour: str, width: float, **attrs: str
) -> None:
    """A round-capped line between two SVG points."""
    ends = {"x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1]}
    add_element(parent, "line", **ends, **pen_attrs(colour, width), stroke_linecap="round", **attrs)


def add_rect(
    parent: ET.Element, x: float, y: float, w: float, h: float, fill: str, **attrs: str | float
) -> ET.Element:
    """A rectangle with its top-left corner at ``(x, y)``."""
    return add_element(parent, "rect", x=x, y=y, width=w, height=h, fill=fill, **attrs)


def add_circle(
    parent: ET.Element, cx: float, cy: float, r: float, fill: str, **attrs: str | float
) -> ET.Element:
    """A circle centred on ``(cx, cy)``."""
    return add_element(parent, "circle", cx=cx, cy=cy, r=r, fill=fill, **attrs)


def pen_attrs(colour: str, width: float) -> dict[str, str | float]:
    """Stroke attributes."""
    return {"stroke": colour, "stroke_width": width}


def svg_root(width: float, height: float) -> ET.Element:
    """An ``svg`` root element ``width`` x ``height`` mm, in the house font."""
    root = ET.Element("svg", {"xmlns": SVG_NS})
    set_size(root, width, height)
    root.set("font-family", FONT)
    return root


def set_size(root: ET.Element, width: float, height: float) -> None:
    """Make ``root`` ``width`` x ``height`` mm, its ``viewBox`` in mm."""
    root.set("width", f"{fmt_num(width)}mm")
    root.set("height", f"{fmt_num(height)}mm")
    root.set("viewBox", f"0 0 {fmt_num(width)} {fmt_num(height)}")


def colour_of(name: str | None, default: str) -> str:
    """A team colour name (``red``...) as hex; any other CSS colour passes through."""
    return default if name is None else TEAM_HEX.get(name, name)


def player_colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's team colour (hex) by seat: red, blue, green, purple."""
    return {p: TEAM_HEX[PLAYER_COLOURS[i % len(PLAYER_COLOURS)]] for i, p in enumerate(players)}
