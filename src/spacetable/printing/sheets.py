"""``spacetable print``: what to print for the options given, as a PDF and its manifest
(pure apart from the PDF bytes it returns: no file is written here). The games that print
are handed in (:class:`Printable`: the command line reads them from the registry, each
game's :class:`~spacetable.printing.choices.Sheets`); each draws its own sheets, and a
whole print holds them in the order given.

Cards are 63 x 88 mm, true size, upright, in a grid that fills each page inside margins
every home printer prints (:mod:`.layout`), with crop marks. The manifest lists every
printed card's rectangle (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from spacetable.i18n import N_, SOURCE, translator
from spacetable.i18n.phrase import Phrase, Reason, refusal
from spacetable.lasers.ships import CARD_SIZE_MM
from spacetable.lasers.tables import catalog
from spacetable.photo import markers
from spacetable.printing.choices import (
    COLOURS,
    MAX_COPIES,
    PrintError,
    PrintJob,
    PrintRun,
    Sheets,
)
from spacetable.printing.faces import CardFace, draw_asteroid, draw_ship
from spacetable.printing.layout import PAPERS, Page
from spacetable.printing.pdf import SheetWriter
from spacetable.render._drawing import TEAM_HEX

__all__ = [
    "COLOURS",
    "PrintError",
    "PrintJob",
    "Printable",
    "Printout",
    "card_pdf",
    "plan",
    "render",
]


class Printable(NamedTuple):
    """A game ``spacetable print`` prints: its key (what ``--ruleset`` takes), its title
    and its sheets."""

    key: str
    title: str
    sheets: Sheets


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
    games: Sequence[Printable],
    ruleset: str | None = None,
    race: str | None = None,
    colour: str | None = None,
    paper: str = "a4",
    copies: int = 1,
    lang: str = SOURCE,
) -> PrintJob:
    """Check the options and say what they print of ``games``. Raises
    :class:`PrintError` naming the bad option and the values it takes."""
    by_key = {entry.key: entry for entry in games}
    ruleset = _choice(ruleset, tuple(by_key), "--ruleset")
    parts = tuple(dict.fromkeys(part for entry in games for part in entry.sheets.parts))
    race = _choice(race, parts, "--race")
    colour = _choice(colour, COLOURS, "--colour")
    paper_key = _choice(paper, tuple(PAPERS), "--paper")
    assert paper_key is not None
    owners = tuple(entry.key for entry in games if race in entry.sheets.parts)
    if race is not None and ruleset is not None and ruleset not in owners:
        elsewhere = by_key[owners[0]].sheets.parts_elsewhere
        assert elsewhere is not None, f"{owners[0]} has parts but no refusal for them elsewhere"
        raise PrintError(Reason(Phrase(elsewhere, (("game", by_key[ruleset].title),))))
    rulesets = (ruleset,) if ruleset else owners if race else tuple(by_key)
    if not 1 <= copies <= MAX_COPIES:
        raise PrintError(
            refusal(
                "--copies: print 1 to {most} copies, not {copies}",
                most=MAX_COPIES,
                copies=str(copies),
            )
        )
    job = PrintJob(
        rulesets=rulesets,
        races=(race,) if race else None,
        colours=(colour,) if colour else None,
        paper=paper_key,
        copies=copies,
        lang=lang,
    )
    for key in rulesets:
        check = by_key[key].sheets.check
        if check is not None:
            check(job)
    return job


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


def render(games: Sequence[Printable], job: PrintJob) -> Printout:
    """Draw ``job``, each of its games by its own sheets (of ``games``)."""
    by_key = {entry.key: entry for entry in games}
    titles = ", ".join(by_key[key].title for key in job.rulesets)
    out = SheetWriter(f"spacetable print-and-play: {titles}")
    run = PrintRun(translator(job.lang))
    entries: list[dict[str, Any]] = []
    for key in job.rulesets:
        entry = by_key[key]
        entries += entry.sheets.draw(out, job, entry.title, run)
    pages = out.pages
    return Printout(out.finish(), pages, {"cards": entries})
