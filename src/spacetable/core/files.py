"""The start every referee file shares (DESIGN sections 3 and 5: table files, FTL turn
files, hex fleet combat scripts): a JSON object, only known top-level fields, one of the
reader's rulesets, and, in a file that seats players, their names.

Each reader checks the rest of its own file; this module only says what is wrong with
the start, with the reader's own error class and the name its files go by.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from spacetable._userinput import clipped, listed

#: The longest player name a file may hold.
MAX_PLAYER_CHARS = 200
#: How many players a file may seat.
MIN_PLAYERS, MAX_PLAYERS = 2, 4


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
        raise error(f"a {kind} must hold a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise error(f"unknown top-level field(s): {listed([repr(k) for k in unknown])}")
    ruleset = data.get("ruleset")
    if ruleset not in rulesets:
        expected = repr(rulesets[0]) if len(rulesets) == 1 else f"one of {', '.join(rulesets)}"
        raise error(f"'ruleset' must be {expected}, got {clipped(ruleset)}")
    players = _players(data.get("players"), error) if seats_players else ()
    return Header(data, str(ruleset), players)


def _players(raw: Any, error: type[Exception]) -> tuple[str, ...]:
    """The players' names, checked."""
    if not isinstance(raw, list):
        raise error(f"'players' must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names")
    if not all(isinstance(p, str) and 0 < len(p) <= MAX_PLAYER_CHARS for p in raw[:5]):
        raise error(f"'players' names must be strings of 1 to {MAX_PLAYER_CHARS} characters")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise error(f"'players' must name {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(raw)}")
    if len(set(raw)) != len(raw):
        raise error("'players' names must be distinct")
    return tuple(raw)
