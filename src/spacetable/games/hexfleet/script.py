"""Hex fleet combat scripts (``"ruleset": "hexfleet"``, DESIGN section 6): the ships as they
stand, the combat steps taken at a physical table, and the cards actually turned, settled
by the charts exactly as the rulebook reads them.

:func:`read` checks decoded JSON into a :class:`CombatScript`; :meth:`CombatScript.resolve`
plays its steps through :mod:`~spacetable.games.hexfleet.combat` with the typed-in cards
into a :class:`ScriptResult`, whose :meth:`~ScriptResult.to_json` is the ``spacetable
resolve --json`` object. Every refusal is a :class:`ScriptError` whose one-line message
(and phrase) names the field, or the step, at fault. Pure: the caller reads the file.

The cards are checked as a deck deals them (docs/formats.md, "Hex fleet combat scripts"):
the pile holds ``pile`` cards at the start (52 unless told); when it runs out, every card
not in play makes a new pile, as a :class:`~.cards.Deck` does. A card out twice before
that is only warned of (DESIGN section 6 refuses bad names and cards that run out), with
its place and step, for the referee to check what he typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from spacetable._userinput import clipped
from spacetable.core.events import Event
from spacetable.core.files import read_header
from spacetable.games.hexfleet.cards import (
    Card,
    CardSource,
    CardsRanOut,
    parse_card,
)
from spacetable.games.hexfleet.combat import CombatRefused, fire, hail, raise_shields
from spacetable.games.hexfleet.events import (
    DamageCard,
    Fired,
    Hailed,
    Jumped,
    Reshuffled,
    ShieldsRaised,
    Wrecked,
)
from spacetable.games.hexfleet.ships import Ship, class_and_weapons
from spacetable.i18n.phrase import Phrase, Reason, phrase, refusal, value_of

RULESET = "hexfleet"
#: Most ships, steps and cards one script may hold, and the longest ship id or name.
MAX_SHIPS = 64
MAX_STEPS = 2000
MAX_CARDS = 20000
MAX_ID_CHARS = 40
DECK_SIZE = 52

_TOP_FIELDS = {"ruleset", "ships", "steps", "cards", "pile"}
_SHIP_FIELDS = {
    "class",
    "weapons",
    "owner",
    "name",
    "shields_up",
    "shields_lost",
    "weapons_lost",
    "propulsion_lost",
}
#: Each kind of step: its verb key and the key naming its other ship, if any.
_STEP_KINDS = {"raise_shields": None, "fire": "at", "hail": "to", "jump": None}


class ScriptError(ValueError):
    """A combat script that is malformed, holds a step the rules forbid or runs out of
    cards; the message is one line naming the field or the step, :attr:`says` a phrase."""

    def __init__(self, message: str, says: Phrase | None = None) -> None:
        super().__init__(message)
        # A Reason (the file's header, core/files.py) brings its own phrase.
        self.says = says if says is not None or not isinstance(message, Reason) else message.phrase


@dataclass(frozen=True, slots=True)
class Step:
    """One combat step: ``kind`` (``raise_shields``, ``fire``, ``hail`` or ``jump``) taken
    by ``ship``, at or to ``target`` for fire and hail."""

    kind: str
    ship: str
    target: str | None = None

    def __str__(self) -> str:
        """The step as errors and accounts name it (``fire kal-pol at benellyn``)."""
        return self.says().text()

    def says(self) -> Phrase:
        """The step as a phrase, for a page to name it in its reader's language."""
        if self.kind == "fire":
            return phrase("fire {ship} at {target}", ship=self.ship, target=str(self.target))
        if self.kind == "hail":
            return phrase("hail {ship} to {target}", ship=self.ship, target=str(self.target))
        if self.kind == "jump":
            return phrase("jump {ship}", ship=self.ship)
        return phrase("raise_shields {ship}", ship=self.ship)

    def to_json(self) -> dict[str, str]:
        """The step as written in a script."""
        other = _STEP_KINDS[self.kind]
        out = {self.kind: self.ship}
        if other and self.target is not None:
            out[other] = self.target
        return out


