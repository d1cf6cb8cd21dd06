"""Synthetic photos of printed cards on a table, with their ground truth: the corpus the
photo referee is measured on (``spacetable bench --photo``) and tested with.

Everything follows from a seed (numpy's ``Generator``): the cards (Light Speed ships of
up to four colours and an asteroid, or Stellar Conflict races), their poses on the table
(none touching), the camera (20 to 60 degrees off vertical, a little roll, 12 megapixels
by default), and what a real photo adds: a patterned table cloth, uneven light, a partial
shadow, lens blur and sensor noise. Card faces are drawn here after the print layout
(:mod:`.markers`): the light margin, the dark panel, some art, the speed and name, the
laser beams, and the markers on their white quiet zones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from spacetable.lasers.printed import PRINTED_DECKS
from spacetable.lasers.tables import catalog
from spacetable.photo.markers import (
    ASTEROID,
    CARD_SIZE_MM,
    CELL_MM,
    FRAME_INSET_MM,
    MARKER_SIDE_MM,
    QUIET_ZONE_MM,
    CardKey,
    marker_cells,
    marker_ids,
    marker_square_from_top_left,
)

Image = NDArray[Any]
#: numpy arrays (OpenCV's typing says little more about them).
Array = NDArray[Any]

#: 12 megapixels, 4:3.
PHOTO_SIZE = (4000, 3000)
_TEAM_BGR = {
    "red": (0, 94, 213),
    "blue": (178, 114, 0),
    "green": (115, 158, 0),
    "purple": (167, 121, 204),
}


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A card of the ground truth: which card and where it lies (table mm, degrees
    counter-clockwise, in the photo's table frame of DESIGN section 3)."""

    key: CardKey
    x: float
    y: float
    rotation_deg: float


@dataclass(frozen=True, slots=True)
class Shot:
    """One synthetic photo: the image (BGR), the ground truth and the camera's tilt."""

    image: Image
    cards: tuple[PlacedCard, ...]
    ruleset: str
    tilt_deg: float
    homography: Array  # table frame mm -> image px


