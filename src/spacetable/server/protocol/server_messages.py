"""Every message the server sends to a page, declared once.

Each message is a record made by :func:`~spacetable.server.protocol.records.message` (a
slotted dataclass with a JSON tag: ``records.py`` says why), its class docstring saying
what it means, each field's ``Doc`` what the field holds. The server builds a message as a
record and writes it with :func:`~spacetable.server.protocol.records.wire`, the JSON
object the pages read, in the order the fields are declared; the field markers
(``SPREAD``, ``BY_GAME``, ``OMITTED``) are ``records.py``'s.

The fast paths written as bytes check against these declarations in the tests: the room's
``poses`` frame (``rooms/pacing.py``) and a whole state's ``seq`` (``sockets/state_patch.py``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict
from typing_extensions import Doc, TypedDict

from spacetable.server.protocol.lobby_messages import (
    Challenge,
    ChallengeClosed,
    Online,
    OnlinePlayer,
    Paired,
    SessionEnded,
)
from spacetable.server.protocol.notice_messages import Notification
from spacetable.server.protocol.payloads import (
    CardStatus,
    ChatLine,
    CorrespondenceView,
    FleetCardStatus,
    PlacedCard,
    Pose,
    RunUp,
)
from spacetable.server.protocol.records import (
    BY_GAME,
    OMITTED,
    SPREAD,
    GameObject,
    message,
    wire,
)

__all__ = [
    "BY_GAME",
    "OMITTED",
    "SERVER_MESSAGES",
    "SPREAD",
    "AbsenceChoice",
    "Absent",
    "Acted",
    "Battle",
    "Chat",
    "ChatHistory",
    "DrawDeclined",
    "DrawOffer",
    "Error",
    "Forsaken",
    "MatchResult",
    "Notice",
    "Notification",
    "Online",
    "OnlinePlayer",
    "Placed",
    "Pong",
    "Poses",
    "Rating",
    "Refused",
    "RematchDeclined",
    "Resigned",
    "RoomClosed",
    "RoomNews",
    "SeatView",
    "SessionEnded",
    "State",
    "StatePatch",
    "Stop",
    "TimedOut",
    "Turn",
    "Welcome",
    "message",
    "wire",
]


@message("welcome")
class Welcome:
    """Who you are in this room; keep `token` (the page stores it per room; a tab told
    `elsewhere` keeps it and watches)."""

    role: Annotated[Literal["player", "spectator"], Doc("`player` or `spectator`")]
    seat: Annotated[int | None, Doc("your seat's index; null for a spectator")]
    player: Annotated[
        str | None,
        Doc(
            "your name in the match: the one you asked for, or `name (2)`...; a socket "
            "opened with a session cookie: the account's name, whatever `join` asked; a "
            "guest asking for a registered player's name: `name (guest)`"
        ),
    ]
    token: Annotated[str | None, Doc("the seat's token, for `rejoin`")]
    speaker: Annotated[
        str, Doc("the `speaker` your chat messages carry: the page shows no Mute on them")
    ]
    elsewhere: Annotated[
        int | None,
        Doc("a seat index, when your `rejoin` found that seat played in another tab"),
        OMITTED,
    ] = None


class Rating(TypedDict):
    """A registered player's rating in a game (``store/ratings.py``)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    rating: Annotated[float, Doc("the openskill ordinal (mu - 3 sigma, two decimals)")]
    provisional: Annotated[bool, Doc("within the player's first 5 rated matches of the game")]


