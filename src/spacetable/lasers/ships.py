"""Ship definitions: what a card carries (speeds, health, lasers, shields) and how to load
catalogs of them from TOML or JSON (DESIGN section 2).

Every definition is checked when it is built: a laser must start on the card's edge and a
shield must lie along its edge, and every number is finite and within the bounds below
(docs/formats.md, Limits), far past any printed card, so that a hostile file cannot make a
renderer, a resolver or a bot do unbounded work. Errors name the ship and the field.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast

from spacetable._userinput import InputError, clipped, parse_json, read_limited
from spacetable.core.files import Fields, FileError
from spacetable.i18n import N_
from spacetable.i18n.phrase import Phrase, Value, phrase, refusal, value_of
from spacetable.lasers.geometry import EDGES, Edge, on_edge

LaserKind = Literal["normal", "ion", "penetrating"]
LASER_KINDS: tuple[LaserKind, ...] = ("normal", "ion", "penetrating")
Role = Literal["warship", "cargo", "flag", "scout"]
ROLES: tuple[Role, ...] = ("warship", "cargo", "flag", "scout")

#: The printed card size (mm): catalog ships are designed on it.
CARD_SIZE_MM: tuple[float, float] = (63.0, 88.0)

# Bounds on a definition (docs/formats.md, Limits). Printed cards have health up to 6,
# two speeds, six lasers: these leave room for any real card and refuse the rest.
#: Most health (and kill-pile VP, and credits) a ship may have.
MAX_HEALTH = 100
#: Most speeds (initiatives) a ship fires at, and the highest speed.
MAX_SPEEDS, MAX_SPEED = 10, 99
#: Most lasers, and most shields, on one ship.
MAX_LASERS = MAX_SHIELDS = 20
#: Laser angles lie within -360..360 degrees.
MAX_ANGLE_DEG = 360.0
#: Longest ship key or name, and longest notes, in characters.
MAX_NAME_CHARS, MAX_NOTES_CHARS = 100, 2000
#: Most definitions in one catalog or table file.
MAX_SHIPS = 200
#: Smallest and largest card side, in mm.
MIN_CARD_MM, MAX_CARD_MM = 1.0, 1000.0
#: Largest catalog file read, in bytes.
MAX_CATALOG_BYTES = 1 << 20
#: The fields of a ship definition.
_SHIP_FIELDS = ("name", "speed", "health", "vp", "credits", "role", "lasers", "shields", "notes")


class ShipDefinitionError(FileError):
    """A ship definition is malformed or impossible; the message names the ship and field,
    and :attr:`says` the same as a phrase when it has one (for a page in its reader's
    language)."""


#: The readers of a ship definition's fields, refusing with a :class:`ShipDefinitionError`.
_FIELDS = Fields(ShipDefinitionError)


@dataclass(frozen=True, slots=True)
class Laser:
    """One printed laser: starts at local point ``at`` on the card's edge and points
    ``angle_deg`` from the card's front (0 ahead, 90 left, -90 right, 180 back)."""

    at: tuple[float, float]
    angle_deg: float
    power: int
    kind: LaserKind = "normal"

    def to_json(self) -> dict[str, Any]:
        """The laser as in a ship definition."""
        out: dict[str, Any] = {"at": list(self.at), "angle": self.angle_deg, "power": self.power}
        if self.kind != "normal":
            out["kind"] = self.kind
        return out


@dataclass(frozen=True, slots=True)
class Shield:
    """A shield along part of one edge: ``start``..``end`` is an interval of local x on the
    front and back edges, of local y on the left and right edges (mm, closed)."""

    edge: Edge
    start: float
    end: float

    def covers(self, coordinate: float, tol: float = 1e-9) -> bool:
        """Whether a point at ``coordinate`` along this shield's edge is shielded."""
        return self.start - tol <= coordinate <= self.end + tol

    def to_json(self) -> dict[str, Any]:
        """The shield as in a ship definition."""
        return {"edge": self.edge, "from": self.start, "to": self.end}


