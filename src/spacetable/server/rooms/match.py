"""One match as a room plays it, for any game: the options a room is created with, the
room's clocks, and :class:`RoomMatch`, the match machine with its clock and action log.

:class:`Room <spacetable.server.rooms.room.Room>` owns seats, sockets and timers; it hands each
player's message to :meth:`RoomMatch.action` and the result to :meth:`RoomMatch.apply`,
which tells it what changed (:class:`Change`: messages to send, a countdown or freeze to
start, the bots to wake, the match over). How a game is paced lives in the subclasses,
one per pacing of the game registry (``rooms/realtime.py``, ``rooms/plots.py``, ``rooms/turns.py``),
never per game.
"""

from __future__ import annotations

import random
import secrets
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from spacetable.core.match import IllegalAction
from spacetable.core.rules import CORRESPONDENCE_OPTION
from spacetable.i18n.phrase import Phrase, Value
from spacetable.registry import Game, default_ruleset, game_for_ruleset
from spacetable.registry.messages import MoveMessage
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.payloads import RunUp
from spacetable.server.protocol.server_messages import wire
from spacetable.server.sockets import protocol as msg
from spacetable.server.store.storage import StoredMatch


@dataclass(frozen=True, slots=True)
class Timing:
    """The room's clocks, in seconds (tests shorten them)."""

    pose_interval: float = 0.025  # the longest a pose waits to leave with others
    stop_seconds: float = 5.0  # after "stop!" or the countdown: time to drop or discard
    # A seat whose player has no connection this long is emptied in the lobby, and taken
    # by a bot (standing in until the player comes back) once the match has started.
    abandon_seconds: float = 30.0
    # A player gone from a match this long lets the others choose: wait for him, let a
    # bot play his seat, or claim the win (they are told at once that he went).
    grace_seconds: float = 20.0
    bot_pace: float = 1.0  # multiplies the bots' thinking pauses
    # Replaces the game's countdown option (Stellar Conflict's 30 / 60 / 120 s), if set.
    countdown_seconds: float | None = None
    # A room nobody is connected to closes after this long, unless a match is being played
    # in it (never played, or finished: a link to it then says it has closed).
    room_idle_seconds: float = 600.0
    # A room nobody has joined yet closes this soon (a flood of created rooms must not hold
    # the room cap for ten minutes).
    unjoined_seconds: float = 60.0
    # The 3-2-1 before every placing round (Light Speed's fast round, Stellar Conflict's
    # deployment): the match clock stands still and no card lands until it ends.
    runup_seconds: float = 3.0


#: The room option of a casual room (issue 69: a casual pairing or challenge): its matches
#: are stored and listed as any, never rated. The room's, not the match's: set by the
#: server (``meet/seating.py``), never by a ``POST /api/rooms`` body.
CASUAL_OPTION = "casual"


def _default_game() -> dict[str, Any]:
    """The default game's own options as a room of it created with no others has them."""
    ruleset = default_ruleset()
    model = game_for_ruleset(ruleset).rules.room_options
    assert model is not None
    game: dict[str, Any] = model.model_validate({"ruleset": ruleset}).model_dump(
        exclude={"ruleset", "seats"}, by_alias=True
    )
    if game.get(CORRESPONDENCE_OPTION) is None:
        game.pop(CORRESPONDENCE_OPTION, None)  # played live
    return game