def card_face(key: CardKey, px_per_mm: float, seed: int = 0) -> Image:
    """A card face (BGR, upright, front edge at the top) drawn at ``px_per_mm`` after the
    print layout, with its markers."""
    width, length = CARD_SIZE_MM
    rng = np.random.default_rng(seed)
    w, h = round(width * px_per_mm), round(length * px_per_mm)
    face = np.full((h, w, 3), (222, 236, 240), np.uint8)
    inset = round(FRAME_INSET_MM * px_per_mm)
    team = _TEAM_BGR.get(key.owner or "", (90, 90, 90))
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), team, max(1, round(1.2 * px_per_mm)))
    cv2.rectangle(face, (inset, inset), (w - inset, h - inset), (48, 23, 15), -1)
    for _ in range(14):  # the art: light shapes around the middle
        centre = (int(rng.uniform(0.3, 0.7) * w), int(rng.uniform(0.25, 0.55) * h))
        axes = (int(rng.uniform(2, 12) * px_per_mm), int(rng.uniform(2, 16) * px_per_mm))
        grey = int(rng.uniform(120, 230))
        cv2.ellipse(face, centre, axes, rng.uniform(0, 180), 0, 360, (grey, grey, grey), -1)
    if key.ship != ASTEROID:
        ruleset = key.ruleset or PRINTED_DECKS[0].ruleset
        ship = catalog(ruleset)[key.ship]
        box = (round(1.2 * px_per_mm), round(1.2 * px_per_mm))
        far = (round(10.2 * px_per_mm), round(10.7 * px_per_mm))
        cv2.rectangle(face, box, far, (255, 255, 255), -1)
        cv2.putText(
            face,
            str(ship.speeds[0]),
            (round(3 * px_per_mm), round(9 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            px_per_mm * 0.25,
            (48, 34, 29),
            max(1, round(px_per_mm * 0.6)),
        )
        for laser in ship.lasers:
            ax, ay = laser.at
            dx = -math.sin(math.radians(laser.angle_deg))
            dy = math.cos(math.radians(laser.angle_deg))
            end = ((ax + width / 2) * px_per_mm, (length / 2 - ay) * px_per_mm)
            start = (end[0] - 10 * dx * px_per_mm, end[1] + 10 * dy * px_per_mm)
            cv2.line(
                face,
                (round(start[0]), round(start[1])),
                (round(end[0]), round(end[1])),
                (43, 20, 227),
                max(1, round(1.5 * px_per_mm)),
            )
        name = ship.name
    else:
        name = "Asteroid"
    cv2.putText(
        face,
        name,
        (round(14 * px_per_mm), round(62 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        px_per_mm * 0.2,
        (255, 255, 255),
        max(1, round(px_per_mm * 0.4)),
    )
    for slot, marker_id in enumerate(marker_ids(key.ruleset, key.ship, key.owner, key.copy)):
        left, top = marker_square_from_top_left(slot)
        q = QUIET_ZONE_MM
        cv2.rectangle(
            face,
            (round((left - q) * px_per_mm), round((top - q) * px_per_mm)),
            (
                round((left + MARKER_SIDE_MM + q) * px_per_mm) - 1,
                round((top + MARKER_SIDE_MM + q) * px_per_mm) - 1,
            ),
            (255, 255, 255),
            -1,
        )
        for row, cells in enumerate(marker_cells(marker_id)):
            for column, black in enumerate(cells):
                if black:
                    x0 = round((left + column * CELL_MM) * px_per_mm)
                    y0 = round((top + row * CELL_MM) * px_per_mm)
                    x1 = round((left + (column + 1) * CELL_MM) * px_per_mm)
                    y1 = round((top + (row + 1) * CELL_MM) * px_per_mm)
                    face[y0:y1, x0:x1] = (20, 20, 20)
    return face


def _corners(card: PlacedCard) -> Array:
    hw, hl = CARD_SIZE_MM[0] / 2, CARD_SIZE_MM[1] / 2
    c, s = math.cos(math.radians(card.rotation_deg)), math.sin(math.radians(card.rotation_deg))
    local = np.array([[hw, hl], [-hw, hl], [-hw, -hl], [hw, -hl]])
    return np.stack(
        [card.x + c * local[:, 0] - s * local[:, 1], card.y + s * local[:, 0] + c * local[:, 1]],
        axis=1,
    )


def _apart(a: Array, b: Array, gap: float) -> bool:
    """Whether two convex quads are at least ``gap`` mm apart along some separating axis."""
    for quad in (a, b):
        for i in range(4):
            edge = quad[(i + 1) % 4] - quad[i]
            axis = np.array([-edge[1], edge[0]]) / np.hypot(*edge)
            pa, pb = a @ axis, b @ axis
            if pa.max() + gap <= pb.min() or pb.max() + gap <= pa.min():
                return True
    return False


def layout(rng: np.random.Generator, count: int) -> tuple[str, list[PlacedCard]]:
    """``count`` cards (6 to 40) of one ruleset at random poses, at least 4 mm apart, on
    a table about five times their area, in a frame centred on their bounding box."""
    # Mostly the first printed deck's cards (Light Speed's, two copies of each: room for
    # 80 cards), else the second's (Stellar Conflict's, one copy of every race's ships).
    first, second = PRINTED_DECKS[:2]
    deck = first if rng.random() < 0.7 or count > 4 * 20 else second
    ruleset = deck.ruleset
    owners = deck.colours[: int(rng.integers(2, 5))]
    pool = [
        CardKey(ruleset, ship, owner, copy)
        for owner in owners
        for ship in catalog(ruleset)
        for copy in range(1, min(deck.copies, 2) + 1)
    ]
    chosen = [pool[i] for i in rng.choice(len(pool), size=count - 1, replace=False)]
    chosen.insert(0, CardKey(None, ASTEROID, None))
    side_x = math.sqrt(count * CARD_SIZE_MM[0] * CARD_SIZE_MM[1] * 5.0 * 4 / 3)
    side_y = side_x * 3 / 4
    placed: list[PlacedCard] = []
    for key in chosen:
        for _ in range(5000):
            card = PlacedCard(
                key,
                float(rng.uniform(-side_x / 2, side_x / 2)),
                float(rng.uniform(-side_y / 2, side_y / 2)),
                float(rng.uniform(-180.0, 180.0)),
            )
            quad = _corners(card)
            if all(_apart(quad, _corners(other), 4.0) for other in placed):
                placed.append(card)
                break
        else:  # pragma: no cover - the table is five times the cards' area
            raise RuntimeError("no room left on the synthetic table")
    pts = np.vstack([_corners(c) for c in placed])
    mid = (pts.min(axis=0) + pts.max(axis=0)) / 2
    return ruleset, [PlacedCard(c.key, c.x - mid[0], c.y - mid[1], c.rotation_deg) for c in placed]


def camera(
    cards: list[PlacedCard], tilt_deg: float, roll_deg: float, size: tuple[int, int]
) -> Array:
    """The homography (table mm -> image px) of a pinhole camera looking at the cards'
    middle from ``tilt_deg`` off vertical (from the table's -y side) with ``roll_deg`` of
    roll, zoomed so that the cards fill about 85 % of the frame."""
    t, r = math.radians(tilt_deg), math.radians(roll_deg)
    forward = np.array([0.0, math.sin(t), -math.cos(t)])
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)
    right, down = (
        math.cos(r) * right + math.sin(r) * down,
        -math.sin(r) * right + math.cos(r) * down,
    )
    rotation = np.stack([right, down, forward])
    pts = np.vstack([_corners(c) for c in cards])
    extent = float(np.hypot(*(pts.max(axis=0) - pts.min(axis=0))))
    position = -1.4 * extent * forward  # looking at the origin from 1.4 diagonals away
    extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ position])
    width, height = size

    def project(focal: float) -> Array:
        k = np.array([[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]])
        matrix: Array = k @ extrinsic
        return matrix

    h = project(1.0)
    ones = np.hstack([pts, np.ones((pts.shape[0], 1))])
    img = ones @ h.T
    img = img[:, :2] / img[:, 2:3] - np.array([width / 2, height / 2])
    focal = 0.85 * min(width / 2 / np.abs(img[:, 0]).max(), height / 2 / np.abs(img[:, 1]).max())
    h = project(focal)
    out: Array = h / h[2, 2]
    return out


def _cloth(h: Array, size: tuple[int, int], rng: np.random.Generator) -> Image:
    """A plaid table cloth seen through ``h``, computed on a coarse grid then enlarged."""
    width, height = size
    step = 4
    gx, gy = np.meshgrid(
        np.arange(0, width, step, dtype=np.float64), np.arange(0, height, step, dtype=np.float64)
    )
    inverse = np.linalg.inv(h)
    w = inverse[2, 0] * gx + inverse[2, 1] * gy + inverse[2, 2]
    tx = (inverse[0, 0] * gx + inverse[0, 1] * gy + inverse[0, 2]) / w
    ty = (inverse[1, 0] * gx + inverse[1, 1] * gy + inverse[1, 2]) / w
    period = rng.uniform(15, 40)
    stripes_x = 0.5 + 0.5 * np.sin(2 * np.pi * tx / period)
    stripes_y = 0.5 + 0.5 * np.sin(2 * np.pi * ty / (period * rng.uniform(0.6, 1.4)))
    base = rng.uniform(40, 140, size=3)
    accent = rng.uniform(60, 200, size=3)
    cloth = base[None, None, :] + (accent - base)[None, None, :] * (
        0.5 * stripes_x[..., None] + 0.5 * stripes_y[..., None]
    )
    small = np.clip(cloth, 0, 255).astype(np.uint8)
    big: Image = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    return big


def _paste(photo: Image, face: Image, h_face: Array) -> None:
    """Warp a card face (face px -> image px through ``h_face``) onto the photo, only
    within the card's bounding box."""
    fh, fw = face.shape[:2]
    outline = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float64)
    ones = np.hstack([outline, np.ones((4, 1))]) @ h_face.T
    quad = ones[:, :2] / ones[:, 2:3]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, photo.shape[1]), min(y1, photo.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ h_face
    box = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpPerspective(face, shift, box, flags=cv2.INTER_LINEAR)
    mask = (
        cv2.warpPerspective(
            np.full((fh, fw), 255, np.uint8), shift, box, flags=cv2.INTER_LINEAR
        ).astype(np.float32)[..., None]
        / 255.0
    )
    region = photo[y0:y1, x0:x1].astype(np.float32)
    photo[y0:y1, x0:x1] = (region * (1 - mask) + warped * mask).astype(np.uint8)


#: Draws a card face (BGR, upright) at a whole number of px per mm.
Faces = Callable[[CardKey, int], Image]


def render(
    seed: int,
    count: int | None = None,
    tilt_deg: float | None = None,
    size: tuple[int, int] = PHOTO_SIZE,
    faces: Faces | None = None,
) -> Shot:
    """The synthetic photo of ``seed``: ``count`` cards (default: 6 to 40 from the seed)
    seen from ``tilt_deg`` off vertical (default: 20 to 60 from the seed), their faces
    drawn by ``faces`` (default: :func:`card_face`)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 41)) if count is None else count
    tilt = float(rng.uniform(20, 60)) if tilt_deg is None else tilt_deg
    ruleset, cards = layout(rng, n)
    return photograph(cards, ruleset, tilt, rng, size, faces)


def photograph(
    cards: list[PlacedCard],
    ruleset: str,
    tilt_deg: float,
    rng: np.random.Generator,
    size: tuple[int, int] = PHOTO_SIZE,
    faces: Faces | None = None,
) -> Shot:
    """Photograph ``cards`` lying on a cloth from ``tilt_deg`` off vertical, with a little
    roll, uneven light, a shadow, blur and noise drawn from ``rng``; ``faces`` draws the
    card faces (default: :func:`card_face`)."""
    roll = float(rng.uniform(-8, 8))
    h = camera(cards, tilt_deg, roll, size)
    photo = _cloth(h, size, rng)
    for card in cards:
        # Draw the face at twice the photo's scale or more, blurred to it (no aliasing).
        jac = _local_scale(h, card.x, card.y)
        ppm = int(np.clip(round(2.0 * jac), 6, 16))
        art = int(rng.integers(1 << 30))
        face = card_face(card.key, ppm, art) if faces is None else faces(card.key, ppm)
        face_to_card = np.array(
            [
                [1 / ppm, 0.0, -CARD_SIZE_MM[0] / 2 + 0.5 / ppm],
                [0.0, -1 / ppm, CARD_SIZE_MM[1] / 2 - 0.5 / ppm],
                [0.0, 0.0, 1.0],
            ]
        )
        c, s = math.cos(math.radians(card.rotation_deg)), math.sin(math.radians(card.rotation_deg))
        pose = np.array([[c, -s, card.x], [s, c, card.y], [0.0, 0.0, 1.0]])
        soft = cv2.GaussianBlur(face, (0, 0), 0.5 * ppm / max(jac, 1e-6))
        _paste(photo, soft, h @ pose @ face_to_card)
    photo = _light_and_lens(photo, rng)
    return Shot(photo, tuple(cards), ruleset, tilt_deg, h)


def _local_scale(h: Array, x: float, y: float) -> float:
    """Image px per table mm near a point (the smaller axis)."""
    pts = np.array([[x, y, 1.0], [x + 1, y, 1.0], [x, y + 1, 1.0]]) @ h.T
    pts = pts[:, :2] / pts[:, 2:3]
    return float(min(np.hypot(*(pts[1] - pts[0])), np.hypot(*(pts[2] - pts[0]))))


def _light_and_lens(photo: Image, rng: np.random.Generator) -> Image:
    """Uneven light (a gradient and a vignette), one soft-edged shadow, lens blur, noise."""
    height, width = photo.shape[:2]
    small = (width // 8, height // 8)
    gx, gy = np.meshgrid(np.linspace(-1, 1, small[0]), np.linspace(-1, 1, small[1]))
    angle = rng.uniform(0, 2 * math.pi)
    light = 0.85 + 0.2 * (math.cos(angle) * gx + math.sin(angle) * gy) - 0.15 * (gx**2 + gy**2)
    shadow = np.zeros((small[1], small[0]), np.float32)
    centre = np.array([rng.uniform(0, small[0]), rng.uniform(0, small[1])])
    radius = rng.uniform(0.1, 0.3) * small[0]
    points = [
        centre + radius * rng.uniform(0.6, 1.4) * np.array([math.cos(a), math.sin(a)])
        for a in np.sort(rng.uniform(0, 2 * math.pi, size=7))
    ]
    cv2.fillPoly(shadow, [np.array(points, dtype=np.int32)], 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 3.0)
    light = light * (1 - 0.4 * shadow)
    gain = cv2.resize(light.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    lit: Array = photo.astype(np.float32) * gain[..., None]
    blurred: Array = cv2.GaussianBlur(lit, (0, 0), float(rng.uniform(0.6, 1.3)))
    blurred += rng.normal(0.0, float(rng.uniform(2.0, 5.0)), size=blurred.shape).astype(np.float32)
    out: Image = np.clip(blurred, 0, 255).astype(np.uint8)
    return out


def truth_in_frame(shot: Shot, only: set[CardKey] | None = None) -> list[PlacedCard]:
    """The ground truth in the table file's frame as the photo defines it (x toward the
    photo's right at its centre, origin at the cards' bounding box centre), of the cards
    in ``only`` (default: all; the bounding box is theirs)."""
    from spacetable.photo.solve import table_frame

    cards = [c for c in shot.cards if only is None or c.key in only]
    poses = np.array([[c.x, c.y, math.radians(c.rotation_deg)] for c in cards])
    height, width = shot.image.shape[:2]
    frame, turn = table_frame(shot.homography, (width, height), poses)
    out = []
    for card, (x, y, theta) in zip(cards, poses, strict=True):
        p = frame @ np.array([x, y, 1.0])
        rotation = (math.degrees(theta + turn) + 180.0) % 360.0 - 180.0
        out.append(PlacedCard(card.key, float(p[0]), float(p[1]), rotation))
    return out
