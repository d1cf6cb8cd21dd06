"""An SVG picture of one Faster Than Light turn (pure: :func:`turn_svg` returns SVG text).

The table is drawn to scale in inches (DESIGN section 5's frame: centred on the origin, +y
up, so the y axis is flipped for SVG), ``scale`` pixels to the inch, with a 1 in grid. Each
piece is its footprint in its owner's colour with a nose mark; given the turn's result, the
turn is drawn over it: launches, rotations, every tape with its contacts, hits, removals and
pieces that left the table, the start as a faint ghost under the final positions, a key and a
one-line summary. Elements carry CSS classes and ``data-*`` attributes (``class="piece ship
final removed"``, ``data-piece``) so tests and scripts can find what a player would see. The
same input gives the same bytes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field

from spacetable.games.ftl.events import (
    Contact,
    GameOver,
    Launched,
    OffTable,
    Removed,
    Rotated,
    TapeLaid,
)
from spacetable.games.ftl.narrate import narrate_turn
from spacetable.games.ftl.pieces import Piece
from spacetable.games.ftl.turnfile import TurnFile, TurnResult
from spacetable.i18n import ENGLISH, Translator
from spacetable.lasers.geometry import heading
from spacetable.render._drawing import (
    FONT,
    SPACE,
    SVG_NS,
    Point,
    add_circle,
    add_element,
    add_line,
    add_rect,
    add_text,
    fmt_num,
    pen_attrs,
    player_colours,
)
from spacetable.render._ftl_marks import (
    CONTACT,
    CROSS,
    PANEL_PX,
    TABLE,
    draw_panel,
    hit_star,
    piece_shape,
)

__all__ = ["turn_svg"]

#: A text's box in SVG px: left, top, right, bottom.
Box = tuple[float, float, float, float]

_GRID, _EDGE = "#ffffff", "#9aa6c4"
#: Inches of space kept around the table and anything drawn past its edge.
_MARGIN_IN = 1.5
_CAPTION_PX = 34.0
_HALO = {"stroke": SPACE, "stroke_width": "3", "paint_order": "stroke", "stroke_linejoin": "round"}
#: The contact effects (``Contact.effect``) in which a ship takes a hit.
_HITS_SHIP = {"missile-on-ship", "ship-on-missile"}


@dataclass(frozen=True, slots=True)
class _Frame:
    """Table inches to SVG pixels: ``left`` and ``top`` are the table coordinates of the
    drawing's top-left corner, under a caption ``caption`` px high; ``label`` and ``note``
    are the font sizes (px) of the pieces' labels and of the tapes' and contacts' notes."""

    scale: float
    left: float
    top: float
    caption: float
    label: float
    note: float

    def pt(self, p: Point) -> Point:
        """A table point in SVG pixels (y flipped)."""
        return ((p[0] - self.left) * self.scale, self.caption + (self.top - p[1]) * self.scale)


@dataclass(slots=True)
class _Turn:
    """The turn's events, gathered by piece for drawing."""

    launched: dict[str, Launched] = field(default_factory=dict)
    rotated: dict[str, Rotated] = field(default_factory=dict)
    tapes: list[TapeLaid] = field(default_factory=list)
    contacts: list[Contact] = field(default_factory=list)
    removed: dict[str, str] = field(default_factory=dict)
    off_table: dict[str, OffTable] = field(default_factory=dict)
    over: GameOver | None = None


def _gather(result: TurnResult) -> _Turn:
    """The events of ``result`` that are drawn, by kind."""
    turn = _Turn()
    for ev in result.events:
        if isinstance(ev, Launched):
            turn.launched[ev.missile] = ev
        elif isinstance(ev, Rotated):
            turn.rotated[ev.piece] = ev
        elif isinstance(ev, TapeLaid):
            turn.tapes.append(ev)
        elif isinstance(ev, Contact):
            turn.contacts.append(ev)
        elif isinstance(ev, Removed):
            turn.removed[ev.piece] = ev.reason
        elif isinstance(ev, OffTable):
            turn.off_table[ev.piece] = ev
        elif isinstance(ev, GameOver):
            turn.over = ev
    return turn