@dataclass(frozen=True, slots=True)
class RoomOptions:
    """What a room plays: the ruleset, the number of seats, and the game's own options
    (``game``: the match options' JSON without the players, already validated). Unless
    told, a room of two seats plays the registry's default game with its default options
    (:func:`~spacetable.registry.default_ruleset`)."""

    ruleset: str = field(default_factory=default_ruleset)
    seats: int = 2
    game: Mapping[str, Any] = field(default_factory=_default_game)

    @property
    def entry(self) -> Game:
        """The registered game this room plays."""
        return game_for_ruleset(self.ruleset)

    @property
    def turn_hours(self) -> int | None:
        """Hours a correspondence turn waits (``None``: a room played live)."""
        hours = self.game.get(CORRESPONDENCE_OPTION)
        return int(hours) if isinstance(hours, int | float) and hours > 0 else None

    @property
    def casual(self) -> bool:
        """Whether the room's matches are casual: never rated (:data:`CASUAL_OPTION`)."""
        return self.game.get(CASUAL_OPTION) is True

    def to_json(self) -> dict[str, Any]:
        """The options as sent to clients: ruleset, seats and the game's options."""
        return {"ruleset": self.ruleset, "seats": self.seats, **self.game}

    def match_options(self, players: tuple[str, ...], timing: Timing) -> Any:
        """The match options for ``players`` (seat order). Raises InvalidOptions."""
        rules = self.entry.rules
        data: dict[str, Any] = {"players": list(players), **self.game}
        data.pop(CORRESPONDENCE_OPTION, None)  # the room's, not the match's
        data.pop(CASUAL_OPTION, None)
        if rules.countdown_option is not None and timing.countdown_seconds is not None:
            data[rules.countdown_option] = timing.countdown_seconds
        assert rules.match is not None
        return rules.match.options_from_json(data)

    def check(self) -> None:
        """Raise InvalidOptions if no match could be played with these options."""
        self.match_options(tuple(f"seat {i + 1}" for i in range(self.seats)), Timing())


#: Why the room should give its bots a turn now: a deployment began, the cards froze, a
#: turn was resolved.
Wake = Literal["began", "froze", "turn"]


@dataclass(frozen=True, slots=True)
class Change:
    """What one applied action changed that the room must act on."""

    #: Messages for everyone, in order, before any new state.
    messages: tuple[dict[str, Any], ...] = ()
    #: Whether everyone needs a new ``state`` (else the messages said it all).
    state: bool = True
    froze: bool = False  # stop was called or the countdown ran out: the cards in hand froze
    wake: Wake | None = None
    over: bool = False  # the match is over


#: The client messages that are moves in the match (the others are about seats and rooms):
#: the server's own, and those the games add (:class:`MoveMessage`).
GameMessage = (
    msg.Place | msg.Drop | msg.Discard | MoveMessage | msg.Plot | msg.Draft | msg.Unplot | msg.Act
)


def match_seed(room_seed: int | None, match_number: int) -> int:
    """The seed of a room's ``match_number``-th match (1: the first): the room's seed for
    the first, one derived from it for each rematch, a fresh one from the system's entropy
    when the room has none."""
    if room_seed is None:
        return secrets.randbits(31)
    if match_number == 1:
        return room_seed
    return random.Random(f"{room_seed}/{match_number}").getrandbits(31)


