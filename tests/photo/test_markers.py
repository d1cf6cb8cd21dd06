"""The marker layout the print sheets and the photo referee share: every catalog card has
its own ids, they name the card back, and a card drawn as the layout says is read back by
OpenCV's detector with its ids at the corners the layout gives."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from shapely.geometry import LineString, box

from spacetable.lasers.printed import LIGHTSPEED_PRINTED, STELLAR_PRINTED
from spacetable.lasers.tables import catalog
from spacetable.photo import markers
from spacetable.photo.markers import (
    ASTEROID,
    CARD_SIZE_MM,
    MARKER_SIDE_MM,
    QUIET_ZONE_MM,
    CardKey,
    UnknownCard,
    all_cards,
    card_for_marker,
    marker_cells,
    marker_corners_mm,
    marker_ids,
    marker_square_from_top_left,
)
from spacetable.render._drawing import PLAYER_COLOURS


def test_every_catalog_ship_has_markers_in_every_colour() -> None:
    assert set(catalog("lightspeed")) == set(LIGHTSPEED_PRINTED.ships)
    assert set(catalog("stellar")) <= set(STELLAR_PRINTED.ships)
    assert len(STELLAR_PRINTED.ships) <= STELLAR_PRINTED.slots
    # The colours are the teams' colours everywhere else (drawings, seats).
    assert LIGHTSPEED_PRINTED.colours == PLAYER_COLOURS == STELLAR_PRINTED.colours


def test_ids_round_trip_and_no_two_cards_share_one() -> None:
    seen: dict[int, CardKey] = {}
    for card in all_cards():
        ids = marker_ids(card.ruleset, card.ship, card.owner, card.copy)
        assert ids[1] == ids[0] + 1
        for slot, marker_id in enumerate(ids):
            assert marker_id not in seen, (card, seen.get(marker_id))
            assert 0 <= marker_id < markers.DICTIONARY_IDS
            seen[marker_id] = card
            assert card_for_marker(marker_id) == (card, slot)
    lightspeed = 4 * 10 * LIGHTSPEED_PRINTED.copies
    stellar = 4 * len(STELLAR_PRINTED.ships) * STELLAR_PRINTED.copies
    assert len(seen) == 2 * (lightspeed + stellar + markers.ASTEROID_COPIES)


def test_card_ids_follow_the_table_file_names() -> None:
    assert CardKey("lightspeed", "moth", "red").card_id == "red-moth"
    assert CardKey("lightspeed", "moth", "red", 2).card_id == "red-moth-2"
    assert CardKey("stellar", "wiss-lancet", "blue").card_id == "blue-wiss-lancet"
    assert CardKey(None, ASTEROID, None, 3).card_id == "asteroid-3"
    # An asteroid's ids are the same under either ruleset.
    assert marker_ids("lightspeed", ASTEROID, None) == marker_ids("stellar", ASTEROID, None)
    assert card_for_marker(marker_ids("stellar", ASTEROID, None, 2)[1]) == (
        CardKey(None, ASTEROID, None, 2),
        1,
    )


@pytest.mark.parametrize(
    ("card", "problem"),
    [
        (("lightspeed", "moth", "yellow", 1), "Light Speed colour 'yellow'"),
        (("lightspeed", "wiss-lancet", "red", 1), "Light Speed ship 'wiss-lancet'"),
        (("lightspeed", "moth", "red", 4), "copy 4 of moth (copies 1 to 3)"),
        (("stellar", "wiss-lancet", "red", 2), "copy 2 of wiss-lancet (copies 1 to 1)"),
        (("ftl", "moth", "red", 1), "ruleset 'ftl'"),
        (("stellar", ASTEROID, "red", 1), "an asteroid has no owner"),
    ],
)
def test_a_card_without_markers_is_named(card: tuple[str, str, str, int], problem: str) -> None:
    with pytest.raises(UnknownCard, match=problem.replace("(", r"\(").replace(")", r"\)")):
        marker_ids(*card)


def test_unused_ids_name_no_card() -> None:
    free_stellar_slot = 2 * (120 + len(STELLAR_PRINTED.ships))
    assert card_for_marker(free_stellar_slot) is None
    assert card_for_marker(2 * markers.CARD_NUMBERS) is None
    assert card_for_marker(-1) is None


def _stub(at: tuple[float, float], angle_deg: float) -> LineString:
    """The laser's beam as the card face draws it: 10 mm from inside the card to its edge."""
    dx, dy = -math.sin(math.radians(angle_deg)), math.cos(math.radians(angle_deg))
    return LineString([(at[0] - 10 * dx, at[1] - 10 * dy), at])


