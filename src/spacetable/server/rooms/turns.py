"""Turn-by-turn pacing: one player acts at a time, as the match says (hex fleet's chit cup).

A seated player whose move it is sends ``act`` with one action of the game (without his
name and the time: the room adds them). Every action applied goes to everyone as an
``acted`` message — the action, its events and the public state after it — and then the
new ``state``; the bots are woken after each one (the one whose move it is acts after its
pause). Storage keeps the frames (``acted`` messages, the opening first), so a replay
steps through them without the rules; the match replays exactly from its seed and actions.
The match is any :class:`~spacetable.core.match.TakeTurns`.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.match import IllegalAction, MalformedAction
from spacetable.i18n.phrase import refusal
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.match import Change, GameMessage, RoomMatch
from spacetable.server.sockets import protocol as msg
from spacetable.server.store.storage import StoredMatch

#: Seconds a bot seems to think before each action, by level (people follow its moves).
BOT_PAUSE = {"random": 0.6, "easy": 0.8, "tactical": 1.0}


class TurnsMatch(RoomMatch):
    """A match played one action at a time in a room."""

    pacing = "turns"

    def _setup(self) -> None:
        """The opening frame: the first a replay steps through."""
        self._told = 0
        opening = [e.to_json() for e in self.match.opening]
        #: The opening and every action's frame: what a replay steps through.
        self.frames: list[dict[str, Any]] = [self._frame(None, None, opening)]

    def _frame(
        self, player: str | None, action: dict[str, Any] | None, events: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Who did what, its events and their lines in words, and the state after it."""
        log = self.match.log[self._told :]
        self._told = len(self.match.log)
        return {
            "player": player,
            "action": action,
            "events": events,
            "log": log,
            **self.match.snapshot(),
        }

    def action(self, player: str, message: GameMessage, t: float) -> Any:
        """The match action an ``act`` message asks for at match time ``t``."""
        if not isinstance(message, msg.Act):
            raise IllegalAction(
                refusal(
                    "{game} is played one action at a time: there is no {type}",
                    **self._named(message),
                )
            )
        try:
            return self.match.action_from_json({**message.action, "player": player, "t": t})
        except MalformedAction as exc:  # its phrase, when it has one, passed on as it is
            raise IllegalAction(exc.args[0] if exc.args else str(exc)) from None

    def apply(self, action: Any) -> Change:
        """Apply one action; everyone gets the ``acted`` frame, then the new state."""
        events = [e.to_json() for e in self._log(action)]
        data = action.to_json()
        player = data.pop("player", None)
        data.pop("t", None)
        frame = self._frame(player, data, events)
        self.frames.append(frame)
        over = self.phase == "over"
        return Change(
            messages=(wire(to_page.Acted(frame)),), over=over, wake=None if over else "turn"
        )

    def pass_turn(self, player: str, t: float) -> Any | None:
        """His time ran out: ``player``'s move ends, as the game says (the match's own
        ``pass_turn``: hex fleet's activation ends)."""
        return self.match.pass_turn(player, t)

    def bot_pause(self, level: str | None, player: str) -> float:
        """Seconds a bot of ``level`` seems to think before each action."""
        return BOT_PAUSE.get(level or "easy", 0.8) * self.timing.bot_pace

    def record(self, room: str, seats: list[dict[str, Any]], end: dict[str, Any]) -> StoredMatch:
        """The finished match as stored: its frames as the events (a replay steps through
        them) and the result."""
        return self._stored(room, seats, list(self.frames), end["result"])