@dataclass(frozen=True, slots=True)
class ShipDef:
    """A ship card's printed facts.

    ``speeds`` holds one speed (initiative) per firing, lowest first; Hexai ships have two.
    ``vp`` is what the ship is worth in a kill pile under Stellar Conflict scoring (Light
    Speed scores ``health``). ``card_size`` is the card the geometry was designed on; a card
    of another size scales lasers and shields with it.
    """

    key: str
    name: str
    speeds: tuple[int, ...]
    health: int
    lasers: tuple[Laser, ...] = ()
    shields: tuple[Shield, ...] = ()
    vp: int = 0
    credits: int = 0
    role: Role = "warship"
    card_size: tuple[float, float] = CARD_SIZE_MM
    notes: str = field(default="", compare=False)

    @property
    def speed(self) -> int:
        """The first (or only) speed."""
        return self.speeds[0]

    def scaled(self, size: tuple[float, float]) -> ShipDef:
        """This ship drawn on a card of ``size`` mm: lasers and shields scale with the card."""
        if size == self.card_size:
            return self
        sx, sy = size[0] / self.card_size[0], size[1] / self.card_size[1]
        lasers = tuple(
            Laser((lz.at[0] * sx, lz.at[1] * sy), lz.angle_deg, lz.power, lz.kind)
            for lz in self.lasers
        )
        shields = tuple(
            Shield(
                sh.edge,
                *(
                    (sh.start * sx, sh.end * sx)
                    if sh.edge in ("front", "back")
                    else (sh.start * sy, sh.end * sy)
                ),
            )
            for sh in self.shields
        )
        return ShipDef(
            self.key,
            self.name,
            self.speeds,
            self.health,
            lasers,
            shields,
            self.vp,
            self.credits,
            self.role,
            size,
            self.notes,
        )

    def to_json(self) -> dict[str, Any]:
        """The definition in the DESIGN section 2 format (round-trips through
        :func:`ship_from_mapping`)."""
        out: dict[str, Any] = {
            "name": self.name,
            "speed": self.speeds[0] if len(self.speeds) == 1 else list(self.speeds),
            "health": self.health,
            "vp": self.vp,
            "lasers": [lz.to_json() for lz in self.lasers],
            "shields": [sh.to_json() for sh in self.shields],
        }
        if self.credits:
            out["credits"] = self.credits
        if self.role != "warship":
            out["role"] = self.role
        return out


def ship_from_mapping(
    key: str, data: Mapping[str, Any], card_size: tuple[float, float] = CARD_SIZE_MM
) -> ShipDef:
    """Build and check one ship definition from its TOML/JSON mapping.

    Raises :class:`ShipDefinitionError` naming the ship and the offending field.
    """
    where = phrase("ship {ship}", ship=clipped(key))
    if len(key) > MAX_NAME_CHARS:
        _FIELDS.refuse(
            N_("{where}: the key is longer than {most} characters"),
            where=where,
            most=str(MAX_NAME_CHARS),
        )
    if not isinstance(data, Mapping):
        _FIELDS.refuse(N_("{where}: definition must be a table/object"), where=where)
    _FIELDS.known(data, _SHIP_FIELDS, where)
    name = data.get("name", key)
    if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS:
        _FIELDS.refuse(
            N_("{where}: 'name' must be a string of 1 to {most} characters"),
            where=where,
            most=str(MAX_NAME_CHARS),
        )
    speeds = _speeds(where, data.get("speed"))
    health = _int(where, "health", data.get("health"), 1, MAX_HEALTH)
    vp = _int(where, "vp", data.get("vp", health), 0, MAX_HEALTH)
    credits = _int(where, "credits", data.get("credits", 0), 0, MAX_HEALTH)
    role = _choice(where, "role", data.get("role", "warship"), ROLES)
    lasers = tuple(
        _laser(_item(where, "lasers", i), raw, card_size)
        for i, raw in enumerate(_list(where, "lasers", data.get("lasers", []), MAX_LASERS))
    )
    shields = tuple(
        _shield(_item(where, "shields", i), raw, card_size)
        for i, raw in enumerate(_list(where, "shields", data.get("shields", []), MAX_SHIELDS))
    )
    notes = data.get("notes", "")
    if not isinstance(notes, str) or len(notes) > MAX_NOTES_CHARS:
        _FIELDS.refuse(
            N_("{where}: 'notes' must be a string of at most {most} characters"),
            where=where,
            most=str(MAX_NOTES_CHARS),
        )
    return ShipDef(
        key, name, speeds, health, lasers, shields, vp, credits, cast(Role, role), card_size, notes
    )


def _item(where: Value, name: str, index: int) -> Phrase:
    """An entry of a ship's list as errors name it: ``ship 'moth': lasers[0]``."""
    return phrase("{where}: {field}[{n}]", where=where, field=name, n=str(index))


