"""Light Speed and Stellar Conflict print-and-play sheets: which cards a print holds,
and their pages: the cards in a grid that fills each page inside the margins
(:mod:`.layout`), crop marks, a heading that asks for a print at 100 % and a 50 mm bar to
check it, and each card's face with its markers (:mod:`.faces`).

- Light Speed: each colour's ten ships (up to
  :data:`~spacetable.lasers.printed.LIGHTSPEED_PRINTED` ``copies``), and with the whole set (no
  ``--colour``) the box's two asteroids.
- Stellar Conflict: each race's ships, once each (a race's deck holds each ship once), in
  its own colour (wiss red, vak blue, hexai green, tetrakori purple, or ``--colour``), and
  with the whole set the box's five asteroids.

Asteroids are numbered across the whole print (the same asteroid card serves both laser
games), as many as there are marker ids for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.games.stellar import RACES, race_ships
from spacetable.i18n import ENGLISH, N_, Translator
from spacetable.i18n.phrase import refusal
from spacetable.lasers.printed import LIGHTSPEED_PRINTED, STELLAR_PRINTED
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import catalog
from spacetable.photo import markers
from spacetable.printing.choices import PrintError, PrintJob, PrintRun
from spacetable.printing.faces import CardFace, draw_asteroid, draw_ship
from spacetable.printing.layout import GAP_MM, MARGIN_MM, crop_marks, grid_for
from spacetable.printing.pdf import SheetWriter
from spacetable.render._drawing import PLAYER_COLOURS, TEAM_HEX

__all__ = [
    "ASTEROIDS",
    "RACE_COLOURS",
    "PrintedCard",
    "check_lightspeed",
    "check_stellar",
    "draw_lasers",
    "laser_cards",
    "lightspeed_sheets",
    "stellar_sheets",
]

#: Asteroid cards in each laser game's box.
ASTEROIDS = {"lightspeed": 2, "stellar": 5}
#: Each Stellar Conflict race's colour unless ``--colour`` says otherwise.
RACE_COLOURS: dict[str, str] = dict(zip(RACES, PLAYER_COLOURS, strict=True))
#: The band over each card page's grid kept for its heading (mm).
_HEADING_MM = 10.0
#: The scale check on every card page: a bar this long (mm).
_CHECK_MM = 50.0

#: The pages' words (catalog messages: the printer's language writes them).
TEXT = {
    "heading": N_(
        "spacetable: {what} cards, page {page} of {pages}. Print at 100 % (actual size); "
        "cut along the crop marks."
    ),
    "check": N_("this bar must measure {mm} mm"),
}


@dataclass(frozen=True, slots=True)
class PrintedCard:
    """One laser-game card to print: its ruleset, ship key (``asteroid``), owner colour
    (``None`` for an asteroid), copy number, definition and marker ids."""

    ruleset: str
    ship: str
    owner: str | None
    copy: int
    definition: ShipDef | None
    marker_ids: tuple[int, ...]


def _asteroids(ruleset: str, first: int, copies: int) -> list[PrintedCard]:
    """The ruleset's asteroids, ``copies`` times, numbered from ``first`` (as many as
    have markers)."""
    last = min(first + ASTEROIDS[ruleset] * copies - 1, markers.ASTEROID_COPIES)
    return [
        PrintedCard(
            ruleset,
            markers.ASTEROID,
            None,
            n,
            None,
            markers.marker_ids(None, markers.ASTEROID, None, n),
        )
        for n in range(first, last + 1)
    ]


def laser_cards(
    ruleset: str,
    races: Sequence[str] | None,
    colours: Sequence[str] | None,
    copies: int,
    first_asteroid: int | None = 1,
) -> list[PrintedCard]:
    """The cards of ``ruleset`` (``lightspeed`` or ``stellar``) in print order: the
    ``races`` (Stellar Conflict; ``None``: all) in the ``colours`` (``None``: all, or
    each race's own), ``copies`` of each, then the asteroids numbered from
    ``first_asteroid`` (``None``: none)."""
    cards: list[PrintedCard] = []
    if ruleset == "lightspeed":
        ships = catalog("lightspeed")
        for colour in colours or PLAYER_COLOURS:
            for key, ship in ships.items():
                for copy in range(1, copies + 1):
                    ids = markers.marker_ids(ruleset, key, colour, copy)
                    cards.append(PrintedCard(ruleset, key, colour, copy, ship, ids))
    else:
        for race in races or RACES:
            colour = colours[0] if colours else RACE_COLOURS[race]
            for key, ship in race_ships(race).items():
                ids = markers.marker_ids(ruleset, key, colour, 1)
                cards.append(PrintedCard(ruleset, key, colour, 1, ship, ids))
    if first_asteroid is not None:
        cards += _asteroids(ruleset, first_asteroid, copies)
    return cards


def _heading(
    out: SheetWriter, left: float, right: float, text: str, tr: Translator = ENGLISH
) -> None:
    """A card page's heading, with the 50 mm bar at its right end."""
    y = MARGIN_MM + 3.0
    out.text(left, y, text, 3.2)
    bar = (right - _CHECK_MM, y - 1.2)
    out.line(bar, (right, bar[1]), 0.5)
    for end in (bar[0], right):
        out.line((end, bar[1] - 1.5), (end, bar[1] + 1.5), 0.3)
    check = TEXT["check"]
    out.text(bar[0] - 2, y, tr.gettext(check, mm=f"{_CHECK_MM:g}"), 2.6, anchor="end")


def draw_lasers(
    out: SheetWriter,
    paper: str,
    cards: list[PrintedCard],
    title: str,
    tr: Translator = ENGLISH,
) -> list[dict[str, Any]]:
    """Draw ``cards`` on pages of ``paper`` headed with the game's ``title`` (the heading
    in ``tr``'s language); their manifest entries (docs/formats.md)."""
    grid = grid_for(paper, *CARD_SIZE_MM, reserve_top=_HEADING_MM)
    entries: list[dict[str, Any]] = []
    pages = grid.pages(len(cards))
    first_page = out.pages
    right = grid.left + grid.columns * grid.width + (grid.columns - 1) * GAP_MM
    for page in range(pages):
        out.new_page(grid.page)
        on_page = cards[page * grid.per_page : (page + 1) * grid.per_page]
        said = TEXT["heading"]  # (a name, not a literal, inside gettext: the catalogs' extraction)
        heading = tr.gettext(said, what=title, page=page + 1, pages=pages)
        _heading(out, grid.left, right, heading, tr)
        for a, b in crop_marks(grid, len(on_page)):
            out.line(a, b, 0.2, "#000000")
        for index, card in enumerate(on_page):
            slot = grid.slot(page * grid.per_page + index)
            if card.definition is None:
                draw_asteroid(out, slot.x, slot.y, card.marker_ids)
            else:
                face = CardFace(TEAM_HEX[card.owner or "red"], card.marker_ids)
                draw_ship(out, slot.x, slot.y, card.definition, face)
            entries.append(
                {
                    "page": first_page + slot.page,
                    "x": slot.x,
                    "y": slot.y,
                    "width": slot.width,
                    "height": slot.height,
                    "ruleset": card.ruleset,
                    "ship": card.ship,
                    "owner": card.owner,
                    "copy": card.copy,
                    "markers": list(card.marker_ids),
                }
            )
    return entries


def _sheets(
    ruleset: str, out: SheetWriter, job: PrintJob, title: str, run: PrintRun
) -> list[dict[str, Any]]:
    """The card pages of ``ruleset`` for ``job``, and their manifest entries; with the
    whole set, the box's asteroids numbered on from those printed before (``run``)."""
    first = run.numbers.get(markers.ASTEROID, 1)
    numbered = first if job.whole_set else None
    cards = laser_cards(ruleset, job.races, job.colours, job.copies, numbered)
    run.numbers[markers.ASTEROID] = first + sum(card.ship == markers.ASTEROID for card in cards)
    return draw_lasers(out, job.paper, cards, title, run.tr)


def lightspeed_sheets(
    out: SheetWriter, job: PrintJob, title: str, run: PrintRun
) -> list[dict[str, Any]]:
    """Light Speed's card pages (``Sheets.draw`` of the game's registry entry)."""
    return _sheets("lightspeed", out, job, title, run)


def stellar_sheets(
    out: SheetWriter, job: PrintJob, title: str, run: PrintRun
) -> list[dict[str, Any]]:
    """Stellar Conflict's card pages (``Sheets.draw`` of the game's registry entry)."""
    return _sheets("stellar", out, job, title, run)


def check_lightspeed(job: PrintJob) -> None:
    """Refuse more copies than Light Speed cards have markers for
    (:class:`~spacetable.printing.choices.PrintError`)."""
    if job.copies > LIGHTSPEED_PRINTED.copies:
        raise PrintError(
            refusal(
                "--copies: Light Speed cards have markers for {most} copies at most, not {copies}",
                most=LIGHTSPEED_PRINTED.copies,
                copies=str(job.copies),
            )
        )


def check_stellar(job: PrintJob) -> None:
    """Refuse more than one copy of Stellar Conflict cards (a race's deck holds each ship
    once; :class:`~spacetable.printing.choices.PrintError`)."""
    if job.copies > STELLAR_PRINTED.copies:
        raise PrintError(
            refusal(
                "--copies: Stellar Conflict cards are printed {n} time each (a race's deck "
                "holds each ship once)",
                n=STELLAR_PRINTED.copies,
            )
        )
