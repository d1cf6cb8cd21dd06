"""What Light Speed and Stellar Conflict share one layer above their rules: their bots,
and how a room plays their placing round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.bots.lasers import LEVELS, make_bot, warm_up
from spacetable.games._deployment import Discard, Drop, Place, Timeout
from spacetable.registry._game import Bots
from spacetable.registry._listing import lazy
from spacetable.registry._room import RealtimePlay

#: The laser games' bots (:mod:`spacetable.bots.lasers`): Light Speed and Stellar Conflict share
#: them, as they share the placing round. The beginner is the default: someone who needs
#: four or five seconds a card plays most of his deck against it. The paces in words are
#: the room's (``BOT_PAUSE`` in ``server/rooms/realtime.py``; a test holds them together).
LASER_BOTS = Bots(
    make=make_bot,
    levels=LEVELS,
    default="beginner",
    stand_in="medium",  # a player who left mid-match was not learning
    warm_up=warm_up,
    about=(
        ("beginner", "places a card about every 6 s and aims roughly: time to learn"),
        ("random", "places a card about every 1.2 s, anywhere, aiming at nothing"),
        ("easy", "places a card about every 2 s and aims a little"),
        ("medium", "places a card about every 1.5 s and aims well"),
        ("hard", "places a card about every second and aims carefully"),
    ),
)


def each_put_a_card_down(stored: Mapping[str, Any]) -> bool:
    """Whether every seated player of a stored laser match put a card down in the placing
    round (placed, dropped or discarded it): the laser games' first round is over (the
    battle comes only once the round ends; Stellar Conflict's fleet choice before it does
    not count). Before, a match stopped is not rated (store/ratings.py)."""
    cards = {Place.type_name, Drop.type_name, Discard.type_name}
    players = {str(seat.get("player") or seat.get("name")) for seat in stored.get("seats") or ()}
    down = {
        str(action.get("player"))
        for action in stored.get("actions") or ()
        if action.get("type") in cards
    }
    return bool(players) and players <= down


#: The laser games' placing round in a room (``server/rooms/realtime.py``): the shared
#: round's actions, and the compiled resolver for their battles (numba: on first use).
LASER_PLAY = RealtimePlay(
    place=Place,
    drop=Drop,
    discard=Discard,
    timeout=Timeout,
    resolver=lazy("spacetable.lasers.fast:resolve_fast"),
)