def _tape_direction(tape: TapeLaid, piece: Piece | None) -> Point:
    """The tape's unit direction: from its start to its end, or the piece's heading for a
    tape stopped at its very start."""
    dx, dy = tape.end[0] - tape.start[0], tape.end[1] - tape.start[1]
    norm = math.hypot(dx, dy)
    if norm > 1e-12:
        return (dx / norm, dy / norm)
    return piece.direction if piece is not None else (0.0, 1.0)


def _tape_full_end(tape: TapeLaid, d: Point) -> Point:
    """Where the tape would have ended had it been followed its whole length."""
    return (tape.start[0] + d[0] * tape.length, tape.start[1] + d[1] * tape.length)


def _frame(
    turn: TurnFile,
    result: TurnResult | None,
    scale: float,
    *,
    caption: float = _CAPTION_PX,
    text_px: float | None = None,
    view: tuple[float, float, float, float] | None = None,
) -> tuple[_Frame, Point]:
    """The frame and the drawing's size (px): ``view`` (left, bottom, right, top, in
    inches), else the table and everything drawn; ``text_px``: the size of every word."""
    label = _label_size(scale) if text_px is None else text_px
    note = max(10.0, 0.45 * scale) if text_px is None else text_px
    if view is not None:
        left, bottom, right, top = view
        frame = _Frame(scale, left, top, caption, label, note)
        return frame, ((right - left) * scale, caption + (top - bottom) * scale)
    w, h = turn.table_in
    xs, ys = [-w / 2, w / 2], [-h / 2, h / 2]
    pieces = list(turn.pieces) + (list(result.pieces) if result is not None else [])
    label_px = label * 0.62  # a bold character's width, roughly
    for p in pieces:
        reach = max(p.width, p.length) / 2 + 0.8
        wide = reach + (min(len(p.id), 40) + len(", 2 hits, off the table")) * label_px / scale
        xs += [p.x - wide, p.x + wide]
        ys += [p.y - reach, p.y + reach]
    if result is not None:
        for ev in result.events:
            if isinstance(ev, TapeLaid):
                end = _tape_full_end(ev, _tape_direction(ev, None))
                xs += [ev.start[0], end[0]]
                ys += [ev.start[1], end[1]]
    left, right = min(xs) - _MARGIN_IN, max(xs) + _MARGIN_IN
    bottom, top = min(ys) - _MARGIN_IN, max(ys) + _MARGIN_IN
    frame = _Frame(scale, left, top, caption, label, note)
    return frame, ((right - left) * scale, caption + (top - bottom) * scale)


def _draw_table(root: ET.Element, frame: _Frame, table_in: Point) -> None:
    """The table to scale, its 1 in grid (stronger every 6 in) and its border."""
    w, h = table_in
    g = add_element(root, "g", cls="table", data_width_in=w, data_height_in=h)
    x0, y0 = frame.pt((-w / 2, h / 2))
    add_rect(g, x0, y0, w * frame.scale, h * frame.scale, TABLE, cls="table-area")
    grid = add_element(g, "g", cls="grid", stroke=_GRID, stroke_width=1)
    for axis, half, other in ((0, w / 2, h / 2), (1, h / 2, w / 2)):
        for k in range(-math.floor(half), math.floor(half) + 1):
            strong = k % 6 == 0
            a: Point = (k, -other) if axis == 0 else (-other, k)
            b: Point = (k, other) if axis == 0 else (other, k)
            (ax, ay), (bx, by) = frame.pt(a), frame.pt(b)
            add_element(
                grid, "line", x1=ax, y1=ay, x2=bx, y2=by,
                cls="grid-6in" if strong else "grid-1in",
                stroke_opacity="0.22" if strong else "0.07",
            )  # fmt: skip
    border = pen_attrs(_EDGE, 1.5)
    add_rect(g, x0, y0, w * frame.scale, h * frame.scale, "none", cls="table-edge", **border)


