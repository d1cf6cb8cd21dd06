"""What ``spacetable print`` offers and asks of a game, named without drawing anything: the
team colours, the most copies, what a print is (:class:`PrintJob`) and what a game gives to
be printed (:class:`Sheets`, a field of its registry entry). The command line lists the
choices in its help and imports the sheets, reportlab and svglib only when it prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from spacetable.i18n import ENGLISH, SOURCE, Translator
from spacetable.render._drawing import PLAYER_COLOURS

if TYPE_CHECKING:
    from spacetable.printing.pdf import SheetWriter

__all__ = ["COLOURS", "MAX_COPIES", "DrawSheets", "PrintError", "PrintJob", "PrintRun", "Sheets"]

#: Team colours, in seat order.
COLOURS: tuple[str, ...] = PLAYER_COLOURS
#: Most copies of a sheet one print makes.
MAX_COPIES = 20


class PrintError(ValueError):
    """Options ``spacetable print`` cannot print: the message names the bad one and what
    it takes."""


@dataclass(frozen=True, slots=True)
class PrintJob:
    """What to print: the games (their keys, in print order), the parts of a game's set
    (``--race``: Stellar Conflict's races; ``None``: all), colours (``None``: all, or each
    part's own), the paper and the copies of each card."""

    rulesets: tuple[str, ...]
    races: tuple[str, ...] | None
    colours: tuple[str, ...] | None
    paper: str
    copies: int
    #: The language of the sheets' headings and scale checks.
    lang: str = SOURCE

    @property
    def whole_set(self) -> bool:
        """Whether the print holds every colour and part (then pieces a box holds once,
        such as asteroids, are printed too)."""
        return self.colours is None and self.races is None


@dataclass(slots=True)
class PrintRun:
    """What the games printed one after another share while a job is drawn: the words'
    language, and the next number of each kind of piece numbered across the whole print
    (the asteroid card serves both laser games: their asteroids are numbered on)."""

    tr: Translator = ENGLISH
    numbers: dict[str, int] = field(default_factory=dict)


class DrawSheets(Protocol):
    """Draws a game's sheets for ``job`` on ``out`` (each card page headed with the game's
    ``title``) and returns the manifest entries of the cards it printed
    (docs/formats.md; sheets that are not cards add none)."""

    def __call__(
        self, out: SheetWriter, job: PrintJob, title: str, run: PrintRun
    ) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, slots=True)
class Sheets:
    """A game's print-and-play sheets (``Game.sheets`` in the registry).

    ``draw`` draws them (a :func:`~spacetable.registry.lazy` reference, so that loading the
    game does not load reportlab); ``parts`` are the parts of its set a print may be
    limited to (``--race``: Stellar Conflict's races), ``parts_elsewhere`` the catalog
    message refusing them for another game (``{game}``: its title); ``check`` refuses a
    job the game cannot print (raising :class:`PrintError` with a
    :func:`~spacetable.i18n.phrase.refusal` naming the option), if anything.
    """

    draw: DrawSheets
    parts: tuple[str, ...] = ()
    parts_elsewhere: str | None = None
    check: Callable[[PrintJob], None] | None = None
