"""The hex fleet's print-and-play sheets: round ship counters for a 1.5 inch hex grid
(each side's colour, the ship's number and class, an arrow for its facing), the chits
for the cup (one per ship and the blank one that ends the turn), and a ship's log per
class with a box for every shield point, weapon system and propulsion cell, to cross
out as damage comes, and the charts that read them.

The classes come from :mod:`spacetable.games.hexfleet.ships` (the same numbers the game
plays with), so a log always has the boxes its class has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacetable.games.hexfleet.fleets import MAX_SHIPS_PER_SIDE
from spacetable.games.hexfleet.ships import CLASSES, ShipClass
from spacetable.i18n import ENGLISH, N_, Translator, player_name
from spacetable.printing.choices import COLOURS, PrintJob, PrintRun
from spacetable.printing.layout import MARGIN_MM, PAPERS, Page
from spacetable.printing.pdf import SheetWriter
from spacetable.render._drawing import TEAM_HEX

__all__ = ["COUNTER_MM", "draw_hexfleet", "hexfleet_sheets"]

#: A counter's diameter: it sits inside a 1.5 in (38 mm) hex with room to pick it up.
COUNTER_MM = 22.0
_CHIT_MM = 14.0
_LOG_W, _LOG_H = 92.0, 62.0
_CLASS_LETTER = {"light": "L", "medium": "M", "heavy": "H"}

#: The sheets' words (catalog ids: each is written in the reader's language by ``tr``).
TEXT = {
    "counters": N_("Hex fleet: ship counters and cup chits ({colours})"),
    "counters_note": N_(
        "Counters fit a 1.5 in hex; the arrow is the ship's facing. Write the ship's number "
        "on its log. L, M, H: light, medium, heavy."
    ),
    "chits": N_(
        "Chits for the cup: one per ship on the table, and the blank one that ends the turn."
    ),
    "blank": N_("END"),
    "logs": N_("Hex fleet: ship's logs"),
    "name": N_("Name: ____________  No. ____  Side: ________"),
    "shields": N_("Shields"),
    "weapons": N_("Weapons"),
    "propulsion": N_("Propulsion"),
    "weapons_choice": N_("light weapons (the first 8 boxes) or heavy (all 16)"),
    "fires_all": N_("fires all round"),
    "fires_ahead": N_("fires into its forward 180 degrees only"),
    "summary": N_("Carries {kinds}, {fires}; moves up to {hexes} hexes."),
    "shields_up": N_("Shields up (pencil a tick, rub it out when they drop):"),
}
#: A log's title, by the ship's class.
LOG_TITLE = {"light": N_("light ship"), "medium": N_("medium ship"), "heavy": N_("heavy ship")}
#: A class's one kind of weapons.
WEAPONS = {"light": N_("light weapons"), "heavy": N_("heavy weapons")}

#: The charts printed under the logs, in the game's own words.
CHART = (
    N_(
        "Damage: each card that gets through damages the target: diamonds a weapon system, "
        "hearts a shield point, spades a propulsion cell; clubs are drawn again."
    ),
    N_(
        "Shields up, by points left: over 75 % only spades get through; over 50 % hearts "
        "and spades; over 25 % diamonds, hearts and spades; less, or shields down: every "
        "suit."
    ),
    N_(
        "Weapons, cards a salvo turns (heavy / light): none lost 8 / 4; up to 25 % lost "
        "6 / 3; up to 50 % 4 / 2; up to 75 % 2 / 1; more 1; all lost: no salvo."
    ),
    N_(
        "Propulsion: one hex per working cell (each change of facing costs one); a ship may "
        "jump while at least half its cells work."
    ),
)


def _say(tr: Translator, message: str, **values: object) -> str:
    """One of the sheets' words in ``tr``'s language, its places filled from ``values``."""
    return tr.gettext(message, **values)


def _arrow(out: SheetWriter, cx: float, cy: float, r: float) -> None:
    """A facing arrow pointing up, centred on ``(cx, cy)``."""
    out.polygon(
        [(cx, cy - r), (cx + r * 0.55, cy - r * 0.35), (cx - r * 0.55, cy - r * 0.35)],
        fill="#ffffff",
        stroke=None,
    )


def _counter(out: SheetWriter, cx: float, cy: float, number: int, cls: str, colour: str) -> None:
    """A ship counter: the side's colour, the facing arrow, the number and the class."""
    r = COUNTER_MM / 2
    out.circle(cx, cy, r, fill=colour, stroke="#000000", width=0.25)
    _arrow(out, cx, cy - r * 0.35, r * 0.45)
    out.text(cx, cy + r * 0.38, str(number), 7.5, anchor="middle", bold=True, colour="#ffffff")
    out.text(
        cx, cy + r * 0.8, _CLASS_LETTER[cls], 3.2, anchor="middle", bold=True, colour="#ffffff"
    )


def _chit(out: SheetWriter, x: float, y: float, label: str, colour: str) -> None:
    """A square chit for the cup."""
    out.rect(x, y, _CHIT_MM, _CHIT_MM, fill="#ffffff", stroke=colour, width=0.9)
    size = 5.5 if len(label) <= 2 else 4.0
    out.text(
        x + _CHIT_MM / 2, y + _CHIT_MM / 2 + size * 0.36, label, size, anchor="middle", bold=True
    )