@dataclass(frozen=True, slots=True)
class CombatScript:
    """A combat to settle: the ships as they stand (by id, in file order), the steps in
    order, the cards turned in order, and how many cards the draw pile held at the start."""

    ships: dict[str, Ship]
    steps: tuple[Step, ...]
    cards: tuple[Card, ...]
    pile: int = DECK_SIZE

    def resolve(self) -> ScriptResult:
        """Play the steps with the script's cards. Raises :class:`ScriptError` naming the
        step that the rules forbid or that the cards run out in; a card that came out twice
        is only warned of (:attr:`ScriptResult.warnings`)."""
        ships = dict(self.ships)
        source = _DealtCards(list(self.cards), self.pile)
        settled: list[StepResult] = []
        events: list[Event] = []
        warnings: list[str] = []
        for number, step in enumerate(self.steps, 1):
            first = source.position
            try:
                outcome = _play(step, ships, source)
            except CombatRefused as exc:
                why = value_of(exc)
                said = phrase("step {step} ({what}): {why}", step=number, what=step.says(), why=why)
                raise ScriptError(said.text(), said) from None
            except CardsRanOut:
                said = phrase("the cards ran out at step {step} ({what}): the script lists {n}",
                              step=number, what=step.says(), n=len(self.cards))  # fmt: skip
                raise ScriptError(said.text(), said) from None
            for place, card, in_play in source.take_warnings():
                # Named for the referee: the card, and its place counted from 1 (not "cards[8]").
                said = (
                    phrase("card {n} of the script, drawn at step {step} ({what}): {card} again, "
                           "but it is in play in this step: check the cards typed",
                           n=place, step=number, what=step.says(), card=card)
                    if in_play else
                    phrase("card {n} of the script, drawn at step {step} ({what}): {card} again, "
                           "but it already came out since the deck was last shuffled: check the "
                           "cards typed", n=place, step=number, what=step.says(), card=card)
                )  # fmt: skip
                warnings.append(Reason(said))
            step_events = _with_reshuffles(outcome, source.reshuffles_since(first), first)
            events.extend(step_events)
            after = tuple(ships[i] for i in (step.ship, step.target) if i is not None)
            settled.append(StepResult(step, tuple(step_events), after))
        return ScriptResult(
            self, ships, tuple(settled), tuple(events), source.position, tuple(warnings)
        )

    def to_json(self) -> dict[str, Any]:
        """The script as checked, every default filled in (round-trips through
        :func:`read`)."""
        return {
            "ruleset": RULESET,
            "ships": {ship_id: _ship_json(ship) for ship_id, ship in self.ships.items()},
            "steps": [step.to_json() for step in self.steps],
            "cards": [str(card) for card in self.cards],
            "pile": self.pile,
        }


@dataclass(frozen=True, slots=True)
class StepResult:
    """One settled step, the events it caused in order, and the ships it concerns (the
    acting ship, then its target) as they stand after it."""

    step: Step
    events: tuple[Event, ...]
    after: tuple[Ship, ...]

    def to_json(self) -> dict[str, Any]:
        """The step's entry in ``resolve --json``: ``step`` (as written), ``kind``,
        ``ship``, ``target``, ``cards`` (the cards turned: two for shields and hail, the
        salvo for fire), and ``success`` (shields, hail, jump) or ``suits`` (those that get
        through), ``hits`` and ``damage`` (each damage card with the system it struck,
        ``null`` for a club, and what that system has left) for fire."""
        out: dict[str, Any] = {
            "step": self.step.to_json(),
            "kind": self.step.kind,
            "ship": self.step.ship,
            "target": self.step.target,
            "cards": [],
        }
        for event in self.events:
            if isinstance(event, ShieldsRaised | Hailed):
                out["cards"] = list(event.cards)
                out["success"] = event.success
            elif isinstance(event, Fired):
                out["cards"] = list(event.cards)
                out["suits"] = event.suits
                out["hits"] = event.hits
                out["damage"] = []
            elif isinstance(event, DamageCard):
                out["damage"].append(
                    {"card": event.card, "system": event.system, "left": event.left}
                )
            elif isinstance(event, Jumped):
                out["success"] = True
            elif isinstance(event, Wrecked):
                out["wrecked"] = event.ship
        return out


