"""Combat by the cards (DESIGN section 6): raising shields, hailing, a salvo and its damage.

Each function takes the ships as they stand and a :class:`~.cards.CardSource` (the match's
shuffled deck, or the cards a referee typed in) and returns the ships after it with the
events it caused. The turned cards go to the discards when the step is settled, so a
reshuffle in the middle of a salvo shuffles only the cards settled before it.
"""

from __future__ import annotations

from dataclasses import replace

from spacetable.core.events import Event
from spacetable.games.hexfleet.cards import Card, CardSource, Deck, pair_or_colour
from spacetable.games.hexfleet.events import (
    DamageCard,
    Fired,
    Hailed,
    Reshuffled,
    ShieldsRaised,
)
from spacetable.games.hexfleet.ships import Ship
from spacetable.i18n.phrase import refusal

#: Effective range of every weapon, in hexes.
RANGE = 12
#: The system each damage suit strikes (clubs: draw again).
DAMAGE = {"D": "weapons", "H": "shields", "S": "propulsion"}


class CombatRefused(ValueError):
    """A combat step the rules forbid now (the message says why)."""


def _draw(source: CardSource, events: list[Event]) -> Card:
    """One card; if the deck's discards were shuffled into a new pile first, say so."""
    if isinstance(source, Deck):
        before, pending = source.reshuffles, len(source.discards)
        card = source.draw()
        if source.reshuffles > before:
            events.append(Reshuffled(pending))
        return card
    return source.draw()


def _two_cards(source: CardSource, events: list[Event]) -> tuple[Card, Card]:
    first = _draw(source, events)
    return first, _draw(source, events)


def raise_shields_problem(ship: Ship) -> str | None:
    """Why ``ship`` may not try to raise its shields, or ``None``."""
    if ship.shields_up:
        return refusal("{ship}'s shields are already up", ship=ship.name)
    if ship.shields_left <= 0:
        return refusal("{ship} has no shield points left to raise", ship=ship.name)
    return None


def raise_shields(ship: Ship, source: CardSource) -> tuple[Ship, list[Event]]:
    """Turn two cards: same colour or same rank raises the shields."""
    problem = raise_shields_problem(ship)
    if problem:
        raise CombatRefused(problem)
    events: list[Event] = []
    cards = _two_cards(source, events)
    success = pair_or_colour(*cards)
    source.discard(cards)
    events.append(ShieldsRaised(ship.id, tuple(map(str, cards)), success))
    return (replace(ship, shields_up=True) if success else ship), events


def hail(ship: Ship, target: Ship, source: CardSource) -> list[Event]:
    """Turn two cards: same colour or same rank opens communications."""
    if target.id == ship.id:
        raise CombatRefused(refusal("{ship} cannot hail itself", ship=ship.name))
    events: list[Event] = []
    cards = _two_cards(source, events)
    source.discard(cards)
    events.append(Hailed(ship.id, target.id, tuple(map(str, cards)), pair_or_colour(*cards)))
    return events


def fire_problem(attacker: Ship) -> str | None:
    """Why ``attacker`` has no salvo, or ``None`` (range and arc are the match's)."""
    if attacker.salvo == 0:
        return refusal("{ship} has no weapons left to fire", ship=attacker.name)
    return None


def fire(
    attacker: Ship, target: Ship, source: CardSource, distance: int = 0
) -> tuple[Ship, list[Event]]:
    """One salvo: turn the attacker's cards; each whose suit gets through the target's
    shields (read before any card) is a hit; then a damage card per hit, clubs drawn
    again. Returns the target after the damage and the events."""
    problem = fire_problem(attacker)
    if problem:
        raise CombatRefused(problem)
    if target.id == attacker.id:
        raise CombatRefused(refusal("{ship} cannot fire at itself", ship=attacker.name))
    suits = target.hit_by()
    events: list[Event] = []
    turned = [_draw(source, events) for _ in range(attacker.salvo)]
    hits = sum(card.suit in suits for card in turned)
    events.append(
        Fired(
            attacker.id,
            target.id,
            distance,
            tuple(map(str, turned)),
            "".join(s for s in "SHDC" if s in suits),
            hits,
            target.shields_up,
            target.shields_left,
        )
    )
    settled = list(turned)
    for _ in range(hits):
        while True:
            card = _draw(source, events)
            settled.append(card)
            system = DAMAGE.get(card.suit)
            if system is not None:
                target = target.damaged(card.suit)
            left = {
                "weapons": target.weapons_left,
                "shields": target.shields_left,
                "propulsion": target.propulsion_left,
            }.get(system or "", 0)
            events.append(DamageCard(target.id, str(card), system, left))
            if system is not None:
                break
    source.discard(settled)
    return target, events
