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
    TurnFile,
    TurnFileError,
    TurnResult,
    load_turn,
    resolve_turn_file,
)

__all__ = [
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
