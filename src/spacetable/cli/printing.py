"""``spacetable print``: print-and-play sheets for every game as one PDF, with a manifest
of where each card lies on its page (:mod:`spacetable.printing`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from spacetable._number_options import within
from spacetable.cli._common import cannot_write, fail, said, titles
from spacetable.cli.referee import check_language
from spacetable.i18n import LANGUAGES, SOURCE, translator
from spacetable.printing.choices import COLOURS, MAX_COPIES
from spacetable.printing.layout import PAPERS
from spacetable.registry import Listing, games, listings

__all__ = ["print_sheets"]


def _prints(listing: Listing) -> bool:
    """Whether ``spacetable print`` prints this game."""
    return listing.prints


def _printed() -> str:
    """The games ``--ruleset`` takes, in print order: "lightspeed, stellar, ..."."""
    return ", ".join(listing.key for listing in listings() if _prints(listing))


def _with_parts() -> str:
    """The games whose print may be limited to parts of the set, in words."""
    return titles(lambda listing: listing.prints and listing.card_parts, "or")


def print_sheets(
    output: Annotated[Path, typer.Option("-o", "--output", help="The PDF file to write.")],
    ruleset: Annotated[
        str | None,
        typer.Option(
            help=f"Print one game only: {_printed()} (default: all of them, in that order)."
        ),
    ] = None,
    race: Annotated[
        str | None,
        typer.Option(help=f"{_with_parts()}: print this race's cards only."),
    ] = None,
    colour: Annotated[
        str | None,
        typer.Option(
            "--colour",
            "--color",
            help="Print this team colour only: " + ", ".join(COLOURS) + ".",
        ),
    ] = None,
    paper: Annotated[str, typer.Option(help="Paper size: " + " or ".join(PAPERS) + ".")] = "a4",
    copies: Annotated[
        int,
        typer.Option(
            help="Copies of each card (as many as its game's cards have markers for), or "
            "of each sheet of the other games.",
            callback=within(1, MAX_COPIES),
        ),
    ] = 1,
    manifest: Annotated[
        Path | None,
        typer.Option(help="Also write where each card lies on its page as JSON (docs/formats.md)."),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="The language of the card pages' headings and the scale checks: "
            + " or ".join(LANGUAGES)
            + " (default: the system's, else English).",
            callback=check_language,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print true-size card sheets, tokens, rulers and logs to play on a real table.

    Print the PDF at 100 % (actual size): each card page has a 50 mm bar to check it.
    The cards of the games `spacetable photo` referees carry the markers it reads."""
    from spacetable.printing.sheets import Printable, PrintError, plan, render  # reportlab: now

    started = time.perf_counter()
    tr = translator(lang or SOURCE)
    printable = [
        Printable(entry.rules.key, entry.rules.title, entry.sheets)
        for entry in games()
        if entry.sheets is not None
    ]
    try:
        job = plan(printable, ruleset, race, colour, paper, copies, lang or SOURCE)
    except PrintError as exc:
        fail(said(exc, tr), tr)
    if sys.stderr.isatty():
        print(tr.gettext("spacetable: drawing the sheets..."), file=sys.stderr)
    printout = render(printable, job)
    try:
        output.write_bytes(printout.pdf)
        if manifest is not None:
            text = json.dumps(printout.manifest, indent=1) + "\n"
            manifest.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(cannot_write(exc.filename, exc, tr), tr)
    seconds = tr.number(time.perf_counter() - started, "0.0")
    pages = tr.ngettext("{n} page", "{n} pages", printout.pages)
    cards = tr.ngettext("{n} card", "{n} cards", len(printout.manifest["cards"]))
    if manifest is None:
        print(tr.gettext("wrote {file}: {pages}, {cards} in {seconds} s",
                         file=str(output), pages=pages, cards=cards, seconds=seconds))  # fmt: skip
    else:
        print(tr.gettext("wrote {file}: {pages}, {cards} in {seconds} s; manifest {manifest}",
                         file=str(output), pages=pages, cards=cards, seconds=seconds,
                         manifest=str(manifest)))  # fmt: skip
