"""A readable, step-by-step account of a battle, as a referee would announce it.

Pure: takes the cards and the :class:`~spacetable.lasers.battle.Outcome`, returns lines of text,
in the reader's language (a :class:`~spacetable.i18n.Translator`, English by default): the
events are structured, the words are chosen here, at the edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.i18n import ENGLISH, N_, Translator, player_name
from spacetable.lasers import events as ev
from spacetable.lasers.battle import Card, Outcome

_EDGE_WORDS = {
    "front": N_("on its front"),
    "back": N_("on its back"),
    "left": N_("on its left side"),
    "right": N_("on its right side"),
}
_KIND_WORDS = {
    "normal": N_("{power}-power laser #{number}"),
    "ion": N_("ion {power}-power laser #{number}"),
    "penetrating": N_("penetrating {power}-power laser #{number}"),
}
_VAPORIZED = {
    "pulse": N_("too few for the lasers of a pulse"),
    "own-cargo": N_("stolen from its owner's own cargo ship"),
    "destroyed": N_("the ship carrying them blew up"),
}


def card_label(card: Card, tr: Translator = ENGLISH) -> str:
    """How the account names a card: ``red Moth [red-moth]`` or ``asteroid [rock]``."""
    if card.ship is None:
        return tr.gettext("asteroid [{id}]", id=card.id)
    owner = player_name(card.owner, tr) if card.owner else ""
    return tr.gettext("{owner} {ship} [{id}]", owner=owner, ship=card.ship.name, id=card.id)


def narrate(cards: Sequence[Card], outcome: Outcome, tr: Translator = ENGLISH) -> list[str]:
    """The battle told step by step, then the kill piles, rocks and scores, in ``tr``'s
    language."""
    names = {c.id: card_label(c, tr) for c in cards}
    lines: list[str] = []
    for event in outcome.events:
        line = _describe(event, names, tr)
        if isinstance(event, ev.StepBegan) and lines:
            lines.append("")
        lines.append(line)
    if not outcome.events:
        lines.append(tr.gettext("No ship fires: the table holds no ships."))
    lines.append("")
    lines.append(tr.gettext("Kill piles:"))
    for player, pile in outcome.kill_piles.items():
        shown = ", ".join(names[cid] for cid in pile) or tr.gettext("empty")
        lines.append(
            "  " + tr.gettext("{name}: {value}", name=player_name(player, tr), value=shown)
        )
    carriers = [(cid, s.rocks) for cid, s in outcome.ships.items() if s.alive and s.rocks]
    if carriers:
        lines.append(tr.gettext("Rocks on surviving ships:"))
        lines.extend(
            "  " + tr.gettext("{name}: {value}", name=names[cid], value=rocks)
            for cid, rocks in carriers
        )
    for cid, rocks in outcome.asteroids.items():
        lines.append(
            tr.ngettext(
                "Left on {card}: {n} rock", "Left on {card}: {n} rocks", rocks, card=names[cid]
            )
        )
    scores = ", ".join(f"{player_name(p, tr)} {s}" for p, s in outcome.scores.items())
    lines.append(tr.gettext("Scores: {scores}", scores=scores))
    if outcome.winner:
        lines.append(tr.gettext("Winner: {player}", player=player_name(outcome.winner, tr)))
    else:
        lines.append(tr.gettext("Result: a draw"))
    return lines


def _describe(event: ev.Event, names: dict[str, str], tr: Translator) -> str:
    if isinstance(event, ev.StepBegan):
        who = ", ".join(names[cid] for cid in event.ships)
        return tr.ngettext(
            "Speed {speed}: {ships} fires.",
            "Speed {speed}: {ships} fire.",
            len(event.ships),
            speed=event.speed,
            ships=who,
        )
    if isinstance(event, ev.LaserFired):
        return _describe_laser(event, names, tr)
    if isinstance(event, ev.Delayed):
        speeds = "/".join(str(s) for s in event.speeds)
        return "  " + tr.gettext(
            "{ship} gets a Delay token ({tokens} now): it will fire at speed {speeds}.",
            ship=names[event.ship],
            tokens=event.tokens,
            speeds=speeds,
        )
    if isinstance(event, ev.RocksTaken):
        return "  " + tr.ngettext(
            "{ship} takes {n} rock from {source}.",
            "{ship} takes {n} rocks from {source}.",
            event.count,
            ship=names[event.ship],
            source=names[event.source],
        )
    if isinstance(event, ev.RocksVaporized):
        return "  " + tr.ngettext(
            "{n} rock on {card} vaporized ({why}).",
            "{n} rocks on {card} vaporized ({why}).",
            event.count,
            card=names[event.card],
            why=tr.gettext(_VAPORIZED[event.reason]),
        )
    if isinstance(event, ev.Destroyed):
        ship = names[event.ship]
        if event.kill_pile:
            pile = player_name(event.kill_pile, tr)
            return "  " + tr.gettext(
                "{ship} is destroyed: into {player}'s kill pile.", ship=ship, player=pile
            )
        return "  " + tr.gettext("{ship} is destroyed: vaporized (tie).", ship=ship)
    if isinstance(event, ev.GoodsTransferred):
        return "  " + tr.ngettext(
            "{ship} picks up {n} cube from the wreck of {source}.",
            "{ship} picks up {n} cubes from the wreck of {source}.",
            event.count,
            ship=names[event.ship],
            source=names[event.source],
        )
    if isinstance(event, ev.CardLeft):
        if event.reason == "depleted":
            return "  " + tr.gettext(
                "{card} leaves the table (no rocks left).", card=names[event.card]
            )
        return "  " + tr.gettext("{card} leaves the table (no cargo left).", card=names[event.card])
    raise TypeError(f"no description for {type(event).__name__}")


def _describe_laser(event: ev.LaserFired, names: dict[str, str], tr: Translator) -> str:
    beam = tr.gettext(_KIND_WORDS[event.kind], power=event.power, number=event.laser + 1)
    ship = names[event.ship]
    if event.target is None:
        return "  " + tr.gettext("{ship} fires its {beam} into space.", ship=ship, beam=beam)
    edge = event.edge or ""
    side = tr.gettext(_EDGE_WORDS[edge]) if edge in _EDGE_WORDS else edge
    where = tr.gettext("{target} {side}", target=names[event.target], side=side)
    if event.end is not None:
        where = tr.gettext(
            "{place} at ({x}, {y})",
            place=where,
            x=tr.number(event.end[0], "0.0"),
            y=tr.number(event.end[1], "0.0"),
        )
    said = {"ship": ship, "beam": beam, "where": where}
    if event.result == "blocked":
        text = tr.gettext("{ship} fires its {beam}: it hits {where}, a shield blocks it.", **said)
    elif event.result == "mine":
        text = tr.gettext("{ship} fires its {beam}: it mines {where}.", **said)
    elif event.result == "ion":
        text = tr.gettext("{ship} fires its {beam}: it hits {where} (no damage).", **said)
    else:
        text = tr.ngettext(
            "{ship} fires its {beam}: it hits {where} for {n} damage.",
            "{ship} fires its {beam}: it hits {where} for {n} damage.",
            event.damage,
            **said,
        )
    return "  " + text
