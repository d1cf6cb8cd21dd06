"""The marks of the Faster Than Light turn picture (:mod:`spacetable.render.ftl_svg`):
piece footprints, the hit star, and the side panel with the players, the orders and a key
that shows each mark. Pure: functions add SVG elements to a tree.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from spacetable.games.ftl.pieces import Kind, Piece
from spacetable.games.ftl.turnfile import TurnFile, TurnResult
from spacetable.lasers.geometry import heading
from spacetable.render._drawing import (
    HIT,
    PANEL,
    SPACE,
    Point,
    add_circle,
    add_element,
    add_line,
    add_rect,
    add_text,
    fmt_num,
    pen_attrs,
)

#: The table's cloth, a removal's cross and a contact's ring.
TABLE, CROSS, CONTACT = "#141c38", "#ff3b3b", "#ffffff"
#: The side panel's width, a key row's height and the panel's text size (px).
PANEL_PX, _ROW_PX, _FONT_PX = 300.0, 22.0, 12.0
#: Orders listed in the side panel before "... and N more".
_MAX_ORDERS_SHOWN = 24


def piece_shape(
    parent: ET.Element,
    centre: Point,
    heading_deg: float,
    size_px: Point,
    kind: Kind,
    colour: str,
    *,
    style: str,
    hits: int = 0,
    **attrs: str,
) -> ET.Element:
    """A piece's footprint at ``centre`` (SVG px) facing ``heading_deg`` (table frame),
    ``size_px`` (width, length). ``style``: ``solid``, ``ghost`` (the start, faint),
    ``turned`` (a dashed outline) or ``faded`` (a removed piece). Ships are rectangles
    with a white chevron at the nose and a yellow dot per hit; missiles are narrow with a
    pointed nose."""
    transform = f"translate({fmt_num(centre[0])} {fmt_num(centre[1])})"
    if heading_deg:
        transform += f" rotate({fmt_num(-heading_deg, 4)})"
    g = add_element(parent, "g", transform=transform, **attrs)
    hw, hl = size_px[0] / 2, size_px[1] / 2
    if kind == Kind.SHIP:
        outline = [(-hw, hl), (hw, hl), (hw, -hl), (-hw, -hl)]
    else:
        tip = min(hw * 1.6, hl)
        outline = [(-hw, hl), (hw, hl), (hw, tip - hl), (0.0, -hl), (-hw, tip - hl)]
    points = " ".join(f"{fmt_num(x)},{fmt_num(y)}" for x, y in outline)
    paint: dict[str, str | float] = {
        "solid": {"fill": colour, **pen_attrs("#ffffff", 1)},
        "ghost": {
            "fill": colour,
            "fill_opacity": "0.3",
            "stroke_dasharray": "3 2",
            **pen_attrs(colour, 1),
        },
        "turned": {"fill": "none", "stroke_dasharray": "3 2", **pen_attrs(colour, 1.5)},
        "faded": {"fill": colour, "fill_opacity": "0.35", **pen_attrs(colour, 1)},
    }[style]
    add_element(g, "polygon", cls="footprint", points=points, stroke_linejoin="round", **paint)
    mark = "#ffffff" if style == "solid" else colour
    if kind == Kind.SHIP:
        chevron = [(-hw * 0.6, -hl * 0.35), (0.0, -hl * 0.85), (hw * 0.6, -hl * 0.35)]
        points = " ".join(f"{fmt_num(x)},{fmt_num(y)}" for x, y in chevron)
        add_element(g, "polyline", cls="nose", points=points, fill="none", **pen_attrs(mark, 1.5))
    for i in range(hits if kind == Kind.SHIP else 0):
        cy = hl * (0.15 + 0.32 * i)
        add_circle(g, 0, cy, max(hw * 0.32, 1.5), HIT, cls="hit-mark", **pen_attrs(SPACE, 0.5))
    return g


def hit_star(parent: ET.Element, centre: Point, r: float, **attrs: str) -> None:
    """An 8-pointed burst centred on ``centre`` (SVG px): a hit."""
    pts = []
    for i in range(16):
        hx, hy = heading(22.5 * i)
        k = r if i % 2 == 0 else r * 0.45
        pts.append(f"{fmt_num(centre[0] + hx * k)},{fmt_num(centre[1] + hy * k)}")
    add_element(parent, "polygon", points=" ".join(pts), fill=HIT, **pen_attrs("#ff6b00", 1),
                **attrs)  # fmt: skip


def plural(count: int, one: str, many: str) -> str:
    """``1 launch``, ``2 launches``."""
    return f"{count} {one if count == 1 else many}"


def draw_panel(
    root: ET.Element,
    x0: float,
    turn: TurnFile,
    result: TurnResult | None,
    colours: dict[str, str],
) -> float:
    """The side panel right of ``x0``: the table, the players, the orders and a key.
    Returns its height."""
    panel = add_element(root, "g", cls="panel")
    bg = add_rect(panel, x0, 0, PANEL_PX, 1, PANEL)
    x, y = x0 + 12, 26.0
    start = {"text_anchor": "start"}
    add_text(panel, x, y, "Faster Than Light", 16, font_weight="bold", **start)
    y += 18
    w, h = turn.table_in
    add_text(panel, x, y, f"table {fmt_num(w)} x {fmt_num(h)} in; grid 1 in, bold every 6 in",
             10, fill="#4a5168", **start)  # fmt: skip
    y += 26
    add_text(panel, x, y, "Players", 13, font_weight="bold", **start)
    pieces = result.pieces if result is not None else turn.pieces
    for player in turn.players:
        y += _ROW_PX
        g = add_element(panel, "g", cls="legend-player", data_player=player,
                        data_colour=colours[player])  # fmt: skip
        add_rect(g, x, y - 11, 13, 13, colours[player], rx=2)
        ships = [p for p in pieces if p.owner == player and p.is_ship]
        missiles = sum(1 for p in pieces if p.owner == player and not p.is_ship and p.on_table)
        status = _player_status(ships, missiles)
        add_text(g, x + 20, y, player, _FONT_PX, font_weight="bold", **start)
        add_text(g, x + 20 + 8 * len(player) + 8, y, status, 11, fill="#4a5168", **start)
    if turn.orders:
        y += 30
        add_text(panel, x, y, "Orders as written", 13, font_weight="bold", **start)
        seen: set[str] = set()
        for index, (piece_id, order) in enumerate(turn.orders):
            if index == _MAX_ORDERS_SHOWN:
                y += 18
                more = len(turn.orders) - _MAX_ORDERS_SHOWN
                add_text(panel, x + 8, y, f"... and {more} more", 11, **start)
                break
            y += 18
            note = " (a second order: ignored)" if piece_id in seen else ""
            seen.add(piece_id)
            add_text(panel, x + 8, y, f"{piece_id}: {order}{note}", 11, cls="order",
                     data_piece=piece_id, **start)  # fmt: skip
    y = _draw_key(panel, x, y + 30, result is not None) + 12
    bg.set("height", fmt_num(y))
    return y


def _player_status(ships: list[Piece], missiles: int) -> str:
    """``ship on the table, 1 hit; 2 missiles`` and the like."""
    if not ships:
        shown = "no ship"
    elif any(s.on_table for s in ships):
        hits = max(s.hits for s in ships if s.on_table)
        shown = "ship in play" + (f", {plural(hits, 'hit', 'hits')}" if hits else "")
    else:
        shown = "ship removed"
    return f"{shown}; {plural(missiles, 'missile', 'missiles')} in play"


def _draw_key(panel: ET.Element, x: float, y: float, turn_drawn: bool) -> float:
    """Samples of every mark with what it means. Returns the bottom."""
    key = add_element(panel, "g", cls="key")
    bg = add_rect(key, x - 6, y, PANEL_PX - 12, 1, TABLE, rx=4)
    top = y
    y += 20
    white = {"text_anchor": "start", "fill": "#ffffff"}
    add_text(key, x, y, "Key", 13, font_weight="bold", **white)
    grey = "#b8c0d8"
    ship, missile = (12.0, 24.0), (5.0, 12.0)
    rows: list[tuple[str, str]] = [
        ("ship", "ship: chevron = its nose (heading)"),
        ("hits", "yellow dots: its hits (the third removes it)"),
        ("missile", "missile: the point is its nose"),
    ]
    if turn_drawn:
        rows += [
            ("ghost", "where a piece began the turn"),
            ("turned", "turned this turn: new heading"),
            ("tape", "tape of a sprint, ticked every inch"),
            ("unfollowed", "rest of a tape after its piece went"),
            ("hit", "contact: a ship takes a hit"),
            ("ring", "contact: pieces removed"),
            ("distance", "distance of a contact along the tape"),
            ("cross", "removed this turn"),
            ("off", "post off the table: removed"),
        ]
    for glyph, text in rows:
        y += _ROW_PX
        c = (x + 16, y - 4)
        if glyph in ("ship", "hits", "ghost", "turned"):
            style = {"ghost": "ghost", "turned": "turned"}.get(glyph, "solid")
            colour = "#2f6fe0" if glyph != "hits" else "#d7263d"
            piece_shape(key, c, -90.0, ship, Kind.SHIP, colour, style=style,
                   hits=2 if glyph == "hits" else 0)  # fmt: skip
        elif glyph == "missile":
            piece_shape(key, c, -90.0, missile, Kind.MISSILE, "#d7263d", style="solid")
        elif glyph == "tape":
            add_line(key, (c[0] - 13, c[1]), (c[0] + 13, c[1]), "#d7263d", 3)
            for k in (-6.0, 6.0):
                add_line(key, (c[0] + k, c[1] - 3), (c[0] + k, c[1] + 3), "#ffffff", 1)
        elif glyph == "unfollowed":
            add_line(key, (c[0] - 13, c[1]), (c[0] + 13, c[1]), "#d7263d", 1.5,
                     stroke_dasharray="4 4", stroke_opacity="0.6")  # fmt: skip
        elif glyph == "hit":
            hit_star(key, c, 7)
        elif glyph == "ring":
            add_circle(key, c[0], c[1], 5.6, "none", **pen_attrs(CONTACT, 2.5))
            add_circle(key, c[0], c[1], 1.8, CONTACT)
        elif glyph == "distance":
            add_text(key, c[0], c[1] + 4, "5.1 in", 10, fill="#ffffff", font_weight="bold")
        elif glyph == "cross":
            for dy in (-1.0, 1.0):
                add_line(key, (c[0] - 7, c[1] - 7 * dy), (c[0] + 7, c[1] + 7 * dy), CROSS, 3)
        elif glyph == "off":
            add_circle(key, c[0], c[1], 8, "none", stroke_dasharray="5 3", **pen_attrs(CROSS, 2))
        add_text(key, x + 40, y, text, 11, fill=grey, cls="key-row", data_glyph=glyph,
                 text_anchor="start")  # fmt: skip
    y += 14
    bg.set("height", fmt_num(y - top))
    return y
