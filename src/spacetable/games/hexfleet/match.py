"""A hex fleet battle as a match: chits from the cup activate ships one at a time.

The match is a pure state machine (:mod:`spacetable.core.match`). Its only chance is the
match's seeded ``rng``: it shuffles the deck and draws the chits, so a battle replays
exactly from its options, seed and action log.

A turn begins with a cup holding a chit for every ship on the table (and every ship due
back from a jump this turn) and the blank. A chit is drawn: its ship is activated and its
owner acts with it, in any order: :class:`Move` (steps ahead and turns, a hex of movement
each), :class:`RaiseShields`, :class:`Hail` and :class:`Fire` (each once an activation),
:class:`Jump` (instead of moving; it ends the activation) and :class:`EndActivation`; a move
is taken back with :class:`Undo` until a card is turned or the activation ends. A ship
back from a jump is first put on any free hex (:class:`Return`). Then the next chit is
drawn; the blank ends the turn. Destruction and victory: docs/rulings.md, H8 to H10.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from spacetable.core.endings import StoppedResult
from spacetable.core.events import Event
from spacetable.core.match import Action, Match
from spacetable.core.records import fields_json
from spacetable.games.hexfleet.actions import (
    ACTION_TYPES,
    EndActivation,
    Fire,
    Hail,
    HexAction,
    Jump,
    Move,
    RaiseShields,
    Return,
    Undo,
)
from spacetable.games.hexfleet.cards import Deck, card_places, full_deck
from spacetable.games.hexfleet.combat import (
    RANGE,
    fire,
    fire_problem,
    hail,
    raise_shields,
    raise_shields_problem,
)
from spacetable.games.hexfleet.events import (
    ActivationEnded,
    BattleOver,
    ChitDrawn,
    Jumped,
    Moved,
    MoveUndone,
    Returned,
    TurnBegan,
    Wrecked,
)
from spacetable.games.hexfleet.fleets import deploy
from spacetable.games.hexfleet.hexes import Hex, distance, in_forward_arc
from spacetable.games.hexfleet.movement import reachable, walk
from spacetable.games.hexfleet.narrate import narrate
from spacetable.games.hexfleet.odds import aim
from spacetable.games.hexfleet.options import HexOptions, HexResult
from spacetable.games.hexfleet.ships import Ship
from spacetable.i18n import N_, Translator
from spacetable.i18n.phrase import Reason, refusal

__all__ = [
    "ACTION_TYPES",
    "BLANK",
    "RANGE",
    "RULESET",
    "Activation",
    "EndActivation",
    "Fire",
    "Hail",
    "HexAction",
    "HexMatch",
    "HexOptions",
    "HexResult",
    "Jump",
    "Move",
    "Phase",
    "RaiseShields",
    "Return",
    "Undo",
]

RULESET = "hexfleet"
BLANK = "blank"


class Phase(StrEnum):
    """Where the battle stands."""

    ACTIVATION = "activation"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Activation:
    """The active ship's activation so far: movement left, what it has done, and whether
    it must first be put back on the table."""

    ship: str
    movement: int
    done: frozenset[str] = frozenset()
    placing: bool = False

    def to_json(self, undo: int = 0) -> dict[str, Any]:
        """As JSON for the view (``done`` sorted); ``undo``: how many moves may be taken
        back now."""
        return fields_json(self, done=sorted(self.done), undo=undo)


# -- the state: rules -----------------------------------------------------------------------


class HexActed(TypedDict):
    """A hex fleet ``acted`` frame (``rooms/turns.py``): who did what, its events and
    their lines, then the public state after it (:meth:`HexMatch.snapshot`); declared by
    its registration (``Game.payloads``)."""

    player: str | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    log: list[Any]
    phase: str
    turn: int
    ships: list[dict[str, Any]]
    cup: list[Any]
    activation: dict[str, Any] | None
    deck: Any


class HexView(TypedDict):
    """A hex fleet ``state``'s view (:meth:`HexMatch.view`): every key it always has (its
    registration declares it: ``Game.payloads``); what a key holds is the hex fleet's
    page's to read (``Any``: not typed further here)."""

    ruleset: str
    player: str | None
    phase: str
    turn: int
    ships: list[dict[str, Any]]
    cup: list[Any]
    activation: dict[str, Any] | None
    deck: Any
    turn_limit: int | None
    scenario: Any
    board: Any
    range: Any
    aim: Any
    reach: Any
    log: list[Any]
    strength: Any
    result: dict[str, Any] | None


