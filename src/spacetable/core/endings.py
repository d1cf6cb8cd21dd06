"""How a match ended: by its rules, or by the players outside them (a resignation, a draw
agreed, a win claimed over an absent player).

The rules machine of a game knows only the first; the room (the shell every game shares)
stops a match for the others. A stopped match is stored with its seed, its action log up
to the stop and its ``ending``, and :func:`stopped_result` rebuilds its result from those
alone, so that such a match replays exactly (``spacetable replay``) like any other.

Every stored result carries ``ending`` (one of :data:`ENDINGS`) and ``ending_by`` (the
players who resigned or went absent, else ``None``). Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

Ending = Literal["rules", "turn_limit", "resigned", "agreed_draw", "claimed", "timeout"]

#: Every way a match can end, as stored in its result's ``ending``.
ENDINGS: tuple[Ending, ...] = (
    "rules", "turn_limit", "resigned", "agreed_draw", "claimed", "timeout",
)  # fmt: skip
#: The endings outside the game's rules: the room stopped the match (``timeout``: a
#: correspondence match's player let his time run out three turns in a row).
STOPPED: tuple[Ending, ...] = ("resigned", "agreed_draw", "claimed", "timeout")


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class StoppedResult(TypedDict):
    """The result of a match the room stopped (:func:`stopped_result`), as the ``result``
    message carries it: declared for the protocol's schema by every game's registration
    (``Game.payloads``)."""

    winner: str | None
    reason: str
    ending: Ending
    ending_by: list[str] | None


class BadEnding(ValueError):
    """A stored ending that names no way to end, or players that are not in the match."""


def stopped_result(
    players: Sequence[str], ending: str, ending_by: Sequence[str] | None
) -> dict[str, Any]:
    """The result of a two-player match the room stopped: ``resigned`` or ``claimed``
    (``ending_by``: the player who resigned or went absent; the other wins), or
    ``agreed_draw`` (nobody wins). Raises :class:`BadEnding` naming the problem."""
    if ending not in STOPPED:
        raise BadEnding(f"{ending!r} is not an ending outside the rules ({', '.join(STOPPED)})")
    by = list(ending_by or [])
    unknown = [p for p in by if p not in players]
    if unknown:
        raise BadEnding(f"ending_by names {', '.join(map(repr, unknown))}, not in the match")
    if ending == "agreed_draw":
        return {
            "winner": None,
            "reason": "the players agreed a draw",
            "ending": ending,
            "ending_by": None,
        }
    if ending == "timeout" and by:  # docs/rulings.md C1: one or more lose on time at once
        left = [p for p in players if p not in by]
        return {
            "winner": left[0] if len(left) == 1 else None,
            "reason": f"{', '.join(by)} ran out of time three turns in a row",
            "ending": ending,
            "ending_by": by,
        }
    if len(by) != 1:
        raise BadEnding(f"a match {ending} names one player in ending_by, got {by!r}")
    others = [p for p in players if p != by[0]]
    winner = others[0] if len(others) == 1 else None
    reason = (
        f"{by[0]} resigned" if ending == "resigned" else f"{by[0]} went away; the win was claimed"
    )
    return {"winner": winner, "reason": reason, "ending": ending, "ending_by": by}


def with_ending(result: Mapping[str, Any], resigned: Sequence[str] = ()) -> dict[str, Any]:
    """A result the game's rules reached, marked with how it ended: ``rules`` unless the
    game said (``turn_limit``); ``resigned``: the players of a 3-4 player match who resigned
    on the way (their seats played on by bots), in ``ending_by``."""
    out = dict(result)
    out.setdefault("ending", "rules")
    out.setdefault("ending_by", list(resigned) or None)
    return out


def is_stopped(result: Any) -> bool:
    """Whether a stored result is of a match the room stopped (not its rules)."""
    return isinstance(result, Mapping) and result.get("ending") in STOPPED
