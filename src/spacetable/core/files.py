"""The start every referee file shares (DESIGN sections 3 and 5: table files, FTL turn
files, hex fleet combat scripts): a JSON object, only known top-level fields, one of the
reader's rulesets, and, in a file that seats players, their names.

Each reader checks the rest of its own file; this module says what is wrong with the
start, with the reader's own error class and the name its files go by, and holds what the
readers share: :class:`FileError`, the base of their error classes, the readers of a
number (:func:`number`, :func:`whole`) that name the field (:func:`field_of`) in their
refusal, and :class:`Fields`, those readers bound to one file's error class (with the
checks of unknown fields and of ``[width, length]`` pairs that every file makes).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from spacetable._userinput import InputError, clipped, listed, parse_json
from spacetable.i18n import N_
from spacetable.i18n.phrase import Phrase, Reason, Value, phrase, refusal

#: The kinds of file a header names ("a turn file must hold a JSON object"), for the catalogs.
KINDS = (N_("table file"), N_("turn file"), N_("combat script"))

#: The longest player name a file may hold.
MAX_PLAYER_CHARS = 200
#: How many players a file may seat.
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class FileError(ValueError):
    """A referee file (or a part of one, such as a ship definition) that is malformed or
    impossible: the message is one line naming the problem, and :attr:`says` the same as
    a phrase when it has one (for a page in its reader's language). Each file's reader
    raises its own subclass."""

    @property
    def says(self) -> Phrase | None:
        """The message as a phrase (:mod:`spacetable.i18n.phrase`), or ``None``."""
        said = self.args[0] if self.args else None
        return said.phrase if isinstance(said, Reason) else None


def decoded(
    text: str | bytes, *, most_bytes: int, too_large: Reason, error: type[Exception]
) -> Any:
    """``text`` (or UTF-8 bytes; a byte-order mark is accepted) decoded as JSON. Raises
    ``error``: ``too_large`` when it is longer than ``most_bytes``, else one line saying
    where the JSON is malformed or nested too deep."""
    if len(text) > most_bytes:
        raise error(too_large)
    try:
        return parse_json(text)
    except InputError as exc:
        raise error(exc.args[0]) from exc


@dataclass(frozen=True, slots=True)
class Header:
    """A file's checked start: the decoded object (``fields``), its ``ruleset`` and its
    ``players`` (empty for a file that seats none)."""

    fields: dict[str, Any]
    ruleset: str
    players: tuple[str, ...] = ()


def read_header(
    data: Any,
    *,
    kind: str,
    fields: Collection[str],
    rulesets: Sequence[str],
    error: type[Exception],
    seats_players: bool = True,
) -> Header:
    """Check the start of a decoded ``kind`` of file ("table file", "turn file"...):
    a JSON object whose top-level fields are among ``fields``, whose ``ruleset`` is one
    of ``rulesets`` and (if it ``seats_players``) whose ``players`` are 2 to 4 distinct
    names. Raises ``error`` with one line naming the problem."""
    if not isinstance(data, dict):
        raise error(refusal("a {kind} must hold a JSON object", kind=Phrase(kind)))
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise error(
            refusal(
                "unknown top-level field(s): {fields}", fields=listed([repr(k) for k in unknown])
            )
        )
    ruleset = data.get("ruleset")
    if ruleset not in rulesets:
        got = clipped(ruleset)
        if len(rulesets) == 1:
            raise error(
                refusal(
                    "'ruleset' must be {expected}, got {value}",
                    expected=repr(rulesets[0]),
                    value=got,
                )
            )
        raise error(
            refusal(
                "'ruleset' must be one of {expected}, got {value}",
                expected=", ".join(rulesets),
                value=got,
            )
        )
    players = _players(data.get("players"), error) if seats_players else ()
    return Header(data, str(ruleset), players)


def _players(raw: Any, error: type[Exception]) -> tuple[str, ...]:
    """The players' names, checked."""
    if not isinstance(raw, list):
        raise error(
            refusal(
                "'players' must be a list of {least} to {most} names",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
            )
        )
    if not all(isinstance(p, str) and 0 < len(p) <= MAX_PLAYER_CHARS for p in raw[:5]):
        raise error(
            refusal(
                "'players' names must be strings of 1 to {most} characters", most=MAX_PLAYER_CHARS
            )
        )
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise error(
            refusal(
                "'players' must name {least} to {most} players, got {n}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                n=str(len(raw)),
            )
        )
    if len(set(raw)) != len(raw):
        raise error(refusal("'players' names must be distinct"))
    return tuple(raw)


def number(where: Value, raw: Any, low: float, high: float, *, error: type[Exception]) -> float:
    """``raw`` as a float: a finite JSON number (not a boolean) within ``low..high``.
    Raises ``error`` with one line naming the field ``where``."""
    if (
        isinstance(raw, bool)
        or not isinstance(raw, int | float)
        or (isinstance(raw, int) and raw.bit_length() > 1023)  # float() would overflow
        or not math.isfinite(raw)
    ):
        raise error(
            refusal("{where} must be a number, got {value}", where=where, value=clipped(raw))
        )
    if not low <= raw <= high:
        raise error(
            refusal(
                "{where} must lie within {low}..{high}, got {value}",
                where=where,
                low=f"{low:g}",
                high=f"{high:g}",
                value=f"{raw:g}",
            )
        )
    return float(raw)


def whole(where: Value, raw: Any, low: int, high: int, *, error: type[Exception]) -> int:
    """``raw``, a whole JSON number (not a boolean) from ``low`` to ``high``. Raises
    ``error`` with one line naming the field ``where``."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise error(
            refusal(
                "{where} must be a whole number from {low} to {high}, got {value}",
                where=where,
                low=str(low),
                high=str(high),
                value=clipped(raw),
            )
        )
    return raw


def field_of(owner: Phrase, name: str) -> Phrase:
    """A field of a card or a piece as refusals name it: ``card 'red-moth': 'x'``."""
    return phrase("{name}: '{field}'", name=owner, field=name)


@dataclass(frozen=True, slots=True)
class Fields:
    """The field readers of one kind of file, bound to its ``error`` class: each raises it
    with one line naming the field at fault. A reader declares its file's once
    (``_FIELDS = Fields(TableError)``) and reads ``_FIELDS.number(where, raw, 0, 10)``."""

    error: type[Exception]

    def refuse(self, message: str, /, **values: Value) -> NoReturn:
        """Raise the file's error with :func:`~spacetable.i18n.phrase.refusal` of
        ``message``, which its caller marks for the catalogs (``N_("...")``)."""
        raise self.error(refusal(message, **values))

    def number(self, where: Value, raw: Any, low: float, high: float) -> float:
        """:func:`number`, raising the file's error."""
        return number(where, raw, low, high, error=self.error)

    def whole(self, where: Value, raw: Any, low: int, high: int) -> int:
        """:func:`whole`, raising the file's error."""
        return whole(where, raw, low, high, error=self.error)

    def pair(
        self, where: Value, raw: Sequence[Any], low: float, high: float
    ) -> tuple[float, float]:
        """The two numbers of ``raw`` (a list of two, such as a ``[width, length]``), each
        within ``low..high``; both are named ``where`` in a refusal."""
        return self.number(where, raw[0], low, high), self.number(where, raw[1], low, high)

    def known(self, raw: Mapping[str, Any], known: Collection[str], name: Value) -> None:
        """Refuse the fields of ``raw`` that are not among ``known``, sorted:
        ``{name}: unknown field(s) a, b``."""
        unknown = sorted(set(raw) - set(known))
        if unknown:
            self.refuse(N_("{name}: unknown field(s) {fields}"), name=name, fields=listed(unknown))
