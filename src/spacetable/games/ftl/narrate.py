"""A readable account of one Faster Than Light turn, as a referee would call it.

Pure: takes the pieces as the turn began and the turn's events, returns lines of text in
the reader's language (a :class:`~spacetable.i18n.Translator`, English by default): the
events are structured, the words are chosen here, at the edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spacetable.core.events import Event
from spacetable.games.ftl import events as ev
from spacetable.games.ftl.pieces import Piece
from spacetable.i18n import ENGLISH, N_, Translator, player_name

_EFFECTS = {
    "missiles": N_("both missiles are removed"),
    "missile-on-ship": N_("the missile is spent and {target} takes a hit"),
    "ship-on-missile": N_("the missile is removed and {piece} takes a hit"),
    "collision": N_("the ships collide: both are removed"),
}
_REMOVALS = {
    "contact": N_("spent in the contact"),
    "collision": N_("destroyed in the collision"),
    "hits": N_("destroyed by its third hit"),
}


def _at(point: Sequence[float], tr: Translator = ENGLISH) -> str:
    return tr.gettext("({x}, {y})", x=_number(point[0], tr), y=_number(point[1], tr))


def _number(value: float, tr: Translator) -> str:
    """A length or coordinate as ``:g`` writes it, in the reader's way (``2,5``)."""
    shown = f"{value:g}"
    return shown if tr.lang == "en" else tr.number(float(shown))


def bearing(heading: float) -> float:
    """A heading as players read it: degrees clockwise from up (0 up, 90 right, 180 down,
    270 left), in [0, 360), rounded to 0.01. Files keep DESIGN section 5's headings (0 up,
    counter-clockwise positive); only what players are shown turns the way R+ turns."""
    shown = round((-heading) % 360.0, 2)
    return 0.0 if shown >= 360.0 else shown + 0.0


def heading_text(heading: float, tr: Translator = ENGLISH) -> str:
    """A heading in an account, the client's ``headingText`` in ASCII: ``105 deg``."""
    return tr.gettext("{heading} deg", heading=_number(bearing(heading), tr))


def piece_label(piece: Piece, tr: Translator = ENGLISH) -> str:
    """How the account names a piece: ``red's ship [red]``, ``blue's missile [blue-m1]``."""
    if piece.kind.value == "missile":
        return tr.gettext(
            "{owner}'s missile [{id}]", owner=player_name(piece.owner, tr), id=piece.id
        )
    return tr.gettext("{owner}'s ship [{id}]", owner=player_name(piece.owner, tr), id=piece.id)


def narrate_turn(
    pieces: Iterable[Piece], events: Iterable[Event], tr: Translator = ENGLISH
) -> list[str]:
    """The turn told pass by pass, in ``tr``'s language: ``pieces`` as the turn began (to
    name them), then each event in order; a piece the turn launched is named by its
    ``ev.Launched`` event."""
    known = list(pieces)
    names = {p.id: piece_label(p, tr) for p in known}
    owners = {p.id: p.owner for p in known}
    lines: list[str] = []
    for event in events:
        if isinstance(event, ev.Launched):
            names[event.missile] = tr.gettext(
                "{owner}'s missile [{id}]",
                owner=player_name(owners.get(event.ship, "?"), tr),
                id=event.missile,
            )
        lines.append(_describe(event, names, tr))
    if not lines:
        lines.append(tr.gettext("Nothing happens: no piece was given an order."))
    return lines


