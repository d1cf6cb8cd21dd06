"""A hex fleet combat script's result told in words (:mod:`~spacetable.games.hexfleet.script`
settles it): the ships' states, the ``spacetable resolve`` account step by step, each
step's log lines for the referee page, and the ``resolve --json`` object with them."""

from __future__ import annotations

from typing import Any

from spacetable.games.hexfleet.cards import card_places
from spacetable.games.hexfleet.narrate import LogLine, narrate
from spacetable.games.hexfleet.script import CombatScript, ScriptResult
from spacetable.games.hexfleet.ships import Ship
from spacetable.i18n import ENGLISH, N_, SOURCE, Translator
from spacetable.i18n.phrase import Phrase, Reason, Value, phrase, phrase_n, player_said, says

__all__ = [
    "account",
    "account_in",
    "result_with_log",
    "ship_state",
    "ship_state_said",
    "side_said",
    "step_logs",
]

#: A class's name and a weapons' kind, as the catalogs hold them.
_CLASS_WORDS = {"light": N_("light"), "medium": N_("medium"), "heavy": N_("heavy")}
_WEAPON_WORDS = {"light": N_("light weapons"), "heavy": N_("heavy weapons")}
#: A side named by a colour a hex fleet side often takes that is no team colour.
_SIDE_WORDS = {"black": N_("black"), "white": N_("white")}


def side_said(owner: str) -> Value:
    """A side as a phrase's value: a colour in the reader's language, any other name as
    it is (web/js/games/hexfleet/referee.js names them the same way)."""
    return phrase(_SIDE_WORDS[owner]) if owner in _SIDE_WORDS else player_said(owner)


def _said(words: str, table: dict[str, str]) -> Value:
    return phrase(table[words]) if words in table else words


def ship_state_said(ship: Ship) -> Phrase:
    """A ship's systems as a phrase (:func:`ship_state` in English)."""
    values: dict[str, Value] = dict(left=ship.shields_left, most=ship.cls.shields)
    shields = (phrase("shields {left}/{most} up", **values) if ship.shields_up
               else phrase("shields {left}/{most} down", **values))  # fmt: skip
    salvo = (phrase_n("{n} card a salvo", "{n} cards a salvo", ship.salvo) if ship.salvo
             else phrase("no salvo"))  # fmt: skip
    weapons = phrase("weapons {left}/{most} ({salvo})", left=ship.weapons_left,
                     most=ship.weapons_total, salvo=salvo)  # fmt: skip
    jump = phrase("can jump") if ship.can_jump else phrase("cannot jump")
    propulsion = phrase("propulsion {left}/{most} ({jump})", left=ship.propulsion_left,
                        most=ship.cls.propulsion, jump=jump)  # fmt: skip
    state = phrase("{ship} ({side}, {size}, {weapons}): {shields}, {arms}, {propulsion}",
                   ship=ship.name, side=side_said(ship.owner),
                   size=_said(ship.cls.name, _CLASS_WORDS),
                   weapons=_said(ship.weapons.value, _WEAPON_WORDS), shields=shields,
                   arms=weapons, propulsion=propulsion)  # fmt: skip
    if ship.status == "jumped":
        return phrase("{state}; jumped out", state=state)
    if ship.status == "wrecked":
        return phrase("{state}; a wreck", state=state)
    if ship.status == "gone":
        return phrase("{state}; gone", state=state)
    return state


def ship_state(ship: Ship, tr: Translator = ENGLISH) -> str:
    """A ship's systems in words (in ``tr``'s language): ``Benellyn (black, heavy, heavy
    weapons): shields 15/16 up, weapons 16/16 (8 cards a salvo), propulsion 7/8``."""
    return ship_state_said(ship).text(tr)


def account(script: CombatScript, result: ScriptResult) -> list[str]:
    """The combat told step by step in English: the ships before, each step's cards and
    damage with the state of the ships it struck, and the ships after."""
    return account_in(script, result, ENGLISH)


def account_in(script: CombatScript, result: ScriptResult, tr: Translator) -> list[str]:
    """:func:`account` in ``tr``'s language (``resolve --lang``). The source language
    keeps the cards' codes as the file writes them (``KS 10S``); another shows them as
    its pages do (``R♠ 10♠`` in French), since the codes' letters are English."""
    places = None if tr.lang == SOURCE else card_places(tr)

    def said(words: Phrase) -> str:
        return words.text(tr, places)

    names = {ship_id: ship.name for ship_id, ship in script.ships.items()}
    summary = phrase("{ships}, {steps}, {cards}",
                     ships=phrase_n("{n} ship", "{n} ships", len(script.ships)),
                     steps=phrase_n("{n} step", "{n} steps", len(script.steps)),
                     cards=phrase_n("{n} card", "{n} cards", len(script.cards)))  # fmt: skip
    pile = phrase("{summary} ({pile} in the draw pile at the start)", summary=summary,
                  pile=script.pile)  # fmt: skip
    lines = [
        said(pile),
        said(phrase("before:")),
        *(f"  {said(ship_state_said(ship))}" for ship in script.ships.values()),
    ]
    ships = dict(script.ships)
    for number, settled in enumerate(result.steps, 1):
        told = narrate(settled.events, names, ships)
        first = said(told[0].says) if told else ""
        lines.append(said(phrase("step {step} ({what}): {why}", step=number,
                                 what=settled.step.says(), why=first)))  # fmt: skip
        lines.extend(f"  {said(line.says)}" for line in told[1:])
        for ship in settled.after:
            ships[ship.id] = ship
        if settled.step.kind == "fire" and len(settled.after) == 2:
            now = phrase("now {state}", state=ship_state_said(settled.after[1]))
            lines.append(f"  {said(now)}")
    lines.append(said(phrase("after:")))
    lines.extend(f"  {said(ship_state_said(ship))}" for ship in result.ships.values())
    lines.extend(said(phrase("warning: {warning}", warning=_warning(w))) for w in result.warnings)
    if result.cards_used < len(script.cards):
        unused = len(script.cards) - result.cards_used
        lines.append(said(phrase_n("{n} card listed was not needed",
                                   "{n} cards listed were not needed", unused)))  # fmt: skip
    return lines


def _warning(warning: str) -> Value:
    return warning.phrase if isinstance(warning, Reason) else warning


def step_logs(result: ScriptResult) -> list[list[LogLine]]:
    """Each settled step told in words (the lines :func:`account` prints for it), each line
    with the ships it concerns, so that a ship's log is the lines naming it."""
    names = {ship_id: ship.name for ship_id, ship in result.script.ships.items()}
    ships = dict(result.script.ships)
    logs = []
    for settled in result.steps:
        logs.append(narrate(settled.events, names, ships))
        for ship in settled.after:
            ships[ship.id] = ship
    return logs


def result_with_log(result: ScriptResult) -> dict[str, Any]:
    """The ``resolve --json`` object (:meth:`ScriptResult.to_json`) with ``log``: for each
    step, its lines in words (``{"turn": null, "ships", "text"}``), what the referee page
    shows as the ships' logs; ``warnings_says``, the warnings as phrases, when there are."""
    out = result.to_json()
    out["log"] = [[line.to_json() for line in lines] for lines in step_logs(result)]
    if result.warnings:  # each warning as a phrase, for the page's language
        out["warnings_says"] = [says(warning) for warning in result.warnings]
    return out