def _draw_piece(
    parent: ET.Element, frame: _Frame, piece: Piece, colour: str, phase: str, style: str
) -> ET.Element:
    """``piece`` as it stands, classed ``piece <kind> <phase>`` with ``data-piece``."""
    size = (piece.width * frame.scale, piece.length * frame.scale)
    return piece_shape(
        parent, frame.pt((piece.x, piece.y)), piece.heading, size, piece.kind, colour,
        style=style, hits=piece.hits, cls=f"piece {piece.kind.value} {phase}",
        data_piece=piece.id, data_owner=piece.owner,
    )  # fmt: skip


def _cross(parent: ET.Element, frame: _Frame, piece: Piece) -> None:
    """A red cross over a removed piece, at least 0.8 in across so a missile's shows."""
    g = add_element(parent, "g", cls="removed-mark", data_piece=piece.id)
    half = max(piece.length, 0.8) / 2
    for dx, dy in ((1.0, 1.0), (1.0, -1.0)):
        a = frame.pt((piece.x - dx * half, piece.y - dy * half))
        b = frame.pt((piece.x + dx * half, piece.y + dy * half))
        add_line(g, a, b, CROSS, 3)


def _beside(
    parent: ET.Element,
    frame: _Frame,
    taken: list[Box],
    at: Point,
    d: Point,
    places: Sequence[Point],
    text: str,
    size: float,
    **attrs: str,
) -> None:
    """``text`` beside ``at``: at the first of ``places`` (inches ``(along d, right of d)``;
    a negative right is left) where it overlaps no box in ``taken``, else the least; anchored
    so that it reads away from ``at`` whatever the direction. Adds its box to ``taken``."""
    chosen: tuple[float, float, float, str, Box] | None = None
    for along, right in places:
        ox, oy = d[1] * right, -d[0] * right
        x, y = frame.pt((at[0] + d[0] * along + ox, at[1] + d[1] * along + oy))
        side = abs(right) * 0.4
        anchor = "start" if ox > side else "end" if ox < -side else "middle"
        y += size * 0.35 if anchor != "middle" else -size * 0.15 if oy > 0 else size * 0.8
        width = len(text) * size * 0.6
        x0 = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
        box = (x0, y - size * 0.8, x0 + width, y + size * 0.2)
        crowding = sum(_overlap(box, other) for other in taken)
        if chosen is None or crowding < chosen[0]:
            chosen = (crowding, x, y, anchor, box)
        if not crowding:
            break
    assert chosen is not None
    _, x, y, anchor, box = chosen
    taken.append(box)
    add_text(parent, x, y, text, size, text_anchor=anchor, **_HALO, **attrs)


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share (px²)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _label_size(scale: float) -> float:
    """The font size (px) of piece labels."""
    return max(11.0, 0.5 * scale)


def _label(
    parent: ET.Element, frame: _Frame, taken: list[Box], piece: Piece, text: str, colour: str
) -> None:
    """``text`` on the piece's right-hand side (tapes run from its nose and its back), or
    wherever near it is free of other labels."""
    size = frame.label
    gap, step = piece.width / 2 + 0.3, size * 1.2 / frame.scale
    places = [(0.0, gap), (0.0, -gap), (step, gap), (-step, gap), (step, -gap), (-step, -gap)]
    places += [(0.0, sign * (gap + k * step)) for k in (1, 2) for sign in (1.0, -1.0)]
    _beside(parent, frame, taken, (piece.x, piece.y), piece.direction, places, text, size,
            fill=colour, font_weight="bold", cls="label", data_piece=piece.id)  # fmt: skip


