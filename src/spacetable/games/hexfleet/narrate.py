"""A hex fleet battle told in words: every event as a line of the ships' logs (the
rulebook's "ship's log"), for the CLI's account of a combat script, the match view and the
browser's log.

:func:`narrate` turns events into :class:`LogLine` values, each with the turn it happened
in and the ships it concerns (an attacker and its target both), so that one ship's log is
the lines naming it (:func:`ship_log`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from spacetable.core.events import Event
from spacetable.games.hexfleet.cards import RANKS, parse_card
from spacetable.games.hexfleet.events import (
    ActivationEnded,
    BattleOver,
    ChitDrawn,
    DamageCard,
    Fired,
    Hailed,
    Jumped,
    Moved,
    MoveUndone,
    Reshuffled,
    Returned,
    ShieldsRaised,
    TurnBegan,
    Wrecked,
)
from spacetable.games.hexfleet.hexes import FACING_NAMES, Hex, hex_label
from spacetable.games.hexfleet.ships import Ship

#: The words for each chart's suits (which cards get through the shields).
_GET_THROUGH = {
    "S": "only spades hit",
    "SH": "hearts and spades hit",
    "SHD": "diamonds, hearts and spades hit",
    "SHDC": "every card hits",
}
_SYSTEM_LOSS = {
    "shields": ("a shield point", "shield points"),
    "weapons": ("a weapon system", "weapon systems"),
    "propulsion": ("a propulsion cell", "propulsion cells"),
}
_RANK_NAMES = dict(
    zip(
        RANKS,
        ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
         "tens", "jacks", "queens", "kings"),
        strict=True,
    )
)  # fmt: skip
_REASONS = {
    "last-side": "the only side with a ship left that can fight",
    "no-side": "no side has a ship left that can fight",
    "turn-limit": "the turn limit is reached: the battle is decided on strength",
}


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the log: the ``turn`` it happened in (``None`` outside a match's turns,
    as in a combat script), the ids of the ``ships`` it concerns (the acting ship first)
    and the ``text``."""

    turn: int | None
    ships: tuple[str, ...]
    text: str

    def to_json(self) -> dict[str, Any]:
        """``{"turn", "ships", "text"}``."""
        return {"turn": self.turn, "ships": list(self.ships), "text": self.text}


