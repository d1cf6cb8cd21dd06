"""Faster Than Light in the game registry: its rules (:data:`spacetable.games.ftl.RULES`)
wired to its bots, the turn drawing and its duels."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.bots.ftl import LEVELS, make_bot
from spacetable.games.ftl import RULES
from spacetable.games.ftl.match import FtlMatch, FtlResultPayload, FtlView
from spacetable.games.ftl.pieces import HITS_TO_DESTROY
from spacetable.printing.choices import Sheets
from spacetable.registry._game import Bots, Game
from spacetable.registry._listing import lazy
from spacetable.render.ftl_svg import turn_svg


def standing(match: FtlMatch) -> dict[str, float]:
    """Who is ahead in an FTL duel: the hits each player's ship has scored on the others,
    less those it took (a ship off the table counts as destroyed)."""
    taken: dict[str, float] = {}
    for player in match.players:
        ship = match.pieces.get(player)
        taken[player] = ship.hits if ship is not None and ship.on_table else HITS_TO_DESTROY
    total = sum(taken.values())
    return {player: (total - hits) - hits for player, hits in taken.items()}


def first_turn_resolved(stored: Mapping[str, Any]) -> bool:
    """Whether a stored FTL match got past its first turn: the turn was resolved (its
    plots revealed). Before, it is not rated if stopped."""
    return any(event.get("type") == "turn" for event in stored.get("events") or ())


GAME = Game(
    RULES,
    bots=Bots(
        make=make_bot,
        levels=LEVELS,
        default="medium",
        beginner="greedy",
        about=(
            ("random", "gives each piece a random order: a target to learn on"),
            (
                "greedy",
                "launches at once and hunts you with its missiles; takes the best shot if you"
                " stood still, never guesses your move",
            ),
            (
                "easy",
                "plays for the lead (a ship ahead keeps still and wins), counters your best"
                " shot, but weighs few of your replies and slips one plan in four",
            ),
            (
                "medium",
                "guards its pieces harder, expects your best shot and your best reply, never slips",
            ),
            (
                "hard",
                "plays like medium and looks a turn further: how each exchange leaves"
                " the pieces for the next",
            ),
            (
                "expert",
                "solves each turn as a game of two secret plans: weighs many plans of its"
                " own against yours, your counter to its plan among them, and mixes its choice",
            ),
        ),
    ),
    draw=turn_svg,
    duel=lazy("spacetable.bots.ftl.arena:duel"),  # the bots: on first use
    standing=standing,
    sheets=Sheets(draw=lazy("spacetable.printing.ftl:ftl_sheets")),  # reportlab: when it prints
    bench_room={"ruleset": "ftl", "seats": 4, "turn_limit": 25},
    opening_over=first_turn_resolved,
    payloads=(("state", FtlView), ("result", FtlResultPayload)),
)