def _rotation_arc(
    parent: ET.Element, frame: _Frame, piece: Piece, ev: Rotated, colour: str
) -> None:
    """An arc around the post from the old nose direction to the new, with an arrow tip."""
    radius = piece.length / 2 + 0.3
    old = piece.heading
    sweep_deg = -float(ev.angle_deg)  # clockwise order: heading decreases
    steps = max(2, int(abs(sweep_deg) / 7.5))
    pts = []
    for i in range(steps + 1):
        dx, dy = heading(old + sweep_deg * i / steps)
        pts.append(frame.pt((piece.x + dx * radius, piece.y + dy * radius)))
    g = add_element(parent, "g", cls="rotation", data_piece=piece.id, data_angle=str(ev.angle_deg))
    path = " ".join(f"{fmt_num(x)},{fmt_num(y)}" for x, y in pts)
    add_element(g, "polyline", points=path, fill="none", stroke_opacity="0.9",
                **pen_attrs(colour, 1.5))  # fmt: skip
    tip, back = pts[-1], pts[-2]
    ux, uy = tip[0] - back[0], tip[1] - back[1]
    n = math.hypot(ux, uy) or 1.0
    ux, uy = ux / n * 6, uy / n * 6
    head = [(tip[0] + ux, tip[1] + uy), (tip[0] - uy, tip[1] + ux), (tip[0] + uy, tip[1] - ux)]
    add_element(g, "polygon", points=" ".join(f"{fmt_num(x)},{fmt_num(y)}" for x, y in head),
                fill=colour)  # fmt: skip


def _draw_tape(
    layer: ET.Element,
    frame: _Frame,
    taken: list[Box],
    tape: TapeLaid,
    piece: Piece | None,
    colour: str,
) -> None:
    """A tape from its start to where it was followed, ticked every inch; the part not
    followed (a tape stopped by its piece's removal) dashed and faint."""
    d = _tape_direction(tape, piece)
    g = add_element(
        layer, "g", cls="tape stopped" if tape.stopped else "tape", data_piece=tape.piece,
        data_length=tape.length, data_reach=tape.reach,
    )  # fmt: skip
    a, b = frame.pt(tape.start), frame.pt(tape.end)
    width = max(2.5, 0.12 * frame.scale)
    if tape.stopped:
        rest = frame.pt(_tape_full_end(tape, d))
        add_line(g, b, rest, colour, 1.5, cls="tape-unfollowed", stroke_dasharray="4 4",
                 stroke_opacity="0.6")  # fmt: skip
    add_line(g, a, b, SPACE, width + 2, cls="tape-halo")
    add_line(g, a, b, colour, width, cls="tape-line")
    px, py = -d[1], d[0]
    tick = 0.18
    for k in range(1, math.floor(tape.reach + 1e-9) + 1):
        c = (tape.start[0] + d[0] * k, tape.start[1] + d[1] * k)
        p = frame.pt((c[0] + px * tick, c[1] + py * tick))
        q = frame.pt((c[0] - px * tick, c[1] - py * tick))
        add_line(g, p, q, "#ffffff", 1, cls="tape-tick", stroke_opacity="0.8")
    mid = (tape.start[0] + d[0] * tape.reach / 2, tape.start[1] + d[1] * tape.reach / 2)
    size = frame.note
    _beside(g, frame, taken, mid, d, [(0.0, -0.35)], f"S{fmt_num(tape.length)}", size, fill=colour,
            cls="tape-label")  # fmt: skip


def _draw_contact(
    layer: ET.Element,
    frame: _Frame,
    taken: list[Box],
    contact: Contact,
    d: Point,
    tr: Translator,
) -> None:
    """The contact point: a yellow star for a hit on a ship, a white ring for a removal,
    with its distance along the tape written just before it, right of the tape (the tape
    crossed nothing there; its sprint is written on its left)."""
    data = {"data_piece": contact.piece, "data_target": contact.target}
    cls = f"contact effect-{contact.effect}"
    g = add_element(layer, "g", cls=cls, data_distance=fmt_num(contact.distance, 3), **data)
    x, y = frame.pt(contact.point)
    r = max(5.0, 0.22 * frame.scale)
    if contact.effect in _HITS_SHIP:
        hit_star(g, (x, y), r, cls="hit")
    else:
        add_circle(g, x, y, r * 0.8, "none", cls="removal", **pen_attrs(CONTACT, 2.5))
        add_circle(g, x, y, 1.8, CONTACT)
    before = (contact.point[0] - d[0] * 1.1, contact.point[1] - d[1] * 1.1)
    size = frame.note
    text = tr.gettext("{distance} in", distance=tr.number(round(contact.distance, 2), "#,##0.##"))
    _beside(g, frame, taken, before, d, [(0.0, 0.3)], text, size, fill="#ffffff", cls="distance")