class SeatView(TypedDict):
    """One seat of a ``room`` message, as everyone sees it (``rooms/seats.py``: never the
    token)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    seat: Annotated[int, Doc("its index")]
    kind: Annotated[Literal["human", "bot", "empty"], Doc("`human`, `bot`, `empty`")]
    name: Annotated[str | None, Doc("who sits there")]
    level: Annotated[str | None, Doc("a bot's level")]
    connected: Annotated[bool, Doc("a socket of the seat is open (a bot: always)")]
    ready: Annotated[bool, Doc("ready to begin (a bot: always)")]
    stand_in: Annotated[bool, Doc("a bot playing for a player who went away")]
    rematch: Annotated[bool, Doc("this player asked for a rematch")]
    host: Annotated[bool, Doc("the room's host")]
    registered: Annotated[bool, Doc("held by an account")]
    rating: Annotated[Rating | None, Doc("that player's rating in the room's game")]
    bot_account: Annotated[
        bool,
        Doc("held by a bot account (a program playing through the bot API): the page says BOT"),
    ]


@message("room")
class RoomNews:
    """The room changed (coalesced: at most one every 100 ms, see Limits)."""

    id: Annotated[str, Doc("the room's id")]
    ruleset: Annotated[str, Doc("the game's key")]
    pacing: Annotated[str, Doc("how the room is paced: `realtime`, `plots`, `turns`")]
    options: Annotated[GameObject, Doc("the room's options as created, with `ruleset` and `seats`")]
    seats: Annotated[
        list[SeatView],
        Doc(
            "each seat: `seat`, `name`, `kind` = `human`/`bot`/`empty`, `level`, `connected`, "
            "`ready`, `stand_in` (a bot playing for a player who went away, who may "
            "`rejoin`), `rematch` (this player asked for a rematch), `host` (the room's host, "
            "the first person seated and, when he goes, the person in the lowest seat), "
            "`registered` (the seat is held by an account, a logged-in player), `rating` (that "
            "player's rating in the room's game when he sat down, or after the rated match "
            'last over in this room, `{"rating", "provisional"}`, or null: not rated yet, '
            "or not registered), `bot_account` (the account is a bot account: the page says "
            "BOT)"
        ),
    ]
    phase: Annotated[Literal["lobby", "playing", "over"], Doc("`lobby`, `playing`, `over`")]
    match_id: Annotated[str | None, Doc("the match being played or last over")]
    correspondence: Annotated[
        CorrespondenceView | None,
        Doc("a room played by correspondence: its turn's deadline (see Correspondence play)"),
    ]
    unrated: Annotated[
        str | None,
        Doc(
            'the match over between registered players is not rated, and why: `"early"`, '
            'stopped before its first turn or round was over; `"repeated"`, two of its '
            "accounts already played three matches of the game together within 24 hours "
            '([accounts](accounts.md#ratings)); `"casual"`, played in a casual room (a '
            "casual pairing or challenge); else null"
        ),
    ]


@message("state")
class State:
    """The match as you may see it: the game's view (each game's below, The games'
    states), sent at the start and after every change (a laser game's card put down in
    the middle of the round excepted: see `placed`)."""

    view: Annotated[
        GameObject,
        Doc("the game's view for you (`Match.view`): its fields in place"),
        SPREAD,
        BY_GAME,
    ]
    clocks: Annotated[
        GameObject,
        Doc(
            "its pacing's clocks, in place: the laser games' `stop` and `countdown`, a game "
            "of plots' `plot_deadline` and `plot_seconds_left` (null once the players "
            "stopped the match)"
        ),
        SPREAD,
        BY_GAME,
    ]
    t: Annotated[float, Doc("seconds on the match clock")]
    version: Annotated[int, Doc("the number of actions the match has applied")]
    runup: Annotated[
        RunUp | None,
        Doc("during the 3-2-1 before a placing round: `seconds`, `seconds_left`; else null"),
    ]
    seq: Annotated[
        int | None,
        Doc("on a socket opened with `?patches=1`: the state's number in the room"),
        OMITTED,
    ] = None


@message("state_patch")
class StatePatch:
    """To a socket opened with `?patches=1`: the new `state` as the change from the one
    numbered `from` (see Sending what changed)."""

    from_: Annotated[int, Doc("the `seq` of the state it changes")]
    to: Annotated[int, Doc("the `seq` of the state it makes")]
    patch: Annotated[list[dict[str, Any]], Doc("RFC 6902: `add`, `remove`, `replace`")]


@message("turn")
class Turn:
    """Faster Than Light: a turn resolved: animate it from `before`; the new `state` follows."""

    turn: Annotated[int, Doc("the turn resolved")]
    before: Annotated[list[dict[str, Any]], Doc("every piece as the turn began")]
    events: Annotated[
        list[dict[str, Any]],
        Doc(
            "the turn's event log: `turn`, each player's revealed `plot`, `ignored`, `launch`, "
            "`rotate`, `tape`, `contact`, `hit`, `removed`, `move`, `off-table`, `end` "
            "(Faster Than Light's own events)"
        ),
    ]


@message("acted")
class Acted:
    """Hex fleet: an action was applied; turn its cards and animate it, then the new `state`
    follows. The stored match (`GET /api/matches/{id}`) keeps these frames as its `events`,
    the opening first, so a replay steps through them."""

    frame: Annotated[
        GameObject,
        Doc(
            "the game's frame, in place: `player`, `action` (as sent in `act`; null for the "
            "opening), `events` (the hex fleet's own events), `log` (the lines these events "
            "add to the battle's log), and the public state after it: `phase`, `turn`, "
            "`ships`, `cup`, `activation`, `deck`"
        ),
        SPREAD,
        BY_GAME,
    ]


@message("result")
class MatchResult:
    """Faster Than Light and hex fleet: the match is over (after the last `turn` and
    `state`); every game: a match stopped by a resignation, a draw agreed or a win
    claimed (then `reason` in words, and in the laser games `table` too). The stored match
    (`GET /api/matches/{id}`) keeps every turn's events in order and `result.start`, the
    pieces before turn 1."""

    match_id: Annotated[str, Doc("the stored match's id (`GET /api/matches/{id}`)")]
    ruleset: Annotated[str, Doc("the game's key")]
    result: Annotated[
        GameObject,
        Doc(
            "`winner` or null for a draw, `reason`, `turns`, the game's own (hex fleet: "
            "`strength` per side); `ending`, `ending_by`: see How a match ended"
        ),
        BY_GAME,
    ]
    table: Annotated[
        GameObject | None,
        Doc("laser games stopped before their battle: the table as the cards lay"),
        OMITTED,
    ] = None


@message("battle")
class Battle:
    """Every card is down: animate `result.events` (Stellar Conflict adds `delay` events,
    `kind` on lasers, cubes taken, vaporized and transferred, and steps whose ships fired
    before: a second initiative)."""

    match_id: Annotated[str, Doc("the stored match's id")]
    ruleset: Annotated[str, Doc("the game's key")]
    table: Annotated[GameObject, Doc("a DESIGN section 3 table file")]
    result: Annotated[GameObject, Doc("the `resolve --json` object")]


@message("poses")
class Poses:
    """Players' cards in hand that moved, bots' too, coalesced (a 25 ms window); a message
    holding only your own pose is not sent to you, but yours may come with others': ignore
    it."""

    poses: Annotated[dict[str, Pose], Doc("`{player: {x, y, rotation, ship}}`")]
    next: Annotated[
        int, Doc("the milliseconds to the next beat of the room's pose pulse (every 100 ms)")
    ]


@message("placed")
class Placed:
    """A card landed on the table. With `players`, no `state` follows: the new state is the
    last one with `card` added to `table`, these `players`, and your `hand` equal to your
    `players` entry's `holding`. Without it (a drop after the freeze, the last card of the
    match) a `state` follows."""

    player: Annotated[str, Doc("who placed it")]
    card: Annotated[PlacedCard, Doc("`id`, `owner`, `ship`, `x`, `y`, `rotation`, `rocks`")]
    t: Annotated[float, Doc("match time")]
    players: Annotated[
        dict[str, CardStatus | FleetCardStatus] | None,
        Doc("when the round goes on (the fast round or the deployment): each player's status"),
        OMITTED,
    ] = None
    version: Annotated[int | None, Doc("with `players`: the state's `version`"), OMITTED] = None


@message("refused")
class Refused:
    """The rules refused your action, in words for the player; nothing changed (a refused
    card stays in your hand)."""

    action: Annotated[str, Doc("the refused message's type (`place`, `fleet`, `plot`, `act`...)")]
    reason: Annotated[str, Doc("why, in the socket's language")]
    says: Annotated[dict[str, Any] | None, Doc("the reason as a phrase (see Phrases)"), OMITTED] = (
        None
    )


@message("stop")
class Stop:
    """The cards in hand froze: `by` placed his last card (`timer` false), or the countdown
    ran out (`by` null, `timer` true). You have `seconds` to drop or discard; then the
    server discards every undecided card."""

    by: Annotated[str | None, Doc("who called stop; null: the countdown ran out")]
    timer: Annotated[bool, Doc("the countdown ran out")]
    seconds: Annotated[float, Doc("the time to drop or discard")]


@message("draw_offer")
class DrawOffer:
    """A draw is offered: answer it with `answer_draw` if your seat is in `waiting`; sent
    again to a socket that joins while it waits (a page reloaded, a room rebuilt after its
    server died)."""

    by: Annotated[str, Doc("who offered")]
    seat: Annotated[int, Doc("his seat")]
    waiting: Annotated[list[int], Doc("the seats yet to accept")]


@message("draw_declined")
class DrawDeclined:
    """The draw offer is off."""

    by: Annotated[str | None, Doc("who declined; null: the one who offered left his seat")]
    seat: Annotated[int, Doc("the seat of who declined (or who offered, when `by` is null)")]
    offered_by: Annotated[str | None, Doc("who offered"), OMITTED] = None
    bot: Annotated[bool, Doc("a bot declined")] = False


@message("resigned")
class Resigned:
    """In a match of three or four: he resigned, a bot plays his seat on."""

    seat: Annotated[int, Doc("his seat")]
    player: Annotated[str, Doc("his name")]


@message("forsaken")
class Forsaken:
    """Your `forsake` is done and stored: the matches it resigned (0 or 1)."""

    resigned: Annotated[int, Doc("the matches it resigned (0 or 1)")]


@message("absent")
class Absent:
    """A player lost his connection in a match: sent at once, and again when the grace is
    over, and to a socket that joins while he is away (his own too, as it watches before it
    takes the seat back: a page never asks a player about his own seat). Whether he is back
    shows in the next `room` (`connected`)."""

    seat: Annotated[int, Doc("his seat")]
    player: Annotated[str, Doc("his name")]
    since: Annotated[float, Doc("match time he went")]
    grace_s: Annotated[float, Doc("the grace period")]
    grace_left_s: Annotated[float, Doc("what is left of it when sent; 0 once it is over")]
    choices: Annotated[
        list[Literal["wait", "bot", "claim"]],
        Doc("empty during the grace period, then `wait`, `bot` and, with two seats, `claim`"),
    ]
    waited: Annotated[bool, Doc("someone chose to wait for him")]


@message("absence_choice")
class AbsenceChoice:
    """Someone chose what to do about the absent player."""

    seat: Annotated[int, Doc("the absent player's seat")]
    choice: Annotated[Literal["wait", "bot", "claim"], Doc("`wait`, `bot`, `claim`")]
    by: Annotated[str, Doc("who chose")]


@message("timed_out")
class TimedOut:
    """Correspondence: players whose time to move ran out this turn."""

    players: Annotated[list[str], Doc("who ran out of time")]
    missed: Annotated[dict[str, int], Doc("per player, the turns he missed so far")]
    turns: Annotated[dict[str, list[int]], Doc("per player, the turns he missed")]
    lose_at: Annotated[int, Doc("the number of missed turns that loses the match")]


@message("error")
class Error:
    """Your last message was malformed, over the rate limit (Limits), or not allowed from
    you now (not seated, wrong phase of the room, a `rejoin` whose token no longer holds a
    seat, or holds an account's seat and the socket has not that account's session)."""

    message: Annotated[str, Doc("why, in the socket's language")]


@message("rematch_declined")
class RematchDeclined:
    """A rematch was turned down; nobody's ask stands any more."""

    by: Annotated[str, Doc("who declined")]
    asked_by: Annotated[list[str], Doc("the players who had asked")]