@with_config(ConfigDict(extra="forbid"))  # (a renamed key is refused)
class HexResultView(TypedDict):
    """The ``result`` of a hex fleet battle its rules ended (:meth:`HexResult.to_json`,
    with how it ended: ``ending_by`` who resigned on the way)."""

    winner: str | None
    reason: str
    turns: int
    strength: dict[str, float]
    ending: str
    ending_by: list[str] | None


class HexMatch(Match[HexAction, HexOptions]):
    """One hex fleet battle, chit by chit, to the last side that can fight."""

    ruleset: ClassVar[str] = RULESET
    title: ClassVar[str] = "Hex fleet"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    @classmethod
    def log_places(cls, tr: Translator) -> Mapping[str, Callable[[str], str]] | None:
        """The cards of the log's phrases as a reader of ``tr``'s language reads them
        (``R♥`` in French for ``KH``)."""
        return card_places(tr)

    def __init__(self, options: HexOptions, seed: int) -> None:
        """Deploy the fleets, shuffle the deck and draw turn 1's first chit."""
        super().__init__(options, seed)
        self.board = options.battle_board()
        self.ships: dict[str, Ship] = {
            s.id: s for s in deploy(self.board, options.side_fleets(), options.players)
        }
        self._full = {p: self._side_total(p, full=True) for p in options.players}
        self.deck = Deck.shuffled(self.rng)
        self.phase = Phase.ACTIVATION
        self.turn = 0
        self.cup: list[str] = []
        self.activation: Activation | None = None
        #: The active ship and its activation before each move that may still be taken
        #: back (the moves since the activation began or a card was last turned).
        self._undo: list[tuple[Ship, Activation]] = []
        self._result: HexResult | None = None
        #: The battle in words, line by line (``{"turn", "ships", "text"}``): every ship's
        #: log is the lines that name it.
        self.log: list[dict[str, Any]] = []
        #: The events of the start: turn 1 and its first chit.
        self.opening: list[Event] = self._next_activation()
        self.events.extend(self.opening)
        self._tell(self.opening, dict(self.ships), 1)

    @classmethod
    def options_from_json(cls, data: Any) -> HexOptions:
        """Decode hex fleet options. Raises InvalidOptions."""
        return HexOptions.from_json(data)

    # -- questions ----------------------------------------------------------------------------

    @property
    def active(self) -> Ship | None:
        """The activated ship, if any."""
        return None if self.activation is None else self.ships[self.activation.ship]

    def needs_action(self, player: str) -> bool:
        """Whether the battle waits for ``player``: his ship is activated."""
        ship = self.active
        return self.phase == Phase.ACTIVATION and ship is not None and ship.owner == player

    def pass_turn(self, player: str, t: float) -> EndActivation | None:
        """The action that ends ``player``'s activation at ``t`` when his time to play it
        ran out (a correspondence match: docs/rulings.md C1), or ``None``: the battle does
        not wait for him."""
        ship = self.active
        if not self.needs_action(player) or ship is None:
            return None
        return EndActivation(player, ship.id, t)

    def result(self) -> HexResult | None:
        """The battle's result once it is over, else ``None``."""
        return self._result

    def blocked(self, moving: str | None = None) -> set[Hex]:
        """The hexes ships on the table hold (but ``moving``'s own)."""
        return {s.at for s in self.ships.values() if s.on_table and s.at and s.id != moving}

    def target_problem(self, ship: Ship, target_id: str) -> str | None:
        """Why ``ship`` may not fire at ``target_id`` now (range, arc, side), or ``None``."""
        target = self.ships.get(target_id)
        if target is None or not target.on_table or target.at is None:
            return refusal("there is no ship {ship} on the table", ship=repr(target_id[:24]))
        if target.owner == ship.owner:
            return refusal("{ship} is on your own side", ship=target.name)
        assert ship.at is not None
        hexes = distance(ship.at, target.at)
        if hexes > RANGE:
            return refusal("{ship} is {hexes} hexes away; weapons reach {range}", ship=target.name,
                           hexes=hexes, range=RANGE)  # fmt: skip
        if not ship.cls.all_round and not in_forward_arc(ship.at, ship.facing, target.at):
            return refusal("{target} is behind {ship}: a light ship fires only ahead",
                           target=target.name, ship=ship.name)  # fmt: skip
        return fire_problem(ship)

    def check(self, action: HexAction) -> str | None:
        """Why ``action`` is illegal now (in a player's words), or ``None``."""
        if self.phase == Phase.OVER:
            return refusal("the battle is over")
        if action.player not in self.players:
            return refusal("{player} is not a player in this battle", player=repr(action.player))
        activation, ship = self.activation, self.active
        assert activation is not None and ship is not None
        if action.ship != ship.id:
            return refusal("ship {id} ({ship}) is activated, not {other}", id=ship.id,
                           ship=ship.name, other=repr(action.ship[:24]))  # fmt: skip
        if ship.owner != action.player:
            return refusal("{ship} is {player}'s ship", ship=ship.name, player=ship.owner)
        if isinstance(action, Undo):
            return self._undo_problem(ship, activation)
        if activation.placing:
            if not isinstance(action, Return):
                return refusal("{ship} is back from its jump: put it on a free hex first",
                               ship=ship.name)  # fmt: skip
            at = Hex(action.q, action.r)
            if at not in self.board:
                return refusal("hex {hex} is not on the board", hex=str(at))
            if at in self.blocked():
                return refusal("hex {hex} holds a ship", hex=str(at))
            if not 0 <= action.facing <= 5:
                return refusal("facing must be 0 to 5, got {facing}", facing=action.facing)
            return None
        if isinstance(action, Return):
            return refusal("{ship} is already on the table", ship=ship.name)
        once = {RaiseShields: "shields", Hail: "hail", Fire: "fire"}.get(type(action))
        if once is not None and once in activation.done:
            return refusal(_ONCE[once], ship=ship.name)
        if isinstance(action, Move):
            try:
                self._walk(ship, action.steps)
            except ValueError as exc:
                said = exc.args[0] if exc.args else ""
                return said if isinstance(said, Reason) else str(exc)
        elif isinstance(action, RaiseShields):
            return raise_shields_problem(ship)
        elif isinstance(action, Hail):
            target = self.ships.get(action.target)
            if target is None or not target.on_table:
                missing = repr(action.target[:24])
                return refusal("there is no ship {ship} on the table", ship=missing)
            if target.id == ship.id:
                return refusal("{ship} cannot hail itself", ship=ship.name)
        elif isinstance(action, Fire):
            return self.target_problem(ship, action.target)
        elif isinstance(action, Jump):
            return self._jump_problem(ship, activation, action.returns_on)
        return None

    def _undo_problem(self, ship: Ship, activation: Activation) -> str | None:
        if self._undo:
            return None
        if "moved" not in activation.done:
            return refusal("{ship} has not moved this activation: there is no move to take back",
                           ship=ship.name)  # fmt: skip
        return refusal("{ship} has turned cards since it moved: a move can be taken back only "
                       "until a card is turned", ship=ship.name)  # fmt: skip

    def _walk(self, ship: Ship, steps: str) -> Any:
        assert ship.at is not None and self.activation is not None
        return walk(
            ship.at, ship.facing, steps, self.board, self.blocked(ship.id), self.activation.movement
        )

    def _jump_problem(self, ship: Ship, activation: Activation, returns_on: int) -> str | None:
        if "moved" in activation.done:
            return refusal("{ship} has moved this activation: a ship moves or jumps, not both",
                           ship=ship.name)  # fmt: skip
        if not ship.can_jump:
            return refusal("{ship} has {left} of {cells} propulsion cells: it needs half of them "
                           "to jump", ship=ship.name, left=ship.propulsion_left,
                           cells=ship.cls.propulsion)  # fmt: skip
        if returns_on != 0 and not self.turn < returns_on <= self.options.turn_limit:
            return refusal("a jumped ship comes back on a later turn ({first} to {last}), or 0 to "
                           "leave the battle; got {turn}", first=self.turn + 1,
                           last=self.options.turn_limit, turn=returns_on)  # fmt: skip
        return None

    # -- applying -----------------------------------------------------------------------------

    def _perform(self, action: HexAction) -> list[Event]:
        before, turn = dict(self.ships), self.turn
        events = self._act(action)
        self._tell(events, before, turn)
        return events

    def _tell(self, events: list[Event], before: dict[str, Ship], turn: int) -> None:
        """Add ``events`` to the log in words (:attr:`log`), each line with its turn."""
        names = {s.id: s.name for s in self.ships.values()}
        for line in narrate(events, names, before):
            if line.turn is None:
                line = replace(line, turn=turn)
            turn = line.turn or turn
            self.log.append(line.to_json())

    def _act(self, action: HexAction) -> list[Event]:
        activation, ship = self.activation, self.active
        assert activation is not None and ship is not None
        events: list[Event] = []
        done = activation.done
        if isinstance(action, Move):
            self._undo.append((ship, activation))
        elif not isinstance(action, Undo):
            self._undo = []  # cards turned, a ship placed or the activation over: final
        if isinstance(action, Undo):
            ship, self.activation = self._undo.pop()
            self.ships[ship.id] = ship
            assert ship.at is not None
            at = (ship.at.q, ship.at.r)
            events.append(MoveUndone(ship.id, at, ship.facing, self.activation.movement))
        elif isinstance(action, Return):
            ship = replace(ship, at=Hex(action.q, action.r), facing=action.facing,
                           status="table", returns_on=None)  # fmt: skip
            self.ships[ship.id] = ship
            events.append(Returned(ship.id, (action.q, action.r), action.facing))
            self.activation = replace(activation, placing=False)
        elif isinstance(action, Move):
            moved = self._walk(ship, action.steps)
            self.ships[ship.id] = replace(ship, at=moved.at, facing=moved.facing)
            left = activation.movement - moved.cost
            events.append(
                Moved(ship.id, action.steps, tuple((h.q, h.r) for h in moved.path),
                      (moved.at.q, moved.at.r), moved.facing, moved.cost, left)
            )  # fmt: skip
            self.activation = replace(activation, movement=left, done=done | {"moved"})
        elif isinstance(action, RaiseShields):
            self.ships[ship.id], shown = raise_shields(ship, self.deck)
            events.extend(shown)
            self.activation = replace(activation, done=done | {"shields"})
        elif isinstance(action, Hail):
            events.extend(hail(ship, self.ships[action.target], self.deck))
            self.activation = replace(activation, done=done | {"hail"})
        elif isinstance(action, Fire):
            target = self.ships[action.target]
            assert ship.at is not None and target.at is not None
            hit, shown = fire(ship, target, self.deck, distance(ship.at, target.at))
            events.extend(shown)
            if hit.weapons_left == 0 and hit.propulsion_left == 0:
                hit = replace(hit, status="wrecked", at=None, shields_up=False)
                events.append(Wrecked(hit.id))
                if hit.id in self.cup:
                    self.cup.remove(hit.id)
            self.ships[hit.id] = hit
            self.activation = replace(activation, done=done | {"fire"})
        elif isinstance(action, Jump):
            back = action.returns_on or None
            self.ships[ship.id] = replace(ship, status="jumped" if back else "gone", at=None,
                                          shields_up=False, returns_on=back)  # fmt: skip
            events.append(Jumped(ship.id, back))
        ended = isinstance(action, Jump | EndActivation)
        if ended:
            events.append(ActivationEnded(ship.id))
        over = self._battle_over()
        if over is not None:
            return events + self._finish(over)
        if ended:
            events.extend(self._next_activation())
        return events

    def _next_activation(self) -> list[Event]:
        """Draw chits until one activates a ship (the blank ends the turn and fills the cup
        for the next); the battle may end at the turn limit."""
        events: list[Event] = []
        self.activation = None
        self._undo = []
        while True:
            if not self.cup:
                if self.turn == self.options.turn_limit:
                    return events + self._finish("turn-limit")
                self.turn += 1
                self.cup = [
                    s.id
                    for s in self.ships.values()
                    # a ship due back stays due until its chit comes out (docs/rulings.md)
                    if s.on_table or (s.status == "jumped" and (s.returns_on or 0) <= self.turn)
                ]
                self.cup.append(BLANK)
                events.append(TurnBegan(self.turn, tuple(c for c in self.cup if c != BLANK)))
            chit = self.cup.pop(self.rng.randrange(len(self.cup)))
            if chit == BLANK:
                events.append(ChitDrawn(self.turn, None))
                self.cup = []
                continue
            ship = self.ships[chit]
            events.append(ChitDrawn(self.turn, chit))
            self.activation = Activation(
                chit, ship.propulsion_left, placing=ship.status == "jumped"
            )
            return events

    # -- the end ------------------------------------------------------------------------------

    def _side_total(self, player: str, full: bool = False) -> int:
        ships = [s for s in self.ships.values() if s.owner == player]
        return sum(s.full_strength() if full else s.strength() for s in ships)

    def strength(self) -> dict[str, float]:
        """Each side's systems left as a share of its fleet's at the start."""
        return {p: round(self._side_total(p) / self._full[p], 4) for p in self.players}

    def _battle_over(self) -> str | None:
        sides = {s.owner for s in self.ships.values() if s.fighting}
        if len(sides) == 1:
            return "last-side"
        if not sides:
            return "no-side"
        return None

    def _finish(self, reason: str) -> list[Event]:
        strength = self.strength()
        winner: str | None
        if reason == "last-side":
            winner = next(s.owner for s in self.ships.values() if s.fighting)
        elif reason == "turn-limit":
            best = max(strength.values())
            leaders = [p for p, v in strength.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else None
        else:
            winner = None
        self.phase = Phase.OVER
        self.activation = None
        self.cup = []
        self._result = HexResult(winner, reason, self.turn, strength)
        return [BattleOver(winner, reason, strength)]

    # -- the observer -------------------------------------------------------------------------

    def deck_json(self) -> dict[str, Any]:
        """The deck as everyone sees it: cards left to draw and the discards face up (the
        pile's order stays secret)."""
        return {
            "pile": len(self.deck.pile),
            "discards": [str(c) for c in self.deck.discards],
            "reshuffles": self.deck.reshuffles,
        }

    def unseen(self) -> list[str]:
        """The cards in the draw pile, in a fixed order (not the pile's): what a player
        may know of it."""
        gone = {str(c) for c in self.deck.discards}
        return [str(c) for c in full_deck() if str(c) not in gone]

    def reach(self) -> list[dict[str, Any]]:
        """Where the active ship can end its movement, with the cheapest steps there:
        ``[{"at": [q, r], "facing": f, "steps": "FFR", "cost": 3}, ...]`` (empty when no
        ship is on the move)."""
        activation, ship = self.activation, self.active
        if activation is None or ship is None or activation.placing or ship.at is None:
            return []
        found = reachable(
            ship.at, ship.facing, activation.movement, self.board, self.blocked(ship.id)
        )
        return [
            {"at": at.to_json(), "facing": facing, "steps": steps, "cost": len(steps)}
            for (at, facing), steps in found.items()
        ]

    def snapshot(self) -> dict[str, Any]:
        """The public state as it stands (a replay's frame): ``phase``, ``turn``, ``ships``,
        ``cup`` (chits still in it, the blank included), ``activation`` (the active ship,
        its movement left, what it has done) and ``deck``."""
        return {
            "phase": self.phase.value,
            "turn": self.turn,
            "ships": [s.to_json() for s in self.ships.values()],
            "cup": list(self.cup),
            "activation": None
            if self.activation is None
            else self.activation.to_json(len(self._undo)),
            "deck": self.deck_json(),
        }

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` (``None``: a spectator) sees: everything but the order of the
        draw pile. The :meth:`snapshot`, ``board``, the options, ``reach`` (the active
        ship's moves), ``strength`` and ``result``. Raises ``ValueError`` for a name that
        is not a player."""
        if player is not None and player not in self.players:
            raise ValueError(f"{player!r} is not a player in this battle")
        return {
            "ruleset": RULESET,
            "player": player,
            **self.snapshot(),
            "turn_limit": self.options.turn_limit,
            "scenario": self.options.scenario,
            "board": self.board.to_json(),
            "range": RANGE,
            "aim": aim(  # the active ship's targets and odds
                self.active if self.phase == Phase.ACTIVATION else None,
                self.ships.values(),
                self.deck.pile,
                self.deck.discards,
                self.check,
            ),
            "reach": self.reach(),
            "log": list(self.log),
            "strength": self.strength(),
            "result": None if self._result is None else self._result.to_json(),
        }


_ONCE = {
    "shields": N_("{ship} may try to raise its shields once an activation"),
    "hail": N_("{ship} may hail once an activation"),
    "fire": N_("{ship} may fire once an activation"),
}


#: The ``result`` a hex fleet battle ends with: by its rules, or stopped by its players.
HexResultPayload = HexResultView | StoppedResult