def _counters_page(
    out: SheetWriter, paper: str, colours: Sequence[str], tr: Translator = ENGLISH
) -> None:
    """Each side's counters (a row of eight, the class letters L, M, H in turn: print the
    page again for more of one class) and the chits."""
    pw, ph = PAPERS[paper]
    page = Page(pw, ph)
    out.new_page(page)
    left = MARGIN_MM
    width = page.width - 2 * MARGIN_MM
    names = ", ".join(player_name(c, tr) for c in colours)
    heading = _say(tr, TEXT["counters"], colours=names)
    out.text(left, MARGIN_MM + 4, heading, 4.6, bold=True)
    y = out.paragraph(left, MARGIN_MM + 10, _say(tr, TEXT["counters_note"]), 3.0, width) + 2
    classes = list(CLASSES)
    pitch = (width - COUNTER_MM) / (MAX_SHIPS_PER_SIDE - 1)
    for colour in colours:
        out.text(left, y + 2, player_name(colour, tr), 3.6, bold=True)
        y += 4
        for k in range(MAX_SHIPS_PER_SIDE):
            cls = classes[k % len(classes)]
            cx = left + COUNTER_MM / 2 + k * pitch
            _counter(out, cx, y + COUNTER_MM / 2, k + 1, cls, TEAM_HEX[colour])
        y += COUNTER_MM + 4
    y = out.paragraph(left, y + 2, _say(tr, TEXT["chits"]), 3.0, width)
    x = left
    labels = [(str(k + 1), c) for c in colours for k in range(MAX_SHIPS_PER_SIDE)]
    labels.append((_say(tr, TEXT["blank"]), "#000000"))
    for label, colour in labels:
        if x + _CHIT_MM > page.width - MARGIN_MM:
            x, y = left, y + _CHIT_MM + 2
        _chit(out, x, y, label, TEAM_HEX.get(colour, colour))
        x += _CHIT_MM + 2


def _boxes(out: SheetWriter, x: float, y: float, label: str, count: int) -> None:
    """A row of ``count`` tick boxes after ``label``, in eights."""
    out.text(x, y + 3.3, label, 3.0, bold=True)
    bx, side = x + 19, 3.6
    for k in range(count):
        gap = 1.6 if k and k % 8 == 0 else 0.0
        bx += gap
        out.rect(bx, y, side, side, fill=None, stroke="#000000", width=0.2)
        bx += side + 0.5


def _log(out: SheetWriter, x: float, y: float, cls: ShipClass, tr: Translator = ENGLISH) -> None:
    """One ship's log with its class's boxes."""
    out.rect(x, y, _LOG_W, _LOG_H, fill=None, stroke="#000000", width=0.3, radius=1.5)
    title = _say(tr, LOG_TITLE[cls.name])
    out.text(x + 3, y + 6, title[:1].upper() + title[1:], 4.0, bold=True)
    out.text(x + 3, y + 12, _say(tr, TEXT["name"]), 3.0)
    weapons = max(cls.weapon_systems(w) for w in cls.weapon_choices)
    rows = (
        (_say(tr, TEXT["shields"]), cls.shields),
        (_say(tr, TEXT["weapons"]), weapons),
        (_say(tr, TEXT["propulsion"]), cls.propulsion),
    )
    for k, (label, count) in enumerate(rows):
        _boxes(out, x + 3, y + 17 + k * 7, label, count)
    choice = len(cls.weapon_choices) > 1
    kinds = TEXT["weapons_choice"] if choice else WEAPONS[cls.weapon_choices[0].value]
    fires = TEXT["fires_all"] if cls.all_round else TEXT["fires_ahead"]
    summary = _say(
        tr, TEXT["summary"], kinds=_say(tr, kinds), fires=_say(tr, fires), hexes=cls.propulsion
    )
    out.paragraph(x + 3, y + 42, summary, 2.8, _LOG_W - 6)
    label = _say(tr, TEXT["shields_up"])
    out.text(x + 3, y + _LOG_H - 4, label, 2.8)
    box_x = x + 3 + out.text_width(label, 2.8) + 2
    out.rect(box_x, y + _LOG_H - 7.2, 3.6, 3.6, fill=None, stroke="#000000", width=0.2)


def _logs_page(out: SheetWriter, paper: str, tr: Translator = ENGLISH) -> None:
    """Ship's logs (each class twice, on two columns) and the charts that read them."""
    pw, ph = PAPERS[paper]
    page = Page(pw, ph)
    out.new_page(page)
    left, width = MARGIN_MM, page.width - 2 * MARGIN_MM
    out.text(left, MARGIN_MM + 4, _say(tr, TEXT["logs"]), 4.6, bold=True)
    top = MARGIN_MM + 8
    gap = width - 2 * _LOG_W
    for row, cls in enumerate(CLASSES.values()):
        for column in range(2):
            _log(out, left + column * (_LOG_W + gap), top + row * (_LOG_H + 3), cls, tr)
    y = top + len(CLASSES) * (_LOG_H + 3) + 3
    for line in CHART:
        y = out.paragraph(left, y, _say(tr, line), 2.9, width) + 0.8


def draw_hexfleet(
    out: SheetWriter, paper: str, colours: Sequence[str], tr: Translator = ENGLISH
) -> None:
    """The hex fleet's sheets in ``tr``'s language: counters and chits, then ship's logs."""
    _counters_page(out, paper, colours, tr)
    _logs_page(out, paper, tr)


def hexfleet_sheets(
    out: SheetWriter, job: PrintJob, title: str, run: PrintRun
) -> list[dict[str, Any]]:
    """``job``'s copies of the hex fleet's sheets in its colours (``Sheets.draw`` of the
    game's registry entry; ``title`` is unused: the sheets head themselves); no cards."""
    for _ in range(job.copies):
        draw_hexfleet(out, job.paper, job.colours or COLOURS, run.tr)
    return []
