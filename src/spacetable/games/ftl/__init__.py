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

from spacetable.core.registry import Game, Referee
from spacetable.games.ftl.match import (
    FtlMatch,
    FtlOptions,
    FtlResult,
    Plot,
    PlotTimerExpired,
    Unplot,
)
from spacetable.games.ftl.narrate import narrate_turn
from spacetable.games.ftl.turnfile import (
    RULESET,
    TurnFile,
    TurnFileError,
    TurnResult,
    load_turn,
    resolve_turn_file,
    turn_from_json,
)

__all__ = [
    "GAME",
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


#: Faster Than Light in the game registry (:mod:`spacetable.core.registry`): its turn
#: files settle through ``spacetable resolve`` and ``render``.
GAME = Game(
    "ftl",
    "Faster Than Light",
    (RULESET,),
    Referee(
        read=turn_from_json,
        resolve=TurnFile.resolve,
        account=_account,
        result_json=TurnResult.to_json,
        draw="spacetable.render.ftl_svg:turn_svg",
        error=TurnFileError,
        kind="turn file",
        draws_resolution=True,
    ),
)
