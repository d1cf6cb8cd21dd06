"""A hex fleet combat script's result told in words (:mod:`~spacetable.games.hexfleet.script`
settles it): the ships' states, the ``spacetable resolve`` account step by step, each
step's log lines for the referee page, and the ``resolve --json`` object with them."""

from __future__ import annotations

from typing import Any

from spacetable.games.hexfleet.narrate import LogLine, narrate
from spacetable.games.hexfleet.script import CombatScript, ScriptResult
from spacetable.games.hexfleet.ships import Ship
from spacetable.i18n.phrase import says

__all__ = ["account", "result_with_log", "ship_state", "step_logs"]


def ship_state(ship: Ship) -> str:
    """A ship's systems in words: ``Benellyn (black, heavy, heavy weapons): shields 15/16
    up, weapons 16/16 (8 cards a salvo), propulsion 7/8``."""
    shields = "up" if ship.shields_up else "down"
    salvo = (
        f"{ship.salvo} card{'s' if ship.salvo != 1 else ''} a salvo" if ship.salvo else "no salvo"
    )
    jump = "can jump" if ship.can_jump else "cannot jump"
    where = {"jumped": "; jumped out", "wrecked": "; a wreck", "gone": "; gone"}.get(
        ship.status, ""
    )
    return (
        f"{ship.name} ({ship.owner}, {ship.cls.name}, {ship.weapons.value} weapons): "
        f"shields {ship.shields_left}/{ship.cls.shields} {shields}, "
        f"weapons {ship.weapons_left}/{ship.weapons_total} ({salvo}), "
        f"propulsion {ship.propulsion_left}/{ship.cls.propulsion} ({jump}){where}"
    )


def account(script: CombatScript, result: ScriptResult) -> list[str]:
    """The combat told step by step: the ships before, each step's cards and damage with
    the state of the ships it struck, and the ships after."""
    names = {ship_id: ship.name for ship_id, ship in script.ships.items()}
    lines = [
        f"{len(script.ships)} ships, {len(script.steps)} steps, {len(script.cards)} cards "
        f"({script.pile} in the draw pile at the start)",
        "before:",
        *(f"  {ship_state(ship)}" for ship in script.ships.values()),
    ]
    ships = dict(script.ships)
    for number, settled in enumerate(result.steps, 1):
        told = narrate(settled.events, names, ships)
        lines.append(f"step {number} ({settled.step}): {told[0].text if told else ''}")
        lines.extend(f"  {line.text}" for line in told[1:])
        for ship in settled.after:
            ships[ship.id] = ship
        if settled.step.kind == "fire" and len(settled.after) == 2:
            lines.append(f"  now {ship_state(settled.after[1])}")
    lines.append("after:")
    lines.extend(f"  {ship_state(ship)}" for ship in result.ships.values())
    lines.extend(f"warning: {warning}" for warning in result.warnings)
    if result.cards_used < len(script.cards):
        lines.append(f"{len(script.cards) - result.cards_used} cards listed were not needed")
    return lines


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
