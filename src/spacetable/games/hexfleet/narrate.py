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
from spacetable.games.hexfleet.hexes import Hex, hex_label
from spacetable.games.hexfleet.ships import Ship
from spacetable.i18n import N_, Translator
from spacetable.i18n.phrase import Phrase, Value, phrase, phrase_n

#: The words for each chart's suits (which cards get through the shields).
_GET_THROUGH = {
    "S": N_("only spades hit"),
    "SH": N_("hearts and spades hit"),
    "SHD": N_("diamonds, hearts and spades hit"),
    "SHDC": N_("every card hits"),
}
#: A system's loss, one and none left ("loses {one}", "has no {many} left").
_SYSTEM_LOSS = {
    "shields": (N_("a shield point"), N_("shield points")),
    "weapons": (N_("a weapon system"), N_("weapon systems")),
    "propulsion": (N_("a propulsion cell"), N_("propulsion cells")),
}
_RANK_NAMES = dict(
    zip(
        RANKS,
        (N_("aces"), N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"),
         N_("sevens"), N_("eights"), N_("nines"), N_("tens"), N_("jacks"), N_("queens"),
         N_("kings")),
        strict=True,
    )
)  # fmt: skip
_REASONS = {
    "last-side": N_("the only side with a ship left that can fight"),
    "no-side": N_("no side has a ship left that can fight"),
    "turn-limit": N_("the turn limit is reached: the battle is decided on strength"),
}
#: The six facings in words (hexes.FACING_NAMES: N, NE, SE, S, SW, NW).
FACING_WORDS = (N_("N"), N_("NE"), N_("SE"), N_("S"), N_("SW"), N_("NW"))


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the log: the ``turn`` it happened in (``None`` outside a match's turns,
    as in a combat script), the ids of the ``ships`` it concerns (the acting ship first)
    and what it ``says`` (a :class:`~spacetable.i18n.phrase.Phrase`: each reader's page
    writes it in his language)."""

    turn: int | None
    ships: tuple[str, ...]
    says: Phrase

    @property
    def text(self) -> str:
        """The line in English."""
        return self.says.text()

    def in_language(self, tr: Translator) -> str:
        """The line in ``tr``'s language."""
        return self.says.text(tr)

    def to_json(self) -> dict[str, Any]:
        """``{"turn", "ships", "text", "says"}``: ``text`` in English, ``says`` for the
        page to write in its reader's language."""
        return {
            "turn": self.turn,
            "ships": list(self.ships),
            "text": self.text,
            "says": self.says.to_json(),
        }


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

    def say(words: Phrase, *about: str) -> None:
        lines.append(LogLine(turn, about, words))

    for event in events:
        if isinstance(event, TurnBegan):
            turn = event.turn
            chits = len(event.cup)
            say(phrase_n("turn {turn} begins: {n} ship chit and the blank in the cup",
                         "turn {turn} begins: {n} ship chits and the blank in the cup",
                         chits, turn=turn))  # fmt: skip
        elif isinstance(event, ChitDrawn):
            turn = event.turn
            if event.ship is None:
                say(phrase("the blank chit: turn {turn} ends", turn=event.turn))
            else:
                say(phrase("{ship}'s chit comes out: {ship} is activated", ship=name(event.ship)),
                    event.ship)  # fmt: skip
        elif isinstance(event, Returned):
            say(phrase("{ship} is back from its jump at hex {hex} facing {facing}",
                       ship=name(event.ship), hex=_hex(event.at), facing=_facing(event.facing)),
                event.ship)  # fmt: skip
        elif isinstance(event, Moved):
            cost = phrase_n("{n} hex of movement, {left} left",
                            "{n} hexes of movement, {left} left", event.cost,
                            left=event.left)  # fmt: skip
            say(phrase("{ship} moves {steps} to hex {hex} facing {facing} ({cost})",
                       ship=name(event.ship), steps=_steps_words(event.steps), hex=_hex(event.at),
                       facing=_facing(event.facing), cost=cost), event.ship)  # fmt: skip
        elif isinstance(event, MoveUndone):
            say(phrase("{ship} takes back its move: back at hex {hex} facing {facing} "
                       "({left} left)", ship=name(event.ship), hex=_hex(event.at),
                       facing=_facing(event.facing), left=event.left), event.ship)  # fmt: skip
        elif isinstance(event, ShieldsRaised):
            outcome = phrase("up") if event.success else phrase("they stay down")
            say(phrase("{ship} raises shields: {cards}, {match} — {outcome}",
                       ship=name(event.ship), cards=" ".join(event.cards),
                       match=_match_words(event.cards), outcome=outcome), event.ship)  # fmt: skip
            if event.success and event.ship in state:
                state[event.ship] = replace(state[event.ship], shields_up=True)
        elif isinstance(event, Hailed):
            outcome = phrase("communications open") if event.success else phrase("no answer")
            say(phrase("{ship} hails {target}: {cards}, {match} — {outcome}",
                       ship=name(event.ship), target=name(event.target),
                       cards=" ".join(event.cards), match=_match_words(event.cards),
                       outcome=outcome), event.ship, event.target)  # fmt: skip
            # Hailing has no effect on the battle but this line (docs/rulings.md).
        elif isinstance(event, Fired):
            shields = _shields_words(event, state.get(event.target))
            hits = (phrase_n("{n} hit", "{n} hits", event.hits) if event.hits
                    else phrase("no hits"))  # fmt: skip
            values: dict[str, Value] = dict(
                ship=name(event.ship), target=name(event.target), shields=shields,
                cards=" ".join(event.cards), hits=hits)  # fmt: skip
            if event.distance:
                values["distance"] = phrase_n("{n} hex", "{n} hexes", event.distance)
                said = phrase_n(
                    "{ship} fires {n} card at {target} from {distance} ({shields}): "
                    "{cards} — {hits}",
                    "{ship} fires {n} cards at {target} from {distance} ({shields}): "
                    "{cards} — {hits}", len(event.cards), **values)  # fmt: skip
            else:
                said = phrase_n("{ship} fires {n} card at {target} ({shields}): {cards} — {hits}",
                                "{ship} fires {n} cards at {target} ({shields}): {cards} — {hits}",
                                len(event.cards), **values)  # fmt: skip
            say(said, event.ship, event.target)
        elif isinstance(event, DamageCard):
            card = event.card
            if event.system is None:
                say(phrase("damage card {card}: a club, drawn again", card=card), event.target)
            elif _had(state.get(event.target), event.system) == 0:
                # Nothing left there to lose: say so, not "loses one (0 left)" again.
                _, many = _SYSTEM_LOSS[event.system]
                say(phrase("damage card {card}: {ship} has no {systems} left, nothing more is "
                           "lost", card=card, ship=name(event.target),
                           systems=phrase(many)), event.target)  # fmt: skip
            else:
                one, _ = _SYSTEM_LOSS[event.system]
                say(phrase("damage card {card}: {ship} loses {system} ({left} left)", card=card,
                           ship=name(event.target), system=phrase(one), left=event.left),
                    event.target)  # fmt: skip
                if event.target in state:
                    state[event.target] = state[event.target].damaged(card[-1])
        elif isinstance(event, Reshuffled):
            say(phrase_n("the draw pile is empty: {n} discarded card shuffled into a new one",
                         "the draw pile is empty: {n} discarded cards shuffled into a new one",
                         event.cards))  # fmt: skip
        elif isinstance(event, Jumped):
            back = (
                phrase("its chit goes back in the cup on turn {turn}", turn=event.returns_on)
                if event.returns_on is not None
                else phrase("it has left the battle")
            )
            say(phrase("{ship} jumps out: {back}", ship=name(event.ship), back=back), event.ship)
            if event.ship in state:
                state[event.ship] = replace(state[event.ship], shields_up=False)
        elif isinstance(event, Wrecked):
            say(phrase("{ship} has no weapons and no propulsion left: a wreck, out of the battle",
                       ship=name(event.ship)), event.ship)  # fmt: skip
        elif isinstance(event, ActivationEnded):
            say(phrase("{ship}'s activation ends", ship=name(event.ship)), event.ship)
        elif isinstance(event, BattleOver):
            shares = _joined(
                [
                    phrase("{side} {share}", side=side,
                           share=phrase("{percent}%", percent=round(100 * v)))
                    for side, v in event.strength.items()
                ]
            )  # fmt: skip
            verdict = (phrase("{side} wins", side=event.winner) if event.winner
                       else phrase("a draw"))  # fmt: skip
            reason = (phrase(_REASONS[event.reason]) if event.reason in _REASONS
                      else event.reason)  # fmt: skip
            say(phrase("the battle is over: {verdict} ({reason}; strength left {shares})",
                       verdict=verdict, reason=reason, shares=shares))  # fmt: skip
    return lines