@dataclass(frozen=True, slots=True)
class ScriptResult:
    """A settled combat script: the ships afterwards, each step with its events, the whole
    event log, and how many of the script's cards were turned."""

    script: CombatScript
    ships: dict[str, Ship]
    steps: tuple[StepResult, ...]
    events: tuple[Event, ...]
    cards_used: int
    #: Cards a deck could not have dealt there (one twice before the pile ran out), each
    #: naming its place in ``cards`` and the step that drew it.
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The ``resolve --json`` object of DESIGN section 6: ``ships`` (id -> ``shields``,
        ``shields_up``, ``weapons``, ``propulsion`` (the points left), ``can_jump``,
        ``on_table``, and ``name``, ``owner``, ``class``, ``weapon_size``, ``salvo``,
        ``status``), ``steps`` (:meth:`StepResult.to_json`), ``cards_used``, ``cards_left``
        (listed but not needed), ``warnings`` and ``events``."""
        return {
            "ruleset": RULESET,
            "ships": {ship_id: _state_json(ship) for ship_id, ship in self.ships.items()},
            "steps": [step.to_json() for step in self.steps],
            "cards_used": self.cards_used,
            "cards_left": len(self.script.cards) - self.cards_used,
            "warnings": list(self.warnings),
            "events": [event.to_json() for event in self.events],
        }


def _state_json(ship: Ship) -> dict[str, Any]:
    return {
        "name": ship.name,
        "owner": ship.owner,
        "class": ship.cls.name,
        "weapon_size": ship.weapons.value,
        "shields": ship.shields_left,
        "shields_up": ship.shields_up,
        "weapons": ship.weapons_left,
        "propulsion": ship.propulsion_left,
        "salvo": ship.salvo,
        "can_jump": ship.can_jump,
        "on_table": ship.on_table,
        "status": ship.status,
    }


def _ship_json(ship: Ship) -> dict[str, Any]:
    return {
        "class": ship.cls.name,
        "weapons": ship.weapons.value,
        "owner": ship.owner,
        "name": ship.name,
        "shields_up": ship.shields_up,
        "shields_lost": ship.cls.shields - ship.shields_left,
        "weapons_lost": ship.weapons_total - ship.weapons_left,
        "propulsion_lost": ship.cls.propulsion - ship.propulsion_left,
    }


# -- resolving --------------------------------------------------------------------------------


class _DealtCards(CardSource):
    """The script's cards dealt as a deck deals them: ``pile`` cards to begin with (their
    faces unknown, so any card not yet seen), then a new pile of every card not in play
    (turned in a step not yet settled). A card dealt twice in one pile is noted."""

    def __init__(self, cards: list[Card], pile: int) -> None:
        self.cards = cards
        self.position = 0
        self._left = pile
        self._out: set[Card] = set()  # drawn since the last shuffle
        self._in_play: list[Card] = []
        #: (position of the first card of the new pile, cards shuffled into it)
        self.shuffles: list[tuple[int, int]] = []
        self._warnings: list[tuple[int, str, bool]] = []

    def take_warnings(self) -> list[tuple[int, str, bool]]:
        """The cards dealt twice since the last call: (place in ``cards`` counted from 1,
        the card, whether it is in play in this step)."""
        taken, self._warnings = self._warnings, []
        return taken

    def draw(self) -> Card:
        if self.position >= len(self.cards):
            raise CardsRanOut(f"the script's {len(self.cards)} cards ran out")
        if self._left == 0:
            self._out = set(self._in_play)
            self._left = DECK_SIZE - len(self._out)
            self.shuffles.append((self.position, self._left))
        card = self.cards[self.position]
        if card in self._out:
            self._warnings.append((self.position + 1, str(card), card in self._in_play))
        self._out.add(card)
        self._in_play.append(card)
        self._left -= 1
        self.position += 1
        return card

    def discard(self, cards: Iterable[Card]) -> None:
        for card in cards:
            self._in_play.remove(card)

    def reshuffles_since(self, first: int) -> list[tuple[int, int]]:
        """The shuffles at or after card position ``first``: (position, cards)."""
        return [(at, n) for at, n in self.shuffles if at >= first]


def _with_reshuffles(
    events: list[Event], shuffles: list[tuple[int, int]], first: int
) -> list[Event]:
    """``events`` with a :class:`Reshuffled` before the event that shows the first card of
    each new pile (as the match's deck tells it)."""
    if not shuffles:
        return events
    out: list[Event] = []
    position = first
    pending = list(shuffles)
    for event in events:
        if isinstance(event, ShieldsRaised | Hailed | Fired):
            shown = len(event.cards)
        elif isinstance(event, DamageCard):
            shown = 1
        else:
            shown = 0
        while pending and position <= pending[0][0] < position + shown:
            out.append(Reshuffled(pending.pop(0)[1]))
        out.append(event)
        position += shown
    return out


def _play(step: Step, ships: dict[str, Ship], source: CardSource) -> list[Event]:
    """Settle one step on ``ships`` (updated in place). Raises CombatRefused."""
    ship = ships[step.ship]
    if not ship.on_table:
        raise CombatRefused(_away(ship))
    target = ships[step.target] if step.target is not None else None
    if target is not None and not target.on_table:
        raise CombatRefused(_away(target))
    if step.kind == "raise_shields":
        ships[ship.id], events = raise_shields(ship, source)
        return events
    if step.kind == "hail":
        assert target is not None
        return hail(ship, target, source)
    if step.kind == "jump":
        if not ship.can_jump:
            raise CombatRefused(refusal(
                "{ship} has {n} of {most} propulsion cells: it needs half of them to jump",
                ship=ship.name, n=ship.propulsion_left, most=ship.cls.propulsion,
            ))  # fmt: skip
        ships[ship.id] = replace(ship, status="jumped", shields_up=False)
        return [Jumped(ship.id, None)]
    assert target is not None
    if target.owner == ship.owner:
        said = refusal("{target} is on {ship}'s own side ({side})",
                       target=target.name, ship=ship.name, side=ship.owner)  # fmt: skip
        raise CombatRefused(said)
    hit, events = fire(ship, target, source)
    if hit.weapons_left == 0 and hit.propulsion_left == 0:
        hit = replace(hit, status="wrecked", shields_up=False)
        events.append(Wrecked(hit.id))
    ships[hit.id] = hit
    return events


def _away(ship: Ship) -> Reason:
    if ship.status == "wrecked":
        return refusal("{ship} is a wreck: it has no weapons and no propulsion left",
                       ship=ship.name)  # fmt: skip
    return refusal("{ship} has jumped out of the battle", ship=ship.name)


# -- reading ---------------------------------------------------------------------------------


def read(data: Any) -> CombatScript:
    """Check a decoded combat script. Raises :class:`ScriptError` naming the field, the
    ship or the step at fault."""
    data = read_header(
        data, kind="combat script", fields=_TOP_FIELDS, rulesets=(RULESET,), error=ScriptError,
        seats_players=False,
    ).fields  # fmt: skip
    ships = _ships(data.get("ships"))
    steps = _steps(data.get("steps"), ships)
    cards = _cards(data.get("cards"))
    pile = data.get("pile", DECK_SIZE)
    if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile <= DECK_SIZE:
        raise ScriptError(
            f"'pile' (cards in the draw pile at the start) must be 0 to {DECK_SIZE}, "
            f"got {clipped(pile)}"
        )
    return CombatScript(ships, steps, cards, pile)


def _ships(raw: Any) -> dict[str, Ship]:
    if not isinstance(raw, dict) or not raw:
        raise ScriptError("'ships' must be an object of ships by id")
    if len(raw) > MAX_SHIPS:
        raise ScriptError(f"'ships' lists {len(raw)} ships, at most {MAX_SHIPS}")
    ships: dict[str, Ship] = {}
    for ship_id, spec in raw.items():
        if not 0 < len(ship_id) <= MAX_ID_CHARS:
            raise ScriptError(f"a ship id must be 1 to {MAX_ID_CHARS} characters")
        where = f"ship {ship_id!r}"
        if not isinstance(spec, dict):
            raise ScriptError(f"{where} must be an object with a 'class' and an 'owner'")
        unknown = sorted(set(spec) - _SHIP_FIELDS)
        if unknown:
            raise ScriptError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}")
        klass, weapons = class_and_weapons(spec, where, ScriptError)
        owner = spec.get("owner")
        if not isinstance(owner, str) or not 0 < len(owner) <= MAX_ID_CHARS:
            said = phrase("ship '{id}': its side's name must be 1 to {most} characters",
                          id=ship_id, most=MAX_ID_CHARS)  # fmt: skip
            raise ScriptError(f"{where}: 'owner' must be a side's name of 1 to {MAX_ID_CHARS} "
                              f"characters, got {clipped(owner)}", said)  # fmt: skip
        name = spec.get("name", ship_id)
        if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_ID_CHARS:
            said = phrase("ship '{id}': its name must be 1 to {most} characters",
                          id=ship_id, most=MAX_ID_CHARS)  # fmt: skip
            raise ScriptError(f"{where}: 'name' must be 1 to {MAX_ID_CHARS} characters", said)
        ship = Ship.new(ship_id, name.strip(), owner, klass, weapons)
        shields = ship.shields_left - _lost(where, spec, "shields_lost", ship.shields_left)
        armed = ship.weapons_left - _lost(where, spec, "weapons_lost", ship.weapons_left)
        cells = ship.propulsion_left - _lost(where, spec, "propulsion_lost", ship.propulsion_left)
        up = spec.get("shields_up", False)
        if not isinstance(up, bool):
            raise ScriptError(f"{where}: 'shields_up' must be true or false, got {clipped(up)}")
        if up and shields == 0:
            said = phrase("ship '{id}': its shields cannot be up with no shield points left",
                          id=ship_id)  # fmt: skip
            raise ScriptError(said.text(), said)
        if armed == 0 and cells == 0:
            said = phrase("ship '{id}': with no weapons and no propulsion it is a wreck",
                          id=ship_id)  # fmt: skip
            raise ScriptError(said.text(), said)
        ships[ship_id] = replace(
            ship, shields_left=shields, weapons_left=armed, propulsion_left=cells, shields_up=up
        )
    return ships


