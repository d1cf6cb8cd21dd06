"""Close calls: the shots of a battle whose outcome a photo cannot settle.

The battle is resolved as measured. Then each laser fired is looked at again with the
uncertainty of the cards' poses (one standard deviation per card: ``sigma_mm`` for its
centre, ``sigma_deg`` for its rotation). Across the laser's ray, the relative position of
the ray and a card it passes is uncertain by

    sigma_lat^2 = s_s^2 + (r_o t_s)^2 + (d t_s)^2 + s_c^2 + (rho_c t_c)^2

(``s_s``, ``t_s``: the firing card's position and rotation sigmas, ``t`` in radians;
``r_o`` the laser's start's distance from its card's centre; ``d`` how far along the ray
the card lies; ``s_c``, ``t_c`` the card's own sigmas and ``rho_c`` its half diagonal).
Within ``K`` = :data:`K_SIGMA` of those, the laser could be anywhere in a band across its
ray. A shot is a close call when, within that band:

- it could touch a card that it misses as measured (and that lies before the card it
  hits, or the card it hits could be missed), or miss the card it hits: **hit or miss**;
- the point where it touches its target could move to where the shield status differs
  (the laser is shifted across the band and touched again with the resolver's own
  geometry): **shield or bare edge**.

Each close call names the shot and both outcomes; the measured one comes first. The
result is deterministic: no sampling at random.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spacetable.core.records import fields_json
from spacetable.i18n import ENGLISH, N_, Translator
from spacetable.lasers.battle import Card, Outcome, shielded
from spacetable.lasers.events import CardLeft, Destroyed, LaserFired, StepBegan
from spacetable.lasers.geometry import ray_hit

#: How many standard deviations the band across a laser spans on each side. Chosen on the
#: corpus of ``spacetable bench --photo`` (seeds 0 to 19, 2,237 pairs of a laser fired and
#: a card near its ray): the error across the ray of each card's corners, as measured
#: against the truth, is at most 4.0 times the ``sigma_lat`` above (median 0.69 times, a
#: normal law's being 0.67); 4.5 keeps a margin (docs/rulings.md G5).
K_SIGMA = 4.5
#: Shifts tried across the band for the shield check (odd: the middle one is no shift).
_SHIELD_SAMPLES = 41
#: The kinds of close calls in words, as the catalogs hold them (the photo page's too).
_KINDS = {"hit or miss": N_("hit or miss"), "shield or bare edge": N_("shield or bare edge")}


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """What a laser does: the card it touches first (``None``: off into space) and whether
    a shield stops it there."""

    target: str | None
    shielded: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"target": ..., "shielded": ...}``."""
        return fields_json(self)

    def words(self, tr: Translator = ENGLISH) -> str:
        """The outcome in words (in ``tr``'s language)."""
        if self.target is None:
            return tr.gettext("goes off into space")
        if self.shielded:
            return tr.gettext("is blocked by {target}'s shield", target=self.target)
        return tr.gettext("hits {target}", target=self.target)


