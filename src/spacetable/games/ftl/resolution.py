"""Resolving one Faster Than Light turn: launches, rotations, then simultaneous sprints.

The three passes of DESIGN section 5, over everyone's orders at once:

1. Launches: each launching ship puts a missile on its centre line, ``LAUNCH_GAP_IN``
   ahead of its nose, named ``<ship>-m<k>``. Ship and missile are in normal space.
2. Rotations about the post; the piece is in normal space.
3. Sprints. Every tape (from the nose, along the heading, as long as the sprint) is traced
   against one snapshot: the pieces in normal space after the rotations. A piece that
   sprints or did nothing is never hit. Contacts are taken near to far, those within
   ``TIE_IN`` of each other together; a tape stops after the contact that removes its own
   piece. Then every tape's hits and removals are applied together, the surviving
   sprinters move, and a post that ends off the table takes its piece off with it.

The end phase (:func:`end_phase`) asks who still has a ship. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from spacetable.core.events import Event
from spacetable.games.ftl.events import (
    Contact,
    GameOver,
    Hit,
    Launched,
    Moved,
    OffTable,
    Removed,
    Rotated,
    TapeLaid,
    rounded,
    rounded_point,
)
from spacetable.games.ftl.orders import IllegalOrder, Launch, Order, Rotate, Sprint, check_order
from spacetable.games.ftl.pieces import (
    HITS_TO_DESTROY,
    LAUNCH_GAP_IN,
    MISSILE_SIZE_IN,
    Piece,
    on_table,
)
from spacetable.i18n.phrase import piece_said, refusal
from spacetable.lasers.geometry import Rect, heading

#: Contacts closer than this along one tape (in) happen together; a tape touches a
#: footprint that it passes within this distance of.
TIE_IN = 1e-9

#: The effect of a contact, by (sprinter is a ship, target is a ship).
_EFFECTS = {
    (False, False): "missiles",
    (False, True): "missile-on-ship",
    (True, False): "ship-on-missile",
    (True, True): "collision",
}


@dataclass(frozen=True, slots=True)
class TurnResolution:
    """What one turn did: every piece afterwards (removed ones with ``on_table`` false,
    new missiles after the pieces that were there) and the events, in order."""

    pieces: tuple[Piece, ...]
    events: tuple[Event, ...]


def tape_contact(
    start: tuple[float, float], heading_deg: float, length: float, rect: Rect
) -> tuple[float, tuple[float, float]] | None:
    """Where the tape from ``start`` toward ``heading_deg``, ``length`` inches long, first
    touches the closed rectangle ``rect``: ``(distance along the tape, point of the tape)``,
    or ``None``. Grazing counts: the first point of the tape inside the rectangle grown by
    :data:`TIE_IN` on every side touches it (a tape that starts on or inside it touches at
    distance 0)."""
    ox, oy = rect.pose.to_local(*start)
    # Exact when the tape and the piece differ by a multiple of 90 degrees.
    vx, vy = heading(heading_deg - rect.pose.rotation_deg)
    t_in, t_out = 0.0, length
    for o, v, half in ((ox, vx, rect.half_width + TIE_IN), (oy, vy, rect.half_length + TIE_IN)):
        if v == 0.0:
            if not -half <= o <= half:
                return None
            continue
        a, b = (-half - o) / v, (half - o) / v
        t_in, t_out = max(t_in, min(a, b)), min(t_out, max(a, b))
    if t_in > t_out:
        return None
    dx, dy = heading(heading_deg)
    return t_in, (start[0] + dx * t_in, start[1] + dy * t_in)


def resolve_orders(
    pieces: Sequence[Piece], orders: Mapping[str, Order], table_in: tuple[float, float]
) -> TurnResolution:
    """Resolve one turn of ``orders`` (piece id -> its one order) for ``pieces`` on a table
    of ``table_in`` (width, height) inches centred on the origin.

    Raises :class:`~spacetable.games.ftl.orders.IllegalOrder` for an order given to no
    piece on the table, a missile told to launch, a launch with no missiles left, or a
    missile whose name is already taken. Pieces off the table pass through unchanged.
    """
    board = {p.id: p.evolve(normal_space=False) if p.on_table else p for p in pieces}
    for piece_id, order in orders.items():
        piece = board.get(piece_id)
        if piece is None or not piece.on_table:
            raise IllegalOrder(
                refusal(
                    "'{order}' is given to '{piece}', which is not on the table",
                    order=order.text,
                    piece=piece_said(piece_id),
                )
            )
        check_order(piece, order)
    events: list[Event] = []
    _launch(board, orders, table_in, events)
    _rotate(board, orders, events)
    _sprint(board, orders, table_in, events)
    return TurnResolution(tuple(board.values()), tuple(events))


def end_phase(players: Iterable[str], pieces: Iterable[Piece]) -> GameOver | None:
    """The end phase: the game is over when at most one of ``players`` still has a ship on
    the table; that player wins, or nobody (a draw). ``None`` while it goes on."""
    standing = {p.owner for p in pieces if p.is_ship and p.on_table}
    left = [player for player in players if player in standing]
    if len(left) > 1:
        return None
    if left:
        return GameOver(left[0], "last-ship")
    return GameOver(None, "no-ships")


def _launch(
    board: dict[str, Piece],
    orders: Mapping[str, Order],
    table_in: tuple[float, float],
    events: list[Event],
) -> None:
    for piece_id, order in list(orders.items()):
        if not isinstance(order, Launch):
            continue
        ship = board[piece_id]
        name = ship.next_missile_id()
        if name in board:
            raise IllegalOrder(
                refusal(
                    "'{ship}' cannot launch ('L'): its missile would be named '{name}', "
                    "which a piece already is",
                    ship=piece_said(ship.id),
                    name=piece_said(name),
                )
            )
        x, y = ship.ahead(ship.length / 2.0 + LAUNCH_GAP_IN + MISSILE_SIZE_IN[1] / 2.0)
        missile = Piece.missile(name, ship.owner, x, y, ship.heading).evolve(normal_space=True)
        ship = ship.evolve(missiles=ship.missiles - 1, launched=ship.launched + 1)
        board[ship.id] = ship.evolve(normal_space=True)
        events.append(
            Launched(ship.id, name, rounded_point((x, y)), rounded(ship.heading), ship.missiles)
        )
        if on_table(x, y, table_in):
            board[name] = missile
        else:  # the table has no room for it ahead of the ship
            board[name] = missile.evolve(normal_space=False, on_table=False)
            events.append(OffTable(name, rounded_point((x, y))))


def _rotate(board: dict[str, Piece], orders: Mapping[str, Order], events: list[Event]) -> None:
    for piece_id, order in orders.items():
        if isinstance(order, Rotate):
            piece = board[piece_id]
            # Clockwise (as written, positive) turns the heading the negative way.
            turned = piece.evolve(heading=piece.heading - order.angle_deg, normal_space=True)
            board[piece_id] = turned
            events.append(Rotated(piece_id, order.angle_deg, rounded(turned.heading)))


@dataclass(slots=True)
class _Tape:
    """One sprint being traced: its piece, and what its contacts did to it."""

    piece: Piece
    length: float
    contacts: list[tuple[float, tuple[float, float], Piece]]
    reach: float
    stopped: bool = False


def _trace(mover: Piece, length: float, snapshot: Sequence[Piece]) -> _Tape:
    """Follow one tape near to far through the snapshot until its piece is removed."""
    found: list[tuple[float, int, tuple[float, float], Piece]] = []
    for index, target in enumerate(snapshot):
        contact = tape_contact(mover.nose, mover.heading, length, target.footprint())
        if contact is not None:
            found.append((contact[0], index, contact[1], target))
    found.sort(key=lambda c: (c[0], c[1]))
    tape = _Tape(mover, length, [], length)
    hits = mover.hits
    i = 0
    while i < len(found) and not tape.stopped:
        nearest = found[i][0]
        while i < len(found) and found[i][0] - nearest <= TIE_IN:
            distance, _, point, target = found[i]
            tape.contacts.append((distance, point, target))
            effect = _EFFECTS[(mover.is_ship, target.is_ship)]
            if effect == "ship-on-missile":
                hits += 1
            if effect != "ship-on-missile" or hits >= HITS_TO_DESTROY:
                tape.stopped = True
            i += 1
        if tape.stopped:
            tape.reach = nearest
    return tape


def _sprint(
    board: dict[str, Piece],
    orders: Mapping[str, Order],
    table_in: tuple[float, float],
    events: list[Event],
) -> None:
    snapshot = [p for p in board.values() if p.on_table and p.normal_space]
    tapes = [
        _trace(board[piece_id], order.distance_in, snapshot)
        for piece_id, order in orders.items()
        if isinstance(order, Sprint)
    ]
    hits: dict[str, int] = {}
    removed: dict[str, str] = {}
    for tape in tapes:
        mover = tape.piece
        events.append(
            TapeLaid(
                mover.id,
                tape.length,
                rounded_point(mover.nose),
                rounded_point(mover.ahead(mover.length / 2.0 + tape.reach)),
                rounded(tape.reach),
                tape.stopped,
            )
        )
        for distance, point, target in tape.contacts:
            effect = _EFFECTS[(mover.is_ship, target.is_ship)]
            events.append(
                Contact(mover.id, target.id, rounded(distance), rounded_point(point), effect)
            )
            ship = {"missile-on-ship": target.id, "ship-on-missile": mover.id}.get(effect)
            if ship is not None:
                hits[ship] = hits.get(ship, 0) + 1
                missile = mover.id if ship == target.id else target.id
                removed.setdefault(missile, "contact")
            else:
                reason = "collision" if effect == "collision" else "contact"
                removed.setdefault(mover.id, reason)
                removed.setdefault(target.id, reason)
    # Every tape's hits and removals at once, in the order the pieces stand.
    for piece_id, piece in list(board.items()):
        if piece_id in hits:
            total = piece.hits + hits[piece_id]
            board[piece_id] = piece.evolve(hits=total)
            events.append(Hit(piece_id, hits[piece_id], total))
            if total >= HITS_TO_DESTROY:
                removed.setdefault(piece_id, "hits")
    for piece_id in list(board):
        if piece_id in removed:
            board[piece_id] = board[piece_id].evolve(on_table=False)
            events.append(Removed(piece_id, removed[piece_id]))
    for tape in tapes:
        piece = board[tape.piece.id]
        if not piece.on_table:
            continue
        x, y = piece.ahead(tape.length)
        board[piece.id] = piece = piece.evolve(x=x, y=y)
        events.append(Moved(piece.id, rounded_point(tape.piece.ahead(0.0)), rounded_point((x, y))))
        if not on_table(x, y, table_in):
            board[piece.id] = piece.evolve(on_table=False)
            events.append(OffTable(piece.id, rounded_point((x, y))))