def _lost(where: str, spec: dict[str, Any], field: str, most: int) -> int:
    raw = spec.get(field, 0)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= most:
        raise ScriptError(
            f"{where}: {field!r} must be a whole number from 0 to {most}, got {clipped(raw)}"
        )
    return raw


def _steps(raw: Any, ships: dict[str, Ship]) -> tuple[Step, ...]:
    if not isinstance(raw, list):
        raise ScriptError("'steps' must be a list of steps")
    if len(raw) > MAX_STEPS:
        raise ScriptError(f"'steps' lists {len(raw)} steps, at most {MAX_STEPS}")
    steps: list[Step] = []
    for number, entry in enumerate(raw, 1):
        where = f"step {number}"
        if not isinstance(entry, dict):
            raise ScriptError(f'{where} must be an object such as {{"fire": id, "at": id}}')
        kinds = [k for k in _STEP_KINDS if k in entry]
        if len(kinds) != 1:
            raise ScriptError(
                f"{where} must hold exactly one of raise_shields, fire, hail, jump; "
                f"got {', '.join(map(repr, sorted(entry))) or 'nothing'}"
            )
        kind = kinds[0]
        other = _STEP_KINDS[kind]
        allowed = {kind} | ({other} if other else set())
        unknown = sorted(set(entry) - allowed)
        if unknown:
            raise ScriptError(f"{where} ({kind}): unknown field(s) {', '.join(map(repr, unknown))}")
        ship = _ship_ref(where, kind, entry[kind], ships)
        target = None
        if other:
            if other not in entry:
                raise ScriptError(f"{where} ({kind} {ship}): {other!r} must name a ship")
            target = _ship_ref(where, other, entry[other], ships)
            if target == ship:
                verb = "fire at" if kind == "fire" else "hail"
                raise ScriptError(f"{where} ({kind} {ship} {other} {target}): a ship cannot "
                                  f"{verb} itself")  # fmt: skip
        steps.append(Step(kind, ship, target))
    return tuple(steps)


def _ship_ref(where: str, key: str, raw: Any, ships: dict[str, Ship]) -> str:
    if not isinstance(raw, str) or raw not in ships:
        raise ScriptError(f"{where}: {key!r} names no ship of 'ships': {clipped(raw)}")
    return raw


def _cards(raw: Any) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise ScriptError('\'cards\' must be a list of cards such as "10S", "KH"')
    if len(raw) > MAX_CARDS:
        raise ScriptError(f"'cards' lists {len(raw)} cards, at most {MAX_CARDS}")
    cards = []
    for index, text in enumerate(raw):
        try:
            cards.append(parse_card(text))
        except ValueError as exc:
            raise ScriptError(f"cards[{index}]: {exc}") from None
    return tuple(cards)
