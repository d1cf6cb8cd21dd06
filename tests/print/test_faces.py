"""The printed card face keeps the ship's art and its laser beams clear of what the photo
referee reads (the markers' white quiet zones), and the art clear of the words a player
reads (name, VP, credits), for every ship of both catalogs."""

from __future__ import annotations

import pytest

from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import catalog
from spacetable.printing.faces import WORDS_BOTTOM_MM, art_box, beams, quiet_zones

SHIPS = [ship for ruleset in ("lightspeed", "stellar") for ship in catalog(ruleset).values()]


@pytest.mark.parametrize("ship", SHIPS, ids=[ship.key for ship in SHIPS])
def test_the_art_stays_between_the_words_and_the_markers(ship: ShipDef) -> None:
    left, top, right, bottom = art_box(ship)
    assert top > WORDS_BOTTOM_MM + 0.5, ship.key
    for z_left, z_top, z_right, z_bottom in quiet_zones():
        apart = right < z_left or left > z_right or bottom < z_top - 0.5 or top > z_bottom
        assert apart, (ship.key, (left, top, right, bottom))


def _distance(p: tuple[float, float], zone: tuple[float, float, float, float]) -> float:
    """How far point ``p`` is from the rectangle ``(left, top, right, bottom)``."""
    left, top, right, bottom = zone
    dx = max(left - p[0], 0.0, p[0] - right)
    dy = max(top - p[1], 0.0, p[1] - bottom)
    return float((dx * dx + dy * dy) ** 0.5)


@pytest.mark.parametrize("ship", SHIPS, ids=[ship.key for ship in SHIPS])
def test_no_laser_beam_crosses_a_quiet_zone(ship: ShipDef) -> None:
    for (x1, y1), (x2, y2), strokes in beams(ship):
        half = max(width for _, width in strokes) / 2
        for k in range(101):  # every 0.1 mm of the 10 mm beam
            p = (x1 + (x2 - x1) * k / 100, y1 + (y2 - y1) * k / 100)
            for zone in quiet_zones():
                assert _distance(p, zone) > half, (ship.key, p)
