"""The lines of a bot's game stream (``GET /api/bot/game/stream/{room}``, issue 72 item 4;
docs/bots.md), declared as the room socket's messages are (``server_messages.py``): the
stream is newline-delimited JSON, one message a line. Besides these three, the stream
carries the room socket's own messages as a page gets them (``turn``, ``acted``,
``placed``, ``refused``, ``result``, ``battle``, ``chat``...; never ``poses``)."""

from __future__ import annotations

from typing import Annotated, Any

from typing_extensions import Doc

from spacetable.server.protocol.records import GameObject, message

__all__ = ["GAME_LINES", "Decision", "GameFull", "GameState"]


@message("gameFull")
class GameFull:
    """The first line: the room and the match as the bot's seat sees them (the same view
    a page of that seat gets: never another player's secrets)."""

    room: Annotated[str, Doc("the room's id")]
    game: Annotated[str, Doc("the game's key")]
    seat: Annotated[int | None, Doc("the bot's seat (null: it holds none, it watches)")]
    seats: Annotated[list[dict[str, Any]], Doc("each seat, as the `room` message lists them")]
    options: Annotated[GameObject, Doc("the room's options")]
    phase: Annotated[str, Doc("the room's phase: `lobby`, `playing`, `over`")]
    state: Annotated[
        GameObject | None, Doc("the `state` message's fields (the view), or null before it")
    ]


@message("gameState")
class GameState:
    """The match changed: its new view for the bot's seat."""

    phase: Annotated[str, Doc("the room's phase: `lobby`, `playing`, `over`")]
    state: Annotated[GameObject | None, Doc("the `state` message's fields (the view)")]


@message("decision")
class Decision:
    """The bot must act now: a plot in a game of plots, a card to place (or to drop or
    discard once the cards froze) in the laser games, its activation's next step in the
    hex fleet."""

    phase: Annotated[str, Doc("the match's phase, as the game names it")]
    deadline: Annotated[
        float | None, Doc("match time the running countdown ends (null: none runs)")
    ]
    t: Annotated[float, Doc("match time now")]
    version: Annotated[int, Doc("the number of actions the match has applied")]


#: The game stream's own lines, in the order docs/protocol.md tables them.
GAME_LINES: tuple[type[Any], ...] = (GameFull, GameState, Decision)