@message("pong")
class Pong:
    """Answer to `ping`."""


@message("notice")
class Notice:
    """News of the match store, sent at once: it cannot be reached and the table waits
    (`down`), the match is over and its result shows once stored (`result`), it is back
    (`back`), the result could not be stored at all (`lost`), another server now holds the
    room (`moved`: the socket is then closed with 1012 and the page reconnects to it). See A
    room outlives its server."""

    notice: Annotated[
        Literal["down", "result", "back", "lost", "moved"],
        Doc("`down`, `result`, `back`, `lost`, `moved`"),
    ]
    message: Annotated[str, Doc("in words")]


@message("chat")
class Chat:
    """Something said in the room's chat, to everyone who reads its channel (see Chat)."""

    t: Annotated[float | None, Doc("match time; null outside a match")]
    seat: Annotated[int | None, Doc("the speaker's seat; null for a spectator")]
    name: Annotated[str, Doc("the speaker's name")]
    speaker: Annotated[str, Doc("who spoke, for a page's mute to follow him")]
    channel: Annotated[Literal["players", "spectators"], Doc("`players` or `spectators`")]
    text: Annotated[str | None, Doc("free text, or null for a quick message")]
    quick: Annotated[str | None, Doc("a quick message's id, or null")]


@message("chat_history")
class ChatHistory:
    """After every `welcome` (and after `open_chat`): what the page shows of the chat."""

    messages: Annotated[list[ChatLine], Doc("the newest 100 messages it may read")]
    open: Annotated[bool, Doc("whether it reads the spectators' channel")]


@message("room_closed")
class RoomClosed:
    """A moderator closed the room (docs/moderation.md): its match ends unstored, and the
    socket closes after this with 4404 (the room is gone: the page does not reconnect)."""

    message: Annotated[str, Doc("in words, in the socket's language")]


#: Every server message, in the order docs/protocol.md's table lists them.
SERVER_MESSAGES: tuple[type[Any], ...] = (
    Welcome,
    RoomNews,
    State,
    StatePatch,
    Turn,
    Acted,
    MatchResult,
    Battle,
    Poses,
    Placed,
    Refused,
    Stop,
    DrawOffer,
    DrawDeclined,
    Resigned,
    Forsaken,
    Absent,
    AbsenceChoice,
    TimedOut,
    Error,
    RematchDeclined,
    Pong,
    Notice,
    Chat,
    ChatHistory,
    Online,
    SessionEnded,
    RoomClosed,
    Paired,
    Challenge,
    ChallengeClosed,
    Notification,
)
