"""Faster Than Light as a match: secret plots, then the turn resolves, until one ship is left.

The match is a pure state machine (:mod:`spacetable.core.match`): no clock, no I/O, no
chance at all (the starting positions are fixed, see :func:`starting_ships`), so a match
replays exactly from its options and action log (:meth:`FtlMatch.replay`).

Each turn every player who still has a ship plots one order per piece he owns,
``"piece:order"`` as the rulebook writes orders (:class:`Plot`). Plots are secret: until
the turn resolves, :meth:`FtlMatch.view` and the events only say *that* a player has
plotted. A player may replace his plot (send :class:`Plot` again) or take it back
(:class:`Unplot`) until the last one is in. The turn resolves when every player with a ship
has plotted, or when the server's plot timer runs out (:class:`PlotTimerExpired`): a player
without a plot then does nothing. After the resolution the end phase asks who still has a
ship; at the optional turn limit the match ends too, won by the player who scored the
most hits, then who has the most pieces left (:func:`limit_winner`), a draw only when
they tie.

Ship ids are the players' names; missiles are ``<player>-m<k>``. A player whose ship is
gone is out: his missiles stay where they stand and do nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from spacetable.core.endings import StoppedResult
from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions, Match
from spacetable.core.records import tagged
from spacetable.games._deployment import checked_players, is_number
from spacetable.games.ftl.events import (
    Contact,
    GameOver,
    OrderIgnored,
    OrdersRevealed,
    PlotIn,
    PlotWithdrawn,
    TurnBegan,
)
from spacetable.games.ftl.orders import Order, order_problem, parse_order
from spacetable.games.ftl.pieces import DEFAULT_MISSILES, DEFAULT_TABLE_IN, SHIP_SIZE_IN, Piece
from spacetable.games.ftl.resolution import end_phase, resolve_orders
from spacetable.i18n.phrase import Reason, piece_said, player_said, refusal, value_of

# -- static facts ---------------------------------------------------------------------------

RULESET = "ftl"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: Where the seats start, as angles (degrees, counter-clockwise from +x) around the centre:
#: two ships face each other across the table, three and four sit around it.
SEAT_ANGLES_DEG = {2: (-90, 90), 3: (-90, 30, 150), 4: (-90, 90, 180, 0)}
#: Ships start this fraction of the table's shorter side from the centre (18 in on 48 in).
START_RADIUS = 0.375
#: Bounds on the table side (in), the missiles per ship and the plot entries.
MIN_TABLE_IN, MAX_TABLE_IN = 12.0, 480.0
MAX_MISSILES = 100
MAX_PLOT_ENTRIES = 200
#: A room's table and turn limit unless its host chooses others: on the rulebook's 48 in
#: table the ships start 36 in apart and may circle for dozens of turns without meeting;
#: on this one they are 18 in apart, within two sprints of each other, and the match ends
#: well before the players tire (then :func:`limit_winner` decides it).
ROOM_TABLE_IN = (24.0, 24.0)
ROOM_TURN_LIMIT = 20
#: A player's name may not look like a missile's (``<name>-m<k>``).
_MISSILE_NAME = re.compile(r".*-m[0-9]+")


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class Phase(StrEnum):
    """Where the match stands."""

    PLOT = "plot"
    OVER = "over"


# -- actions --------------------------------------------------------------------------------


@tagged("plot")
class Plot(Action):
    """``player``'s secret orders for this turn, each ``"piece:order"`` (``"red:S2.5"``);
    it replaces any plot he sent before this turn resolves."""

    player: str
    orders: tuple[str, ...]
    t: float


@tagged("unplot")
class Unplot(Action):
    """``player`` takes back his plot before the last one is in."""

    player: str
    t: float


@tagged("plot-timer")
class PlotTimerExpired(Action):
    """The server's plot timer ran out: the turn resolves with the plots that are in."""

    t: float


FtlAction = Plot | Unplot | PlotTimerExpired
ACTION_TYPES: tuple[type[FtlAction], ...] = (Plot, Unplot, PlotTimerExpired)


