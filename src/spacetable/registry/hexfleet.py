"""Hex fleet in the game registry: its rules (:data:`spacetable.games.hexfleet.RULES`)
wired to its bots, the combat script drawing, its duels and the odds table (``spacetable
odds``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.bots.hexfleet import LEVELS, make_bot
from spacetable.games.hexfleet import RULES, scenarios
from spacetable.games.hexfleet.match import HexActed, HexResultPayload, HexView
from spacetable.games.hexfleet.replayed import for_replay
from spacetable.lab.hexfleet_odds import odds_command
from spacetable.printing.choices import Sheets
from spacetable.registry._game import Bots, Game
from spacetable.registry._listing import lazy
from spacetable.render.hexfleet_svg import script_svg


def first_turn_over(stored: Mapping[str, Any]) -> bool:
    """Whether a stored hex fleet match got past its first turn: its second turn began
    (every chit of the first came out of the cup). Before, it is not rated if stopped."""
    # A match the server stored keeps its events in frames, one an action, each with its
    # own ``events``.
    events = [
        event
        for frame in stored.get("events") or ()
        for event in (frame, *(frame.get("events") or ()))
    ]
    return any(event.get("type") == "turn" and int(event.get("turn") or 0) >= 2 for event in events)


GAME = Game(
    RULES,
    bots=Bots(
        make=make_bot,
        levels=LEVELS,
        default="easy",
        stand_in="tactical",
        about=(
            ("random", "does anything the rules allow, at random: a target to learn on"),
            ("easy", "closes on the nearest enemy and fires; never jumps"),
            ("tactical", "keeps its shields up, picks targets by the odds, jumps when crippled"),
            (
                "expert",
                "plays each choice out many times against the cards it cannot see and keeps"
                " what fares best",
            ),
        ),
    ),
    draw=script_svg,
    resources=(("scenarios", scenarios),),
    duel=lazy("spacetable.bots.hexfleet.arena:duel"),  # the bots: on first use
    commands=(("odds", odds_command),),
    # Each side's systems left as a share of its fleet's (the rulebook's measure of a
    # battle cut short, as at the turn limit).
    standing=lambda match: match.strength(),
    # A match stored before its log was phrases: its frames played again from its record.
    upgrade_stored=for_replay,
    sheets=Sheets(draw=lazy("spacetable.printing.hexfleet:hexfleet_sheets")),  # reportlab: later
    bench_room={"ruleset": "hexfleet", "seats": 4, "scenario": "fleet", "turn_limit": 8},
    opening_over=first_turn_over,
    payloads=(
        ("state", HexView),
        ("result", HexResultPayload),
        ("acted", HexActed),
    ),
)
