"""Table files (DESIGN section 3): the cards as they lie when deployment ends, as JSON.

:func:`parse_table` checks everything a referee would (unknown ship, owner who is not a
player, cards that touch or overlap, a laser that does not start on its card's edge) and
raises :class:`TableError` with one line naming the problem. :meth:`Table.to_json` writes
the same format back.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, cast

from spacetable.battle import RULESETS, Card, Outcome, Resolver, Rules, Ruleset, resolve
from spacetable.geometry import Pose, rect_inside, rects_touch
from spacetable.ships import (
    CARD_SIZE_MM,
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


class TableError(ValueError):
    """A table file is malformed or describes an impossible table."""


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
        out["cards"] = [self._card_json(c) for c in self.cards]
        return out

    def _card_json(self, card: Card) -> dict[str, Any]:
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
    """Read and check a table file. Raises :class:`TableError` naming the problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TableError(f"cannot read the file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise TableError("the file is not UTF-8 text") from exc
    return parse_table(text)


def parse_table(text: str) -> Table:
    """Parse and check table JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TableError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    return table_from_json(data)


def table_from_json(data: Any) -> Table:
    """Build and check a :class:`Table` from decoded JSON."""
    if not isinstance(data, dict):
        raise TableError("a table file must hold a JSON object")
    known = {"ruleset", "players", "variant", "ships", "cards", "card_size", "table"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TableError(f"unknown top-level field(s): {', '.join(unknown)}")
    ruleset = data.get("ruleset")
    if ruleset not in RULESETS:
        raise TableError(f"'ruleset' must be one of {', '.join(RULESETS)}, got {ruleset!r}")
    players = _players(data.get("players"))
    variant = _variant(ruleset, data.get("variant", {}))
    card_size = _size("card_size", data.get("card_size", list(CARD_SIZE_MM)))
    table_size = _table_size(data.get("table"))
    raw_ships = data.get("ships", {})
    if not isinstance(raw_ships, dict):
        raise TableError("'ships' must be an object of ship definitions")
    try:
        own_ships = ships_from_mapping(raw_ships, card_size)
    except ShipDefinitionError as exc:
        raise TableError(str(exc)) from exc
    known_ships = {**catalog(ruleset), **own_ships}
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise TableError("'cards' must be a non-empty list")
    cards: list[Card] = []
    for index, raw in enumerate(raw_cards):
        cards.append(_card(index, raw, cast(Ruleset, ruleset), players, known_ships, card_size))
    _check_layout(cards, table_size)
    return Table(
        cast(Ruleset, ruleset), players, tuple(cards), variant, own_ships, card_size, table_size
    )


def _players(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        raise TableError("'players' must be a list of 2 to 4 names")
    if not 2 <= len(raw) <= 4:
        raise TableError(f"'players' must name 2 to 4 players, got {len(raw)}")
    if len(set(raw)) != len(raw):
        raise TableError("'players' names must be distinct")
    return tuple(raw)


def _variant(ruleset: str, raw: Any) -> dict[str, bool]:
    if not isinstance(raw, dict):
        raise TableError("'variant' must be an object")
    allowed = VARIANTS[ruleset]
    for key, value in raw.items():
        if key not in allowed:
            raise TableError(
                f"variant {key!r} is not a {ruleset} option (known: {', '.join(allowed)})"
            )
        if not isinstance(value, bool):
            raise TableError(f"variant {key!r} must be true or false")
    return dict(raw)


def _number(where: str, raw: Any) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise TableError(f"{where} must be a number, got {raw!r}")
    return float(raw)


def _size(where: str, raw: Any) -> tuple[float, float]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise TableError(f"{where} must be [width, length] in mm")
    w, h = _number(where, raw[0]), _number(where, raw[1])
    if w <= 0 or h <= 0:
        raise TableError(f"{where} must be positive, got [{w:g}, {h:g}]")
    return (w, h)


def _table_size(raw: Any) -> tuple[float, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TableError("'table' must be an object with width and height")
    return _size("'table'", [raw.get("width"), raw.get("height")])


def _card(
    index: int,
    raw: Any,
    ruleset: Ruleset,
    players: tuple[str, ...],
    ships: dict[str, ShipDef],
    card_size: tuple[float, float],
) -> Card:
    if not isinstance(raw, dict):
        raise TableError(f"cards[{index}] must be an object")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid:
        raise TableError(f"cards[{index}] needs an 'id' string")
    where = f"card {cid!r}"
    known = {"id", "type", "owner", "ship", "x", "y", "rotation", "rocks", "size"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise TableError(f"{where}: unknown field(s) {', '.join(unknown)}")
    kind = raw.get("type", "ship")
    if kind not in ("ship", "asteroid"):
        raise TableError(f"{where}: 'type' must be ship or asteroid, got {kind!r}")
    pose = Pose(
        _number(f"{where}: 'x'", raw.get("x")),
        _number(f"{where}: 'y'", raw.get("y")),
        _number(f"{where}: 'rotation'", raw.get("rotation", 0)),
    )
    size = _size(f"{where}: 'size'", raw["size"]) if "size" in raw else card_size
    ship: ShipDef | None = None
    owner: str | None = None
    if kind == "asteroid":
        default_rocks = DEFAULT_ASTEROID_ROCKS
        if "owner" in raw or "ship" in raw:
            raise TableError(f"{where}: an asteroid has no 'owner' or 'ship'")
    else:
        owner = raw.get("owner")
        if owner not in players:
            raise TableError(
                f"{where}: owner {owner!r} is not one of the players ({', '.join(players)})"
            )
        key = raw.get("ship")
        if not isinstance(key, str) or key not in ships:
            raise TableError(
                f"{where}: unknown ship {key!r} (not in the {ruleset} catalog "
                f"or the file's 'ships')"
            )
        ship = ships[key]
        cargo = ruleset == "stellar" and ship.role == "cargo"
        default_rocks = CARGO_CUBES[len(players)] if cargo else 0
    rocks = raw.get("rocks", default_rocks)
    if isinstance(rocks, bool) or not isinstance(rocks, int) or rocks < 0:
        raise TableError(f"{where}: 'rocks' must be a whole number >= 0, got {rocks!r}")
    return Card(cid, pose, ship, owner, rocks, size)


def _check_layout(cards: list[Card], table_size: tuple[float, float] | None) -> None:
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise TableError(f"two cards have the id {card.id!r}")
        seen.add(card.id)
        if table_size is not None and not rect_inside(card.rect, *table_size):
            raise TableError(
                f"card {card.id!r} lies (partly) off the "
                f"{table_size[0]:g} x {table_size[1]:g} mm table"
            )
    rects = [c.rect for c in cards]
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            if rects_touch(rects[i], rects[j]):
                raise TableError(f"cards {a.id!r} and {cards[j].id!r} touch or overlap")