# -- the game: options and setup ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FtlOptions:
    """How an FTL match is set up.

    ``players``: 2 to 4 distinct names in seat order (none of the form ``<name>-m<k>``).
    ``table_size_in``: width and height of the table in inches, centred on the origin.
    ``missiles``: missiles each ship carries. ``turn_limit``: turns after which the match
    ends, decided by :func:`limit_winner` (``None``: no limit). ``plot_timer_s``: seconds
    the players have to plot each turn (``None``: no timer; the turn waits for every plot).

    Raises :class:`~spacetable.core.match.InvalidOptions` naming the bad option.
    """

    players: tuple[str, ...] = ("red", "blue")
    table_size_in: tuple[float, float] = field(default=DEFAULT_TABLE_IN)
    missiles: int = DEFAULT_MISSILES
    turn_limit: int | None = None
    plot_timer_s: float | None = None

    def __post_init__(self) -> None:
        players = checked_players(self.players, "Faster Than Light", MIN_PLAYERS, MAX_PLAYERS)
        for player in players:
            if _MISSILE_NAME.fullmatch(player):
                raise InvalidOptions(f"player name {player!r} looks like a missile's name")
        size = self.table_size_in
        if (
            not isinstance(size, list | tuple)
            or len(size) != 2
            or not all(is_number(v) and MIN_TABLE_IN <= v <= MAX_TABLE_IN for v in size)
        ):
            raise InvalidOptions(
                f"'table_size_in' must be [width, height] within {MIN_TABLE_IN:g}.."
                f"{MAX_TABLE_IN:g} in, got {size!r}"
            )
        if not _whole(self.missiles) or not 0 <= self.missiles <= MAX_MISSILES:
            raise InvalidOptions(f"'missiles' must be 0 to {MAX_MISSILES}, got {self.missiles!r}")
        if self.turn_limit is not None and (not _whole(self.turn_limit) or self.turn_limit < 1):
            raise InvalidOptions(
                f"'turn_limit' must be a whole number >= 1, got {self.turn_limit!r}"
            )
        timer = self.plot_timer_s
        if timer is not None and (not is_number(timer) or not math.isfinite(timer) or timer <= 0):
            raise InvalidOptions(f"'plot_timer_s' must be a number of seconds > 0, got {timer!r}")
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "table_size_in", (float(size[0]), float(size[1])))
        if timer is not None:
            object.__setattr__(self, "plot_timer_s", float(timer))

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (round-trips through :meth:`from_json`)."""
        return {
            "players": list(self.players),
            "table_size_in": list(self.table_size_in),
            "missiles": self.missiles,
            "turn_limit": self.turn_limit,
            "plot_timer_s": self.plot_timer_s,
        }

    @classmethod
    def from_json(cls, data: Any) -> FtlOptions:
        """Options from JSON; missing keys take their defaults. Raises InvalidOptions."""
        if not isinstance(data, dict):
            raise InvalidOptions("Faster Than Light options must be a JSON object")
        unknown = sorted(set(data) - {"players", "table_size_in", "missiles", "turn_limit",
                                      "plot_timer_s"})  # fmt: skip
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def starting_ships(options: FtlOptions) -> tuple[Piece, ...]:
    """The ships as the match begins, in seat order: fixed, not drawn by chance. Each
    stands :data:`START_RADIUS` of the table's shorter side from the centre, at its
    seat's angle (:data:`SEAT_ANGLES_DEG`), facing the centre: with two players red at
    the bottom facing up and blue at the top facing down."""
    radius = START_RADIUS * min(options.table_size_in)
    ships = []
    for player, angle in zip(options.players, SEAT_ANGLES_DEG[len(options.players)], strict=True):
        rad = math.radians(angle)
        # Exact on the axes, where most seats are.
        x = 0.0 if angle in (-90, 90) else radius * round(math.cos(rad), 15)
        y = 0.0 if angle in (0, 180) else radius * round(math.sin(rad), 15)
        ships.append(
            Piece.ship(
                player, player, x, y, angle + 90, missiles=options.missiles, size=SHIP_SIZE_IN
            )
        )
    return tuple(ships)


def pieces_left(pieces: Iterable[Piece], player: str) -> int:
    """``player``'s pieces still in the game: his ship and missiles on the table and the
    missiles his ship still carries."""
    count = 0
    for piece in pieces:
        if piece.owner == player and piece.on_table:
            count += 1 + (piece.missiles if piece.is_ship else 0)
    return count


def limit_winner(
    standing: Sequence[str], scored: Mapping[str, int], left: Mapping[str, int]
) -> str | None:
    """Who wins at the turn limit among the ``standing`` players: the most hits
    ``scored``, then the most pieces ``left``; ``None`` (a draw) when the best tie."""

    def rank(player: str) -> tuple[int, int]:
        return (scored.get(player, 0), left.get(player, 0))

    best = max((rank(p) for p in standing), default=None)
    leaders = [p for p in standing if rank(p) == best]
    return leaders[0] if len(leaders) == 1 else None


def hits_scored(before: Mapping[str, Piece], events: Iterable[Event]) -> dict[str, int]:
    """The hits each player scored on another player's ship in one turn's ``events``
    (``before``: the pieces as the turn began, and the missiles it launched): a missile
    scores for its owner whether it struck a ship or a ship sprinted into it."""
    scored: dict[str, int] = {}
    for event in events:
        if not isinstance(event, Contact):
            continue
        mover, target = before.get(event.piece), before.get(event.target)
        if mover is None or target is None:
            continue
        if event.effect == "missile-on-ship":
            scorer, victim = mover.owner, target.owner
        elif event.effect == "ship-on-missile":
            scorer, victim = target.owner, mover.owner
        else:
            continue
        if scorer != victim:
            scored[scorer] = scored.get(scorer, 0) + 1
    return scored


@dataclass(frozen=True, slots=True)
class FtlResult:
    """How the match ended: ``winner`` (``None``: a draw), ``reason`` (``last-ship``,
    ``no-ships`` or ``turn-limit``), the turns played, and per player the hits he scored
    and his pieces left (what decides the match at the turn limit)."""

    winner: str | None
    reason: str
    turns: int
    hits_scored: Mapping[str, int] = field(default_factory=dict)
    pieces_left: Mapping[str, int] = field(default_factory=dict)

    @property
    def ending(self) -> str:
        """How the match ended: ``turn_limit`` or ``rules`` (a ship left, or none)."""
        return "turn_limit" if self.reason == "turn-limit" else "rules"

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {
            "winner": self.winner, "reason": self.reason, "ending": self.ending,
            "turns": self.turns, "hits_scored": dict(self.hits_scored),
            "pieces_left": dict(self.pieces_left),
        }  # fmt: skip


# -- the state: rules -----------------------------------------------------------------------


class FtlPlayerView(TypedDict):
    """One player in an FTL view: his ship, whether it is in play, whether he plotted."""

    ship: str
    in_play: bool
    plotted: bool


class FtlView(TypedDict):
    """An FTL ``state``'s view (:meth:`FtlMatch.view`): every key it always has (its
    registration declares it: ``Game.payloads``)."""

    ruleset: str
    phase: str
    turn: int
    player: str | None
    pieces: list[dict[str, Any]]
    players: dict[str, FtlPlayerView]
    plot: list[str] | None
    last_turn: list[dict[str, Any]]
    plot_deadline: float | None
    table_size_in: list[float]
    missiles: int
    turn_limit: int | None
    plot_timer_s: float | None
    result: dict[str, Any] | None


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class FtlResultView(TypedDict):
    """The ``result`` of an FTL match its rules ended (:meth:`FtlResult.to_json`, with
    how it ended: ``ending_by`` who resigned on the way)."""

    winner: str | None
    reason: str
    ending: str
    ending_by: list[str] | None
    turns: int
    hits_scored: dict[str, int]
    pieces_left: dict[str, int]


class FtlMatch(Match[FtlAction, FtlOptions]):
    """One Faster Than Light match, turn by turn, to the last ship standing."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Faster Than Light"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def __init__(self, options: FtlOptions, seed: int) -> None:
        """Put every ship at its starting place (:func:`starting_ships`); turn 1 begins.
        ``seed`` seeds :attr:`rng` as in every match, though FTL draws nothing from it."""
        super().__init__(options, seed)
        self.phase = Phase.PLOT
        #: The turn being plotted (from 1); once over, the last turn played.
        self.turn = 1
        #: Every piece, removed ones included (``on_table`` false), in the order they came.
        self.pieces: dict[str, Piece] = {p.id: p for p in starting_ships(options)}
        #: Server time (s) when the current turn's plotting began.
        self.turn_began_at = 0.0
        #: The events of the last resolved turn (empty before the first).
        self.last_turn: list[Event] = []
        #: Hits each player scored on the others' ships so far.
        self.scored: dict[str, int] = {p: 0 for p in self.players}
        self._plots: dict[str, tuple[str, ...]] = {}
        self._result: FtlResult | None = None

    @classmethod
    def options_from_json(cls, data: Any) -> FtlOptions:
        """Decode FTL options. Raises InvalidOptions."""
        return FtlOptions.from_json(data)

    # -- questions the server and the bots ask ------------------------------------------------

    def in_play(self, player: str) -> bool:
        """Whether ``player`` still has a ship on the table."""
        ship = self.pieces.get(player)
        return ship is not None and ship.is_ship and ship.on_table

    def pieces_of(self, player: str) -> tuple[Piece, ...]:
        """The pieces ``player`` has on the table, in the order they came."""
        return tuple(p for p in self.pieces.values() if p.owner == player and p.on_table)

    def has_plotted(self, player: str) -> bool:
        """Whether ``player``'s plot for this turn is in."""
        return player in self._plots

    @property
    def plot_deadline(self) -> float | None:
        """Server time (s) when this turn's plot timer runs out, or ``None``."""
        timer = self.options.plot_timer_s
        return None if timer is None or self.phase == Phase.OVER else self.turn_began_at + timer

    def needs_action(self, player: str) -> bool:
        """Whether the turn waits for ``player``'s plot (he is in play and has not plotted;
        he may still replace a plot he sent)."""
        return self.phase == Phase.PLOT and self.in_play(player) and player not in self._plots

    def result(self) -> FtlResult | None:
        """The match's result once it is over, else ``None``."""
        return self._result

    def plot_problem(self, player: str, orders: tuple[str, ...]) -> Reason | None:
        """Why ``player`` may not plot ``orders`` now (naming the piece and the order, a
        phrase for each reader's language), or ``None``. Applies nothing."""
        if len(orders) > MAX_PLOT_ENTRIES:
            return refusal("a plot holds at most {n} orders", n=MAX_PLOT_ENTRIES)
        for entry in orders:
            piece_id, colon, text = entry.rpartition(":")
            if not colon:
                return refusal("'{entry}' is not 'piece:order'", entry=entry[:40])
            piece = self.pieces.get(piece_id)
            if piece is None or not piece.on_table:
                return refusal(
                    "order '{order}' for '{piece}': no such piece on the table",
                    order=text[:40],
                    piece=piece_said(piece_id[:40]),
                )
            if piece.owner != player:
                return refusal(
                    "order '{order}' for '{piece}': that piece is {owner}'s",
                    order=text[:40],
                    piece=piece_said(piece_id),
                    owner=player_said(piece.owner),
                )
            try:
                order = parse_order(text)
            except ValueError as exc:
                return refusal(
                    "piece '{piece}': {problem}", piece=piece_said(piece_id), problem=value_of(exc)
                )
            problem = order_problem(piece, order)
            if problem is not None:
                return problem
        return None

    def check(self, action: FtlAction) -> Reason | None:
        """Why ``action`` is illegal now (in a player's words, a phrase), or ``None``."""
        if self.phase == Phase.OVER:
            return refusal("the match is over")
        if isinstance(action, PlotTimerExpired):
            deadline = self.plot_deadline
            if deadline is None:
                return refusal("this match has no plot timer")
            if action.t < deadline:
                return refusal(
                    "the plot timer runs out at t={deadline} s, not t={t} s",
                    deadline=f"{deadline:g}",
                    t=f"{action.t:g}",
                )
            return None
        if action.player not in self.players:
            return refusal("'{player}' is not a player in this match", player=action.player)
        if not self.in_play(action.player):
            return refusal("{player} has no ship on the table", player=player_said(action.player))
        if isinstance(action, Unplot):
            return (
                None if action.player in self._plots else refusal("there is no plot to take back")
            )
        return self.plot_problem(action.player, action.orders)

    def _perform(self, action: FtlAction) -> list[Event]:
        if isinstance(action, Plot):
            self._plots[action.player] = action.orders
            events: list[Event] = [PlotIn(action.player, self.turn)]
            waiting = [p for p in self.players if self.in_play(p) and p not in self._plots]
            if not waiting:
                events.extend(self._resolve(action.t))
            return events
        if isinstance(action, Unplot):
            del self._plots[action.player]
            return [PlotWithdrawn(action.player, self.turn)]
        return self._resolve(action.t)

    def _resolve(self, t: float) -> list[Event]:
        """Reveal every plot, resolve the turn, run the end phase."""
        events: list[Event] = [TurnBegan(self.turn)]
        chosen: dict[str, Order] = {}
        for player in self.players:
            if not self.in_play(player):
                continue
            plot = self._plots.get(player, ())
            events.append(OrdersRevealed(player, plot))
            for entry in plot:
                piece_id, _, text = entry.rpartition(":")
                if piece_id in chosen:
                    events.append(OrderIgnored(piece_id, text))
                else:
                    chosen[piece_id] = parse_order(text)
        turn = resolve_orders(tuple(self.pieces.values()), chosen, self.options.table_size_in)
        events.extend(turn.events)
        for player, hits in hits_scored(
            {**self.pieces, **{p.id: p for p in turn.pieces}}, turn.events
        ).items():
            self.scored[player] += hits
        self.pieces = {p.id: p for p in turn.pieces}
        left = {p: pieces_left(turn.pieces, p) for p in self.players}
        over = end_phase(self.players, turn.pieces)
        if over is None and self.options.turn_limit == self.turn:
            standing = [p for p in self.players if self.in_play(p)]
            over = GameOver(limit_winner(standing, self.scored, left), "turn-limit")
        if over is not None:
            events.append(over)
            self.phase = Phase.OVER
            self._result = FtlResult(over.winner, over.reason, self.turn, dict(self.scored), left)
        else:
            self.turn += 1
        self._plots = {}
        self.turn_began_at = t
        self.last_turn = events
        return events

    # -- actions as a room makes them (core.match.PlotTurns) ----------------------------------

    def plot(self, player: str, orders: tuple[str, ...], t: float) -> Plot:
        """The action by which ``player`` plots ``orders`` at ``t``."""
        return Plot(player, orders, t)

    def unplot(self, player: str, t: float) -> Unplot:
        """The action by which ``player`` takes back his plot at ``t``."""
        return Unplot(player, t)

    def plot_timer_expired(self, t: float) -> PlotTimerExpired:
        """The action that says the plot timer ran out at ``t``."""
        return PlotTimerExpired(t)

    def snapshot(self) -> list[dict[str, Any]]:
        """Every piece as it stands (removed ones with ``on_table`` false), as JSON."""
        return [p.to_json() for p in self.pieces.values()]

    # -- the observer -------------------------------------------------------------------------

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` (``None``: a spectator) may see, as JSON:

        ``ruleset``, ``phase``, ``turn``, ``player``; ``pieces`` (every piece as a turn file
        writes it, removed ones with ``on_table`` false); ``players`` (per player in seat
        order: ``ship`` id, ``in_play``, ``plotted``); ``plot``: your own orders this turn
        (``None`` if you have not plotted, and always for a spectator); ``last_turn``: the
        events of the last resolved turn; ``plot_deadline`` (s) or ``None``; the options;
        ``result``. Nobody else's plot ever appears before its turn resolves.
        Raises ``ValueError`` for a name that is not a player.
        """
        if player is not None and player not in self.players:
            raise ValueError(f"{player!r} is not a player in this match")
        own = self._plots.get(player) if player is not None else None
        return {
            "ruleset": RULESET,
            "phase": self.phase.value,
            "turn": self.turn,
            "player": player,
            "pieces": self.snapshot(),
            "players": {
                p: {"ship": p, "in_play": self.in_play(p), "plotted": p in self._plots}
                for p in self.players
            },
            "plot": None if own is None else list(own),
            "last_turn": [e.to_json() for e in self.last_turn],
            "plot_deadline": self.plot_deadline,
            "table_size_in": list(self.options.table_size_in),
            "missiles": self.options.missiles,
            "turn_limit": self.options.turn_limit,
            "plot_timer_s": self.options.plot_timer_s,
            "result": None if self._result is None else self._result.to_json(),
        }


#: The ``result`` an FTL match ends with: by its rules, or stopped by its players.
FtlResultPayload = FtlResultView | StoppedResult
