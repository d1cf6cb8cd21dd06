"""Table files (DESIGN section 3): the cards as they lie when deployment ends, as JSON.

:func:`parse_table` checks everything a referee would (unknown ship, owner who is not a
player, cards that touch or overlap, a laser that does not start on its card's edge) and
raises :class:`TableError` with one line naming the problem. :meth:`Table.to_json` writes
the same format back.

Files and uploads are bounded (docs/formats.md, Limits): at most :data:`MAX_TABLE_BYTES`,
:data:`MAX_CARDS` cards, sizes and coordinates of a few metres, every number finite; the
ship definitions they bring are bounded by :mod:`spacetable.lasers.ships`. The CLI and the
server read them through the same :func:`load_table` / :func:`parse_table`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, cast

from spacetable._userinput import InputError, clipped, read_limited
from spacetable.core.files import Fields, FileError, decoded, field_of, read_header
from spacetable.core.rules import Referee
from spacetable.i18n import N_, Translator
from spacetable.i18n.phrase import Value, phrase, refusal
from spacetable.lasers.battle import RULESETS, Card, Outcome, Resolver, Rules, Ruleset, resolve
from spacetable.lasers.geometry import Pose, rect_inside, rects_touch
from spacetable.lasers.narrate import narrate
from spacetable.lasers.ships import (
    CARD_SIZE_MM,
    MAX_CARD_MM,
    MIN_CARD_MM,
    ShipDef,
    ShipDefinitionError,
    builtin_catalog,
    ships_from_mapping,
)

#: Rocks on an asteroid unless the table says otherwise.
DEFAULT_ASTEROID_ROCKS = 12
#: Cubes on a Stellar Conflict cargo ship by number of players.
CARGO_CUBES = {2: 8, 3: 5, 4: 4}
#: Optional rules each ruleset knows.
VARIANTS: dict[str, tuple[str, ...]] = {"lightspeed": ("piracy",), "stellar": ("stolen_goods",)}

# Bounds on a table (docs/formats.md, Limits): a four-player melee has 41 cards on a
# 1.2 m table; a room holds at most 165.
#: Largest table file or upload, in bytes.
MAX_TABLE_BYTES = 1 << 20
#: Most cards on one table.
MAX_CARDS = 200
#: Largest table side, and farthest a card's centre may lie from the origin on each axis (mm).
MAX_TABLE_MM = 10_000.0
#: Most rocks or cubes on one card.
MAX_ROCKS = 100
#: Longest player name or card id, in characters.
MAX_ID_CHARS = 200
#: The top-level fields of a table file, and a card's.
_TOP_FIELDS = ("ruleset", "players", "variant", "ships", "cards", "card_size", "table")
_CARD_FIELDS = ("id", "type", "owner", "ship", "x", "y", "rotation", "rocks", "size")


class TableError(FileError):
    """A table file is malformed or describes an impossible table; the message is one line
    naming the problem, and :attr:`says` the same as a phrase when it has one (for a page in
    its reader's language)."""


#: The readers of a table file's fields, refusing with a :class:`TableError`.
_FIELDS = Fields(TableError)


@dataclass(frozen=True, slots=True)
class Table:
    """A whole table: ruleset, players in seat order, options and the cards."""

    ruleset: Ruleset
    players: tuple[str, ...]
    cards: tuple[Card, ...]
    variant: dict[str, bool] = field(default_factory=dict)
    ships: dict[str, ShipDef] = field(default_factory=dict)  # definitions the file brought
    card_size: tuple[float, float] = CARD_SIZE_MM
    table_size: tuple[float, float] | None = None

    def rules(self) -> Rules:
        """The battle rules this table is played under."""
        return Rules(
            self.players,
            self.ruleset,
            piracy=self.variant.get("piracy", False),
            stolen_goods=self.variant.get("stolen_goods", False),
        )

    def resolve(self, resolver: Resolver = resolve) -> Outcome:
        """Play the battle on this table (with the reference resolver unless told)."""
        return resolver(self.cards, self.rules())

    def to_json(self) -> dict[str, Any]:
        """The table in the DESIGN section 3 format (round-trips through
        :func:`table_from_json`)."""
        out: dict[str, Any] = {"ruleset": self.ruleset, "players": list(self.players)}
        if self.variant:
            out["variant"] = dict(self.variant)
        if self.ships:
            out["ships"] = {key: ship.to_json() for key, ship in self.ships.items()}
        if self.card_size != CARD_SIZE_MM:
            out["card_size"] = list(self.card_size)
        if self.table_size is not None:
            out["table"] = {"width": self.table_size[0], "height": self.table_size[1]}
        out["cards"] = [self.card_json(c) for c in self.cards]
        return out

    def card_json(self, card: Card) -> dict[str, Any]:
        """One card of this table as a table file's card object (DESIGN section 3)."""
        out: dict[str, Any] = {"id": card.id}
        if card.ship is None:
            out["type"] = "asteroid"
        else:
            out["owner"] = card.owner
            out["ship"] = card.ship.key
        out.update(x=card.pose.x, y=card.pose.y, rotation=card.pose.rotation_deg, rocks=card.rocks)
        if card.size != self.card_size:
            out["size"] = list(card.size)
        return out


def catalog(ruleset: str) -> dict[str, ShipDef]:
    """The built-in ships a ruleset knows: Light Speed's fleet, or every Stellar Conflict
    race catalog installed. Read once per process (bots ask on every move); each call
    returns a fresh dict."""
    return dict(_builtin_ships(ruleset))


@functools.cache
def _builtin_ships(ruleset: str) -> dict[str, ShipDef]:
    if ruleset == "lightspeed":
        return builtin_catalog("lightspeed")
    ships: dict[str, ShipDef] = {}
    stellar = resources.files("spacetable.data").joinpath("stellar")
    if stellar.is_dir():
        for entry in sorted(stellar.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".toml"):
                ships.update(builtin_catalog(f"stellar/{entry.name[:-5]}"))
    return ships


def load_table(path: Path | str) -> Table:
    """Read and check a table file: a regular file of at most :data:`MAX_TABLE_BYTES`
    (a FIFO or a device is refused without waiting on it). Raises :class:`TableError`
    naming the problem."""
    try:
        data = read_limited(path, MAX_TABLE_BYTES)
    except InputError as exc:
        raise TableError(exc.args[0]) from exc
    return parse_table(data)


def parse_table(text: str | bytes) -> Table:
    """Parse and check table JSON (text, or UTF-8 bytes; a byte-order mark is accepted).
    Raises :class:`TableError` naming the problem, e.g. where the JSON is malformed or
    nested too deep."""
    too_large = refusal("the table is larger than {most} bytes", most=MAX_TABLE_BYTES)
    data = decoded(text, most_bytes=MAX_TABLE_BYTES, too_large=too_large, error=TableError)
    return table_from_json(data)


def table_from_json(data: Any) -> Table:
    """Build and check a :class:`Table` from decoded JSON."""
    header = read_header(
        data, kind="table file", fields=_TOP_FIELDS, rulesets=RULESETS, error=TableError
    )
    data, ruleset, players = header.fields, header.ruleset, header.players
    variant = _variant(ruleset, data.get("variant", {}))
    card_size = _size("card_size", data.get("card_size", list(CARD_SIZE_MM)))
    table_size = _table_size(data.get("table"))
    raw_ships = data.get("ships", {})
    if not isinstance(raw_ships, dict):
        _FIELDS.refuse(N_("'ships' must be an object of ship definitions"))
    try:
        own_ships = ships_from_mapping(raw_ships, card_size)
    except ShipDefinitionError as exc:
        raise TableError(exc.args[0] if exc.args else str(exc)) from exc
    known_ships = {**catalog(ruleset), **own_ships}
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        _FIELDS.refuse(N_("'cards' must be a non-empty list"))
    if len(raw_cards) > MAX_CARDS:
        _FIELDS.refuse(
            N_("'cards' lists {n} cards, at most {most} are allowed"),
            n=str(len(raw_cards)),
            most=str(MAX_CARDS),
        )
    cards: list[Card] = []
    for index, raw in enumerate(raw_cards):
        cards.append(_card(index, raw, cast(Ruleset, ruleset), players, known_ships, card_size))
    _check_layout(cards, table_size)
    return Table(
        cast(Ruleset, ruleset), players, tuple(cards), variant, own_ships, card_size, table_size
    )


def _variant(ruleset: str, raw: Any) -> dict[str, bool]:
    if not isinstance(raw, dict):
        _FIELDS.refuse(N_("'variant' must be an object"))
    allowed = VARIANTS[ruleset]
    for key, value in raw.items():
        if key not in allowed:
            _FIELDS.refuse(
                N_("variant {variant} is not a {ruleset} option (known: {known})"),
                variant=clipped(key),
                ruleset=ruleset,
                known=", ".join(allowed),
            )
        if not isinstance(value, bool):
            _FIELDS.refuse(N_("variant {variant} must be true or false"), variant=repr(key))
    return dict(raw)


def _size(where: Value, raw: Any, high: float = MAX_CARD_MM) -> tuple[float, float]:
    if not isinstance(raw, list) or len(raw) != 2:
        _FIELDS.refuse(N_("{where} must be [width, length] in mm"), where=where)
    for value in raw:
        if isinstance(value, int | float) and not isinstance(value, bool) and value <= 0:
            _FIELDS.refuse(
                N_("{where} must be positive, got {value}"), where=where, value=clipped(raw)
            )
    return _FIELDS.pair(where, raw, MIN_CARD_MM, high)


def _table_size(raw: Any) -> tuple[float, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        _FIELDS.refuse(N_("'table' must be an object with width and height"))
    return _size("'table'", [raw.get("width"), raw.get("height")], MAX_TABLE_MM)


def _card(
    index: int,
    raw: Any,
    ruleset: Ruleset,
    players: tuple[str, ...],
    ships: dict[str, ShipDef],
    card_size: tuple[float, float],
) -> Card:
    if not isinstance(raw, dict):
        _FIELDS.refuse(N_("cards[{n}] must be an object"), n=str(index))
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid or len(cid) > MAX_ID_CHARS:
        _FIELDS.refuse(
            N_("cards[{n}] needs an 'id' string of 1 to {most} characters"),
            n=str(index),
            most=str(MAX_ID_CHARS),
        )
    where = phrase("card {card}", card=repr(cid))
    _FIELDS.known(raw, _CARD_FIELDS, where)
    kind = raw.get("type", "ship")
    if kind not in ("ship", "asteroid"):
        _FIELDS.refuse(
            N_("{where}: 'type' must be ship or asteroid, got {value}"),
            where=where,
            value=clipped(kind),
        )
    pose = Pose(
        _FIELDS.number(field_of(where, "x"), raw.get("x"), -MAX_TABLE_MM, MAX_TABLE_MM),
        _FIELDS.number(field_of(where, "y"), raw.get("y"), -MAX_TABLE_MM, MAX_TABLE_MM),
        # Any finite rotation: a room takes a card turned as many times as a client
        # says, and the bots read the room's table through this function.
        _FIELDS.number(field_of(where, "rotation"), raw.get("rotation", 0), -math.inf, math.inf),
    )
    size = _size(field_of(where, "size"), raw["size"]) if "size" in raw else card_size
    ship: ShipDef | None = None
    owner: str | None = None
    if kind == "asteroid":
        default_rocks = DEFAULT_ASTEROID_ROCKS
        if "owner" in raw or "ship" in raw:
            _FIELDS.refuse(N_("{where}: an asteroid has no 'owner' or 'ship'"), where=where)
    else:
        owner = raw.get("owner")
        if owner not in players:
            _FIELDS.refuse(
                N_("{where}: owner {owner} is not one of the players ({players})"),
                where=where,
                owner=clipped(owner),
                players=", ".join(players),
            )
        key = raw.get("ship")
        if not isinstance(key, str) or key not in ships:
            _FIELDS.refuse(
                N_(
                    "{where}: unknown ship {ship} (not in the {ruleset} catalog "
                    "or the file's 'ships')"
                ),
                where=where,
                ship=clipped(key),
                ruleset=ruleset,
            )
        ship = ships[key]
        cargo = ruleset == "stellar" and ship.role == "cargo"
        default_rocks = CARGO_CUBES[len(players)] if cargo else 0
    rocks = raw.get("rocks", default_rocks)
    if isinstance(rocks, bool) or not isinstance(rocks, int) or not 0 <= rocks <= MAX_ROCKS:
        _FIELDS.refuse(
            N_("{where}: 'rocks' must be a whole number from 0 to {most}, got {value}"),
            where=where,
            most=str(MAX_ROCKS),
            value=clipped(rocks),
        )
    return Card(cid, pose, ship, owner, rocks, size)


def _check_layout(cards: list[Card], table_size: tuple[float, float] | None) -> None:
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            _FIELDS.refuse(N_("two cards have the id {card}"), card=repr(card.id))
        seen.add(card.id)
        if table_size is not None and not rect_inside(card.rect, *table_size):
            _FIELDS.refuse(
                N_("card {card} lies (partly) off the {width} x {height} mm table"),
                card=repr(card.id),
                width=f"{table_size[0]:g}",
                height=f"{table_size[1]:g}",
            )
    rects = [c.rect for c in cards]
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            if rects_touch(rects[i], rects[j]):
                _FIELDS.refuse(
                    N_("cards {first} and {second} touch or overlap"),
                    first=repr(a.id),
                    second=repr(cards[j].id),
                )


def _account(table: Table, outcome: Outcome) -> list[str]:
    return narrate(table.cards, outcome)


def _account_in(table: Table, outcome: Outcome, tr: Translator) -> list[str]:
    return narrate(table.cards, outcome, tr)


#: How ``spacetable resolve`` and ``render`` settle a table file (Light Speed and Stellar
#: Conflict share it): see :class:`spacetable.core.rules.Referee`.
TABLE_REFEREE = Referee(
    read=table_from_json,
    resolve=Table.resolve,
    account=_account,
    account_in=_account_in,
    result_json=Outcome.to_json,
    error=TableError,
    kind="table file",
    to_json=Table.to_json,
)
