"""Every message a page sends to the server, declared once: pydantic models, validated at
the boundary (:func:`spacetable.server.sockets.protocol.parse_client_message`), each with its
``type`` and documented fields. A registered game adds its own (its moves, its seat
choices' messages: :mod:`spacetable.registry.messages`). Pydantic here, unlike the server's
records (:mod:`~spacetable.server.protocol.server_messages`): what a client sends must be
validated, bounded and refused in words, and pydantic does that at the boundary.
"""

from __future__ import annotations

import functools
import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from spacetable.i18n import N_
from spacetable.registry import games
from spacetable.registry.messages import ChoiceMessage, MoveMessage, message_type


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Posed(_Message):
    x: float
    y: float
    rotation: float

    @field_validator("x", "y", "rotation")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError(N_("must be a finite number"))
        return value


#: Seconds between two poses of a page's stream while its player moves the card in hand
#: (``web/js/games/lasers/hand.js``' ``POSE_INTERVAL_MS``), and between two beats of a
#: room's pose pulse: each ``poses`` message names the milliseconds to the next beat
#: (``next``), and the pages aim their poses at the beats, so that the hands of a room
#: that move together reach the server together and leave in one message.
POSE_PULSE = 0.1

#: The longest tab id a page may name (``join``, ``rejoin``, the socket's ``?tab=``).
MAX_TAB_CHARS = 64


class Join(_Message):
    """Take a seat (``seat`` null: the first free one) under ``name``."""

    type: Literal["join"]
    name: Annotated[str, Field(min_length=1, max_length=24)]
    seat: int | None = None
    #: The page's tab, as in :class:`Rejoin`.
    tab: Annotated[str, Field(min_length=1, max_length=MAX_TAB_CHARS)] | None = None


class Rejoin(_Message):
    """Take back the seat this token holds (after a reload or a dropped connection)."""

    type: Literal["rejoin"]
    token: Annotated[str, Field(min_length=1, max_length=64)]
    #: The page's tab (a random id it keeps while it lives): a second tab that rejoins a
    #: seat another tab plays is made a spectator and told so.
    tab: Annotated[str, Field(min_length=1, max_length=MAX_TAB_CHARS)] | None = None


class Watch(_Message):
    """Watch as a spectator."""

    type: Literal["watch"]


class Leave(_Message):
    """Give up your seat (before the match: it becomes free; during it: a bot takes it)."""

    type: Literal["leave"]


class SeatBot(_Message):
    """Put a bot of ``level`` in an empty seat (before the match starts); the levels are
    the game's (``GET /api/games``), ``None`` its default."""

    type: Literal["bot"]
    seat: int
    level: Annotated[str, Field(min_length=1, max_length=24)] | None = None


class Ready(_Message):
    """Say you are ready (the match starts when every human in a full room is)."""

    type: Literal["ready"]
    ready: bool = True


class HandPose(_Posed):
    """Where the card in your hand is now (streamed while it moves, at most one a beat of
    :data:`POSE_PULSE`: ten a second)."""

    type: Literal["pose"]


class Place(_Posed):
    """Put the card in your hand on the table at this pose."""

    type: Literal["place"]


class Drop(_Posed):
    """After "stop": let the card in your hand fall where it is."""

    type: Literal["drop"]


class Discard(_Message):
    """After "stop": keep the card in your hand out of the game."""

    type: Literal["discard"]


class Plot(_Message):
    """Your secret orders for this turn (a plotted game), each ``"piece:order"`` as the
    rulebook writes the order (``"red:R+45"``, ``"red-m1:S2.5"``); replaces your plot."""

    type: Literal["plot"]
    orders: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=80)]], Field(max_length=64)
    ]


class Draft(_Message):
    """The plot you are writing, not sent yet (a plotted game), as in :class:`Plot`: kept
    secret, and plotted for you if the plot timer runs out before you send a plot."""

    type: Literal["draft"]
    orders: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=80)]], Field(max_length=64)
    ]


class Unplot(_Message):
    """Take back your plot before the last one is in."""

    type: Literal["unplot"]


class Act(_Message):
    """One action in a game played a move at a time (hex fleet): the action's JSON as the
    game defines it, without ``player`` and ``t`` (the server adds them):
    ``{"type": "act", "action": {"type": "fire", "ship": "1", "target": "4"}}``."""

    type: Literal["act"]
    action: Annotated[
        dict[Annotated[str, Field(max_length=32)], str | int | float | None],
        Field(max_length=12),
    ]


class Rematch(_Message):
    """After a match: ask for another one with the same seats."""

    type: Literal["rematch"]


class DeclineRematch(_Message):
    """After a match: turn down the rematch another player asked for (he is told)."""

    type: Literal["decline_rematch"]