class RoomMatch(ABC):
    """One match in a room: the match machine with its ``seed``, its clock (``started``,
    in the room clock's seconds) and its action log as stored. Subclasses pace it
    (:attr:`pacing`)."""

    pacing: str = ""
    #: The clocks (:meth:`clocks`) that run in a match (a plot timer, a countdown): none
    #: runs in a match the players stopped (:meth:`stopped_state`).
    clock_fields: tuple[str, ...] = ()

    def __init__(
        self,
        options: RoomOptions,
        players: tuple[str, ...],
        timing: Timing,
        started: float,
        seed: int,
    ) -> None:
        self.options = options
        self.timing = timing
        self.id = uuid.uuid4().hex
        self.seed = seed
        self.started = started
        self.started_wall = time.time()
        match_type = options.entry.rules.match
        assert match_type is not None
        self.match: Any = match_type(options.match_options(players, timing), self.seed)
        #: Every action applied, as JSON with its server time.
        self.actions: list[dict[str, Any]] = []
        #: Loop time the running run-up ends (the match clock stands still until then).
        self.runup_ends: float | None = None
        self._setup()

    @abstractmethod
    def _setup(self) -> None:
        """What a pacing adds to a new match, once the match machine is made (its own
        attributes): the one constructor serves every pacing."""

    def begin_runup(self, loop_now: float) -> None:
        """Start the run-up at loop time ``loop_now``: the match clock stands still for
        ``timing.runup_seconds`` (it starts that much later), so that no action, and no
        countdown, falls within it. The match machine never sees it: match times stay
        what they were, and a stored match replays as it did."""
        seconds = self.timing.runup_seconds
        if seconds > 0:
            self.started += seconds
            self.runup_ends = loop_now + seconds

    def in_runup(self, loop_now: float) -> bool:
        """Whether the run-up runs at loop time ``loop_now``."""
        return self.runup_ends is not None and loop_now < self.runup_ends

    def runup(self, loop_now: float) -> RunUp | None:
        """The run-up as the ``state`` message carries it (``seconds``, ``seconds_left``),
        or ``None`` outside it."""
        if self.runup_ends is None or not self.in_runup(loop_now):
            return None
        left = round(self.runup_ends - loop_now, 3)
        return RunUp(seconds=self.timing.runup_seconds, seconds_left=left)

    def clock(self, loop_now: float) -> float:
        """Match time at loop time ``loop_now``: seconds since the match began, standing
        still during a run-up (ms precision)."""
        if self.runup_ends is not None and loop_now < self.runup_ends:
            loop_now = self.runup_ends
        return round(loop_now - self.started, 3)

    def home_pose(self, seat: int) -> tuple[float, float, float]:
        """Where a card drawn by the player of ``seat`` waits, on his side of the table
        (x, y mm, rotation degrees): the pages put a person's there too."""
        return (0.0, 0.0, 0.0)

    def glide_seconds(self, level: str | None, player: str) -> float:
        """Seconds a bot's card travels over the table before it lands (0: none)."""
        return 0.0

    def where_held(self, action: Any, pose: tuple[float, float, float]) -> tuple[Any, Any]:
        """A bot's ``action``, made to leave its card where everyone saw it (``pose``), and
        the action to play instead if that one is illegal (``None``: think again)."""
        return action, None

    @property
    def phase(self) -> str:
        """The match's phase (each game names its own; ``over`` at the end)."""
        return str(self.match.phase)

    @property
    def placing(self) -> bool:
        """Whether cards in hand are moving now (their poses are streamed)."""
        return False

    def hand(self, player: str) -> str | None:
        """The card in ``player``'s hand, if the game has hands."""
        return None

    @property
    def deadline(self) -> float | None:
        """Match time the running countdown (a deployment's, a turn's plot timer) runs
        out, else ``None``."""
        return None

    def timer_action(self, t: float) -> Any:
        """The action that says the countdown ran out at match time ``t``."""
        raise IllegalAction("this match has no countdown")

    def stop_left(self, t: float) -> float | None:
        """Seconds left at match time ``t`` to drop or discard after a freeze ("stop!" or
        the deployment's countdown), while one runs; ``None`` if none does (and in a game
        with no freeze)."""
        return None

    def stop_action(self, t: float) -> Any | None:
        """The action that says the time to drop or discard after a freeze ran out at
        ``t``; ``None`` in a game with no freeze."""
        return None

    def before_timer(self, t: float) -> list[Any]:
        """The actions the room applies (and logs) when the countdown runs out at ``t``,
        before :meth:`timer_action`: none unless the game keeps drafts."""
        return []

    @abstractmethod
    def action(self, player: str, message: GameMessage, t: float) -> Any:
        """The match action a player's message asks for at match time ``t``. Raises
        IllegalAction for a message this game has no action for."""

    @abstractmethod
    def apply(self, action: Any) -> Change:
        """Apply one action and log it. Raises IllegalAction (nothing changed)."""

    def _named(self, message: GameMessage) -> dict[str, Value]:
        """The values a refusal of ``message`` names: the ``game`` (its title) and the
        message's ``type``."""
        return {"game": Phrase(self.options.entry.rules.title), "type": message.type}

    def _log(self, action: Any) -> list[Any]:
        """Apply ``action`` to the match and add it to the stored log; its events."""
        events: list[Any] = self.match.apply(action)
        self.actions.append(action.to_json())
        return events

    def clocks(self, now: float) -> dict[str, Any]:
        """The pacing's clocks at match time ``now``, as a ``state`` carries them in place
        (``protocol/payloads.py`` declares each pacing's): none here."""
        return {}

    def state(self, player: str | None, now: float, runup: RunUp | None = None) -> dict[str, Any]:
        """The ``state`` message for ``player`` (``None``: a spectator) at match time
        ``now``: his view, the pacing's clocks, its ``version`` (the number of actions
        applied so far) and the ``runup`` (:meth:`runup`), if one runs."""
        view = self.match.view(player)
        return wire(to_page.State(view, self.clocks(now), now, self.version, runup))

    def stopped_state(
        self, player: str | None, now: float, runup: RunUp | None = None
    ) -> dict[str, Any]:
        """The last ``state`` of a match its players stopped (resigned, drawn, claimed): as
        :meth:`state`, but ``phase`` ``"over"`` and no clock running, so that every game's
        page puts its controls away as at an end the rules reach."""
        view = self.match.view(player) | {"phase": "over"}
        clocks = self.clocks(now)
        stopped = {name: None if name in self.clock_fields else v for name, v in clocks.items()}
        return wire(to_page.State(view, stopped, now, self.version, runup))

    @property
    def version(self) -> int:
        """The number of actions applied so far: it grows with every one."""
        return len(self.actions)

    def pass_turn(self, player: str, t: float) -> Any | None:
        """The action by which ``player``, whose time to move ran out at match time ``t``
        (a correspondence room: ``rooms/correspondence.py``), does nothing this turn, as
        the pacing means it; ``None``: the match does not wait for him."""
        return None

    @abstractmethod
    def bot_pause(self, level: str | None, player: str) -> float:
        """Seconds a bot of ``level`` waits before its next action."""

    def wake_delay(self, wake: str, level: str | None, player: str) -> float:
        """Seconds a bot of ``level`` waits when woken for ``wake`` (:data:`Wake`): its
        pause (:meth:`bot_pause`), unless the pacing says otherwise (a new turn, someone
        acted: the bot whose move it is acts after its pause)."""
        return self.bot_pause(level, player)

    def end_message(self) -> dict[str, Any]:
        """The message that ends the match for everyone (the battle, the result): in a
        match played in turns, who won (``None``: a draw), why, after how many turns."""
        return self._result_message()

    def _result_message(self) -> dict[str, Any]:
        """The ``result`` message of a match played in turns: who won (``None``: a draw),
        why, after how many turns (the match result's JSON)."""
        result = self.match.result()
        assert result is not None
        return wire(to_page.MatchResult(self.id, self.options.ruleset, result.to_json()))

    def stopped_message(self, result: dict[str, Any]) -> dict[str, Any]:
        """The ``result`` message of a match the room stopped outside its rules (``result``:
        :func:`~spacetable.core.endings.stopped_result`'s); :meth:`record` takes it."""
        return wire(to_page.MatchResult(self.id, self.options.ruleset, result))

    @abstractmethod
    def record(self, room: str, seats: list[dict[str, Any]], end: dict[str, Any]) -> StoredMatch:
        """The finished match as stored (``end``: :meth:`end_message`'s message)."""

    def _stored(
        self,
        room: str,
        seats: list[dict[str, Any]],
        events: list[dict[str, Any]],
        result: dict[str, Any],
    ) -> StoredMatch:
        """The match as stored: the match options (enough to replay it with
        :meth:`~spacetable.core.match.Match.from_record`), seats, seed, actions,
        ``events`` and ``result``."""
        return StoredMatch(
            id=self.id,
            room=room,
            ruleset=self.options.ruleset,
            options=self.match.options.to_json(),
            seats=seats,
            seed=self.seed,
            actions=list(self.actions),
            events=events,
            result=result,
            started_at=self.started_wall,
            finished_at=time.time(),
        )
