"""Faster Than Light turn files (``"ruleset": "ftl"``, DESIGN section 5): one turn as it
stands on a physical table, the orders each player wrote, and its exact resolution.

:func:`load_turn` reads and checks a file into a :class:`TurnFile`; :meth:`TurnFile.resolve`
resolves the turn into a :class:`TurnResult`, whose :meth:`~TurnResult.to_json` is the
``spacetable resolve --json`` object. :func:`resolve_turn_file` does all three. Every
refusal is a :class:`TurnFileError` whose one-line message names the piece and the order
(or the field) at fault. Pure: the caller reads the file (``spacetable._userinput``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spacetable._userinput import clipped
from spacetable.core.events import Event
from spacetable.core.files import Fields, FileError, decoded, field_of, read_header
from spacetable.games.ftl.events import OrderIgnored, rounded
from spacetable.games.ftl.orders import Launch, Order, check_order, parse_order
from spacetable.games.ftl.pieces import (
    DEFAULT_MISSILES,
    DEFAULT_TABLE_IN,
    HITS_TO_DESTROY,
    MISSILE_SIZE_IN,
    SHIP_SIZE_IN,
    Kind,
    Piece,
    on_table,
)
from spacetable.games.ftl.resolution import end_phase, resolve_orders
from spacetable.i18n import N_
from spacetable.i18n.phrase import Phrase, phrase, piece_said, refusal, value_of

RULESET = "ftl"
#: Largest turn file, in bytes (as table files).
MAX_TURN_BYTES = 1 << 20
#: Most pieces in one file, and most orders.
MAX_PIECES = 200
MAX_ORDERS = 400
#: Longest player name or piece id.
MAX_ID_CHARS = 200
#: Largest table side (in), and largest piece side.
MAX_TABLE_IN = 1000.0
MAX_PIECE_IN = 48.0
#: Headings lie within -3600..3600 degrees in a file (ten turns).
MAX_HEADING_DEG = 3600.0
#: Most missiles a ship may carry or have launched.
MAX_MISSILES = 1000

_PIECE_FIELDS = {"id", "kind", "owner", "x", "y", "heading", "size", "hits", "missiles", "launched"}
_TOP_FIELDS = {"ruleset", "players", "table", "pieces", "orders"}
#: An order's shape in a turn file, as errors write it.
_ORDER_SHAPE = '{"piece": id, "order": text}'


class TurnFileError(FileError):
    """A turn file that is malformed, describes an impossible table or holds an order that
    cannot be carried out; the message is one line naming the piece and the order, and
    :attr:`says` the same as a phrase when it has one (for a page in its reader's language)."""


#: The readers of a turn file's fields, refusing with a :class:`TurnFileError`.
_FIELDS = Fields(TurnFileError)


@dataclass(frozen=True, slots=True)
class TurnFile:
    """One turn to resolve: the players, the table (width, height in inches), the pieces as
    they stand and the orders as written, ``(piece id, order text)`` in file order."""

    players: tuple[str, ...]
    table_in: tuple[float, float]
    pieces: tuple[Piece, ...]
    orders: tuple[tuple[str, str], ...]

    def resolve(self) -> TurnResult:
        """Resolve the turn. Raises :class:`TurnFileError` for an order a piece cannot
        carry out (its next missile's name is taken)."""
        chosen: dict[str, Order] = {}
        ignored: list[Event] = []
        for piece_id, text in self.orders:
            if piece_id in chosen:
                ignored.append(OrderIgnored(piece_id, text))
            else:
                chosen[piece_id] = parse_order(text)
        try:
            turn = resolve_orders(self.pieces, chosen, self.table_in)
        except ValueError as exc:
            raise TurnFileError(exc.args[0] if exc.args else str(exc)) from exc
        over = end_phase(self.players, turn.pieces)
        events = [*ignored, *turn.events, *([over] if over else [])]
        return TurnResult(
            self, turn.pieces, tuple(events), over is not None, over.winner if over else None
        )


@dataclass(frozen=True, slots=True)
class TurnResult:
    """A resolved turn file: the pieces afterwards (every piece that began the turn or was
    launched in it), the events, whether the game is over and who won (``None``: none or
    a draw)."""

    turn: TurnFile
    pieces: tuple[Piece, ...]
    events: tuple[Event, ...]
    over: bool
    winner: str | None

    def to_json(self) -> dict[str, Any]:
        """The ``resolve --json`` object of DESIGN section 5: ``pieces`` (id -> ``x``,
        ``y``, ``heading`` in (-180, 180], ``hits``, ``on_table``, and ``kind``, ``owner``,
        and for ships ``missiles`` left and ``launched``), ``over``, ``winner``,
        ``events``. Coordinates are rounded to 1e-9 in."""
        pieces: dict[str, Any] = {}
        for piece in self.pieces:
            entry: dict[str, Any] = {
                "kind": piece.kind.value,
                "owner": piece.owner,
                "x": rounded(piece.x),
                "y": rounded(piece.y),
                "heading": rounded(piece.heading),
                "hits": piece.hits,
                "on_table": piece.on_table,
            }
            if piece.is_ship:
                entry["missiles"] = piece.missiles
                entry["launched"] = piece.launched
            pieces[piece.id] = entry
        return {
            "ruleset": RULESET,
            "pieces": pieces,
            "over": self.over,
            "winner": self.winner,
            "events": [e.to_json() for e in self.events],
        }


def resolve_turn_file(text: str | bytes) -> dict[str, Any]:
    """Read, check and resolve a turn file's text; return the ``resolve --json`` object.
    Raises :class:`TurnFileError` with one line naming the problem."""
    return load_turn(text).resolve().to_json()


def load_turn(text: str | bytes) -> TurnFile:
    """Read and check a turn file's text (JSON, at most :data:`MAX_TURN_BYTES`). Raises
    :class:`TurnFileError` naming the field, or the piece and the order, at fault."""
    too_large = refusal("the turn file is larger than {most} bytes", most=MAX_TURN_BYTES)
    data = decoded(text, most_bytes=MAX_TURN_BYTES, too_large=too_large, error=TurnFileError)
    return turn_from_json(data)


def turn_from_json(data: Any) -> TurnFile:
    """Check a decoded turn file. Raises :class:`TurnFileError`."""
    header = read_header(
        data, kind="turn file", fields=_TOP_FIELDS, rulesets=(RULESET,), error=TurnFileError
    )
    data, players = header.fields, header.players
    table_in = _table(data.get("table"))
    raw_pieces = data.get("pieces")
    if not isinstance(raw_pieces, list) or not raw_pieces:
        _FIELDS.refuse(N_("'pieces' must be a non-empty list"))
    if len(raw_pieces) > MAX_PIECES:
        _FIELDS.refuse(
            N_("'pieces' lists {n} pieces, at most {most}"), n=str(len(raw_pieces)), most=MAX_PIECES
        )
    pieces: dict[str, Piece] = {}
    for index, raw in enumerate(raw_pieces):
        piece = _piece(index, raw, players, table_in)
        if piece.id in pieces:
            _FIELDS.refuse(N_("two pieces are named '{piece}'"), piece=piece_said(piece.id))
        pieces[piece.id] = piece
    orders = _orders(data.get("orders", []), pieces)
    return TurnFile(players, table_in, tuple(pieces.values()), orders)


def _table(raw: Any) -> tuple[float, float]:
    if raw is None:
        return DEFAULT_TABLE_IN
    if not isinstance(raw, dict) or set(raw) != {"width", "height"}:
        _FIELDS.refuse(N_("'table' must be an object with width and height (inches)"))
    return (
        _FIELDS.number(phrase("'table' width"), raw["width"], 1e-3, MAX_TABLE_IN),
        _FIELDS.number(phrase("'table' height"), raw["height"], 1e-3, MAX_TABLE_IN),
    )


def _piece(index: int, raw: Any, players: tuple[str, ...], table_in: tuple[float, float]) -> Piece:
    if not isinstance(raw, dict):
        _FIELDS.refuse(N_("piece {n} must be an object"), n=index + 1)
    piece_id = raw.get("id")
    if not isinstance(piece_id, str) or not 0 < len(piece_id) <= MAX_ID_CHARS:
        _FIELDS.refuse(
            N_("piece {n}: 'id' must be a name of 1 to {most} characters"),
            n=index + 1,
            most=MAX_ID_CHARS,
        )
    name = phrase("piece '{piece}'", piece=piece_said(piece_id))
    _FIELDS.known(raw, _PIECE_FIELDS, name)
    kind = raw.get("kind")
    if kind not in (Kind.SHIP.value, Kind.MISSILE.value):
        _FIELDS.refuse(
            N_("{name}: 'kind' must be 'ship' or 'missile', got {value}"),
            name=name,
            value=clipped(kind),
        )
    owner = raw.get("owner")
    if owner not in players:
        _FIELDS.refuse(
            N_("{name}: 'owner' must be one of the players, got {value}"),
            name=name,
            value=clipped(owner),
        )
    x = _FIELDS.number(field_of(name, "x"), raw.get("x"), -MAX_TABLE_IN, MAX_TABLE_IN)
    y = _FIELDS.number(field_of(name, "y"), raw.get("y"), -MAX_TABLE_IN, MAX_TABLE_IN)
    heading = _FIELDS.number(
        field_of(name, "heading"), raw.get("heading"), -MAX_HEADING_DEG, MAX_HEADING_DEG
    )
    if not on_table(x, y, table_in):
        _FIELDS.refuse(
            N_("{name}: its post ({x}, {y}) lies off the {width} x {height} in table"),
            name=name,
            x=f"{x:g}",
            y=f"{y:g}",
            width=f"{table_in[0]:g}",
            height=f"{table_in[1]:g}",
        )
    size = _size(name, raw.get("size"), SHIP_SIZE_IN if kind == "ship" else MISSILE_SIZE_IN)
    if kind == Kind.MISSILE.value:
        for field in ("missiles", "launched"):
            if field in raw:
                _FIELDS.refuse(N_("{name}: a missile has no '{field}'"), name=name, field=field)
        _FIELDS.whole(field_of(name, "hits"), raw.get("hits", 0), 0, 0)
        return Piece.missile(piece_id, owner, x, y, heading, size=size)
    hits = _FIELDS.whole(field_of(name, "hits"), raw.get("hits", 0), 0, HITS_TO_DESTROY - 1)
    missiles = _FIELDS.whole(
        field_of(name, "missiles"), raw.get("missiles", DEFAULT_MISSILES), 0, MAX_MISSILES
    )
    launched = _FIELDS.whole(field_of(name, "launched"), raw.get("launched", 0), 0, MAX_MISSILES)
    ship = Piece.ship(piece_id, owner, x, y, heading, missiles=missiles, size=size)
    return ship.evolve(hits=hits, launched=launched)


def _size(name: Phrase, raw: Any, default: tuple[float, float]) -> tuple[float, float]:
    if raw is None:
        return default
    if not isinstance(raw, list) or len(raw) != 2:
        _FIELDS.refuse(N_("{name}: 'size' must be [width, length] in inches"), name=name)
    return _FIELDS.pair(field_of(name, "size"), raw, 1e-3, MAX_PIECE_IN)


def _orders(raw: Any, pieces: dict[str, Piece]) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, list):
        _FIELDS.refuse(N_("'orders' must be a list of {shape}"), shape=_ORDER_SHAPE)
    if len(raw) > MAX_ORDERS:
        _FIELDS.refuse(
            N_("'orders' lists {n} orders, at most {most}"), n=str(len(raw)), most=MAX_ORDERS
        )
    orders: list[tuple[str, str]] = []
    for index, entry in enumerate(raw):
        if not isinstance(entry, dict) or set(entry) != {"piece", "order"}:
            _FIELDS.refuse(N_("order {n} must be {shape}"), n=index + 1, shape=_ORDER_SHAPE)
        piece_id, text = entry["piece"], entry["order"]
        if not isinstance(piece_id, str):
            _FIELDS.refuse(
                N_("order {n}: 'piece' must be a piece id, got {value}"),
                n=index + 1,
                value=clipped(piece_id),
            )
        shown = clipped(text)
        piece = pieces.get(piece_id)
        if piece is None:
            _FIELDS.refuse(
                N_("order {order} for {piece}: no such piece"), order=shown, piece=clipped(piece_id)
            )
        try:
            order = parse_order(text)
        except ValueError as exc:
            raise TurnFileError(
                refusal(
                    "piece '{piece}': {problem}", piece=piece_said(piece_id), problem=value_of(exc)
                )
            ) from exc
        try:
            check_order(piece, order)
        except ValueError as exc:
            raise TurnFileError(exc.args[0] if exc.args else str(exc)) from exc
        if isinstance(order, Launch) and piece.next_missile_id() in pieces:
            _FIELDS.refuse(
                N_(
                    "'{ship}' cannot launch ('L'): its missile would be named "
                    "'{name}', which a piece already is (give 'launched')"
                ),
                ship=piece_said(piece_id),
                name=piece_said(piece.next_missile_id()),
            )
        orders.append((piece_id, text))
    return tuple(orders)
