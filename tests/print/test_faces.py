"""The printed card face keeps the ship's art clear of what the photo referee reads (the
markers' white quiet zones) and of the words a player reads (name, VP, credits), for every
ship of both catalogs."""

from __future__ import annotations

import pytest

from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import catalog
from spacetable.printing.faces import WORDS_BOTTOM_MM, art_box, quiet_zones

SHIPS = [ship for ruleset in ("lightspeed", "stellar") for ship in catalog(ruleset).values()]


@pytest.mark.parametrize("ship", SHIPS, ids=[ship.key for ship in SHIPS])
def test_the_art_stays_between_the_words_and_the_markers(ship: ShipDef) -> None:
    left, top, right, bottom = art_box(ship)
    assert top > WORDS_BOTTOM_MM + 0.5, ship.key
    for z_left, z_top, z_right, z_bottom in quiet_zones():
        apart = right < z_left or left > z_right or bottom < z_top - 0.5 or top > z_bottom
        assert apart, (ship.key, (left, top, right, bottom))