def _describe(event: Event, names: dict[str, str], tr: Translator) -> str:
    def name(piece_id: str) -> str:
        return names.get(piece_id, f"[{piece_id}]")

    def at(point: Sequence[float]) -> str:
        return _at(point, tr)

    def length(value: float) -> str:
        return _number(value, tr)

    gettext = tr.gettext
    if isinstance(event, ev.TurnBegan):
        return gettext("Turn {turn}.", turn=event.turn)
    if isinstance(event, ev.PlotIn):
        return gettext(
            "{player} has plotted turn {turn}.",
            player=player_name(event.player, tr),
            turn=event.turn,
        )
    if isinstance(event, ev.PlotWithdrawn):
        return gettext(
            "{player} takes back the plot for turn {turn}.",
            player=player_name(event.player, tr),
            turn=event.turn,
        )
    if isinstance(event, ev.OrdersRevealed):
        shown = ", ".join(event.orders) or gettext("no orders")
        return gettext(
            "{player} plotted: {orders}.", player=player_name(event.player, tr), orders=shown
        )
    if isinstance(event, ev.OrderIgnored):
        return gettext(
            "{piece}: the second order {order} is ignored.",
            piece=name(event.piece),
            order=event.order,
        )
    if isinstance(event, ev.Launched):
        return gettext(
            "Launch: {ship} puts {missile} at {at} facing {heading} ({n} left).",
            ship=name(event.ship),
            missile=name(event.missile),
            at=at(event.post),
            heading=heading_text(event.heading, tr),
            n=event.missiles_left,
        )
    if isinstance(event, ev.Rotated):
        turned = {
            "piece": name(event.piece),
            "angle": length(abs(event.angle_deg)),
            "heading": heading_text(event.heading, tr),
        }
        if event.angle_deg >= 0:
            return gettext(
                "Rotation: {piece} turns {angle} deg clockwise, now facing {heading}.", **turned
            )
        return gettext(
            "Rotation: {piece} turns {angle} deg counter-clockwise, now facing {heading}.", **turned
        )
    if isinstance(event, ev.TapeLaid):
        laid = {
            "piece": name(event.piece),
            "length": length(event.length),
            "start": at(event.start),
            "end": at(event.end),
            "reach": length(event.reach),
        }
        if event.stopped:
            return gettext(
                "Sprint: {piece} sprints {length} in, its tape from {start} to {end}, "
                "stopped at {reach} in.",
                **laid,
            )
        return gettext(
            "Sprint: {piece} sprints {length} in, its tape from {start} to {end}.", **laid
        )
    if isinstance(event, ev.Contact):
        effect = gettext(_EFFECTS[event.effect], piece=name(event.piece), target=name(event.target))
        return "  " + gettext(
            "at {distance} in it touches {target} at {at}: {effect}.",
            distance=length(event.distance),
            target=name(event.target),
            at=at(event.point),
            effect=effect,
        )
    if isinstance(event, ev.Hit):
        return tr.ngettext(
            "{ship} takes {n} hit ({hits} in all).",
            "{ship} takes {n} hits ({hits} in all).",
            event.count,
            ship=name(event.ship),
            hits=event.hits,
        )
    if isinstance(event, ev.Removed):
        return gettext(
            "{piece} leaves the table: {why}.",
            piece=name(event.piece),
            why=gettext(_REMOVALS[event.reason]),
        )
    if isinstance(event, ev.Moved):
        return gettext(
            "{piece} jumps from {start} to {end}.",
            piece=name(event.piece),
            start=at(event.start),
            end=at(event.end),
        )
    if isinstance(event, ev.OffTable):
        return gettext(
            "{piece} ends off the table at {at} and is removed.",
            piece=name(event.piece),
            at=at(event.post),
        )
    if isinstance(event, ev.GameOver):
        if event.winner is not None and event.reason == "turn-limit":
            return gettext(
                "Game over: the turn limit is reached; {player} wins on hits scored, "
                "then pieces left.",
                player=player_name(event.winner, tr),
            )
        if event.winner is not None:
            return gettext(
                "Game over: {player} wins, the last with a ship on the table.",
                player=player_name(event.winner, tr),
            )
        if event.reason == "turn-limit":
            return gettext("Game over: the turn limit is reached, a draw.")
        return gettext("Game over: no ship is left on the table, a draw.")
    return f"{event.type_name}: {event.to_json()}"
