"""Highest number: a throw-away game that proves the game seam (issue 18, item 4).

Each player secretly picks a whole number from 1 to ``top``; when every pick is in, the
picks are shown and the highest single pick wins (a tie for the highest is a draw). It is
played in turns of secret plots, like Faster Than Light, so the server paces it with the
same ``plots`` pacing; the match is a pure state machine like every game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions, Match
from spacetable.core.records import tagged
from spacetable.core.rules import GameRules

RULESET = "highest"


@dataclass(frozen=True, slots=True)
class Options:
    """Who plays, and the highest number one may pick."""

    players: tuple[str, ...]
    top: int = 10

    def to_json(self) -> dict[str, Any]:
        """The options as stored with the match."""
        return {"players": list(self.players), "top": self.top}


class HighestRoom(BaseModel):
    """A room's options (``POST /api/rooms``)."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["highest"]
    seats: int = Field(2, ge=2, le=2)
    top: int = Field(10, ge=2, le=100, title="Highest number", description="picks go from 1 to it")


@tagged("plot")
class Pick(Action):
    """``player``'s secret pick, as the plot message carries it (``orders``: one number)."""

    player: str
    orders: tuple[str, ...]
    t: float


@tagged("unplot")
class Unpick(Action):
    """``player`` takes his pick back before the other is in."""

    player: str
    t: float


@tagged("plot-timer")
class TimerExpired(Action):
    """The plot timer ran out (this game sets none; the pacing needs the action)."""

    t: float


@tagged("revealed")
class Revealed(Event):
    """Every pick, shown at once."""

    picks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """The winner (``None``: a draw), why, and the turns played."""

    winner: str | None
    reason: str
    turns: int

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {"winner": self.winner, "reason": self.reason, "turns": self.turns}


class HighestMatch(Match[Pick | Unpick | TimerExpired, Options]):
    """One match of Highest number: one turn of secret picks."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Highest number"
    action_types: ClassVar[tuple[type[Action], ...]] = (Pick, Unpick, TimerExpired)

    def __init__(self, options: Options, seed: int) -> None:
        super().__init__(options, seed)
        self.turn = 1
        self.last_turn: list[Event] = []
        self._picks: dict[str, int] = {}
        self._result: Result | None = None

    @classmethod
    def options_from_json(cls, data: Any) -> Options:
        """Decode the options; raises InvalidOptions naming the bad one."""
        if not isinstance(data, dict):
            raise InvalidOptions("the options must be a JSON object")
        players, top = data.get("players"), data.get("top", 10)
        if not isinstance(players, list) or len(players) != 2:
            raise InvalidOptions("Highest number is played by two players")
        if isinstance(top, bool) or not isinstance(top, int) or top < 2:
            raise InvalidOptions(f"'top' must be a whole number of at least 2, got {top!r}")
        return Options(tuple(str(p) for p in players), top)

    @property
    def phase(self) -> str:
        """``plot`` until both picks are in, then ``over``."""
        return "over" if self._result is not None else "plot"

    @property
    def plot_deadline(self) -> float | None:
        """No plot timer."""
        return None

    def check(self, action: Pick | Unpick | TimerExpired) -> str | None:
        """Why the action is refused now, or ``None``."""
        if self._result is not None:
            return "the match is over"
        if isinstance(action, TimerExpired):
            return "this game has no plot timer"
        if action.player not in self.players:
            return f"{action.player!r} is not a player"
        if isinstance(action, Unpick):
            return None if action.player in self._picks else "you have not picked yet"
        if len(action.orders) != 1 or not action.orders[0].isdigit():
            return "pick one whole number"
        if not 1 <= int(action.orders[0]) <= self.options.top:
            return f"pick a number from 1 to {self.options.top}"
        return None

    def _perform(self, action: Pick | Unpick | TimerExpired) -> list[Event]:
        if isinstance(action, Unpick):
            del self._picks[action.player]
            return []
        assert isinstance(action, Pick)
        self._picks[action.player] = int(action.orders[0])
        if len(self._picks) < len(self.players):
            return []
        picks = tuple(self._picks[p] for p in self.players)
        best = max(picks)
        winners = [p for p, n in zip(self.players, picks, strict=True) if n == best]
        winner = winners[0] if len(winners) == 1 else None
        self._result = Result(winner, "highest" if winner else "tie", self.turn)
        self.last_turn = [Revealed(picks)]
        return list(self.last_turn)

    def plot(self, player: str, orders: tuple[str, ...], t: float) -> Pick:
        """The action by which ``player`` picks."""
        return Pick(player, orders, t)

    def unplot(self, player: str, t: float) -> Unpick:
        """The action by which ``player`` takes his pick back."""
        return Unpick(player, t)

    def plot_timer_expired(self, t: float) -> TimerExpired:
        """The timer's action (refused: no timer)."""
        return TimerExpired(t)

    def snapshot(self) -> list[dict[str, Any]]:
        """The board: nothing but the picks once shown."""
        return [{"player": p, "pick": self._picks.get(p)} for p in self.players if self.is_over]

    def needs_action(self, player: str) -> bool:
        """Whether ``player`` still has to pick."""
        return self._result is None and player not in self._picks

    def result(self) -> Result | None:
        """The result once both picked."""
        return self._result

    def view(self, player: str | None) -> dict[str, Any]:
        """The picks once shown, who has picked, and ``player``'s own pick."""
        if player is not None and player not in self.players:
            raise ValueError(f"{player!r} is not a player in this match")
        return {
            "ruleset": RULESET,
            "phase": self.phase,
            "turn": self.turn,
            "player": player,
            "top": self.options.top,
            "players": {p: {"plotted": p in self._picks} for p in self.players},
            "plot": [str(self._picks[player])] if player in self._picks else None,
            "picks": {p: self._picks[p] for p in self.players} if self.is_over else None,
            "result": None if self._result is None else self._result.to_json(),
        }


#: The game's rules, as every game's rules package offers them.
RULES = GameRules(
    "highest",
    "Highest number",
    (RULESET,),
    match=HighestMatch,
    room_options=HighestRoom,
    pacing="plots",
)
