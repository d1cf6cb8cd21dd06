"""Faster Than Light's print-and-play sheets: each player's ship and missile tokens at the
game's sizes, the counters that mark a piece's action (normal space or FTL), an inch
ruler for the sprints with a line to check the print's scale, a 15 degree turning rose,
and an order sheet to write each turn's plots on.

The tokens are the footprints spacetable plays with (:mod:`spacetable.games.ftl.pieces`:
a ship 0.75 x 1.5 in, a missile 0.25 x 0.5 in), front edge up, a nose mark at the front.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from spacetable.games.ftl.pieces import DEFAULT_MISSILES, MISSILE_SIZE_IN, SHIP_SIZE_IN
from spacetable.i18n import ENGLISH, N_, Translator, player_name
from spacetable.printing.choices import COLOURS, PrintJob, PrintRun
from spacetable.printing.layout import MARGIN_MM, PAPERS, Page
from spacetable.printing.pdf import SheetWriter
from spacetable.render._drawing import TEAM_HEX

__all__ = ["INCH_MM", "RULER_IN", "draw_ftl", "ftl_sheets"]

INCH_MM = 25.4
#: The ruler's length: the longest sprint is 8 inches.
RULER_IN = 8
#: The check line: the printed line must measure exactly this.
CHECK_IN = 5
#: Counters that mark what a piece did this turn, per player.
ACTION_COUNTERS = 8

#: The sheets' words (catalog ids: each is written in the reader's language by ``tr``).
TEXT = {
    "tokens": N_("Faster Than Light: tokens, ruler and turning rose ({colours})"),
    "check": N_(
        "Measure this line: it must be exactly {n} in ({mm} mm). If not, print again at "
        "100 % (actual size, no 'fit to page')."
    ),
    "ruler": N_(
        "Sprint ruler, inches (sprints are 1 to 8 in, in half inches). Cut it out along "
        "the dashed line."
    ),
    "inches": N_("{n} in"),
    "in": N_("in"),
    "ship": N_("ship"),
    "missiles": N_("missiles ({n})"),
    "normal": N_("N"),
    "ftl": N_("F"),
    "counters": N_(
        "Action counters: N = normal space (launched or rotated: a sprint crossing it "
        "hits it), F = sprinted (FTL)."
    ),
    "rose": N_(
        "Turning rose: lay it under a piece; R+ turns clockwise, R- counter-clockwise, "
        "in 15 degree steps."
    ),
    "orders": N_("Faster Than Light: order sheet"),
    "player": N_("Player: ______________________    Colour: __________"),
    "turn": N_("Turn"),
    "ship_col": N_("Ship"),
    "missile_col": N_("M{n}"),
    "key": N_(
        "One order per piece and turn: R+45 / R-30 turn (multiples of 15, + clockwise, "
        "-180..+180); S3 / S2.5 sprint 1 to 8 in by halves; L launch (ship only); blank: it "
        "waits."
    ),
}


def _say(tr: Translator, key: str, **values: object) -> str:
    """The sheets' word ``key`` in ``tr``'s language, its places filled from ``values``."""
    message = TEXT[key]  # (a name, not a literal, inside gettext: the catalogs' extraction)
    return tr.gettext(message, **values)


def _in(value: float) -> float:
    """Inches as mm."""
    return value * INCH_MM


def _piece(
    out: SheetWriter, x: float, y: float, w: float, h: float, colour: str, label: str
) -> None:
    """A piece's footprint with its top-left corner at ``(x, y)``: filled in its owner's
    colour, a white nose triangle at the front (top) edge, ``label`` along it."""
    out.rect(x, y, w, h, fill=colour, stroke="#000000", width=0.2)
    nose = min(w * 0.45, h * 0.3)
    cx = x + w / 2
    out.polygon(
        [(cx, y + 0.6), (cx + nose / 2, y + 0.6 + nose), (cx - nose / 2, y + 0.6 + nose)],
        fill="#ffffff",
        stroke=None,
    )
    if label:
        size = min(w * 0.32, 3.2)
        out.text(cx, y + h * 0.72, label, size, anchor="middle", bold=True, colour="#ffffff")


def _ruler(out: SheetWriter, x: float, y: float, tr: Translator = ENGLISH) -> float:
    """The inch ruler with its top-left corner at ``(x, y)``; returns its bottom."""
    length, height = _in(RULER_IN), 16.0
    pad = 4.0
    box = (x - pad, y - pad, length + 2 * pad, height + 2 * pad)
    for a, b in (
        ((box[0], box[1]), (box[0] + box[2], box[1])),
        ((box[0], box[1] + box[3]), (box[0] + box[2], box[1] + box[3])),
        ((box[0], box[1]), (box[0], box[1] + box[3])),
        ((box[0] + box[2], box[1]), (box[0] + box[2], box[1] + box[3])),
    ):
        out.dashed(a, b, 0.2, "#888888")
    out.rect(x, y, length, height, fill="#fffbe6", stroke="#000000", width=0.25)
    for quarter in range(RULER_IN * 4 + 1):
        tx = x + _in(quarter / 4)
        tick = 8.0 if quarter % 4 == 0 else 5.5 if quarter % 2 == 0 else 3.0
        out.line((tx, y), (tx, y + tick), 0.25 if quarter % 4 else 0.35)
        if quarter % 4 == 0:
            label = str(quarter // 4)
            anchor = "start" if quarter == 0 else "end" if quarter == RULER_IN * 4 else "middle"
            shift = 0.8 if quarter == 0 else -0.8 if quarter == RULER_IN * 4 else 0.0
            out.text(tx + shift, y + 13.0, label, 4.0, anchor=anchor, bold=True)
    out.text(x + _in(RULER_IN / 2) + 10, y + 13.0, _say(tr, "in"), 3.0, anchor="middle")
    return y + height + pad


def _check_line(out: SheetWriter, x: float, y: float, tr: Translator = ENGLISH) -> None:
    """The scale check: a line exactly ``CHECK_IN`` inches long with end ticks."""
    length = _in(CHECK_IN)
    out.line((x, y), (x + length, y), 0.35)
    for end in (x, x + length):
        out.line((end, y - 3), (end, y + 3), 0.35)
    out.text(x + length + 4, y + 1.2, _say(tr, "inches", n=CHECK_IN), 3.5, bold=True)
    out.text(x, y + 7, _say(tr, "check", n=CHECK_IN, mm=f"{_in(CHECK_IN):g}"), 3.0)


def _rose(out: SheetWriter, cx: float, cy: float, r: float) -> None:
    """A 15 degree turning rose centred on ``(cx, cy)``: the forward arrow up, each
    step's turn written the way an order writes it (R+ clockwise)."""

    out.circle(cx, cy, r, fill="#ffffff", stroke="#000000", width=0.3)
    out.circle(cx, cy, 1.2, fill="#000000", stroke=None)
    for step in range(24):
        turn = step * 15 if step <= 12 else (step - 24) * 15
        a = math.radians(turn)
        dx, dy = math.sin(a), -math.cos(a)
        inner = r * (0.62 if turn % 45 == 0 else 0.8)
        out.line((cx + dx * inner, cy + dy * inner), (cx + dx * r, cy + dy * r), 0.25)
        if turn % 45 == 0 and turn != 0:
            label = "180" if abs(turn) == 180 else f"R{turn:+d}"
            size = 3.0 * min(1.0, r / 26.0)
            lx, ly = cx + dx * r * 0.44, cy + dy * r * 0.44 + size * 0.36
            out.text(lx, ly, label.replace("-", "\u2013"), size, anchor="middle")
    out.polygon(
        [(cx, cy - r * 0.95), (cx + 2.5, cy - r * 0.7), (cx - 2.5, cy - r * 0.7)],
        fill="#000000",
        stroke=None,
    )


