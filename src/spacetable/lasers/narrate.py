"""A readable, step-by-step account of a battle, as a referee would announce it.

Pure: takes the cards and the :class:`~spacetable.lasers.battle.Outcome`, returns lines of text.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.lasers.battle import Card, Outcome
from spacetable.lasers.events import (
    CardLeft,
    Delayed,
    Destroyed,
    Event,
    GoodsTransferred,
    LaserFired,
    RocksTaken,
    RocksVaporized,
    StepBegan,
)

_EDGE_WORDS = {"front": "front", "back": "back", "left": "left side", "right": "right side"}
_KIND_WORDS = {"normal": "", "ion": "ion ", "penetrating": "penetrating "}


def card_label(card: Card) -> str:
    """How the account names a card: ``red Moth [red-moth]`` or ``asteroid [rock]``."""
    if card.ship is None:
        return f"asteroid [{card.id}]"
    return f"{card.owner} {card.ship.name} [{card.id}]"


def narrate(cards: Sequence[Card], outcome: Outcome) -> list[str]:
    """The battle told step by step, then the kill piles, rocks and scores."""
    names = {c.id: card_label(c) for c in cards}
    lines: list[str] = []
    for event in outcome.events:
        line = _describe(event, names)
        if isinstance(event, StepBegan) and lines:
            lines.append("")
        lines.append(line)
    if not outcome.events:
        lines.append("No ship fires: the table holds no ships.")
    lines.append("")
    lines.append("Kill piles:")
    for player, pile in outcome.kill_piles.items():
        shown = ", ".join(names[cid] for cid in pile) or "empty"
        lines.append(f"  {player}: {shown}")
    carriers = [(cid, s.rocks) for cid, s in outcome.ships.items() if s.alive and s.rocks]
    if carriers:
        lines.append("Rocks on surviving ships:")
        lines.extend(f"  {names[cid]}: {rocks}" for cid, rocks in carriers)
    for cid, rocks in outcome.asteroids.items():
        lines.append(f"Left on {names[cid]}: {rocks} rocks")
    lines.append("Scores: " + ", ".join(f"{p} {s}" for p, s in outcome.scores.items()))
    lines.append(f"Winner: {outcome.winner}" if outcome.winner else "Result: a draw")
    return lines


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _describe(event: Event, names: dict[str, str]) -> str:
    if isinstance(event, StepBegan):
        who = ", ".join(names[cid] for cid in event.ships)
        return f"Speed {event.speed}: {who} fire{'s' if len(event.ships) == 1 else ''}."
    if isinstance(event, LaserFired):
        return _describe_laser(event, names)
    if isinstance(event, Delayed):
        speeds = "/".join(str(s) for s in event.speeds)
        return (
            f"  {names[event.ship]} gets a Delay token ({event.tokens} now): "
            f"it will fire at speed {speeds}."
        )
    if isinstance(event, RocksTaken):
        rocks = _plural(event.count, "rock")
        return f"  {names[event.ship]} takes {rocks} from {names[event.source]}."
    if isinstance(event, RocksVaporized):
        why = {
            "pulse": "too few for the lasers of a pulse",
            "own-cargo": "stolen from its owner's own cargo ship",
            "destroyed": "the ship carrying them blew up",
        }[event.reason]
        return f"  {_plural(event.count, 'rock')} on {names[event.card]} vaporized ({why})."
    if isinstance(event, Destroyed):
        pile = f"into {event.kill_pile}'s kill pile" if event.kill_pile else "vaporized (tie)"
        return f"  {names[event.ship]} is destroyed: {pile}."
    if isinstance(event, GoodsTransferred):
        return (
            f"  {names[event.ship]} picks up {_plural(event.count, 'cube')} "
            f"from the wreck of {names[event.source]}."
        )
    if isinstance(event, CardLeft):
        why = "no rocks left" if event.reason == "depleted" else "no cargo left"
        return f"  {names[event.card]} leaves the table ({why})."
    raise TypeError(f"no description for {type(event).__name__}")


def _describe_laser(event: LaserFired, names: dict[str, str]) -> str:
    beam = f"{_KIND_WORDS[event.kind]}{event.power}-power laser #{event.laser + 1}"
    start = f"  {names[event.ship]} fires its {beam}"
    if event.target is None:
        return f"{start} into space."
    where = f"{names[event.target]} on its {_EDGE_WORDS.get(event.edge or '', event.edge)}"
    if event.end is not None:
        where += f" at ({event.end[0]:.1f}, {event.end[1]:.1f})"
    if event.result == "blocked":
        return f"{start}: it hits {where}, a shield blocks it."
    if event.result == "mine":
        return f"{start}: it mines {where}."
    if event.result == "ion":
        return f"{start}: it hits {where} (no damage)."
    return f"{start}: it hits {where} for {event.damage} damage."