class FreeSeat(_Message):
    """Before the match, for the room's host only: take the bot out of ``seat`` so that a
    person can sit there."""

    type: Literal["free_seat"]
    seat: int


class Chat(_Message):
    """Say something at the table: free ``text`` (at most
    :data:`~spacetable.server.rooms.chat.CHAT_LIMIT` characters, refused by the room beyond) or
    a ``quick`` message by its id (``gg``, ``wp``, ``oops``, ``thinking``, ``rematch``), in
    the players' channel or the spectators' (docs/protocol.md, "Chat")."""

    type: Literal["chat"]
    # The room refuses more than 200 characters, naming the limit; this only bounds the
    # work of reading an absurd one.
    text: Annotated[str, Field(max_length=4000)] | None = None
    quick: Annotated[str, Field(min_length=1, max_length=24)] | None = None
    channel: Literal["players", "spectators"] | None = None


class OpenChat(_Message):
    """A player shows (``open``) or hides the spectators' chat for his seat."""

    type: Literal["open_chat"]
    open: bool = True


class Resign(_Message):
    """Resign the match (a seated player, while it is played): in a two-player match the
    other wins; with more players a bot plays the seat on (docs/rulings.md)."""

    type: Literal["resign"]


class Forsake(_Message):
    """Leave the room for good, as the account being deleted does (``http/leaving.py``: sent
    by a process of a cluster to the room's owner, on a socket opened with the account's
    session): the match being played is resigned, the account's seats are freed, and the
    socket watches; answered ``forsaken`` once stored. A socket without a session is
    refused."""

    type: Literal["forsake"]


class OfferDraw(_Message):
    """Offer the others a draw (a seated player, while the match is played)."""

    type: Literal["offer_draw"]


class AnswerDraw(_Message):
    """Accept or decline the draw offered to you."""

    type: Literal["answer_draw"]
    accept: bool


class Absence(_Message):
    """What to do about the absent player of ``seat``, once the grace period is over:
    ``wait`` for him, let a ``bot`` play his seat until he is back, or ``claim`` the win
    (two-player matches)."""

    type: Literal["absence"]
    seat: int
    choice: Literal["wait", "bot", "claim"]


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


class WatchOnline(_Message):
    """On the lobby socket: send me who is online (``online``), now and at each change."""

    type: Literal["watch_online"]


class Resync(_Message):
    """Send me the whole ``state`` again (a client that missed a ``state_patch``)."""

    type: Literal["resync"]


#: A message a player sends, of the server's own or one a game adds (``Game.moves``, a
#: ``Game.seat_choices``' message: :mod:`spacetable.registry.messages`).
ClientMessage = (
    Join
    | Rejoin
    | Watch
    | Leave
    | SeatBot
    | Ready
    | HandPose
    | Place
    | Drop
    | Discard
    | MoveMessage
    | Plot
    | Draft
    | Unplot
    | Act
    | Rematch
    | DeclineRematch
    | FreeSeat
    | ChoiceMessage
    | Chat
    | OpenChat
    | Resign
    | Forsake
    | OfferDraw
    | AnswerDraw
    | Absence
    | Ping
    | Resync
    | WatchOnline
)
#: The server's own messages, in the order a refusal of an unknown type lists them, the
#: games' own among them: their moves after the real-time ones, their seat choices after
#: the lobby's (:func:`client_models`).
BEFORE_MOVES: tuple[type[BaseModel], ...] = (
    Join,
    Rejoin,
    Watch,
    Leave,
    SeatBot,
    Ready,
    HandPose,
    Place,
    Drop,
    Discard,
)
BEFORE_CHOICES: tuple[type[BaseModel], ...] = (
    Plot,
    Draft,
    Unplot,
    Act,
    Rematch,
    DeclineRematch,
    FreeSeat,
)
AFTER_CHOICES: tuple[type[BaseModel], ...] = (
    Chat,
    OpenChat,
    Resign,
    Forsake,
    OfferDraw,
    AnswerDraw,
    Absence,
    Ping,
    Resync,
    WatchOnline,
)


@functools.cache
def client_models() -> dict[str, type[BaseModel]]:
    """Each client message's model by its ``type``: the server's own and every registered
    game's (loaded on the first message). Raises ``TypeError`` for a game's message whose
    type another message has already."""
    moves = [move for entry in games() for move in entry.moves]
    choices = [choice.message for entry in games() for choice in entry.seat_choices]
    models: dict[str, type[BaseModel]] = {}
    for model in (*BEFORE_MOVES, *moves, *BEFORE_CHOICES, *choices, *AFTER_CHOICES):
        kind = message_type(model)
        if models.setdefault(kind, model) is not model:
            raise TypeError(f"two client messages of type {kind!r}: {models[kind]}, {model}")
    return models