def turn_svg(
    turn: TurnFile,
    result: TurnResult | None = None,
    *,
    scale: float = 20.0,
    tr: Translator = ENGLISH,
    panel: bool = True,
    text_px: float | None = None,
    view: tuple[float, float, float, float] | None = None,
) -> str:
    """One Faster Than Light turn as an SVG picture, ``scale`` px to the inch.

    The table is drawn to scale with a 1 in grid (stronger every 6 in) and each piece of
    ``turn`` where it stands: its footprint in its owner's colour, a nose mark, hits as
    yellow dots, its id beside it. Given ``result`` (``turn.resolve()``), the turn is drawn
    over it: each piece's start as a faint ghost, rotations (a dashed outline at the new
    heading and an arc), launched missiles, every tape from its start to where it was
    followed (its sprint written beside it), every contact with its distance along the
    tape (a star when a ship takes a hit), the final positions solid, removed pieces
    crossed out and pieces off the table ringed; a caption sums the turn up (who won, a
    draw, or the game goes on). A side panel shows the players, the orders and a key.
    ``tr`` writes the words on the table (the pieces' notes, the distances); without
    ``panel``, the picture is the table alone, with neither the panel nor the summary (for
    a page that tells them in its own words: the rules page). ``text_px`` sets the size of
    every word on the table (default: labels half an inch, notes a little smaller); ``view``
    (left, bottom, right, top, in inches) the part of the table drawn (default: all of it and
    everything on it). Pure and deterministic.
    Raises ``ValueError`` if ``scale`` is not a positive number.
    """
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a positive number of px per inch, got {scale!r}")
    colours = player_colours(turn.players)
    caption = _CAPTION_PX if panel else 0.0
    frame, (width, height) = _frame(turn, result, scale, caption=caption, text_px=text_px,
                                    view=view)  # fmt: skip
    root = ET.Element("svg", {"xmlns": SVG_NS})
    root.set("font-family", FONT)
    bg = add_rect(root, 0, 0, width, height, SPACE, cls="space")
    _draw_table(root, frame, turn.table_in)
    labels = ET.Element("g", {"class": "labels"})
    taken: list[Box] = []
    moves = _gather(result) if result is not None else None
    if result is None or moves is None:
        layer = add_element(root, "g", cls="pieces")
        for piece in turn.pieces:
            colour = colours[piece.owner]
            _draw_piece(layer, frame, piece, colour, "start", "solid")
            _label(labels, frame, taken, piece, _name(piece, tr), colour)
        summary = tr.gettext("The table as the turn begins (orders not resolved).")
    else:
        _draw_turn(root, labels, taken, frame, turn, result, moves, colours, tr)
        summary = _summary(moves, tr)
    root.append(labels)
    total_w, total_h = width, height
    if panel:
        add_text(root, 12, 23, summary, 15, fill="#ffffff", font_weight="bold",
                 text_anchor="start", cls="summary")  # fmt: skip
        panel_height = draw_panel(root, width, turn, result, colours)
        total_w, total_h = width + PANEL_PX, max(height, panel_height)
    bg.set("width", fmt_num(total_w))
    bg.set("height", fmt_num(total_h))
    root.set("width", fmt_num(total_w))
    root.set("height", fmt_num(total_h))
    root.set("viewBox", f"0 0 {fmt_num(total_w)} {fmt_num(total_h)}")
    return ET.tostring(root, encoding="unicode") + "\n"


def _name(piece: Piece, tr: Translator, *notes: str) -> str:
    """A piece's label: its id, a ship's hits, then ``notes``."""
    parts = [piece.id]
    if piece.is_ship and piece.hits:
        parts.append(tr.ngettext("{n} hit", "{n} hits", piece.hits))
    return ", ".join([*parts, *notes])


