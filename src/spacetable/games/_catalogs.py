"""The laser games' ship catalogs as text tables: what ``spacetable cards`` prints for
Light Speed and Stellar Conflict (through each game's registry entry, ``Game.cards``)."""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.games.stellar import CREDITS, RACES, race_ships
from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import catalog


class UnknownSubset(ValueError):
    """The catalog has no such part (a race it does not know, or none at all)."""


def lightspeed_cards(part: str | None) -> tuple[dict[str, ShipDef], str]:
    """Light Speed's fleet (speed, health, lasers, shields) and the ships shown."""
    if part is not None:
        raise UnknownSubset("--race is a Stellar Conflict option: Light Speed has one fleet")
    ships = catalog("lightspeed")
    return ships, _catalog_table(list(ships.values()))


def _aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as left-aligned columns, a rule of dashes under the first row."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def _catalog_table(ships: list[ShipDef]) -> str:
    """The catalog as an aligned text table."""
    header = ("key", "name", "speed", "health", "vp", "lasers", "shields")
    rows = [header]
    for ship in ships:
        lasers = " ".join(
            f"{lz.power}{'' if lz.kind == 'normal' else lz.kind[0]}@{lz.angle_deg:g}"
            for lz in ship.lasers
        )
        rows.append(
            (
                ship.key,
                ship.name,
                "/".join(map(str, ship.speeds)),
                str(ship.health),
                str(ship.vp),
                lasers or "-",
                _shields(ship),
            )
        )
    lines = _aligned(rows)
    lines.append("")
    lines.append("lasers: power[i=ion, p=penetrating]@angle (0 ahead, 90 left, -90 right)")
    return "\n".join(lines)


def _shields(ship: ShipDef) -> str:
    """A ship's shields as ``edge[from..to]`` (mm along the edge), or ``-``."""
    return " ".join(f"{sh.edge}[{sh.start:g}..{sh.end:g}]" for sh in ship.shields) or "-"


#: What sets each Stellar Conflict race apart, for the catalog's race headings.
_RACE_ABILITIES = {
    "wiss": "ion lasers",
    "vak": "shield-penetrating lasers",
    "hexai": "ships that fire at two initiatives",
    "tetrakori": "scouts that cost no credits",
}
#: How the Stellar Conflict catalog marks lasers that are not normal ones.
_LASER_TAGS = {"normal": "", "ion": "ion", "penetrating": "pen"}


def stellar_cards(race: str | None) -> tuple[dict[str, ShipDef], str]:
    """Each Stellar Conflict race's ships (role, credits, VP, initiatives, lasers by kind,
    shields), one table per race, or only ``race``'s, and the ships shown. Raises
    :class:`UnknownSubset` for a race there is not."""
    if race is not None and race.lower() not in RACES:
        raise UnknownSubset(f"unknown race {race!r} (choose from {', '.join(RACES)})")
    shown: dict[str, ShipDef] = {}
    lines: list[str] = []
    for name in [race.lower()] if race is not None else RACES:
        ships = race_ships(name)
        shown.update(ships)
        header = ("key", "name", "role", "credits", "vp", "initiative", "health", "lasers")
        rows = [(*header, "shields")]
        for ship in ships.values():
            free = ship.role in ("cargo", "flag")
            lasers = " ".join(
                f"{lz.power}{_LASER_TAGS[lz.kind]}@{lz.angle_deg:g}" for lz in ship.lasers
            )
            rows.append(
                (
                    ship.key,
                    ship.name,
                    "-" if ship.role == "warship" else ship.role,
                    "free" if free else str(ship.credits),
                    str(ship.vp),
                    "/".join(map(str, ship.speeds)),
                    str(ship.health),
                    lasers or "-",
                    _shields(ship),
                )
            )
        lines += [f"{name.title()}: {len(ships)} ships, {_RACE_ABILITIES[name]}", *_aligned(rows)]
        lines.append("")
    budgets = ", ".join(f"{size.title()} {credits}" for size, credits in CREDITS.items())
    lines += [
        f"credits a fleet may cost: {budgets}; the Cargo and Flag ships join it for free",
        "initiative: the ship fires at each one, lowest first; a Delay token adds 2 to each",
        "lasers: power@angle (0 ahead, 90 left, -90 right, 180 back);",
        "  ion: no damage, delays a ship that has not fired yet;",
        "  pen: penetrating, ignores shields and deals 1 damage",
    ]
    return shown, "\n".join(lines)
