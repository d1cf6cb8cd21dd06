"""Ship classes, a ship's systems as they stand, and the charts that read them.

The classes (DESIGN section 6): light ships carry 8 shield points, 8 light weapon systems
and 16 propulsion cells and fire into their forward 180 degrees; medium ships 12 shields,
8 light or 16 heavy weapons and 12 cells; heavy ships 16 shields, 16 heavy weapons and 8
cells. Medium and heavy ships fire all round. The charts:

- :func:`cards_to_fire`: how many cards a salvo turns, by weapons lost.
- :func:`hitting_suits`: which suits get through the target's shields.
- :func:`can_jump`: whether enough propulsion is left to jump.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from spacetable.games.hexfleet.hexes import Hex


class Weapons(StrEnum):
    """Weapon size: heavy weapons turn 8 cards, light 4."""

    LIGHT = "light"
    HEAVY = "heavy"


@dataclass(frozen=True, slots=True)
class ShipClass:
    """One class's systems at full strength."""

    name: str
    shields: int
    propulsion: int
    #: The weapon sizes the class may carry, the first being its default.
    weapon_choices: tuple[Weapons, ...]
    #: Fires all round (else into its forward 180 degrees only).
    all_round: bool

    def weapon_systems(self, weapons: Weapons) -> int:
        """Weapon systems at full strength: 16 heavy, 8 light."""
        return 16 if weapons is Weapons.HEAVY else 8


CLASSES: dict[str, ShipClass] = {
    "light": ShipClass("light", 8, 16, (Weapons.LIGHT,), all_round=False),
    "medium": ShipClass("medium", 12, 12, (Weapons.LIGHT, Weapons.HEAVY), all_round=True),
    "heavy": ShipClass("heavy", 16, 8, (Weapons.HEAVY,), all_round=True),
}
#: Cards a salvo turns at full strength.
FULL_SALVO = {Weapons.HEAVY: 8, Weapons.LIGHT: 4}


def ship_class(name: object) -> ShipClass:
    """The class called ``name``. Raises ``ValueError`` naming the classes there are."""
    if not isinstance(name, str) or name not in CLASSES:
        raise ValueError(f"unknown class {name!r} (one of: {', '.join(CLASSES)})")
    return CLASSES[name]


def weapons_for(cls: ShipClass, weapons: object | None) -> Weapons:
    """The weapon size a ship of ``cls`` carries (``None``: the class's default).
    Raises ``ValueError`` if the class cannot carry it."""
    if weapons is None:
        return cls.weapon_choices[0]
    if weapons not in ("light", "heavy"):
        raise ValueError(f"weapons must be 'light' or 'heavy', got {weapons!r}")
    size = Weapons(weapons)
    if size not in cls.weapon_choices:
        carried = " or ".join(w.value for w in cls.weapon_choices)
        raise ValueError(f"a {cls.name} ship carries {carried} weapons, not {size.value}")
    return size


def class_and_weapons(
    spec: Mapping[str, Any], where: str, error: type[Exception]
) -> tuple[ShipClass, Weapons]:
    """The class and weapon size a ship's ``spec`` asks for (its ``class`` and
    ``weapons``, as fleets and combat scripts write them). Raises ``error`` with the
    problem after ``where`` (``ship 'scout': unknown class ...``)."""
    try:
        klass = ship_class(spec.get("class"))
        return klass, weapons_for(klass, spec.get("weapons"))
    except ValueError as exc:
        raise error(f"{where}: {exc}") from None


def cards_to_fire(weapons: Weapons, lost: int, total: int) -> int:
    """Cards a salvo turns with ``lost`` of ``total`` weapon systems gone: all of them
    (8 heavy, 4 light) with none lost, then 6/3 up to 25% lost, 4/2 up to 50%, 2/1 up
    to 75%, 1 beyond, 0 (no salvo) with every system lost."""
    full = FULL_SALVO[weapons]
    if lost <= 0:
        return full
    if lost >= total:
        return 0
    if 4 * lost <= total:
        return full * 3 // 4
    if 2 * lost <= total:
        return full // 2
    if 4 * lost <= 3 * total:
        return full // 4
    return 1