def _part(where: Value, name: str) -> Phrase:
    """A part of a laser or shield as errors name it: ``ship 'moth': lasers[0].at``."""
    return phrase("{where}.{field}", where=where, field=name)


def _choice(where: Value, name: str, raw: Any, choices: tuple[str, ...]) -> Any:
    """``raw``, the value of field ``name``, when it is one of ``choices``; else
    ShipDefinitionError naming them."""
    if raw not in choices:
        _FIELDS.refuse(
            N_("{where}: '{field}' must be one of {choices}"),
            where=where,
            field=name,
            choices=", ".join(choices),
        )
    return raw


def _speeds(where: Value, raw: Any) -> tuple[int, ...]:
    values = raw if isinstance(raw, list) else [raw]
    if not values:
        _FIELDS.refuse(N_("{where}: 'speed' list is empty"), where=where)
    if len(values) > MAX_SPEEDS:
        _FIELDS.refuse(
            N_("{where}: 'speed' lists {n} speeds, at most {most} are allowed"),
            where=where,
            n=str(len(values)),
            most=str(MAX_SPEEDS),
        )
    speeds = tuple(_int(where, "speed", v, 0, MAX_SPEED) for v in values)
    if list(speeds) != sorted(set(speeds)):
        _FIELDS.refuse(N_("{where}: 'speed' values must be distinct and increasing"), where=where)
    return speeds


def _int(where: Value, name: str, raw: Any, minimum: int, maximum: int) -> int:
    field: dict[str, Value] = {"where": where, "field": name}  # as every refusal names it
    if raw is None:
        _FIELDS.refuse(N_("{where}: missing '{field}'"), **field)
    if isinstance(raw, bool) or not isinstance(raw, int):
        _FIELDS.refuse(
            N_("{where}: '{field}' must be an integer, got {value}"), **field, value=clipped(raw)
        )
    if raw < minimum:
        _FIELDS.refuse(
            N_("{where}: '{field}' must be at least {least}, got {value}"),
            **field,
            least=str(minimum),
            value=clipped(raw),
        )
    if raw > maximum:
        _FIELDS.refuse(
            N_("{where}: '{field}' must be at most {most}, got {value}"),
            **field,
            most=str(maximum),
            value=clipped(raw),
        )
    return raw


def _list(where: Value, name: str, raw: Any, maximum: int) -> list[Any]:
    if not isinstance(raw, list):
        _FIELDS.refuse(N_("{where}: '{field}' must be a list"), where=where, field=name)
    if len(raw) > maximum:
        _FIELDS.refuse(
            N_("{where}: '{field}' has {n} entries, at most {most} are allowed"),
            where=where,
            field=name,
            n=str(len(raw)),
            most=str(maximum),
        )
    return raw


def _laser(where: Value, raw: Any, card_size: tuple[float, float]) -> Laser:
    if not isinstance(raw, Mapping):
        _FIELDS.refuse(N_("{where}: must be a table/object"), where=where)
    _FIELDS.known(raw, ("at", "angle", "power", "kind"), where)
    at = raw.get("at")
    if not isinstance(at, list) or len(at) != 2:
        _FIELDS.refuse(N_("{where}.at must be a point [x, y]"), where=where)
    point = (
        _FIELDS.number(_part(where, "at[0]"), at[0], -math.inf, math.inf),
        _FIELDS.number(_part(where, "at[1]"), at[1], -math.inf, math.inf),
    )
    if not on_edge(point, *card_size):
        _FIELDS.refuse(
            N_("{where}.at {point} is not on the edge of a {width} x {height} mm card"),
            where=where,
            point=str(list(point)),
            width=f"{card_size[0]:g}",
            height=f"{card_size[1]:g}",
        )
    angle = _FIELDS.number(
        _part(where, "angle"),
        raw.get("angle", 0.0),
        -MAX_ANGLE_DEG,
        MAX_ANGLE_DEG,
    )
    power = _int(where, "power", raw.get("power"), 1, 1_000)
    if power > 3:
        _FIELDS.refuse(
            N_("{where}: 'power' must be 1, 2 or 3, got {value}"), where=where, value=str(power)
        )
    kind = _choice(where, "kind", raw.get("kind", "normal"), LASER_KINDS)
    return Laser(point, angle, power, cast(LaserKind, kind))