def _counter(out: SheetWriter, cx: float, cy: float, letter: str, colour: str) -> None:
    """A round action counter."""
    out.circle(cx, cy, 5.0, fill="#ffffff", stroke=colour, width=1.2)
    out.text(cx, cy + 1.6, letter, 4.5, anchor="middle", bold=True, colour="#000000")


def _tokens_page(
    out: SheetWriter, paper: str, colours: Sequence[str], tr: Translator = ENGLISH
) -> None:
    """The ruler, the check line, the rose and each colour's tokens on a landscape page."""
    pw, ph = PAPERS[paper]
    page = Page(max(pw, ph), min(pw, ph))
    out.new_page(page)
    x0 = MARGIN_MM + 4
    heading = _say(tr, "tokens", colours=", ".join(player_name(c, tr) for c in colours))
    out.text(MARGIN_MM, MARGIN_MM + 3, heading, 4.2, bold=True)
    bottom = _ruler(out, x0, MARGIN_MM + 10, tr)
    out.text(x0, bottom + 4, _say(tr, "ruler"), 3.0)
    _check_line(out, x0, bottom + 13, tr)
    ruler_right = x0 + _in(RULER_IN) + 4  # the ruler's cutting line
    rose_r = min(26.0, (page.width - MARGIN_MM - ruler_right - 6) / 2)
    _rose(out, page.width - MARGIN_MM - rose_r - 2, MARGIN_MM + 12 + rose_r, rose_r)
    rose_x = page.width - MARGIN_MM - 2 * rose_r - 4
    out.paragraph(rose_x, MARGIN_MM + 12 + 2 * rose_r + 6, _say(tr, "rose"), 2.6, 2 * rose_r + 4)
    ship_w, ship_h = _in(SHIP_SIZE_IN[0]), _in(SHIP_SIZE_IN[1])
    mis_w, mis_h = _in(MISSILE_SIZE_IN[0]), _in(MISSILE_SIZE_IN[1])
    top = MARGIN_MM + 12 + 2 * rose_r + 22
    column_w = (page.width - 2 * MARGIN_MM) / 4
    per_row = -(-DEFAULT_MISSILES // 2)
    # the missiles beside the ship, 4 mm clear of the next colour's ship
    room = column_w - ship_w - 4 - 4 - mis_w
    pitch = min(mis_w + 2.5, room / (per_row - 1))
    for index, colour in enumerate(colours):
        hexcolour = TEAM_HEX[colour]
        x = MARGIN_MM + index * column_w
        out.text(x, top, player_name(colour, tr), 3.8, bold=True)
        _piece(out, x, top + 4, ship_w, ship_h, hexcolour, _say(tr, "ship"))
        mx = x + ship_w + 4
        out.text(mx, top, _say(tr, "missiles", n=DEFAULT_MISSILES), 3.0)
        for k in range(DEFAULT_MISSILES):
            row, at = divmod(k, per_row)
            _piece(
                out,
                mx + at * pitch,
                top + 4 + row * (mis_h + 3),
                mis_w,
                mis_h,
                hexcolour,
                "",
            )
        cy = top + 4 + ship_h + 9
        for k in range(ACTION_COUNTERS):
            row, at = divmod(k, ACTION_COUNTERS // 2)
            letter = _say(tr, "normal" if row == 0 else "ftl")
            _counter(out, x + 5.5 + at * 12.5, cy + row * 12.5, letter, hexcolour)
    out.paragraph(
        MARGIN_MM,
        page.height - MARGIN_MM - 4,
        _say(tr, "counters"),
        3.0,
        page.width - 2 * MARGIN_MM,
    )


def _orders_page(out: SheetWriter, paper: str, tr: Translator = ENGLISH) -> None:
    """An order sheet: a row per turn, a column for the ship and for each missile."""
    pw, ph = PAPERS[paper]
    page = Page(pw, ph)
    out.new_page(page)
    left, top = MARGIN_MM, MARGIN_MM
    width = page.width - 2 * MARGIN_MM
    out.text(left, top + 5, _say(tr, "orders"), 5.0, bold=True)
    out.text(left, top + 14, _say(tr, "player"), 3.6)
    turn_w, ship_w = 11.0, 20.0
    missile_w = (width - turn_w - ship_w) / DEFAULT_MISSILES
    row_h = 9.0
    y = top + 20
    rows = int((page.height - MARGIN_MM - 16 - y) // row_h) - 1
    heads = [_say(tr, "turn"), _say(tr, "ship_col")] + [
        _say(tr, "missile_col", n=k + 1) for k in range(DEFAULT_MISSILES)
    ]
    widths = [turn_w, ship_w] + [missile_w] * DEFAULT_MISSILES
    x = left
    for head, w in zip(heads, widths, strict=True):
        out.rect(x, y, w, row_h, fill="#e8ecf5", stroke="#000000", width=0.25)
        out.text(x + w / 2, y + 6, head, 3.4, anchor="middle", bold=True)
        x += w
    for row in range(rows):
        ry = y + (row + 1) * row_h
        x = left
        for column, w in enumerate(widths):
            out.rect(x, ry, w, row_h, fill=None, stroke="#000000", width=0.2)
            if column == 0:
                out.text(x + w / 2, ry + 6, str(row + 1), 3.4, anchor="middle")
            x += w
    key_y = y + (rows + 1) * row_h + 6
    out.paragraph(left, key_y, _say(tr, "key"), 3.0, width)


def draw_ftl(
    out: SheetWriter, paper: str, colours: Sequence[str], tr: Translator = ENGLISH
) -> None:
    """Faster Than Light's sheets in ``tr``'s language: the tokens page, then an order
    sheet."""
    _tokens_page(out, paper, colours, tr)
    _orders_page(out, paper, tr)


def ftl_sheets(out: SheetWriter, job: PrintJob, title: str, run: PrintRun) -> list[dict[str, Any]]:
    """``job``'s copies of Faster Than Light's sheets in its colours (``Sheets.draw`` of the
    game's registry entry; ``title`` is unused: the sheets head themselves); no cards."""
    for _ in range(job.copies):
        draw_ftl(out, job.paper, job.colours or COLOURS, run.tr)
    return []
