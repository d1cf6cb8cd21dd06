"""Faster Than Light: secret plotted orders, then launches, rotations and simultaneous
sprints resolved exactly along the tape (DESIGN section 5).

- :mod:`~spacetable.games.ftl.pieces`: ships and missiles, their footprints and noses.
- :mod:`~spacetable.games.ftl.orders`: orders as the rulebook writes them.
- :mod:`~spacetable.games.ftl.resolution`: one turn's three passes and the end phase.
- :mod:`~spacetable.games.ftl.events`: the turn's event log.
- :mod:`~spacetable.games.ftl.match`: the match state machine (:class:`FtlMatch`).
- :mod:`~spacetable.games.ftl.turnfile`: turn files and ``resolve --json``.
- :mod:`~spacetable.games.ftl.narrate`: a turn told in words.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core.rules import GameRules, Referee, nullable, turn_hours_option
from spacetable.games.ftl.match import (
    MAX_MISSILES,
    MAX_TABLE_IN,
    MIN_TABLE_IN,
    ROOM_TABLE_IN,
    ROOM_TURN_LIMIT,
    FtlMatch,
    FtlOptions,
    FtlResult,
    Plot,
    PlotTimerExpired,
    Unplot,
)
from spacetable.games.ftl.narrate import narrate_turn
from spacetable.games.ftl.pieces import DEFAULT_MISSILES, DEFAULT_TABLE_IN
from spacetable.games.ftl.turnfile import (
    RULESET,
    TurnFile,
    TurnFileError,
    TurnResult,
    load_turn,
    resolve_turn_file,
    turn_from_json,
)
from spacetable.i18n import Translator

__all__ = [
    "RULES",
    "FtlMatch",
    "FtlOptions",
    "FtlResult",
    "Plot",
    "PlotTimerExpired",
    "TurnFile",
    "TurnFileError",
    "TurnResult",
    "Unplot",
    "load_turn",
    "narrate_turn",
    "resolve_turn_file",
]


def _account(turn: TurnFile, result: TurnResult) -> list[str]:
    return narrate_turn(turn.pieces, result.events)


def _account_in(turn: TurnFile, result: TurnResult, tr: Translator) -> list[str]:
    return narrate_turn(turn.pieces, result.events, tr)


class FtlRoom(BaseModel):
    """An FTL room's options (``POST /api/rooms``): the table in inches, missiles per
    ship, the turn limit (then the most hits scored, then the most pieces left, win) and
    an optional plot timer in seconds. The table and the limit default to a duel that
    ends (:data:`~spacetable.games.ftl.match.ROOM_TABLE_IN`, ``ROOM_TURN_LIMIT``)."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["ftl"]
    seats: int = Field(2, ge=2, le=4, title="Players")
    table_size_in: tuple[
        Annotated[float, Field(ge=MIN_TABLE_IN, le=MAX_TABLE_IN, title="width")],
        Annotated[float, Field(ge=MIN_TABLE_IN, le=MAX_TABLE_IN, title="depth")],
    ] = Field(
        ROOM_TABLE_IN,
        title="Table (inches)",
        description=(
            f"The rulebook's is {DEFAULT_TABLE_IN[0]:g} x {DEFAULT_TABLE_IN[1]:g}; on this "
            "smaller one the ships meet within two turns."
        ),
    )
    missiles: int = Field(DEFAULT_MISSILES, ge=0, le=MAX_MISSILES, title="Missiles per ship")
    turn_limit: int | None = nullable(
        ROOM_TURN_LIMIT,
        "Turn limit (then most hits, then most pieces left, win)",
        "none",
        ge=1,
        le=999,
    )
    plot_timer_s: float | None = nullable(
        None, "Seconds to plot each turn", "no timer", gt=0, le=3600
    )
    #: Correspondence play: hours each turn waits (docs/correspondence.md).
    turn_hours: int | None = turn_hours_option()


#: Faster Than Light's rules (wired to its bots and drawings in
#: :mod:`spacetable.registry.ftl`): rooms play it by secret plots; its turn files settle
#: through ``spacetable resolve`` and ``render``.
RULES = GameRules(
    "ftl",
    "Faster Than Light",
    (RULESET,),
    Referee(
        read=turn_from_json,
        resolve=TurnFile.resolve,
        account=_account,
        account_in=_account_in,
        result_json=TurnResult.to_json,
        error=TurnFileError,
        kind="turn file",
        draws_resolution=True,
    ),
    match=FtlMatch,
    room_options=FtlRoom,
    pacing="plots",
)
