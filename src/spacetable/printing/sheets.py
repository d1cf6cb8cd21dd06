"""``spacetable print``: what to print for the options given, as a PDF and its manifest
(pure apart from the PDF bytes it returns: no file is written here). Each game's sheets
come from its own module: :mod:`.lasers` (Light Speed and Stellar Conflict cards),
:mod:`.ftl` and :mod:`.hexfleet`; a whole print holds them in that order.

Cards are 63 x 88 mm, true size, upright, in a grid that fills each page inside margins
every home printer prints (:mod:`.layout`), with crop marks. The manifest lists every
printed card's rectangle (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.games.stellar import RACES
from spacetable.i18n import N_, SOURCE, translator
from spacetable.i18n.phrase import Phrase, Reason, refusal
from spacetable.lasers.ships import CARD_SIZE_MM
from spacetable.lasers.tables import catalog
from spacetable.photo import markers
from spacetable.printing.choices import COLOURS, MAX_COPIES, RULESETS
from spacetable.printing.faces import CardFace, draw_asteroid, draw_ship
from spacetable.printing.ftl import draw_ftl
from spacetable.printing.hexfleet import draw_hexfleet
from spacetable.printing.lasers import ASTEROIDS, draw_lasers, laser_cards
from spacetable.printing.layout import PAPERS, Page
from spacetable.printing.pdf import SheetWriter
from spacetable.render._drawing import TEAM_HEX

__all__ = [
    "COLOURS",
    "RULESETS",
    "PrintError",
    "PrintJob",
    "Printout",
    "card_pdf",
    "plan",
    "render",
]

_TITLES = {
    "lightspeed": "Light Speed",
    "stellar": "Stellar Conflict",
    "ftl": "Faster Than Light",
    "hexfleet": "hex fleet",
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
    #: The language of the sheets' headings and scale checks.
    lang: str = SOURCE


#: What each choice option says of a value it does not take.
_UNKNOWN = {
    "--ruleset": N_("--ruleset: unknown ruleset {value} (choose from {values})"),
    "--race": N_("--race: unknown race {value} (choose from {values})"),
    "--colour": N_("--colour: unknown colour {value} (choose from {values})"),
    "--paper": N_("--paper: unknown paper {value} (choose from {values})"),
}


def _choice(value: str | None, valid: Sequence[str], option: str) -> str | None:
    """``value`` in lower case if it is one of ``valid``; a :class:`PrintError` naming
    them if not."""
    if value is None:
        return None
    key = value.strip().lower()
    if key not in valid:
        said = Phrase(_UNKNOWN[option], (("value", repr(value)), ("values", ", ".join(valid))))
        raise PrintError(Reason(said))
    return key


def plan(
    ruleset: str | None = None,
    race: str | None = None,
    colour: str | None = None,
    paper: str = "a4",
    copies: int = 1,
    lang: str = SOURCE,
) -> PrintJob:
    """Check the options and say what they print. Raises :class:`PrintError` naming the
    bad option and the values it takes."""
    ruleset = _choice(ruleset, RULESETS, "--ruleset")
    race = _choice(race, RACES, "--race")
    colour = _choice(colour, COLOURS, "--colour")
    paper_key = _choice(paper, tuple(PAPERS), "--paper")
    assert paper_key is not None
    if race is not None and ruleset not in (None, "stellar"):
        raise PrintError(
            refusal(
                "--race is a Stellar Conflict option ({game} has no races)",
                game=_TITLES[ruleset],
            )
        )
    rulesets = (ruleset,) if ruleset else ("stellar",) if race else RULESETS
    if not 1 <= copies <= MAX_COPIES:
        raise PrintError(
            refusal(
                "--copies: print 1 to {most} copies, not {copies}",
                most=MAX_COPIES,
                copies=str(copies),
            )
        )
    if "lightspeed" in rulesets and copies > markers.LIGHTSPEED_COPIES:
        raise PrintError(
            refusal(
                "--copies: Light Speed cards have markers for {most} copies at most, not {copies}",
                most=markers.LIGHTSPEED_COPIES,
                copies=str(copies),
            )
        )
    if "stellar" in rulesets and copies > markers.STELLAR_COPIES:
        raise PrintError(
            refusal(
                "--copies: Stellar Conflict cards are printed {n} time each (a race's deck "
                "holds each ship once)",
                n=markers.STELLAR_COPIES,
            )
        )
    return PrintJob(
        rulesets=rulesets,
        races=(race,) if race else None,
        colours=(colour,) if colour else None,
        paper=paper_key,
        copies=copies,
        lang=lang,
    )


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
    entries: list[dict[str, Any]] = []
    colours = job.colours or COLOURS
    whole_set = job.colours is None and job.races is None
    asteroid = 1
    tr = translator(job.lang)
    for ruleset in job.rulesets:
        if ruleset in ASTEROIDS:
            first = asteroid if whole_set else None
            cards = laser_cards(ruleset, job.races, job.colours, job.copies, first)
            asteroid += sum(card.ship == markers.ASTEROID for card in cards)
            entries += draw_lasers(out, job.paper, cards, _TITLES[ruleset], tr)
        for _ in range(job.copies):
            if ruleset == "ftl":
                draw_ftl(out, job.paper, colours, tr)
            elif ruleset == "hexfleet":
                draw_hexfleet(out, job.paper, colours, tr)
    pages = out.pages
    return Printout(out.finish(), pages, {"cards": entries})
