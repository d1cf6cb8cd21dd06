"""Light Speed in the game registry: its rules (:data:`spacetable.games.lightspeed.RULES`)
wired to the laser bots, the table drawing, the ship art and its duels."""

from __future__ import annotations

from spacetable.games._catalogs import lightspeed_cards
from spacetable.games._laser_match import LaserStoppedResult
from spacetable.games.lightspeed import RULES, catalog_json
from spacetable.games.lightspeed.match import LightSpeedView
from spacetable.printing.choices import Sheets
from spacetable.registry._game import Game
from spacetable.registry._lasers import LASER_BOTS, LASER_PLAY, each_put_a_card_down
from spacetable.registry._listing import lazy
from spacetable.render.ship_art import lightspeed_art
from spacetable.render.svg import table_svg

GAME = Game(
    RULES,
    bots=LASER_BOTS,
    draw=table_svg,
    resources=(("catalog", catalog_json), ("art", lightspeed_art)),
    cards=lightspeed_cards,
    duel=lazy("spacetable.bots.lasers.arena:lightspeed_duel"),  # numba: on first use
    photos=True,
    realtime=LASER_PLAY,
    bench_room={"ruleset": "lightspeed", "seats": 4},
    opening_over=each_put_a_card_down,
    sheets=Sheets(  # reportlab: when it prints
        draw=lazy("spacetable.printing.lasers:lightspeed_sheets"),
        check=lazy("spacetable.printing.lasers:check_lightspeed"),
    ),
    payloads=(("state", LightSpeedView), ("result", LaserStoppedResult)),
)