def _draw_turn(
    root: ET.Element,
    labels: ET.Element,
    taken: list[Box],
    frame: _Frame,
    turn: TurnFile,
    result: TurnResult,
    moves: _Turn,
    colours: dict[str, str],
    tr: Translator,
) -> None:
    """Ghosts, rotations, tapes, final pieces, removals and contacts, bottom to top."""
    start = {p.id: p for p in turn.pieces}
    final = {p.id: p for p in result.pieces}
    ghosts = add_element(root, "g", cls="starts")
    for piece in turn.pieces:
        _draw_piece(ghosts, frame, piece, colours[piece.owner], "start", "ghost")
    turned = add_element(root, "g", cls="rotations")
    for piece_id, ev in moves.rotated.items():
        piece = start[piece_id]
        colour = colours[piece.owner]
        _draw_piece(turned, frame, piece.evolve(heading=ev.heading), colour, "turned", "turned")
        _rotation_arc(turned, frame, piece, ev, colour)
    launches = add_element(root, "g", cls="launches")
    for missile_id, launch in moves.launched.items():
        ship = start[launch.ship]
        a, b = frame.pt(ship.nose), frame.pt(launch.post)
        add_line(launches, a, b, colours[ship.owner], 1.5, cls="launch-link",
                 stroke_dasharray="1 3", data_piece=missile_id)  # fmt: skip
    tapes = add_element(root, "g", cls="tapes")
    directions: dict[str, Point] = {}
    for tape in moves.tapes:
        sprinter = final.get(tape.piece) or start.get(tape.piece)
        colour = colours[sprinter.owner] if sprinter is not None else "#ffffff"
        _draw_tape(tapes, frame, taken, tape, sprinter, colour)
        directions[tape.piece] = _tape_direction(tape, sprinter)
    contacts = ET.Element("g", {"class": "contacts"})  # over the pieces, labelled first
    for contact in moves.contacts:
        d = directions.get(contact.piece, (0.0, 1.0))
        _draw_contact(contacts, frame, taken, contact, d, tr)
    finals = add_element(root, "g", cls="finals")
    for piece in result.pieces:
        colour = colours[piece.owner]
        phase, notes = ["final"], []
        if piece.id in moves.launched:
            phase.append("launched")
            notes.append(tr.gettext("launched"))
        if piece.id in moves.off_table:
            phase.append("off-table")
            notes.append(tr.gettext("off the table"))
        elif not piece.on_table:
            phase.append("removed")
            notes.append(tr.gettext("removed"))
        style = "solid" if piece.on_table else "faded"
        _draw_piece(finals, frame, piece, colour, " ".join(phase), style)
        if piece.id in moves.off_table:
            x, y = frame.pt((piece.x, piece.y))
            ring = max(piece.length, 1.0) * 0.8 * frame.scale
            add_circle(finals, x, y, ring, "none", cls="off-table-mark", data_piece=piece.id,
                       stroke_dasharray="5 3", **pen_attrs(CROSS, 2))  # fmt: skip
        elif not piece.on_table:
            _cross(finals, frame, piece)
        _label(labels, frame, taken, piece, _name(piece, tr, *notes), colour)
    root.append(contacts)


def _summary(moves: _Turn, tr: Translator = ENGLISH) -> str:
    """One line in ``tr``'s language: what happened, then who won, a draw, or that the game
    goes on."""
    removed = len(moves.removed) + len(moves.off_table)
    counts = [
        tr.ngettext("{n} launch", "{n} launches", n) if (n := len(moves.launched)) else "",
        tr.ngettext("{n} rotation", "{n} rotations", n) if (n := len(moves.rotated)) else "",
        tr.ngettext("{n} sprint", "{n} sprints", n) if (n := len(moves.tapes)) else "",
        tr.ngettext("{n} contact", "{n} contacts", n) if (n := len(moves.contacts)) else "",
        tr.ngettext("{n} piece removed", "{n} pieces removed", removed) if removed else "",
    ]
    done = ", ".join(count for count in counts if count) or tr.gettext("Nothing moved")
    if moves.over is None:
        return tr.gettext("{done}. The game goes on.", done=done)
    return tr.gettext("{done}. {end}", done=done, end=narrate_turn([], [moves.over], tr)[0])