def test_markers_and_quiet_zones_leave_every_laser_and_the_frame_clear() -> None:
    width, length = CARD_SIZE_MM
    frame = box(
        -width / 2 + markers.FRAME_INSET_MM,
        -length / 2 + markers.FRAME_INSET_MM,
        width / 2 - markers.FRAME_INSET_MM,
        length / 2 - markers.FRAME_INSET_MM,
    )
    zones = []
    for slot in (0, 1):
        corners = marker_corners_mm(slot)
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        assert max(xs) - min(xs) == max(ys) - min(ys) == MARKER_SIDE_MM
        zone = box(min(xs), min(ys), max(xs), max(ys)).buffer(QUIET_ZONE_MM, join_style="mitre")
        # Inside the frame line, in the back half, never under a shield bar (2.6 mm deep).
        assert frame.contains(zone)
        assert max(ys) < 0
        zones.append(zone)
    assert not zones[0].intersects(zones[1])
    for ruleset in ("lightspeed", "stellar"):
        for ship in catalog(ruleset).values():
            for laser in ship.lasers:
                stub = _stub(laser.at, laser.angle_deg)
                assert not any(zone.intersects(stub) for zone in zones), (ship.key, laser)


def test_the_square_from_the_top_left_is_the_corners_in_the_card_frame() -> None:
    for size in (CARD_SIZE_MM, (70.0, 100.0)):
        for slot in (0, 1):
            left, top = marker_square_from_top_left(slot, size)
            top_left = marker_corners_mm(slot, size)[0]
            assert top_left == (left - size[0] / 2, size[1] / 2 - top)
    # Slot 0 is back left, slot 1 back right, both near the back edge.
    assert marker_corners_mm(0)[3] == (-31.5 + 5.5, -44 + 5.5)
    assert marker_corners_mm(1)[2] == (31.5 - 5.5, -44 + 5.5)
    with pytest.raises(ValueError, match="slots 0 and 1"):
        marker_square_from_top_left(2)


def _draw_card(card: CardKey, px_per_mm: float) -> np.ndarray:
    """A white card drawn from the layout alone: its markers' cells at their squares."""
    width, length = CARD_SIZE_MM
    image = np.full((round(length * px_per_mm), round(width * px_per_mm)), 255, np.uint8)
    for slot, marker_id in enumerate(marker_ids(card.ruleset, card.ship, card.owner, card.copy)):
        left, top = marker_square_from_top_left(slot)
        cell = markers.CELL_MM * px_per_mm
        for row, cells in enumerate(marker_cells(marker_id)):
            for column, black in enumerate(cells):
                if black:
                    y0, x0 = (
                        round(top * px_per_mm + row * cell),
                        round(left * px_per_mm + column * cell),
                    )
                    y1 = round(top * px_per_mm + (row + 1) * cell)
                    x1 = round(left * px_per_mm + (column + 1) * cell)
                    image[y0:y1, x0:x1] = 0
    return image


@pytest.mark.parametrize(
    "card",
    [
        CardKey("lightspeed", "moth", "red"),
        CardKey("lightspeed", "dreadnought", "purple", 3),
        CardKey("stellar", "wiss-empyrean", "green"),
        CardKey(None, ASTEROID, None, 8),
    ],
)
def test_the_detector_reads_a_drawn_card_back(card: CardKey) -> None:
    px_per_mm = 8.0
    image = _draw_card(card, px_per_mm)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.DICTIONARY))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    assert ids is not None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    assert sorted(found) == list(marker_ids(card.ruleset, card.ship, card.owner, card.copy))
    for marker_id, pixels in found.items():
        named = card_for_marker(marker_id)
        assert named is not None
        assert named[0] == card
        expected = [
            ((x + CARD_SIZE_MM[0] / 2) * px_per_mm, (CARD_SIZE_MM[1] / 2 - y) * px_per_mm)
            for x, y in marker_corners_mm(named[1])
        ]
        # Pixel edges: a corner at x mm is the pixel boundary x * px_per_mm (within 1 px).
        assert np.abs(pixels - np.array(expected) + 0.5).max() < 1.0


def test_marker_cells_have_a_black_border() -> None:
    cells = marker_cells(0)
    assert len(cells) == len(cells[0]) == markers.MARKER_CELLS
    assert all(cells[0]) and all(cells[-1])
    assert all(row[0] and row[-1] for row in cells)
    assert cells != marker_cells(1)
    with pytest.raises(ValueError, match="outside DICT_6X6_1000"):
        marker_cells(1000)
