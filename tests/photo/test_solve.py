"""Poses from rendered photos: the cards a player laid out come back where they lie, within
the issue's targets, and a photo that cannot give a table says why."""

from __future__ import annotations

import math
import statistics

import cv2
import numpy as np
import pytest

from spacetable.photo import synth
from spacetable.photo.markers import CardKey
from spacetable.photo.solve import PhotoError, detect, solve
from spacetable.photo.table import decode, photo_table

#: Smaller than the corpus's 12 megapixels so the tests stay quick; fewer cards to match.
SIZE = (2400, 1800)


def _errors(shot: synth.Shot) -> tuple[list[float], list[float], int]:
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    solution = solve(detect(gray), SIZE)
    truth = {c.key: c for c in synth.truth_in_frame(shot)}
    centre, turn = [], []
    for card in solution.cards:
        real = truth[card.key]
        centre.append(math.hypot(card.x - real.x, card.y - real.y))
        turn.append(abs((card.rotation_deg - real.rotation_deg + 180.0) % 360.0 - 180.0))
    return centre, turn, len(solution.cards)


@pytest.mark.parametrize(("seed", "tilt"), [(11, 20.0), (12, 45.0), (13, 60.0)])
def test_poses_come_back_within_the_targets(seed: int, tilt: float) -> None:
    shot = synth.render(seed, count=10, tilt_deg=tilt, size=SIZE)
    centre, turn, found = _errors(shot)
    assert found == len(shot.cards)
    assert statistics.median(centre) < 1.0
    assert max(centre) < 3.0
    assert statistics.median(turn) < 0.3


def test_the_table_file_names_the_cards_and_players() -> None:
    shot = synth.render(14, count=8, tilt_deg=35.0, size=SIZE)
    found = photo_table(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    table = found.table
    assert table["ruleset"] == shot.ruleset
    assert {c["id"] for c in table["cards"]} == {c.key.card_id for c in shot.cards}
    owners = {c.key.owner for c in shot.cards if c.key.owner}
    assert set(table["players"]) == owners
    truth = {c.key.card_id: c for c in synth.truth_in_frame(shot)}
    for row in table["cards"]:
        assert math.hypot(row["x"] - truth[row["id"]].x, row["y"] - truth[row["id"]].y) < 1.5
    # The origin is the middle of the cards' bounding box.
    for card in found.cards:
        assert 0 < found.sigma_mm(card) < 1.0
        assert 0 < found.sigma_deg(card) < 0.5


def test_a_photo_without_markers_says_so() -> None:
    rng = np.random.default_rng(1)
    cloth = rng.integers(60, 200, size=(600, 800), dtype=np.uint8)
    with pytest.raises(PhotoError, match="no card markers found"):
        photo_table(cloth)


def test_a_card_cut_off_at_the_frame_is_named() -> None:
    shot = synth.render(15, count=6, tilt_deg=30.0, size=SIZE)
    outlines = []
    for card in shot.cards:
        corners = synth._corners(card)
        pts = np.hstack([corners, np.ones((4, 1))]) @ shot.homography.T
        outlines.append((pts[:, 0] / pts[:, 2]).min())
    leftmost = int(np.argmin(outlines))
    cut = int(outlines[leftmost]) + 4  # a sliver of the card's corner
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)[:, cut:]
    name = shot.cards[leftmost].key.card_id
    with pytest.raises(PhotoError, match=f"card {name} is cut off at the photo's edge"):
        photo_table(np.ascontiguousarray(gray))


def test_two_cards_with_the_same_marker_are_refused() -> None:
    rng = np.random.default_rng(16)
    _, cards = synth.layout(rng, 6)
    twin = cards[2]
    cards[3] = synth.PlacedCard(twin.key, cards[3].x, cards[3].y, cards[3].rotation_deg)
    shot = synth.photograph(cards, "lightspeed", 30.0, rng, SIZE)
    with pytest.raises(PhotoError, match=f"two cards carry the same marker .*{twin.key.card_id}"):
        photo_table(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))


def _recast(cards: list[synth.PlacedCard], keys: list[CardKey]) -> list[synth.PlacedCard]:
    """The same poses, other cards."""
    return [synth.PlacedCard(k, c.x, c.y, c.rotation_deg) for k, c in zip(keys, cards, strict=True)]


def test_cards_of_two_games_or_one_player_are_refused() -> None:
    rng = np.random.default_rng(17)
    _, cards = synth.layout(rng, 4)
    mixed = [
        CardKey("lightspeed", "moth", "red"),
        CardKey("lightspeed", "wasp", "blue"),
        CardKey("stellar", "wiss-lancet", "blue"),
        CardKey(None, "asteroid", None),
    ]
    shot = synth.photograph(_recast(cards, mixed), "lightspeed", 25.0, rng, SIZE)
    with pytest.raises(PhotoError, match="mixes Light Speed and Stellar Conflict cards"):
        photo_table(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    alone = [CardKey("lightspeed", ship, "red") for ship in ("moth", "wasp", "viper", "ghost")]
    shot = synth.photograph(_recast(cards, alone), "lightspeed", 25.0, rng, SIZE)
    with pytest.raises(PhotoError, match="shows only red's cards"):
        photo_table(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))


def test_bytes_that_are_no_image_are_named() -> None:
    with pytest.raises(PhotoError, match=r"table\.jpg: cannot read it as an image"):
        decode(b"not a photo at all", "table.jpg")
