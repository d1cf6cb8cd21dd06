"""Stellar Conflict in the game registry: its rules (:data:`spacetable.games.stellar.RULES`)
wired to the laser bots, the table drawing, the ship art, its duels and the races study
(``spacetable races``); and what its rooms add to the websocket protocol: the ``fleet``
chosen in the preparation, and the ``race`` a seated player picks in the lobby."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Literal

from pydantic import Field

from spacetable.games._catalogs import stellar_cards
from spacetable.games._laser_match import LaserStoppedResult
from spacetable.games.stellar import RACES, RULES, Fleet, TimerExpired, catalog_json, races_json
from spacetable.games.stellar.match import StellarView
from spacetable.i18n import N_
from spacetable.printing.choices import Sheets
from spacetable.registry._game import Game
from spacetable.registry._lasers import LASER_BOTS, LASER_PLAY, each_put_a_card_down
from spacetable.registry._listing import lazy
from spacetable.registry._room import SeatChoice
from spacetable.registry.messages import ChoiceMessage, MoveMessage
from spacetable.render.ship_art import stellar_art
from spacetable.render.svg import table_svg


class FleetMessage(MoveMessage):
    """Stellar Conflict's preparation: the ships of your race that join the battle (ship
    keys; your Cargo and Flag ships join by themselves). Final once accepted."""

    type: Literal["fleet"]
    ships: Annotated[list[Annotated[str, Field(min_length=1, max_length=64)]], Field(max_length=40)]

    def action(self, player: str, t: float) -> Fleet:
        """The :class:`~spacetable.games.stellar.Fleet` this message asks for."""
        return Fleet(player, tuple(self.ships), t)


class ChooseRace(ChoiceMessage):
    """Before the match, in a Stellar Conflict room: play ``race`` in your own seat (one no
    other seat plays: every race's cards exist once)."""

    type: Literal["race"]
    race: Annotated[str, Field(min_length=1, max_length=24)]

    @property
    def choice(self) -> str:
        """The race chosen."""
        return self.race


#: Each seat's race, chosen in the lobby (the room's creator only sets the first choice
#: of every seat: its ``races`` option).
RACE_CHOICE = SeatChoice(
    message=ChooseRace,
    option="races",
    values=RACES,
    elsewhere=N_("only Stellar Conflict has races"),
    too_late=N_("only a seated player chooses his race, before the match"),
    unknown=N_("there is no race {asked}: {races}"),
    taken=N_("seat {seat} plays {race}: every race's cards exist once"),
)

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
    moves=(FleetMessage,),
    seat_choices=(RACE_CHOICE,),
    realtime=replace(LASER_PLAY, timer_expired=TimerExpired),
    bench_room={"ruleset": "stellar", "seats": 4, "battle_size": "dispute"},
    opening_over=each_put_a_card_down,
    payloads=(("state", StellarView), ("result", LaserStoppedResult)),
)