def narrate(
    events: Iterable[Event],
    names: Mapping[str, str],
    ships: Mapping[str, Ship] | None = None,
) -> list[LogLine]:
    """Tell ``events`` in words. ``names`` gives each ship id's name (an id missing from it
    is shown as it is). Given the ``ships`` as they stood before the first event, a salvo's
    line also says the state of the target's shields, which the narrator follows through
    the events (shields raised, shield points lost)."""
    state = dict(ships or {})
    turn: int | None = None
    lines: list[LogLine] = []

    def name(ship_id: str | None) -> str:
        return "?" if ship_id is None else names.get(ship_id, ship_id)

    def say(text: str, *about: str) -> None:
        lines.append(LogLine(turn, about, text))

    for event in events:
        if isinstance(event, TurnBegan):
            turn = event.turn
            chits = len(event.cup)
            say(f"turn {turn} begins: {_plural(chits, 'ship chit')} and the blank in the cup")
        elif isinstance(event, ChitDrawn):
            turn = event.turn
            if event.ship is None:
                say(f"the blank chit: turn {event.turn} ends")
            else:
                say(f"{name(event.ship)}'s chit comes out: {name(event.ship)} is activated",
                    event.ship)  # fmt: skip
        elif isinstance(event, Returned):
            at = hex_label(Hex(*event.at))
            say(f"{name(event.ship)} is back from its jump at hex {at} facing "
                f"{FACING_NAMES[event.facing % 6]}", event.ship)  # fmt: skip
        elif isinstance(event, Moved):
            at = hex_label(Hex(*event.at))
            say(f"{name(event.ship)} moves {_steps_words(event.steps)} to hex {at} facing "
                f"{FACING_NAMES[event.facing % 6]} ({_plural(event.cost, 'hex', 'hexes')} of "
                f"movement, {event.left} left)", event.ship)  # fmt: skip
        elif isinstance(event, MoveUndone):
            at = hex_label(Hex(*event.at))
            say(f"{name(event.ship)} takes back its move: back at hex {at} facing "
                f"{FACING_NAMES[event.facing % 6]} ({event.left} left)", event.ship)  # fmt: skip
        elif isinstance(event, ShieldsRaised):
            outcome = "up" if event.success else "they stay down"
            say(f"{name(event.ship)} raises shields: {' '.join(event.cards)}, "
                f"{_match_words(event.cards)} — {outcome}", event.ship)  # fmt: skip
            if event.success and event.ship in state:
                state[event.ship] = replace(state[event.ship], shields_up=True)
        elif isinstance(event, Hailed):
            outcome = "communications open" if event.success else "no answer"
            say(f"{name(event.ship)} hails {name(event.target)}: {' '.join(event.cards)}, "
                f"{_match_words(event.cards)} — {outcome}", event.ship, event.target)  # fmt: skip
            # Hailing has no effect on the battle but this line (docs/rulings.md).
        elif isinstance(event, Fired):
            shields = _shields_words(event, state.get(event.target))
            hits = _plural(event.hits, "hit") if event.hits else "no hits"
            at = f" from {_plural(event.distance, 'hex', 'hexes')}" if event.distance else ""
            say(f"{name(event.ship)} fires {_plural(len(event.cards), 'card')} at "
                f"{name(event.target)}{at} ({shields}): {' '.join(event.cards)} — {hits}",
                event.ship, event.target)  # fmt: skip
        elif isinstance(event, DamageCard):
            card = event.card
            if event.system is None:
                say(f"damage card {card}: a club, drawn again", event.target)
            elif _had(state.get(event.target), event.system) == 0:
                # Nothing left there to lose: say so, not "loses one (0 left)" again.
                _, many = _SYSTEM_LOSS[event.system]
                say(f"damage card {card}: {name(event.target)} has no {many} left, "
                    "nothing more is lost", event.target)  # fmt: skip
            else:
                one, _ = _SYSTEM_LOSS[event.system]
                say(f"damage card {card}: {name(event.target)} loses {one} "
                    f"({event.left} left)", event.target)  # fmt: skip
                if event.target in state:
                    state[event.target] = state[event.target].damaged(card[-1])
        elif isinstance(event, Reshuffled):
            say(f"the draw pile is empty: {_plural(event.cards, 'discarded card')} "
                "shuffled into a new one")  # fmt: skip
        elif isinstance(event, Jumped):
            back = (
                f"its chit goes back in the cup on turn {event.returns_on}"
                if event.returns_on is not None
                else "it has left the battle"
            )
            say(f"{name(event.ship)} jumps out: {back}", event.ship)
            if event.ship in state:
                state[event.ship] = replace(state[event.ship], shields_up=False)
        elif isinstance(event, Wrecked):
            say(f"{name(event.ship)} has no weapons and no propulsion left: a wreck, out of "
                "the battle", event.ship)  # fmt: skip
        elif isinstance(event, ActivationEnded):
            say(f"{name(event.ship)}'s activation ends", event.ship)
        elif isinstance(event, BattleOver):
            shares = ", ".join(f"{side} {round(100 * v)}%" for side, v in event.strength.items())
            verdict = f"{event.winner} wins" if event.winner else "a draw"
            say(f"the battle is over: {verdict} ({_REASONS.get(event.reason, event.reason)}; "
                f"strength left {shares})")  # fmt: skip
    return lines


def _had(ship: Ship | None, system: str) -> int | None:
    """What ``ship`` had left of ``system`` before a damage card (``None``: not known)."""
    if ship is None:
        return None
    left: int = getattr(ship, f"{system}_left")
    return left


def ship_log(lines: Iterable[LogLine], ship_id: str) -> list[LogLine]:
    """The lines of ``ship_id``'s log: those that concern it."""
    return [line for line in lines if ship_id in line.ships]


def _shields_words(event: Fired, target: Ship | None) -> str:
    """The target's shields as the salvo met them, from the event (the cards on screen say
    the same, web/js/games/hexfleet/salvo.js); ``target`` gives the points at full."""
    gets = _GET_THROUGH.get(event.suits, f"{event.suits} hit")
    if not event.shields_up or event.shields == 0:
        return f"shields down: {gets}"
    most = f"/{target.cls.shields}" if target is not None else ""
    return f"shields up, {event.shields}{most}: {gets}"


def _match_words(cards: tuple[str, ...]) -> str:
    """Why two cards match or not: "both black", "a pair of kings", "not a pair, red and
    black"."""
    first, second = (parse_card(c) for c in cards)
    if first.rank == second.rank:
        return f"a pair of {_RANK_NAMES[first.rank]}"
    if first.red == second.red:
        return f"both {'red' if first.red else 'black'}"
    return "one red, one black, not a pair"


def _steps_words(steps: str) -> str:
    """``"FFLFF"`` as "2 ahead, turn left, 2 ahead"."""
    words: list[str] = []
    for letter, run in itertools.groupby(steps):
        n = len(list(run))
        if letter == "F":
            words.append(f"{n} ahead")
        else:
            side = "left" if letter == "L" else "right"
            words.append(f"turn {side}" + (f" x{n}" if n > 1 else ""))
    return ", ".join(words)


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"
