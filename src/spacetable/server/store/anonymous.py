"""A deleted account's name leaves its stored matches (docs/accounts.md, "Deleting your
account"; issue 67 item 19): :func:`anonymise` renames its seats ``anonymous`` (``anonymous
2``... when another seat of the match has that name) everywhere the stored match names
them, consistently, so that the match still replays exactly from its seed and actions
(``spacetable replay``) and its replay page draws each side in its seat's colour:

- the seats, and the match's options (FTL's and hex fleet's ``players``: the replay starts
  the match from them);
- the actions, events, result and chat: every string that is the name, every key that is
  (a score keyed by player);
- who stopped a match, in its result's ``reason`` ("Alice resigned": ``core/endings.py``,
  said again by the replay);
- the pieces named after their player: an FTL ship's id is its player's name and its
  missiles are ``<name>-m<k>`` (``games/ftl/pieces.py``), in the events and in the plotted
  orders (``<piece>:<order>``).

Fields whose values are the games' own words (:data:`GAME_WORDS`) keep them: a player
called "fast" or "draw" is not renamed there; the orders of such a field are renamed only
in their piece id.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from spacetable.server.store.storage import _MatchRow

#: The name a deleted account's seats take in its stored matches.
ANONYMOUS = "anonymous"

#: Fields of stored actions, events and results whose values are the games' own words (an
#: event's type, a phase, why a card left, how a match ended...), never a player's name.
GAME_WORDS = frozenset(
    ("type", "phase", "reason", "kind", "how", "ending", "effect", "edge", "suits", "steps",
     "source", "system", "order", "orders", "ruleset", "level", "says", "message")
)  # fmt: skip
#: Of those, the fields that hold FTL orders, ``<piece>:<order>``: their piece is renamed.
ORDERS = frozenset(("order", "orders"))


def anonymise(row: _MatchRow, mine: Callable[[dict[str, Any]], bool]) -> None:
    """Rename the seats of a stored match for which ``mine`` is true (the deleted
    account's) everywhere the match names them (see the module's docstring)."""
    seats = row.seats
    his = [seat for seat in seats if mine(seat)]
    if not his:
        return
    old = str(his[0].get("player"))
    taken = {str(seat.get("player") or seat.get("name")) for seat in seats}
    new, number = ANONYMOUS, 2
    while new in taken:
        new, number = f"{ANONYMOUS} {number}", number + 1
    # The name, or a piece named after it (a missile: ``<name>-m<k>``).
    piece = re.compile(rf"{re.escape(old)}(-m\d+)?")

    def text(value: str) -> str:
        found = piece.fullmatch(value)
        return new + (found.group(1) or "") if found else value

    def order(value: Any) -> Any:
        if isinstance(value, list):
            return [order(item) for item in value]
        if isinstance(value, str):
            named, colon, rest = value.rpartition(":")
            if colon and piece.fullmatch(named):
                return text(named) + colon + rest
        return value

    def renamed(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [renamed(item) for item in value]
        if isinstance(value, dict):
            out = {
                renamed(k): order(v) if k in ORDERS else v if k in GAME_WORDS else renamed(v)
                for k, v in value.items()
            }
            return stopped_reason(value, out)
        return value

    def stopped_reason(was: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
        """A match its players stopped: its ``reason`` begins with who stopped it ("Alice
        resigned": ``core/endings.py``), renamed as the replay says it again."""
        by, reason = was.get("ending_by"), was.get("reason")
        if not (isinstance(by, list) and isinstance(reason, str) and old in by):
            return out
        before, after = ", ".join(map(str, by)), ", ".join(map(str, out["ending_by"]))
        if reason.startswith(before):
            out["reason"] = after + reason[len(before) :]
        return out

    row.seats = [
        {k: v for k, v in renamed(seat).items() if k != "account"} | {"registered": False}
        if seat in his
        else renamed(seat)
        for seat in seats
    ]
    row.options = renamed(row.options)
    row.actions = renamed(row.actions)
    row.events = renamed(row.events)
    row.result = renamed(row.result)
    row.chat = renamed(row.chat) if row.chat is not None else None