def hitting_suits(shields_up: bool, left: int, total: int) -> frozenset[str]:
    """The suits that hit a target whose shields are up or down with ``left`` of
    ``total`` points: every suit with shields down or no points left; with shields up,
    spades over 75%, hearts and spades over 50%, diamonds too over 25%, every suit above 0."""
    if not shields_up or left <= 0:
        return frozenset("SHDC")
    if 4 * left > 3 * total:
        return frozenset("S")
    if 2 * left > total:
        return frozenset("HS")
    if 4 * left > total:
        return frozenset("DHS")
    return frozenset("SHDC")


def can_jump(propulsion_left: int, total: int) -> bool:
    """A ship may jump while it keeps at least half its propulsion cells."""
    return 2 * propulsion_left >= total


@dataclass(frozen=True, slots=True)
class Ship:
    """One ship as it stands: who owns it, its class and weapons, the systems left, where
    it is and which way it faces (``at`` is ``None`` while it is off the table)."""

    id: str
    name: str
    owner: str
    cls: ShipClass
    weapons: Weapons
    shields_left: int
    weapons_left: int
    propulsion_left: int
    shields_up: bool = False
    at: Hex | None = None
    facing: int = 0
    #: ``table``, ``jumped`` (out, coming back on :attr:`returns_on`), ``gone`` (jumped
    #: out for good) or ``wrecked``.
    status: str = "table"
    #: The turn a jumped ship's chit goes back in the cup (``None``: it stays away).
    returns_on: int | None = None

    @classmethod
    def new(
        cls,
        id: str,
        name: str,
        owner: str,
        ship_class: ShipClass,
        weapons: Weapons,
        at: Hex | None = None,
        facing: int = 0,
    ) -> Ship:
        """A ship at full strength, shields down."""
        return cls(
            id,
            name,
            owner,
            ship_class,
            weapons,
            ship_class.shields,
            ship_class.weapon_systems(weapons),
            ship_class.propulsion,
            at=at,
            facing=facing,
        )

    @property
    def weapons_total(self) -> int:
        """Weapon systems at full strength."""
        return self.cls.weapon_systems(self.weapons)

    @property
    def on_table(self) -> bool:
        """Whether the ship is on the table."""
        return self.status == "table"

    @property
    def salvo(self) -> int:
        """Cards its salvo turns now (0: it cannot fire)."""
        lost = self.weapons_total - self.weapons_left
        return cards_to_fire(self.weapons, lost, self.weapons_total)

    @property
    def can_jump(self) -> bool:
        """Whether it keeps enough propulsion to jump."""
        return can_jump(self.propulsion_left, self.cls.propulsion)

    @property
    def fighting(self) -> bool:
        """Whether it can still fight in this battle: it has weapons and is on the table
        or coming back (docs/rulings.md, H9)."""
        return self.weapons_left > 0 and self.status in ("table", "jumped")

    def hit_by(self) -> frozenset[str]:
        """The suits that hit it now."""
        return hitting_suits(self.shields_up, self.shields_left, self.cls.shields)

    def strength(self) -> int:
        """Systems left (shield points + weapon systems + propulsion cells; 0 if wrecked)."""
        if self.status == "wrecked":
            return 0
        return self.shields_left + self.weapons_left + self.propulsion_left

    def full_strength(self) -> int:
        """Systems at full strength."""
        return self.cls.shields + self.weapons_total + self.cls.propulsion

    def damaged(self, suit: str) -> Ship:
        """The ship after one damage card of ``suit`` (none goes below 0; shields with no
        points left are down)."""
        if suit == "D":
            return replace(self, weapons_left=max(0, self.weapons_left - 1))
        if suit == "H":
            left = max(0, self.shields_left - 1)
            return replace(self, shields_left=left, shields_up=self.shields_up and left > 0)
        if suit == "S":
            return replace(self, propulsion_left=max(0, self.propulsion_left - 1))
        return self

    def to_json(self) -> dict[str, Any]:
        """The ship as JSON (views, snapshots and combat scripts' results)."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "class": self.cls.name,
            "weapons": self.weapons.value,
            "shields": self.shields_left,
            "shields_max": self.cls.shields,
            "shields_up": self.shields_up,
            "weapon_systems": self.weapons_left,
            "weapon_systems_max": self.weapons_total,
            "propulsion": self.propulsion_left,
            "propulsion_max": self.cls.propulsion,
            "salvo": self.salvo,
            "can_jump": self.can_jump,
            "all_round": self.cls.all_round,
            "at": None if self.at is None else self.at.to_json(),
            "facing": self.facing,
            "status": self.status,
            "returns_on": self.returns_on,
        }
