"""A seek as a player asks for it (``POST /api/seeks``, issue 69 item 2): its body checked,
naming what is wrong, and stored (``store/meetings.py``) for the pool to pair
(``meet/pool.py``).

The body: ``{"game", "seats"?, "rated", "turn_hours"?, "range"?}``: a playable game's key;
its seat count (2 by default; the laser games take 2 to 4, and a seek of 3 waits for two
others of 3); rated or casual; ``turn_hours`` for a correspondence game (the game must be
played so: the room's options are checked as ``POST /api/rooms`` checks them); ``range``,
``[min, max]`` absolute ratings the player accepts his opponents within (either may be
null). A guest seeks casual real-time games only. A player has one open seek a game.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from typing import Any

from spacetable.i18n.phrase import refusal
from spacetable.server.meet.hub import Player
from spacetable.server.meet.seating import seated_options
from spacetable.server.store.meetings import MeetingStore, Seek, SeekTaken, new_id
from spacetable.server.store.ratings import RatingBook

#: The largest rating bound a range may give (ratings are openskill ordinals, about 0-50).
RANGE_MOST = 1000.0


class SeekRefused(ValueError):
    """A seek refused: ``args[0]`` says why (a phrase, mostly), ``status`` the HTTP status."""

    def __init__(self, said: str, status: int) -> None:
        super().__init__(said)
        self.status = status


@dataclass(frozen=True, slots=True)
class SeekBody:
    """A seek's body, checked."""

    game: str
    seats: int
    rated: bool
    turn_hours: float | None
    range_min: float | None
    range_max: float | None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def seek_body(body: Any) -> SeekBody:
    """Check a ``POST /api/seeks`` body. Raises :class:`SeekRefused` (400) naming the
    first problem (the room's options as ``POST /api/rooms`` checks them, 422)."""
    if not isinstance(body, dict):
        raise SeekRefused(refusal("the body must be a JSON object"), 400)
    game, seats, rated = body.get("game"), body.get("seats", 2), body.get("rated")
    hours, span = body.get("turn_hours"), body.get("range")
    if not isinstance(rated, bool):
        raise SeekRefused(refusal("rated: true (a rated game) or false (a casual one)"), 400)
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise SeekRefused(refusal("seats: a whole number of players"), 400)
    if hours is not None and not _number(hours):
        raise SeekRefused(refusal("turn_hours: hours a turn waits, or null for real time"), 400)
    low = high = None
    if span is not None:
        if not isinstance(span, list) or len(span) != 2:
            raise SeekRefused(refusal("range: [lowest, highest] rating, either null"), 400)
        low, high = span
        for bound in (low, high):
            if bound is not None and (not _number(bound) or abs(bound) > RANGE_MOST):
                raise SeekRefused(refusal("range: [lowest, highest] rating, either null"), 400)
        if low is not None and high is not None and low > high:
            raise SeekRefused(refusal("range: the lowest rating is above the highest"), 400)
    try:
        seated_options(str(game) if isinstance(game, str) else repr(game), None, seats, hours)
    except ValueError as exc:
        raise SeekRefused(exc.args[0] if exc.args else str(exc), 422) from None
    assert isinstance(game, str)
    return SeekBody(
        game,
        seats,
        rated,
        None if hours is None else float(hours),
        None if low is None else float(low),
        None if high is None else float(high),
    )


async def add_seek(
    meetings: MeetingStore, ratings: RatingBook, player: Player, asked: SeekBody
) -> Seek:
    """Store the seek ``asked`` of ``player`` (his rating read for the pairing). Raises
    :class:`SeekRefused`: a guest's rated or correspondence seek (403), a second open seek
    for the game (409, naming it)."""
    if player.guest and (asked.rated or asked.turn_hours is not None):
        said = refusal(
            "As a guest you seek casual real-time games only: log in to play rated "
            "or by correspondence."
        )
        raise SeekRefused(said, 403)

    def store() -> Seek:
        shown = None if player.account is None else ratings.shown(player.account, asked.game)
        rating = float(shown["rating"]) if shown is not None else 0.0
        seek = Seek(
            new_id(),
            player.key,
            player.name,
            asked.game,
            asked.seats,
            asked.rated,
            asked.turn_hours,
            rating,
            asked.range_min,
            asked.range_max,
            meetings.wall(),
        )
        meetings.add_seek(seek)
        return seek

    try:
        return await asyncio.to_thread(store)
    except SeekTaken as exc:
        said = refusal(
            "You already seek a game of {game} (seek {id}): cancel it first.",
            game=asked.game,
            id=exc.args[0],
        )
        raise SeekRefused(said, 409) from None
