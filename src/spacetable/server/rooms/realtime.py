"""Real-time pacing: the placing round of the laser games (Light Speed's fast round,
Stellar Conflict's deployment), then the battle.

Cards in hand stream their poses while the round runs; each drop is answered at once with a
``placed`` message; "stop!" or the deployment countdown freezes the cards still in hand,
which are dropped or discarded within ``Timing.stop_seconds``; then the battle resolves and
its event log is sent. The game's registry entry says how (its
:class:`~spacetable.registry.RealtimePlay`): the placing round's actions, its countdown's,
the resolver of its battles. The moves a game adds to the protocol (Stellar Conflict's
fleet choice: ``Game.moves``) become their actions too; a match that has none of them
refuses it by name (:meth:`~spacetable.core.match.Match.apply`).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.match import IllegalAction
from spacetable.i18n.phrase import refusal
from spacetable.registry import RealtimePlay
from spacetable.registry.messages import MoveMessage
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.payloads import Countdown, StopClock
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.match import Change, GameMessage, RoomMatch
from spacetable.server.sockets import protocol as msg
from spacetable.server.store.storage import StoredMatch

#: The phases in which cards in hand move and are placed (Light Speed's fast round,
#: Stellar Conflict's deployment).
PLACING_PHASES = ("fast", "deployment")
#: Seconds a bot takes for each card, by level, where a fast hand wins (Light Speed, and
#: Stellar Conflict under the stop rule): the beginner leaves a person who needs 4 or 5 s a
#: card time to play most of his deck. The registry tells these paces in words
#: (``LASER_BOTS`` in ``registry/_lasers.py``).
BOT_PAUSE = {"beginner": 6.0, "random": 1.2, "easy": 2.0, "medium": 1.4, "hard": 1.0}
#: The same under Stellar Conflict's countdown: about what a quick person needs to place a
#: card with care, so that a bot deploys some seven or eight cards in a Dispute's 30 s and
#: may miss its Flag ship at the bottom of a bigger deck, as a person would.
BOT_PAUSE_TIMED = {"beginner": 6.0, "random": 3.5, "easy": 4.5, "medium": 3.5, "hard": 2.5}
#: The share of a bot's time for a card that its card spends travelling over the table
#: before it lands (seen by everyone, as a person's hand is), at most
#: :data:`GLIDE_MAX_SECONDS`.
GLIDE_SHARE = 0.3
GLIDE_MAX_SECONDS = 1.8
#: Where each seat's card in hand waits when drawn, as fractions of the table's width and
#: height (seat order): the near side, the far side, the left, the right. The room page
#: puts a person's card there too (``START_POSES`` in ``web/js/room.js``).
HOME_FRACTIONS = ((0.0, -0.35), (0.0, 0.35), (-0.4, 0.0), (0.4, 0.0))


class RealtimeMatch(RoomMatch):
    """A laser game's match in a room: hands, poses, stop and countdowns, the battle."""

    pacing = "realtime"
    clock_fields = ("stop", "countdown")

    def _setup(self) -> None:
        """The battle resolves with the game's resolver; no card has frozen yet. Raises
        ``TypeError`` for a game whose registry entry does not say how it is played in
        real time."""
        entry = self.options.entry
        if entry.realtime is None:
            raise TypeError(f"{entry.rules.title} gives no realtime play in its registry entry")
        #: How the game is played in real time (its registry entry's).
        self.play: RealtimePlay = entry.realtime
        # The battle resolves on the event loop: the compiled resolver keeps it from
        # stalling every other room (same outcome and events as the reference).
        self.match.resolver = self.play.resolver
        #: Match time the cards in hand froze.
        self.frozen_at: float | None = None

    @property
    def placing(self) -> bool:
        """Whether cards in hand are moving now."""
        return self.phase in PLACING_PHASES

    @property
    def deadline(self) -> float | None:
        """Match time the deployment countdown runs out (Stellar Conflict under the
        timer, once the deployment began), else ``None``."""
        deadline: float | None = self.match.deadline
        return deadline if self.phase == "deployment" else None

    def timer_action(self, t: float) -> Any:
        """The deployment countdown ran out at ``t``: every card in hand freezes."""
        if self.play.timer_expired is None:
            return super().timer_action(t)
        return self.play.timer_expired(t)

    def stop_action(self, t: float) -> Any:
        """The time to drop or discard after the freeze ran out at ``t``."""
        return self.play.timeout(t)

    def stop_left(self, t: float) -> float | None:
        """Seconds left at match time ``t`` to drop or discard after the freeze, while
        the match is stopped."""
        if self.phase != "stop" or self.frozen_at is None:
            return None
        return max(0.0, self.timing.stop_seconds - (t - self.frozen_at))

    def hand(self, player: str) -> str | None:
        """The ship in ``player``'s hand."""
        ship: str | None = self.match.hand(player)
        return ship

    def action(self, player: str, message: GameMessage, t: float) -> Any:
        """The match action a player's message asks for at match time ``t``."""
        if isinstance(message, msg.Place):
            return self.play.place(player, message.x, message.y, message.rotation, t)
        if isinstance(message, msg.Drop):
            return self.play.drop(player, message.x, message.y, message.rotation, t)
        if isinstance(message, msg.Discard):
            return self.play.discard(player, t)
        if isinstance(message, MoveMessage):  # a game's own (the match refuses another's)
            return message.action(player, t)
        raise IllegalAction(refusal("{game} has no {type} action", **self._named(message)))

    def apply(self, action: Any) -> Change:
        """Apply one action and log it. Raises IllegalAction (nothing changed)."""
        before = self.phase
        self._log(action)
        froze = before in PLACING_PHASES and self.phase == "stop"
        if froze:
            self.frozen_at = action.t
        stop = (self.stop_message(action.t),) if froze else ()
        began = before == "preparation" and self.phase != "preparation"
        over = self.phase == "over"
        if action.type_name not in ("place", "drop"):
            return Change(messages=stop, froze=froze, over=over, wake=_wake(began, froze))
        match = self.match
        card = match.table_cards()[-1]
        if self.placing:
            # The common case, a card down in the middle of the round: nothing else
            # changed but the players' statuses, which travel with the card (one message
            # for everyone instead of a whole state each: docs/protocol.md).
            players = match.player_statuses()
            placed = to_page.Placed(action.player, card, action.t, players, self.version)
            return Change(messages=(wire(placed),), state=False)
        placed = to_page.Placed(action.player, card, action.t)
        return Change(
            messages=(wire(placed), *stop), froze=froze, over=over, wake=_wake(began, froze)
        )

    # -- what the players see ---------------------------------------------------------

    def clocks(self, now: float) -> dict[str, Any]:
        """The ``state``'s clocks: the freeze (``stop``) and the ``countdown``."""
        return {"stop": self.stop(now), "countdown": self.countdown(now)}

    def stop(self, now: float) -> StopClock | None:
        """After the freeze: who called stop (``None`` when the countdown ran out),
        whether it was the countdown, and the seconds left to drop or discard."""
        if self.phase != "stop":
            return None
        frozen_at = self.frozen_at if self.frozen_at is not None else now
        return StopClock(
            by=self.match.stopped_by,
            timer=self.match.stopped_by is None,
            seconds=self.timing.stop_seconds,
            seconds_left=round(max(0.0, self.timing.stop_seconds - (now - frozen_at)), 3),
        )

    def stop_message(self, now: float) -> dict[str, Any]:
        """The ``stop`` message sent when the cards in hand freeze."""
        stop = self.stop(now)
        assert stop is not None
        return wire(to_page.Stop(stop["by"], stop["timer"], stop["seconds"]))

    def countdown(self, now: float) -> Countdown | None:
        """While the deployment countdown runs: its ``deadline`` (match time), its
        length (``seconds``) and the ``seconds_left``."""
        deadline = self.deadline
        if deadline is None:
            return None
        return Countdown(
            deadline=deadline,
            seconds=self.match.options.countdown_seconds,
            seconds_left=round(max(0.0, deadline - now), 3),
        )

    def bot_pause(self, level: str | None, player: str) -> float:
        """Seconds a bot of ``level`` waits before its next action: longer while choosing a
        fleet, a careful hand's pace under the countdown."""
        level = level or "medium"
        pace = self.timing.bot_pace
        if self.phase == "preparation":
            return 2 * BOT_PAUSE.get(level, 1.4) * pace
        if self.match.deadline is not None and self.placing:
            return BOT_PAUSE_TIMED.get(level, 3.5) * pace
        return BOT_PAUSE.get(level, 1.4) * pace

    def home_pose(self, seat: int) -> tuple[float, float, float]:
        """Where the card ``seat`` draws waits (x, y mm, rotation degrees): on its side
        of the table (:data:`HOME_FRACTIONS`)."""
        width, height = self.match.options.table_size_mm
        fx, fy = HOME_FRACTIONS[seat % len(HOME_FRACTIONS)]
        return (fx * width, fy * height, 0.0)

    def glide_seconds(self, level: str | None, player: str) -> float:
        """Seconds a bot's card travels to where it lands, within its time for the card
        (none after the freeze: a frozen card drops where the bot decides)."""
        if not self.placing:
            return 0.0
        return min(GLIDE_MAX_SECONDS, GLIDE_SHARE * self.bot_pause(level, player))

    def where_held(self, action: Any, pose: tuple[float, float, float]) -> tuple[Any, Any]:
        """After the freeze a card drops where it is: a bot's drop goes to ``pose``, where
        its card froze, or (touching a card there) the card is discarded."""
        if action.type_name != "drop":
            return action, None
        x, y, rotation = pose
        dropped = self.play.drop(action.player, x, y, rotation, action.t)
        return dropped, self.play.discard(action.player, action.t)

    def wake_delay(self, wake: str, level: str | None, player: str) -> float:
        """How long a bot waits when woken: half a pause when the deployment begins, a
        moment to drop its card when the cards freeze."""
        if wake == "froze":
            return min(0.5, self.timing.stop_seconds / 4)
        return self.bot_pause(level, player) / 2

    # -- the end ------------------------------------------------------------------------

    def end_message(self) -> dict[str, Any]:
        """The ``battle`` message: the final table and the result with its event log."""
        outcome = self.match.result()
        assert outcome is not None
        table, result = self.match.to_table().to_json(), outcome.to_json()
        return wire(to_page.Battle(self.id, self.options.ruleset, table, result))

    def stopped_message(self, result: dict[str, Any]) -> dict[str, Any]:
        """The ``result`` message of a match stopped before its battle: no battle events,
        and the table as the cards lay then."""
        table = self.match.to_table().to_json()
        return wire(
            to_page.MatchResult(self.id, self.options.ruleset, result | {"events": []}, table)
        )

    def record(self, room: str, seats: list[dict[str, Any]], end: dict[str, Any]) -> StoredMatch:
        """The finished match as stored: the battle's events, and its result with the
        final table."""
        result = end["result"]
        return self._stored(
            room,
            seats,
            result["events"],
            {k: v for k, v in result.items() if k != "events"} | {"table": end["table"]},
        )


def _wake(began: bool, froze: bool) -> Any:
    return "began" if began else "froze" if froze else None
