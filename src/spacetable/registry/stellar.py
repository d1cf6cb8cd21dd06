"""Stellar Conflict in the game registry: its rules (:data:`spacetable.games.stellar.RULES`)
wired to the laser bots, the table drawing, the ship art, its duels and the races study
(``spacetable races``)."""

from __future__ import annotations

from spacetable.games._catalogs import stellar_cards
from spacetable.games.stellar import RACES, RULES, catalog_json, races_json
from spacetable.i18n import N_
from spacetable.printing.choices import Sheets
from spacetable.registry._game import Game
from spacetable.registry._lasers import LASER_BOTS
from spacetable.registry._listing import lazy
from spacetable.render.ship_art import stellar_art
from spacetable.render.svg import table_svg

GAME = Game(
    RULES,
    bots=LASER_BOTS,
    draw=table_svg,
    resources=(("catalog", catalog_json), ("races", races_json), ("art", stellar_art)),
    cards=stellar_cards,
    card_parts=RACES,
    duel=lazy("spacetable.bots.lasers.arena:stellar_duel"),  # numba: on first use
    commands=(("races", lazy("spacetable.lab.races:races_command")),),
    photos=True,
    sheets=Sheets(  # reportlab: when it prints
        draw=lazy("spacetable.printing.lasers:stellar_sheets"),
        parts=RACES,
        parts_elsewhere=N_("--race is a Stellar Conflict option ({game} has no races)"),
        check=lazy("spacetable.printing.lasers:check_stellar"),
    ),
)
