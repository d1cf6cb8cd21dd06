"""A readable account of one Faster Than Light turn, as a referee would call it.

Pure: takes the pieces as the turn began and the turn's events, returns lines of text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spacetable.core.events import Event
from spacetable.games.ftl.events import (
    Contact,
    GameOver,
    Hit,
    Launched,
    Moved,
    OffTable,
    OrderIgnored,
    OrdersRevealed,
    PlotIn,
    PlotWithdrawn,
    Removed,
    Rotated,
    TapeLaid,
    TurnBegan,
)
from spacetable.games.ftl.pieces import Piece

_EFFECTS = {
    "missiles": "both missiles are removed",
    "missile-on-ship": "the missile is spent and {target} takes a hit",
    "ship-on-missile": "the missile is removed and {piece} takes a hit",
    "collision": "the ships collide: both are removed",
}
_REMOVALS = {
    "contact": "spent in the contact",
    "collision": "destroyed in the collision",
    "hits": "destroyed by its third hit",
}


def _at(point: Sequence[float]) -> str:
    return f"({point[0]:g}, {point[1]:g})"


def bearing(heading: float) -> float:
    """A heading as players read it: degrees clockwise from up (0 up, 90 right, 180 down,
    270 left), in [0, 360), rounded to 0.01. Files keep DESIGN section 5's headings (0 up,
    counter-clockwise positive); only what players are shown turns the way R+ turns."""
    shown = round((-heading) % 360.0, 2)
    return 0.0 if shown >= 360.0 else shown + 0.0


def heading_text(heading: float) -> str:
    """A heading in an account, the client's ``headingText`` in ASCII: ``105 deg``."""
    return f"{bearing(heading):g} deg"


def piece_label(piece: Piece) -> str:
    """How the account names a piece: ``red's ship [red]``, ``blue's missile [blue-m1]``."""
    return f"{piece.owner}'s {piece.kind.value} [{piece.id}]"


def narrate_turn(pieces: Iterable[Piece], events: Iterable[Event]) -> list[str]:
    """The turn told pass by pass: ``pieces`` as the turn began (to name them), then each
    event in order; a piece the turn launched is named by its ``Launched`` event."""
    known = list(pieces)
    names = {p.id: piece_label(p) for p in known}
    owners = {p.id: p.owner for p in known}
    lines: list[str] = []
    for event in events:
        if isinstance(event, Launched):
            names[event.missile] = f"{owners.get(event.ship, '?')}'s missile [{event.missile}]"
        lines.append(_describe(event, names))
    if not lines:
        lines.append("Nothing happens: no piece was given an order.")
    return lines


def _describe(event: Event, names: dict[str, str]) -> str:
    def name(piece_id: str) -> str:
        return names.get(piece_id, f"[{piece_id}]")

    if isinstance(event, TurnBegan):
        return f"Turn {event.turn}."
    if isinstance(event, PlotIn):
        return f"{event.player} has plotted turn {event.turn}."
    if isinstance(event, PlotWithdrawn):
        return f"{event.player} takes back the plot for turn {event.turn}."
    if isinstance(event, OrdersRevealed):
        shown = ", ".join(event.orders) or "no orders"
        return f"{event.player} plotted: {shown}."
    if isinstance(event, OrderIgnored):
        return f"{name(event.piece)}: the second order {event.order} is ignored."
    if isinstance(event, Launched):
        return (
            f"Launch: {name(event.ship)} puts {name(event.missile)} at {_at(event.post)} "
            f"facing {heading_text(event.heading)} ({event.missiles_left} left)."
        )
    if isinstance(event, Rotated):
        way = "clockwise" if event.angle_deg >= 0 else "counter-clockwise"
        return (
            f"Rotation: {name(event.piece)} turns {abs(event.angle_deg)} deg {way}, "
            f"now facing {heading_text(event.heading)}."
        )
    if isinstance(event, TapeLaid):
        line = (
            f"Sprint: {name(event.piece)} sprints {event.length:g} in, its tape from "
            f"{_at(event.start)} to {_at(event.end)}"
        )
        return line + (f", stopped at {event.reach:g} in." if event.stopped else ".")
    if isinstance(event, Contact):
        effect = _EFFECTS[event.effect].format(piece=name(event.piece), target=name(event.target))
        return (
            f"  at {event.distance:g} in it touches {name(event.target)} "
            f"at {_at(event.point)}: {effect}."
        )
    if isinstance(event, Hit):
        more = "hit" if event.count == 1 else "hits"
        return f"{name(event.ship)} takes {event.count} {more} ({event.hits} in all)."
    if isinstance(event, Removed):
        return f"{name(event.piece)} leaves the table: {_REMOVALS[event.reason]}."
    if isinstance(event, Moved):
        return f"{name(event.piece)} jumps from {_at(event.start)} to {_at(event.end)}."
    if isinstance(event, OffTable):
        return f"{name(event.piece)} ends off the table at {_at(event.post)} and is removed."
    if isinstance(event, GameOver):
        if event.winner is not None:
            return f"Game over: {event.winner} wins, the last with a ship on the table."
        if event.reason == "turn-limit":
            return "Game over: the turn limit is reached, a draw."
        return "Game over: no ship is left on the table, a draw."
    return f"{event.type_name}: {event.to_json()}"
