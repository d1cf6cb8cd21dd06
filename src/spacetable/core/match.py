"""What every game's match has in common: actions, the match state machine, its errors.

A match is a pure state machine (DESIGN section 1). The server, the bots, the simulator and
the tests all drive it the same way:

- :meth:`Match.apply` validates one :class:`Action` and applies it, returning the events it
  caused; a rule-breaking action raises :class:`IllegalAction` and changes nothing.
- :meth:`Match.check` answers "why not?" without applying anything.
- :meth:`Match.view` is what one player (or a spectator) may see.
- :meth:`Match.result` is the outcome once the match is over.

Every action carries ``t``, the server's clock in seconds since the match began; the rules
layer never reads a clock. Chance comes only from ``Match.rng``, a ``random.Random`` seeded
from the match's seed, so :meth:`Match.replay` rebuilds a match exactly from its options,
seed and action log.

Simultaneous decisions fit the same shape: each player's secret choice is one action the
match keeps hidden in :meth:`Match.view`, and it resolves them together once all are in
(the joint action of OpenSpiel's simultaneous-move games).
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import Field, replace
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast, get_type_hints

from spacetable.core.events import Event
from spacetable.core.records import field_names, record_json
from spacetable.i18n import N_, Translator
from spacetable.i18n.phrase import Phrase, refusal


class IllegalAction(ValueError):
    """A well-formed action that the rules forbid now; the message tells the player why."""


class MalformedAction(ValueError):
    """An action that cannot be understood (bad JSON shape, unknown type, wrong field)."""


class InvalidOptions(ValueError):
    """Match options that describe no playable match; the message names the option."""


class Action:
    """Base of every game's actions.

    Concrete actions are frozen dataclasses, each declared once with ``@tagged("its-type")``
    (:func:`spacetable.core.records.tagged`), whose last field is ``t`` (seconds on the
    server's clock). Their fields must be ``str``, ``int``, ``float`` or ``tuple[str, ...]``
    (a JSON list of strings) for the generic JSON of :meth:`to_json` and :meth:`from_json`; an
    action with other fields overrides them.
    """

    __slots__ = ()
    #: The ``"type"`` tag of the action's JSON form.
    type_name: ClassVar[str] = "action"
    # Set by @dataclass on every concrete action; declared so the dataclass helpers type-check.
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    t: float

    def to_json(self) -> dict[str, Any]:
        """The action as a JSON object: ``{"type": ..., field: value, ...}``."""
        return record_json(self)

    def with_time(self, t: float) -> Self:
        """The same action stamped with another server time (bots choose without a clock)."""
        return replace(self, t=t)

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Rebuild an action from :meth:`to_json` output.

        Raises :class:`MalformedAction` naming the missing, unknown or mistyped field.
        """
        if not isinstance(data, Mapping):
            raise MalformedAction(
                refusal("a {type} action must be a JSON object", type=cls.type_name)
            )
        if data.get("type", cls.type_name) != cls.type_name:
            raise MalformedAction(
                refusal(
                    "expected a {type} action, got {got}",
                    type=cls.type_name,
                    got=repr(data.get("type")),
                )
            )
        names = field_names(cls)
        unknown = sorted(set(data) - {"type", *names})
        if unknown:
            raise MalformedAction(
                refusal(
                    "{type} action: unknown field(s) {fields}",
                    type=cls.type_name,
                    fields=", ".join(map(repr, unknown)),
                )
            )
        hints = _hints(cls)
        kwargs: dict[str, Any] = {}
        for name in names:
            if name not in data:
                raise MalformedAction(
                    refusal("{type} action lacks {field}", type=cls.type_name, field=repr(name))
                )
            kwargs[name] = _decode_field(cls.type_name, name, hints[name], data[name])
        return cls(**kwargs)


def _hints(cls: type[Action]) -> dict[str, Any]:
    """The type hints of an action class's fields (read once a class: every message a
    client sends is decoded)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


_HINTS: dict[type[Action], dict[str, Any]] = {}


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_texts(value: Any) -> bool:
    return isinstance(value, list) and all(_is_text(item) for item in value)


#: The field types an action's generic JSON takes: the checks of a JSON value for each, in
#: order, each with the refusal when it fails.
_CHECKS: dict[Any, tuple[tuple[Callable[[Any], bool], str], ...]] = {
    float: (
        (_is_number, N_("{type} action: {field} must be a number, got {value}")),
        (math.isfinite, N_("{type} action: {field} must be finite, got {value}")),
    ),
    int: ((_is_whole, N_("{type} action: {field} must be a whole number, got {value}")),),
    str: ((_is_text, N_("{type} action: {field} must be a string, got {value}")),),
    tuple[str, ...]: (
        (_is_texts, N_("{type} action: {field} must be a list of strings, got {value}")),
    ),
}
#: How a checked JSON value becomes the field's value, where it is not as it is.
_MADE: dict[Any, Callable[[Any], Any]] = {float: float, tuple[str, ...]: tuple}


def _decode_field(action: str, name: str, hint: Any, value: Any) -> Any:
    """Check one JSON value against an action field's type hint."""
    if hint not in _CHECKS:
        raise TypeError(f"{action} action field {name!r}: no generic JSON decoding for {hint!r}")
    for fits, words in _CHECKS[hint]:
        if not fits(value):
            raise MalformedAction(refusal(words, type=action, field=repr(name), value=repr(value)))
    return _MADE[hint](value) if hint in _MADE else value


ActionT = TypeVar("ActionT", bound=Action)


def decode_action(data: Any, types: Iterable[type[ActionT]]) -> ActionT:
    """Pick the action class named by ``data["type"]`` among ``types`` and decode ``data``.

    Raises :class:`MalformedAction` if ``data`` is not an object or names no known type.
    """
    by_name = {cls.type_name: cls for cls in types}
    if not isinstance(data, Mapping):
        raise MalformedAction(
            refusal("an action must be a JSON object, got {value}", value=repr(data))
        )
    name = data.get("type")
    cls = by_name.get(name) if isinstance(name, str) else None
    if cls is None:
        raise MalformedAction(
            refusal(
                "unknown action type {type} (known: {known})",
                type=repr(name),
                known=", ".join(by_name),
            )
        )
    return cls.from_json(data)


class Options(Protocol):
    """A game's match options: who plays (seat order) and the game's own settings."""

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object (stored with every match)."""
        ...


OptionsT = TypeVar("OptionsT", bound=Options)


class Match(ABC, Generic[ActionT, OptionsT]):
    """One match of one game: options, seed, the action log and the event log.

    Subclasses name their :attr:`action_types` and implement the rules (:meth:`check`,
    :meth:`_perform`), the observer (:meth:`view`), :meth:`result`, :meth:`needs_action` and
    :meth:`options_from_json`.
    """

    #: The game's name in stored records, e.g. ``"lightspeed"``.
    ruleset: ClassVar[str]
    #: The game's title, for messages ("Light Speed has no fleet action").
    title: ClassVar[str] = "this game"
    #: Every action class of the game: :meth:`apply` refuses any other.
    action_types: ClassVar[tuple[type[Action], ...]] = ()

    @classmethod
    def log_places(cls, tr: Translator) -> Mapping[str, Callable[[str], str]] | None:
        """How the places of the log's phrases that hold codes are shown to a reader of
        ``tr``'s language (the ``shown`` of :meth:`~spacetable.i18n.phrase.Phrase.text`),
        or ``None``: as they are."""
        del tr
        return None

    def __init__(self, options: OptionsT, seed: int) -> None:
        self.options = options
        self.seed = seed
        #: The match's only source of chance.
        self.rng = random.Random(seed)
        #: Every action applied so far, in order (the action log).
        self.actions: list[ActionT] = []
        #: Every event so far, in order (the event log).
        self.events: list[Event] = []
        #: Server time (s) of the last action applied.
        self.clock = 0.0

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self.options.players

    # -- decoding -------------------------------------------------------------------------

    @classmethod
    def action_from_json(cls, data: Any) -> ActionT:
        """Decode one of this game's actions (one of :attr:`action_types`, by its JSON
        ``type``). Raises :class:`MalformedAction` naming the problem."""
        return cast(ActionT, decode_action(data, cls.action_types))

    @classmethod
    @abstractmethod
    def options_from_json(cls, data: Any) -> OptionsT:
        """Decode this game's options. Raises :class:`InvalidOptions`."""

    # -- rules ----------------------------------------------------------------------------

    @abstractmethod
    def check(self, action: ActionT) -> str | None:
        """Why ``action`` is illegal now, in words for the player; ``None`` if it is legal."""

    @abstractmethod
    def _perform(self, action: ActionT) -> list[Event]:
        """Apply a legal action (already checked) and return the events it caused."""

    def is_legal(self, action: ActionT) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        return self._check_time(action) is None and self.check(action) is None

    def apply(self, action: ActionT) -> list[Event]:
        """Validate and apply one action; return the events it caused.

        Raises :class:`MalformedAction` for a value that is not an action or has a
        non-finite time, and :class:`IllegalAction` (nothing changed) if the rules forbid it
        now, including a time earlier than the last action's.
        """
        if not isinstance(action, Action):
            raise MalformedAction(f"not an action: {action!r}")
        if isinstance(action.t, bool) or not isinstance(action.t, int | float):
            raise MalformedAction(f"an action's time must be a number, got {action.t!r}")
        if not math.isfinite(action.t) or action.t < 0:
            raise MalformedAction(f"an action's time must be finite and >= 0, got {action.t!r}")
        if self.action_types and not isinstance(action, self.action_types):
            raise IllegalAction(
                refusal(
                    "{game} has no {type} action", game=Phrase(self.title), type=action.type_name
                )
            )
        problem = self._check_time(action) or self.check(action)
        if problem is not None:
            raise IllegalAction(problem)
        events = self._perform(action)
        self.clock = float(action.t)
        self.actions.append(action)
        self.events.extend(events)
        return events

    def _check_time(self, action: ActionT) -> str | None:
        if action.t < self.clock:
            return (
                f"time cannot run backwards: t={action.t:g} s is before the last action "
                f"(t={self.clock:g} s)"
            )
        return None

    @abstractmethod
    def needs_action(self, player: str) -> bool:
        """Whether the match is waiting for (or open to) an action by ``player`` now."""

    @abstractmethod
    def result(self) -> object | None:
        """The match's outcome once it is over, else ``None``."""

    @property
    def is_over(self) -> bool:
        """True once the match has a result."""
        return self.result() is not None

    # -- observer -------------------------------------------------------------------------

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see now, as JSON (``None``: a spectator). Secrets (deck
        order, other players' hidden choices) never appear. Raises ``ValueError`` for a
        name that is not a player."""

    # -- records and replays ---------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """Everything needed to replay this match: ruleset, options, seed, action log."""
        return {
            "ruleset": self.ruleset,
            "options": self.options.to_json(),
            "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
        }

    @classmethod
    def replay(
        cls, options: OptionsT, seed: int, actions: Iterable[ActionT | Mapping[str, Any]]
    ) -> Self:
        """Rebuild a match by applying its action log (actions or their JSON) from the
        start. Raises :class:`MalformedAction` or :class:`IllegalAction` if the log does
        not fit the options and seed."""
        match = cls(options, seed)
        for action in actions:
            match.apply(cls.action_from_json(action) if isinstance(action, Mapping) else action)
        return match

    @classmethod
    def from_record(cls, data: Any) -> Self:
        """Replay a match from :meth:`record` output. Raises ``ValueError`` (one of this
        module's exceptions) naming the problem."""
        if not isinstance(data, Mapping):
            raise MalformedAction("a match record must be a JSON object")
        if data.get("ruleset") != cls.ruleset:
            raise MalformedAction(
                f"a {cls.ruleset} match record has ruleset {cls.ruleset!r}, "
                f"got {data.get('ruleset')!r}"
            )
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise MalformedAction(
                refusal("a match record's 'seed' must be an integer, got {seed}", seed=repr(seed))
            )
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise MalformedAction(refusal("a match record's 'actions' must be a list"))
        return cls.replay(cls.options_from_json(data.get("options")), seed, actions)


class PlotTurns(Protocol):
    """A match played in turns of secret simultaneous plots (Faster Than Light), as a room
    paces it: every player in play plots once a turn, the turn resolves when the last plot
    is in or the plot timer runs out, and each resolution is a turn of the event log."""

    #: The turn being plotted (from 1); once over, the last turn played.
    turn: int
    #: The events of the last resolved turn.
    last_turn: list[Event]

    @property
    def plot_deadline(self) -> float | None:
        """Server time (s) when this turn's plot timer runs out, or ``None``."""
        ...

    def plot(self, player: str, orders: tuple[str, ...], t: float) -> Action:
        """The action by which ``player`` plots ``orders`` at ``t``."""
        ...

    def unplot(self, player: str, t: float) -> Action:
        """The action by which ``player`` takes back his plot at ``t``."""
        ...

    def plot_timer_expired(self, t: float) -> Action:
        """The action that says the plot timer ran out at ``t``."""
        ...

    def snapshot(self) -> list[dict[str, Any]]:
        """The board as it stands, as JSON (what a turn's animation starts from)."""
        ...


class TakeTurns(Protocol):
    """A match played one action at a time (hex fleet), as a room paces it: the match says
    whose move it is (:meth:`Match.needs_action`); each action's events and the public
    state after it make a frame of the replay."""

    #: The events the match began with, before any action (the first turn, the first
    #: activation).
    opening: list[Event]
    #: The match in words so far, line by line (JSON objects with a ``text``).
    log: list[dict[str, Any]]

    def snapshot(self) -> dict[str, Any]:
        """The public state as it stands, as a JSON object (a replay's frame)."""
        ...

    def pass_turn(self, player: str, t: float) -> Action | None:
        """The action that ends ``player``'s move at ``t`` when his time ran out (a
        correspondence match), or ``None`` when the match does not wait for him."""
        ...