def _hex(at: tuple[int, int]) -> str:
    return hex_label(Hex(*at))


def _facing(facing: int) -> Phrase:
    return phrase(FACING_WORDS[facing % 6])


def _joined(parts: list[Phrase]) -> Phrase:
    """``parts`` (one at least) one after the other, with commas: "Ann 65%, easy bot 85%"."""
    out = parts[0]
    for part in parts[1:]:
        out = phrase("{before}, {after}", before=out, after=part)
    return out


def _had(ship: Ship | None, system: str) -> int | None:
    """What ``ship`` had left of ``system`` before a damage card (``None``: not known)."""
    if ship is None:
        return None
    left: int = getattr(ship, f"{system}_left")
    return left


def ship_log(lines: Iterable[LogLine], ship_id: str) -> list[LogLine]:
    """The lines of ``ship_id``'s log: those that concern it."""
    return [line for line in lines if ship_id in line.ships]


def _shields_words(event: Fired, target: Ship | None) -> Phrase:
    """The target's shields as the salvo met them, from the event (the cards on screen say
    the same, web/js/games/hexfleet/salvo.js); ``target`` gives the points at full."""
    gets = (phrase(_GET_THROUGH[event.suits]) if event.suits in _GET_THROUGH
            else phrase("{suits} hit", suits=event.suits))  # fmt: skip
    if not event.shields_up or event.shields == 0:
        return phrase("shields down: {gets}", gets=gets)
    if target is not None:
        return phrase("shields up, {points}/{most}: {gets}", points=event.shields,
                      most=target.cls.shields, gets=gets)  # fmt: skip
    return phrase("shields up, {points}: {gets}", points=event.shields, gets=gets)


def _match_words(cards: tuple[str, ...]) -> Phrase:
    """Why two cards match or not: "both black", "a pair of kings", "not a pair, red and
    black"."""
    first, second = (parse_card(c) for c in cards)
    if first.rank == second.rank:
        return phrase("a pair of {rank}", rank=phrase(_RANK_NAMES[first.rank]))
    if first.red == second.red:
        return phrase("both red") if first.red else phrase("both black")
    return phrase("one red, one black, not a pair")


def _steps_words(steps: str) -> Phrase:
    """``"FFLFF"`` as "2 ahead, turn left, 2 ahead"."""
    words: list[Phrase] = []
    for letter, run in itertools.groupby(steps):
        n = len(list(run))
        if letter == "F":
            words.append(phrase("{n} ahead", n=n))
        elif n > 1:
            many = N_("turn left x{n}") if letter == "L" else N_("turn right x{n}")
            words.append(phrase(many, n=n))
        else:
            words.append(phrase(N_("turn left") if letter == "L" else N_("turn right")))
    return _joined(words) if words else phrase("{n} ahead", n=0)