@dataclass(frozen=True, slots=True)
class CloseCall:
    """A shot whose outcome could flip within the photo's uncertainty: ``outcomes[0]`` as
    measured (and resolved), the others possible. ``margin_mm`` is how far across its ray
    the laser would have to move to flip, ``sigma_mm`` the uncertainty there."""

    speed: int
    ship: str
    laser: int
    kind: str  # "hit or miss" | "shield or bare edge"
    outcomes: tuple[ShotOutcome, ...]
    margin_mm: float
    sigma_mm: float

    def to_json(self) -> dict[str, Any]:
        """One entry of the ``close_calls`` list of ``spacetable photo --json``: the
        fields, the margins to 0.01 mm."""
        return fields_json(
            self,
            outcomes=[o.to_json() for o in self.outcomes],
            margin_mm=round(self.margin_mm, 2),
            sigma_mm=round(self.sigma_mm, 2),
        )

    def words(self, tr: Translator = ENGLISH) -> str:
        """One line for the CLI's account (in ``tr``'s language)."""
        first, *others = self.outcomes
        alternatives = others[0].words(tr)
        for other in others[1:]:
            alternatives = tr.gettext("{first} or {second}", first=alternatives,
                                      second=other.words(tr))  # fmt: skip
        kind = tr.gettext(_KINDS[self.kind]) if self.kind in _KINDS else self.kind
        return tr.gettext(
            "speed {speed}: {ship}'s laser {laser} {outcome}, but within the photo's "
            "uncertainty it {alternatives} ({kind}: {margin} mm from flipping, uncertainty "
            "{sigma} mm)",
            speed=self.speed, ship=self.ship, laser=self.laser + 1, outcome=first.words(tr),
            alternatives=alternatives, kind=kind, margin=tr.fixed(self.margin_mm, 1),
            sigma=tr.fixed(self.sigma_mm, 1),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Uncertainty:
    """One card's pose uncertainty: one standard deviation of its centre (mm) and of its
    rotation (degrees)."""

    sigma_mm: float
    sigma_deg: float


def close_calls(
    cards: tuple[Card, ...] | list[Card],
    outcome: Outcome,
    uncertainty: Mapping[str, Uncertainty],
    k_sigma: float = K_SIGMA,
) -> list[CloseCall]:
    """The close calls of a resolved battle (see the module docstring), in the order the
    lasers fired. ``uncertainty`` maps card ids to their pose uncertainty (a card missing
    from it is taken as exact)."""
    by_id = {card.id: card for card in cards}
    gone: set[str] = set()
    on_table: list[Card] = list(cards)
    calls: list[CloseCall] = []
    exact = Uncertainty(0.0, 0.0)
    for event in outcome.events:
        if isinstance(event, StepBegan):
            on_table = [c for c in cards if c.id not in gone]
        elif isinstance(event, Destroyed):
            gone.add(event.ship)
        elif isinstance(event, CardLeft):
            gone.add(event.card)
        elif isinstance(event, LaserFired):
            shooter = by_id[event.ship]
            call = _look_again(
                event, shooter, on_table, lambda cid: uncertainty.get(cid, exact), k_sigma
            )
            if call is not None:
                calls.append(call)
    return calls


def across_sigma(
    shooter: Card, origin: tuple[float, float], card: Card, along: float, unc: Any
) -> float:
    """One standard deviation of ``card``'s position across the ray of ``shooter``'s laser
    starting at ``origin``, ``along`` mm before it reaches the card (``sigma_lat`` of the
    module docstring); ``unc(card_id)`` gives a card's :class:`Uncertainty`."""
    s, c = unc(shooter.id), unc(card.id)
    t_s, t_c = math.radians(s.sigma_deg), math.radians(c.sigma_deg)
    r_o = math.hypot(origin[0] - shooter.pose.x, origin[1] - shooter.pose.y)
    rho = math.hypot(card.size[0], card.size[1]) / 2
    return math.sqrt(
        s.sigma_mm**2
        + (r_o * t_s) ** 2
        + (max(along, 0.0) * t_s) ** 2
        + c.sigma_mm**2
        + (rho * t_c) ** 2
    )


def _look_again(
    event: LaserFired, shooter: Card, on_table: list[Card], unc: Any, k: float
) -> CloseCall | None:
    laser = shooter.lasers()[event.laser]
    origin = shooter.pose.to_world(*laser.at)
    ux, uy = shooter.pose.direction(laser.angle_deg)
    nx, ny = -uy, ux
    measured = ShotOutcome(event.target, event.result == "blocked")
    # Every card the band could touch, with its entry distance and whether it surely is.
    reachable: list[tuple[float, str, bool, float, float]] = []
    for card in on_table:
        if card.id == shooter.id:
            continue
        corners = card.rect.corners()
        along = [(x - origin[0]) * ux + (y - origin[1]) * uy for x, y in corners]
        across = [(x - origin[0]) * nx + (y - origin[1]) * ny for x, y in corners]
        sigma = across_sigma(shooter, origin, card, min(along), unc)
        reach = k * sigma
        if max(along) < -reach or min(across) > reach or max(across) < -reach:
            continue
        sure = min(across) < -reach and max(across) > reach and min(along) > 0
        hit = ray_hit(origin, (ux, uy), card.rect)
        entry = hit.distance if hit is not None else max(min(along), 0.0)
        if hit is not None:
            margin = min(max(across), -min(across))  # how far the ray may move and miss
        else:
            margin = min(abs(min(across)), abs(max(across)))  # how far to touch it
        reachable.append((entry, card.id, sure, margin, sigma))
    reachable.sort()
    possible: list[ShotOutcome] = []
    flip_margin, flip_sigma = math.inf, 0.0
    for entry, cid, sure, margin, sigma in reachable:
        del entry
        possible.append(ShotOutcome(cid, measured.shielded if cid == measured.target else False))
        closer = margin / max(sigma, 1e-12) < flip_margin / max(flip_sigma, 1e-12)
        if (cid != measured.target or not sure) and closer:
            flip_margin, flip_sigma = margin, sigma
        if sure:
            break
    else:
        possible.append(ShotOutcome(None))
    targets = {o.target for o in possible}
    if targets != {measured.target}:
        others = [o for o in possible if o.target != measured.target]
        return CloseCall(
            event.speed,
            event.ship,
            event.laser,
            "hit or miss",
            (measured, *_alternatives(others, shooter, laser.kind, on_table)),
            flip_margin,
            flip_sigma,
        )
    if measured.target is None or laser.kind == "penetrating":
        return None
    target = next(c for c in on_table if c.id == measured.target)
    if target.ship is None or not target.ship.shields:
        return None
    return _shield_flip(event, shooter, target, origin, (ux, uy), measured, unc, k)


def _alternatives(
    others: list[ShotOutcome], shooter: Card, kind: str, on_table: list[Card]
) -> list[ShotOutcome]:
    """The other outcomes; a shielded ship hit instead may block or not (both listed only
    when it has shields: the band says where it is touched only roughly)."""
    del shooter
    out: list[ShotOutcome] = []
    by_id = {c.id: c for c in on_table}
    for other in others:
        out.append(other)
        card = by_id.get(other.target) if other.target else None
        if (
            card is not None
            and card.ship is not None
            and card.ship.shields
            and kind != "penetrating"
        ):
            out.append(ShotOutcome(other.target, True))
    return out


def _shield_flip(
    event: LaserFired,
    shooter: Card,
    target: Card,
    origin: tuple[float, float],
    direction: tuple[float, float],
    measured: ShotOutcome,
    unc: Any,
    k: float,
) -> CloseCall | None:
    """Shift the laser across its band and touch the target again: a close call if the
    shield's verdict changes somewhere in the band."""
    along = (target.pose.x - origin[0]) * direction[0] + (target.pose.y - origin[1]) * direction[1]
    sigma = across_sigma(shooter, origin, target, along, unc)
    reach = k * sigma
    nx, ny = -direction[1], direction[0]
    closest = math.inf
    half = _SHIELD_SAMPLES // 2
    for i in range(-half, half + 1):
        shift = reach * i / half
        moved = (origin[0] + nx * shift, origin[1] + ny * shift)
        hit = ray_hit(moved, direction, target.rect)
        if hit is None:
            continue
        if shielded(target, hit) != measured.shielded:
            closest = min(closest, abs(shift))
    if math.isinf(closest):
        return None
    other = ShotOutcome(measured.target, not measured.shielded)
    return CloseCall(
        event.speed,
        event.ship,
        event.laser,
        "shield or bare edge",
        (measured, other),
        closest,
        sigma,
    )