def _shield(where: Value, raw: Any, card_size: tuple[float, float]) -> Shield:
    if not isinstance(raw, Mapping):
        _FIELDS.refuse(N_("{where}: must be a table/object"), where=where)
    edge = raw.get("edge")
    if edge not in EDGES:
        _FIELDS.refuse(
            N_("{where}.edge must be one of {choices}"), where=where, choices=", ".join(EDGES)
        )
    start = _FIELDS.number(_part(where, "from"), raw.get("from"), -math.inf, math.inf)
    end = _FIELDS.number(_part(where, "to"), raw.get("to"), -math.inf, math.inf)
    half = (card_size[0] if edge in ("front", "back") else card_size[1]) / 2.0
    if start > end:
        _FIELDS.refuse(
            N_("{where}: 'from' ({start}) is after 'to' ({end})"),
            where=where,
            start=f"{start:g}",
            end=f"{end:g}",
        )
    if start < -half - 1e-6 or end > half + 1e-6:
        _FIELDS.refuse(
            N_("{where}: {start}..{end} lies off the {edge} edge ({low}..{high} mm)"),
            where=where,
            start=f"{start:g}",
            end=f"{end:g}",
            edge=Phrase(str(edge)),
            low=f"-{half:g}",
            high=f"{half:g}",
        )
    return Shield(cast(Edge, edge), start, end)


def ships_from_mapping(
    data: Mapping[str, Any], card_size: tuple[float, float] = CARD_SIZE_MM
) -> dict[str, ShipDef]:
    """Every definition in a ``{key: definition}`` mapping (at most :data:`MAX_SHIPS`),
    checked."""
    if len(data) > MAX_SHIPS:
        _FIELDS.refuse(
            N_("{n} ship definitions, at most {most} are allowed"),
            n=str(len(data)),
            most=str(MAX_SHIPS),
        )
    return {str(key): ship_from_mapping(str(key), raw, card_size) for key, raw in data.items()}


def load_catalog(path: Path | str) -> dict[str, ShipDef]:
    """Load a catalog file (``.toml`` with ``[ships.<key>]`` tables, or ``.json`` with a
    ``"ships"`` object) of at most :data:`MAX_CATALOG_BYTES`. Raises
    :class:`ShipDefinitionError` naming the file on bad input."""
    path = Path(path)
    try:
        data = read_limited(path, MAX_CATALOG_BYTES)
    except InputError as exc:
        raise ShipDefinitionError(
            refusal("{source}: {problem}", source=str(path), problem=value_of(exc))
        ) from exc
    if path.suffix == ".json":
        return parse_catalog(data, "json", str(path))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ShipDefinitionError(
            refusal("{source}: the file is not UTF-8 text", source=str(path))
        ) from None
    return parse_catalog(text, "toml", str(path))


def parse_catalog(
    text: str | bytes, fmt: Literal["toml", "json"], source: str
) -> dict[str, ShipDef]:
    """Parse catalog text (TOML must be a string); ``source`` names it in error messages."""
    data: Any
    if fmt == "json":
        try:
            data = parse_json(text)
        except InputError as exc:
            raise ShipDefinitionError(
                refusal("{source}: not valid JSON: {problem}", source=source, problem=value_of(exc))
            ) from exc
    else:
        if isinstance(text, bytes):
            raise TypeError("TOML catalogs are parsed from text")
        try:
            data = tomllib.loads(text)
        # tomllib raises ValueError for an integer of more than 4300 digits, and nests
        # arrays by recursion.
        except (ValueError, RecursionError) as exc:
            raise ShipDefinitionError(
                refusal("{source}: not valid TOML: {problem}", source=source, problem=str(exc))
            ) from exc
    ships = data.get("ships") if isinstance(data, dict) else None
    if not isinstance(ships, dict) or not ships:
        _FIELDS.refuse(N_("{source}: no 'ships' table"), source=source)
    try:
        return ships_from_mapping(ships)
    except ShipDefinitionError as exc:
        raise ShipDefinitionError(
            refusal("{source}: {problem}", source=source, problem=value_of(exc))
        ) from exc


def builtin_catalog(name: str) -> dict[str, ShipDef]:
    """A catalog shipped with spacetable, e.g. ``"lightspeed"`` or ``"stellar/wiss"``."""
    resource = resources.files("spacetable.data").joinpath(f"{name}.toml")
    if not resource.is_file():
        _FIELDS.refuse(N_("no built-in catalog named {name}"), name=repr(name))
    return parse_catalog(resource.read_text(encoding="utf-8"), "toml", f"{name}.toml")
