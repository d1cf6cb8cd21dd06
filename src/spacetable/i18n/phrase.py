"""Words the server decides but the reader's page writes: a message and its values.

A match's log, a refusal or an odds caption is built on the server, but each reader sees it
in his own language (two players of one room may read two languages; a stored match replays
in either). So the server sends a :class:`Phrase` — the English message (the catalogs' id),
its ``{name}`` values and, for a counted message, its plural and ``n`` — and the page
translates it (``said()`` in web/js/shell/phrase.js) as it translates its own messages. A
value may itself be a phrase ("facing {facing}" with the facing's name), translated first.

``phrase(...)``, ``phrase_n(...)`` and ``refusal(...)`` are keywords of the catalogs' extraction
(:mod:`spacetable.cli.catalogs`), as ``gettext`` and ``ngettext`` are: every message a
phrase may hold is in the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from spacetable.i18n import _COLOURS, ENGLISH, Translator

#: What a phrase's place may hold: a number (written the reader's way), a name kept as it
#: is, or another phrase.
Value = Union[int, float, str, "Phrase"]


@dataclass(frozen=True, slots=True)
class Phrase:
    """The English ``message`` with its ``values``; a counted one has its ``plural`` and
    ``n`` (the form is chosen by the reader's language)."""

    message: str
    values: tuple[tuple[str, Value], ...] = ()
    plural: str | None = None
    n: int | None = None

    def text(
        self, tr: Translator = ENGLISH, shown: Mapping[str, Callable[[str], str]] | None = None
    ) -> str:
        """The phrase in ``tr``'s language (English by default). ``shown`` writes the plain
        text values of the places it names its way, at any depth (the hex fleet's cards:
        ``{cards}`` "KH" as "R♥" in French), as ``said()`` does in the browser."""
        ways = shown or {}
        filled = {
            name: (
                value.text(tr, shown)
                if isinstance(value, Phrase)
                else ways[name](value)
                if name in ways and isinstance(value, str)
                else value
            )
            for name, value in self.values
        }
        if self.plural is not None and self.n is not None:
            return tr.ngettext(self.message, self.plural, self.n, **filled)
        return tr.gettext(self.message, **filled)

    def to_json(self) -> dict[str, Any]:
        """``{"message", "params"}``, and ``"plural"``, ``"n"`` for a counted message: what
        the page's ``said()`` translates."""
        data: dict[str, Any] = {
            "message": self.message,
            "params": {
                name: value.to_json() if isinstance(value, Phrase) else value
                for name, value in self.values
            },
        }
        if self.plural is not None:
            data["plural"] = self.plural
            data["n"] = self.n
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Phrase:
        """The phrase :meth:`to_json` wrote."""
        values = tuple(
            (str(name), cls.from_json(value) if isinstance(value, Mapping) else value)
            for name, value in dict(data.get("params") or {}).items()
        )
        plural = data.get("plural")
        n = data.get("n")
        return cls(str(data["message"]), values, plural, n if isinstance(n, int) else None)

    def __str__(self) -> str:
        return self.text()


def phrase(message: str, /, **values: Value) -> Phrase:
    """``message`` (English, in the catalogs) with its ``{name}`` ``values``."""
    return Phrase(message, tuple(values.items()))


def phrase_n(singular: str, plural: str, n: int, /, **values: Value) -> Phrase:
    """A counted message: ``{n}`` in it is ``n``; the form suits ``n`` in the reader's
    language."""
    return Phrase(singular, tuple(values.items()), plural, n)


class Reason(str):
    """A sentence for a player — why an action is refused, say — that is its English text
    wherever a string is expected (an exception's message, a JSON field) and carries its
    :attr:`phrase` for a page to write in its reader's language."""

    phrase: Phrase

    def __new__(cls, said: Phrase) -> Reason:
        made = super().__new__(cls, said.text())
        made.phrase = said
        return made

    def __reduce__(self) -> tuple[type[Reason], tuple[Phrase]]:
        # Pickled as its phrase (a result crosses from a worker process: cli/referee.py),
        # not as str's text, which __new__ does not take.
        return (Reason, (self.phrase,))


def refusal(message: str, /, **values: Value) -> Reason:
    """A :class:`Reason` from ``message`` (English, in the catalogs) and its values."""
    return Reason(Phrase(message, tuple(values.items())))


def says(text: object) -> dict[str, Any] | None:
    """The phrase of ``text`` as JSON when it is a :class:`Reason`, else ``None``."""
    return text.phrase.to_json() if isinstance(text, Reason) else None


def value_of(error: BaseException) -> Value:
    """``error``'s message as a phrase's value: its phrase when it is a :class:`Reason`
    (``CombatRefused(refusal(...))``, say), else its text."""
    said = error.args[0] if error.args else ""
    return said.phrase if isinstance(said, Reason) else str(said)


def player_said(player: str) -> Value:
    """A player as a phrase's value: a team colour (``blue``) as a phrase, written in the
    reader's language (``bleu``); any other name as it is."""
    return Phrase(_COLOURS[player]) if player in _COLOURS else player


def piece_said(piece: str) -> Value:
    """A piece id as a phrase's value: one that starts with a team colour (``blue``,
    ``blue-m1``, as turn files name pieces) with that colour in the reader's language
    (``bleu``, ``bleu-m1``, as the pages show them); any other id as it is."""
    colour, dash, rest = piece.partition("-")
    if colour not in _COLOURS:
        return piece
    return phrase("{colour}{rest}", colour=Phrase(_COLOURS[colour]), rest=dash + rest)
