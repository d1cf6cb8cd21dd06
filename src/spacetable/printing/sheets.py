"""``spacetable print``: what to print for the options given, laid out page by page, as a
PDF and its manifest (pure apart from the PDF bytes it returns: no file is written here).

- Light Speed: each colour's ten ships (:data:`~spacetable.photo.markers.LIGHTSPEED_COPIES`
  copies at most), and with the whole set (no ``--colour``) its two asteroids.
- Stellar Conflict: each race's ships, once each (a race's deck holds each ship once), in
  its own colour (wiss red, vak blue, hexai green, tetrakori purple, or ``--colour``), and
  with the whole set its five asteroids.
- Faster Than Light: tokens, ruler, turning rose and an order sheet (:mod:`.ftl`).
- The hex fleet: counters, cup chits and ship's logs (:mod:`.hexfleet`).

Cards are 63 x 88 mm, true size, upright, in a grid that fills each page inside margins
every home printer prints (:mod:`.layout`), with crop marks. Asteroids are numbered across
the whole print (the same asteroid card serves both laser games), as many as there are
marker ids for. The manifest lists every printed card's rectangle (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.games.stellar import RACES, race_ships
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef
from spacetable.lasers.tables import catalog
from spacetable.photo import markers
from spacetable.printing.faces import CardFace, draw_asteroid, draw_ship
from spacetable.printing.ftl import draw_ftl
from spacetable.printing.hexfleet import draw_hexfleet
from spacetable.printing.layout import MARGIN_MM, PAPERS, Grid, Page, crop_marks, grid_for
from spacetable.printing.pdf import SheetWriter
from spacetable.render._drawing import PLAYER_COLOURS, TEAM_HEX

__all__ = [
    "COLOURS",
    "RULESETS",
    "PrintError",
    "PrintJob",
    "PrintedCard",
    "Printout",
    "laser_cards",
    "plan",
    "render",
]

#: What ``--ruleset`` takes, in the order a whole print follows.
RULESETS: tuple[str, ...] = ("lightspeed", "stellar", "ftl", "hexfleet")
_TITLES = {
    "lightspeed": "Light Speed",
    "stellar": "Stellar Conflict",
    "ftl": "Faster Than Light",
    "hexfleet": "hex fleet",
}
#: Team colours, in seat order.
COLOURS: tuple[str, ...] = PLAYER_COLOURS
#: Asteroid cards in each laser game's box.
ASTEROIDS = {"lightspeed": 2, "stellar": 5}
#: Each Stellar Conflict race's colour unless ``--colour`` says otherwise.
RACE_COLOURS: dict[str, str] = dict(zip(RACES, COLOURS, strict=True))
#: Most copies of a sheet one print makes.
MAX_COPIES = 20
#: The band over each card page's grid kept for its heading (mm).
_HEADING_MM = 10.0
#: The scale check on every card page: a bar this long (mm).
_CHECK_MM = 50.0

TEXT = {
    "heading": "spacetable: {what}, page {page} of {pages}. Print at 100 % (actual size); "
    "cut along the crop marks.",
    "check": "this bar must measure {mm:g} mm",
}


class PrintError(ValueError):
    """Options ``spacetable print`` cannot print: the message names the bad one and what
    it takes."""


@dataclass(frozen=True, slots=True)
class PrintJob:
    """What to print: the rulesets, races (Stellar Conflict; ``None``: all), colours
    (``None``: all, or each race's own), the paper and the copies of each card."""

    rulesets: tuple[str, ...]
    races: tuple[str, ...] | None
    colours: tuple[str, ...] | None
    paper: str
    copies: int


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


def _choice(value: str | None, valid: Sequence[str], option: str) -> str | None:
    """``value`` in lower case if it is one of ``valid``; a :class:`PrintError` naming
    them if not."""
    if value is None:
        return None
    key = value.strip().lower()
    if key not in valid:
        raise PrintError(
            f"{option}: unknown {option[2:]} {value!r} (choose from {', '.join(valid)})"
        )
    return key


def plan(
    ruleset: str | None = None,
    race: str | None = None,
    colour: str | None = None,
    paper: str = "a4",
    copies: int = 1,
) -> PrintJob:
    """Check the options and say what they print. Raises :class:`PrintError` naming the
    bad option and the values it takes."""
    ruleset = _choice(ruleset, RULESETS, "--ruleset")
    race = _choice(race, RACES, "--race")
    colour = _choice(colour, COLOURS, "--colour")
    paper_key = _choice(paper, tuple(PAPERS), "--paper")
    assert paper_key is not None
    if race is not None and ruleset not in (None, "stellar"):
        raise PrintError(f"--race is a Stellar Conflict option ({_TITLES[ruleset]} has no races)")
    rulesets = (ruleset,) if ruleset else ("stellar",) if race else RULESETS
    if not 1 <= copies <= MAX_COPIES:
        raise PrintError(f"--copies: print 1 to {MAX_COPIES} copies, not {copies}")
    if "lightspeed" in rulesets and copies > markers.LIGHTSPEED_COPIES:
        raise PrintError(
            f"--copies: Light Speed cards have markers for {markers.LIGHTSPEED_COPIES} "
            f"copies at most, not {copies}"
        )
    if "stellar" in rulesets and copies > markers.STELLAR_COPIES:
        raise PrintError(
            f"--copies: Stellar Conflict cards are printed {markers.STELLAR_COPIES} time "
            "each (a race's deck holds each ship once)"
        )
    return PrintJob(
        rulesets=rulesets,
        races=(race,) if race else None,
        colours=(colour,) if colour else None,
        paper=paper_key,
        copies=copies,
    )


def _asteroids(ruleset: str, first: int, job: PrintJob) -> list[PrintedCard]:
    """The ruleset's asteroids when the whole set is printed, numbered from ``first``."""
    if job.colours is not None or job.races is not None:
        return []
    last = min(first + ASTEROIDS[ruleset] * job.copies - 1, markers.ASTEROID_COPIES)
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


def laser_cards(job: PrintJob) -> list[PrintedCard]:
    """Every laser-game card the job prints, in print order."""
    cards: list[PrintedCard] = []
    asteroid = 1
    for ruleset in job.rulesets:
        if ruleset == "lightspeed":
            ships = catalog("lightspeed")
            for colour in job.colours or COLOURS:
                for key, ship in ships.items():
                    for copy in range(1, job.copies + 1):
                        ids = markers.marker_ids(ruleset, key, colour, copy)
                        cards.append(PrintedCard(ruleset, key, colour, copy, ship, ids))
        elif ruleset == "stellar":
            for race in job.races or RACES:
                colour = job.colours[0] if job.colours else RACE_COLOURS[race]
                for key, ship in race_ships(race).items():
                    ids = markers.marker_ids(ruleset, key, colour, 1)
                    cards.append(PrintedCard(ruleset, key, colour, 1, ship, ids))
        else:
            continue
        found = _asteroids(ruleset, asteroid, job)
        asteroid += len(found)
        cards += found
    return cards


def _card_pages(
    out: SheetWriter, grid: Grid, cards: list[PrintedCard], what: str
) -> list[dict[str, Any]]:
    """Draw ``cards`` on pages of ``grid``; their manifest entries."""
    entries: list[dict[str, Any]] = []
    pages = grid.pages(len(cards))
    first_page = out.pages
    for page in range(pages):
        out.new_page(grid.page)
        on_page = cards[page * grid.per_page : (page + 1) * grid.per_page]
        heading = TEXT["heading"].format(what=what, page=page + 1, pages=pages)
        top = MARGIN_MM + 3.0
        out.text(grid.left, top, heading, 3.2)
        right = grid.left + grid.columns * grid.width + (grid.columns - 1) * 2.0
        bar = (right - _CHECK_MM, top - 1.2)
        out.line(bar, (right, bar[1]), 0.5)
        for end in (bar[0], right):
            out.line((end, bar[1] - 1.5), (end, bar[1] + 1.5), 0.3)
        label = TEXT["check"].format(mm=_CHECK_MM)
        out.text(bar[0] - 2, top, label, 2.6, anchor="end")
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


def card_pdf(ruleset: str, ship: str, owner: str | None, copy: int = 1) -> bytes:
    """One printed card alone, as a PDF page exactly its size (63 x 88 mm, upright):
    the face a sheet prints, to rasterise at any resolution (synthetic photos, previews).
    ``ship="asteroid"`` with ``owner=None`` is an asteroid. Raises :class:`PrintError`
    for a card that has no markers (an unknown ruleset, ship, colour or copy)."""
    try:
        ids = markers.marker_ids(None if ship == markers.ASTEROID else ruleset, ship, owner, copy)
    except markers.UnknownCard as exc:
        raise PrintError(str(exc)) from None
    out = SheetWriter(f"spacetable card: {ship}")
    out.new_page(Page(*CARD_SIZE_MM))
    if ship == markers.ASTEROID:
        draw_asteroid(out, 0.0, 0.0, ids)
    else:
        definition = catalog(ruleset)[ship]
        draw_ship(out, 0.0, 0.0, definition, CardFace(TEAM_HEX[owner or "red"], ids))
    return out.finish()


@dataclass(frozen=True, slots=True)
class Printout:
    """A printed job: the PDF, its page count and its manifest ``{"cards": [...]}``
    (docs/formats.md)."""

    pdf: bytes
    pages: int
    manifest: dict[str, Any]


def render(job: PrintJob) -> Printout:
    """Draw ``job``."""
    titles = ", ".join(_TITLES[r] for r in job.rulesets)
    out = SheetWriter(f"spacetable print-and-play: {titles}")
    grid = grid_for(job.paper, *CARD_SIZE_MM, reserve_top=_HEADING_MM)
    entries: list[dict[str, Any]] = []
    cards = laser_cards(job)
    colours = job.colours or COLOURS
    for ruleset in job.rulesets:
        if ruleset in ASTEROIDS:
            mine = [c for c in cards if c.ruleset == ruleset]
            if mine:
                entries += _card_pages(out, grid, mine, f"{_TITLES[ruleset]} cards")
        for _ in range(job.copies):
            if ruleset == "ftl":
                draw_ftl(out, job.paper, colours)
            elif ruleset == "hexfleet":
                draw_hexfleet(out, job.paper, colours)
    pages = out.pages
    return Printout(out.finish(), pages, {"cards": entries})
