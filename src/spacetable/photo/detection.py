"""Finding the cards' markers in a photo (pure computation on the image given: no I/O).

1. :func:`detect_with_candidates`: OpenCV's ArUco detector over the whole photo, with two
   thresholding windows (fast: the cloth's patterns give it many candidates), each marker's
   corners then sharpened by :func:`refine_corners` (its sides' edges, sub-pixel);
2. :func:`look_again`: once a first fit places the table plane and the cards
   (:mod:`.solve`), the markers it missed are looked for again, each in a small crop of
   the photo enlarged (OpenCV reads a marker's cells from its nearest pixels, and a small,
   steep marker's cells are two pixels across), with the detector's full set of thresholds:
   where a found card's other marker must be, and where the first pass saw a square of the
   markers' size on the table that it could not read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from spacetable.i18n import N_
from spacetable.photo.markers import (
    DICTIONARY,
    MARKER_SIDE_MM,
    MARKERS_PER_CARD,
    CardKey,
    card_for_marker,
    marker_corners_mm,
)

#: numpy arrays (OpenCV's typing says little more about them).
Array = NDArray[Any]

#: How much :func:`look_again` enlarges a crop: a marker's side becomes this many px at
#: least (at most 4 times).
LOOK_AGAIN_SIDE_PX = 96
#: A candidate the first pass could not read is looked at again when the fitted table plane
#: makes it a square within this much of a marker's side (mm) and of a right angle (deg).
CANDIDATE_SIDE_MM = 4.0
CANDIDATE_ANGLE_DEG = 10.0


class PhotoError(ValueError):
    """The photo cannot give a table: no markers, a card cut off at the frame, two cards
    with the same marker, an unreadable image. ``key`` is the message in English with its
    ``{name}`` places (a catalog message, marked with ``N_``) and ``params`` what fills
    them, so that a reader's language can be written where it is shown (the browser);
    ``str()`` is the English sentence."""

    def __init__(self, key: str, **params: str | int) -> None:
        super().__init__(key.format(**params))
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class Marker:
    """One detected marker: its id, the card and slot it names, its four corners in the
    image (px, in OpenCV's order)."""

    id: int
    card: CardKey
    slot: int
    corners: tuple[tuple[float, float], ...]


def detector() -> cv2.aruco.ArucoDetector:
    """The ArUco detector for the cards' dictionary: sub-pixel corners, and small markers
    accepted down to 20 px a side (a card across the table from a 12-megapixel camera)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 4
    params.cornerRefinementMaxIterations = 50
    params.cornerRefinementMinAccuracy = 0.01
    # Markers 20 px a side and up (a perimeter of 2 % of a 4000 px photo): smaller ones
    # cannot be read, and the cloth's patterns give thousands of such candidates to try
    # (12 s of one core on one photo of the corpus instead of 0.8 s).
    params.minMarkerPerimeterRate = 0.02
    # Two thresholding windows, 7 and 17 px (measured on the corpus, seeds 0 to 19: windows
    # of 5, 15 and 25 px took 3 times the processor time, 1.8 s on the slowest photo, in
    # candidates from the cloth's pattern at the largest window, and read no more cards).
    params.adaptiveThreshWinSizeMin = 7
    params.adaptiveThreshWinSizeMax = 17
    params.adaptiveThreshWinSizeStep = 10
    # Read the cells of small, steep markers on a finer grid, their centres only, and
    # correct up to 3 bad bits of the 4 the dictionary can (measured on the corpus at 55 to
    # 60 degrees: 76 of 78 markers read instead of 68; 4 would risk naming another card).
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.25
    params.errorCorrectionRate = 0.8
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect(gray: Array) -> list[Marker]:
    """Every marker in a grayscale image whose id names a card (others are ignored).
    Raises :class:`PhotoError` if one id is seen twice (two cards with the same marker)."""
    return detect_with_candidates(gray)[0]


def detect_with_candidates(gray: Array) -> tuple[list[Marker], list[Array]]:
    """:func:`detect`'s markers, and the quadrilaterals the detector found but could not
    read (each (4, 2) px): where :func:`look_again` may find what it missed."""
    corners, ids, rejected = detector().detectMarkers(gray)
    candidates = [np.asarray(r, dtype=np.float64).reshape(4, 2) for r in rejected]
    if ids is None:
        return [], candidates
    sharp = refine_corners(gray, np.array([c.reshape(4, 2) for c in corners], dtype=np.float64))
    return _named(zip(ids.ravel().tolist(), sharp, strict=True)), candidates


def _named(found_quads: Any) -> list[Marker]:
    """Markers from (id, quad) pairs, those whose id names a card, by id. Raises
    :class:`PhotoError` for an id seen twice."""
    found: dict[int, Marker] = {}
    for raw_id, quad in found_quads:
        marker_id = int(raw_id)
        named = card_for_marker(marker_id)
        if named is None:
            continue
        points = tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(4, 2))
        if marker_id in found:
            other = found[marker_id].corners[0]
            raise PhotoError(
                N_(
                    "two cards carry the same marker {marker} ({card}), at {first} and "
                    "{second} px: print each card once"
                ),
                marker=marker_id,
                card=named[0].card_id,
                first=f"({other[0]:.0f}, {other[1]:.0f})",
                second=f"({points[0][0]:.0f}, {points[0][1]:.0f})",
            )
        found[marker_id] = Marker(marker_id, named[0], named[1], points)
    return sorted(found.values(), key=lambda m: m.id)


def refine_corners(gray: Array, quads: Array) -> Array:
    """Sharper corners for markers found at ``quads`` (n, 4, 2 px): each side's edge is
    located where the brightness changes fastest across it (a parabola through the
    gradient's peak, on profiles sampled across the side), a straight line is fitted
    through those edge points, and the corners are where the lines meet. Unlike a corner
    search, a symmetric lens blur moves no edge, so a blurred black square is not found
    smaller than it is (OpenCV's sub-pixel corners shrink it by about 1 %)."""
    n = quads.shape[0]
    if n == 0:
        return quads
    samples = 24
    along = np.linspace(0.15, 0.85, samples)
    start = quads
    end = np.roll(quads, -1, axis=1)
    side = end - start  # (n, 4, 2)
    length = np.linalg.norm(side, axis=2, keepdims=True)
    unit = side / length
    # OpenCV's corners go clockwise on screen, so the outward normal is (uy, -ux).
    normal = np.stack([unit[..., 1], -unit[..., 0]], axis=2)
    # Most of a cell across each side: a cell's size there is the next sides' eighth.
    across = (np.roll(length[..., 0], 1, axis=1) + np.roll(length[..., 0], -1, axis=1)) / 2
    reach = np.clip(across / 8 * 0.8, 1.0, 6.0)
    steps = np.linspace(-1.0, 1.0, 17)
    base = start[:, :, None, :] + along[None, None, :, None] * side[:, :, None, :]
    offsets = steps[None, None, None, :, None] * reach[:, :, None, None, None]
    points = base[:, :, :, None, :] + offsets * normal[:, :, None, None, :]
    profile = _profiles(gray, points).reshape(-1, steps.size)
    grad = np.diff(profile, axis=1)  # outward: dark inside to light outside, positive
    peak = np.argmax(grad, axis=1)
    peak = np.clip(peak, 1, grad.shape[1] - 2)
    rows = np.arange(grad.shape[0])
    g0, g1, g2 = grad[rows, peak - 1], grad[rows, peak], grad[rows, peak + 1]
    denominator = g0 - 2 * g1 + g2
    shift = np.divide(
        0.5 * (g0 - g2), denominator, out=np.zeros_like(g1), where=np.abs(denominator) > 1e-9
    )
    position = peak + 0.5 + np.clip(shift, -0.5, 0.5)  # between samples peak and peak+1
    spacing = 2.0 / (steps.size - 1)
    t = (-1.0 + position * spacing).reshape(n, 4, samples) * reach[:, :, None]
    strong = (g1 > 0.25 * np.median(g1)).reshape(n, 4, samples)
    edge = base + t[..., None] * normal[:, :, None, :]
    lines = np.empty((n, 4, 3))
    for i in range(n):
        for k in range(4):
            pts = edge[i, k][strong[i, k]]
            if pts.shape[0] < 4:
                pts = edge[i, k]
            centre = pts.mean(axis=0)
            _, _, vt = np.linalg.svd(pts - centre)
            nrm = vt[1]
            lines[i, k] = (nrm[0], nrm[1], -float(nrm @ centre))
    out = np.empty_like(quads)
    for i in range(n):
        for k in range(4):
            a, b = lines[i, k - 1], lines[i, k]  # the sides before and after corner k
            cross = np.cross(a, b)
            if abs(cross[2]) < 1e-12:
                out[i, k] = quads[i, k]
            else:
                corner = cross[:2] / cross[2]
                moved = float(np.hypot(*(corner - quads[i, k])))
                out[i, k] = corner if moved < 3.0 else quads[i, k]
    return out


def _profiles(gray: Array, points: Array) -> Array:
    """The brightness at ``points`` (n, ..., 2 px), bilinear, each marker's read from a
    float copy of its own neighbourhood only (a float copy of a whole 12-megapixel photo
    costs more than the rest of the refinement)."""
    height, width = gray.shape[:2]
    out = np.empty(points.shape[:-1])
    for i in range(points.shape[0]):
        mine = points[i].reshape(-1, 2)
        x0, y0 = np.clip(np.floor(mine.min(axis=0)).astype(int) - 1, 0, None)
        x1 = min(int(np.ceil(mine[:, 0].max())) + 2, width)
        y1 = min(int(np.ceil(mine[:, 1].max())) + 2, height)
        x0, y0 = min(x0, width - 1), min(y0, height - 1)
        x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
        patch = gray[y0:y1, x0:x1].astype(np.float32)
        map_x = (mine[:, 0] - x0).astype(np.float32).reshape(1, -1)
        map_y = (mine[:, 1] - y0).astype(np.float32).reshape(1, -1)
        sampled = cv2.remap(patch, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out[i] = sampled.reshape(points.shape[1:-1])
    return out


def _detector_for_crops() -> cv2.aruco.ArucoDetector:
    """The detector :func:`look_again` runs on an enlarged crop: one marker fills it, so
    every thresholding window from 5 to 45 px is tried (cheap on a crop)."""
    found = detector()
    params = found.getDetectorParameters()
    params.minMarkerPerimeterRate = 0.3
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 45
    params.adaptiveThreshWinSizeStep = 8
    found.setDetectorParameters(params)
    return found


def _to_plane(h: Array, points: Array) -> Array:
    ones = np.hstack([points, np.ones((points.shape[0], 1))]) @ np.linalg.inv(h).T
    out: Array = ones[:, :2] / ones[:, 2:3]
    return out


def _to_image(h: Array, points: Array) -> Array:
    ones = np.hstack([points, np.ones((points.shape[0], 1))]) @ h.T
    out: Array = ones[:, :2] / ones[:, 2:3]
    return out


def _looks_like_a_marker(h: Array, quad: Array) -> bool:
    """Whether the plane seen through ``h`` (mm to px) makes ``quad`` (px) a square of a
    marker's side."""
    plane = _to_plane(h, quad)
    sides = np.roll(plane, -1, axis=0) - plane
    lengths = np.linalg.norm(sides, axis=1)
    if np.abs(lengths - MARKER_SIDE_MM).max() > CANDIDATE_SIDE_MM:
        return False
    for k in range(4):
        a, b = sides[k - 1], sides[k]
        cosine = abs(float(a @ b)) / max(float(lengths[k - 1] * lengths[k]), 1e-9)
        if math.degrees(math.asin(min(cosine, 1.0))) > CANDIDATE_ANGLE_DEG:
            return False
    return True


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A card a first fit placed: which card, its pose on the plane of ``h`` (mm, rad)."""

    key: CardKey
    x: float
    y: float
    theta: float


def look_again(
    gray: Array,
    h: Array,
    cards: list[PlacedCard],
    markers: list[Marker],
    candidates: list[Array],
) -> list[Marker]:
    """The markers a first pass missed, found in enlarged crops (see the module
    docstring): where the plane of ``h`` (mm to image px) and each card's pose put a found
    card's missing marker, and around each candidate quadrilateral the plane makes a
    marker's square. Only ids not in ``markers`` are returned; a crop around a found
    card's missing marker only gives that marker."""
    seen = {m.id for m in markers}
    by_key = {card.key: card for card in cards}
    have: dict[CardKey, set[int]] = {}
    for marker in markers:
        have.setdefault(marker.card, set()).add(marker.slot)
    targets: list[tuple[Array, int | None]] = []
    for key, slots in have.items():
        card = by_key.get(key)
        if card is None or len(slots) == MARKERS_PER_CARD:
            continue
        c, s = math.cos(card.theta), math.sin(card.theta)
        any_id = next(m.id for m in markers if m.card == key)
        for slot in set(range(MARKERS_PER_CARD)) - slots:
            local = np.array(marker_corners_mm(slot), dtype=np.float64)
            rotated = local @ np.array([[c, s], [-s, c]])
            plane = rotated + np.array([card.x, card.y])
            targets.append((_to_image(h, plane), any_id - any_id % 2 + slot))
    found_centres = [np.mean(m.corners, axis=0) for m in markers]
    for quad in candidates:
        centre = quad.mean(axis=0)
        side = float(np.linalg.norm(quad[1] - quad[0]))
        if any(np.linalg.norm(centre - f) < side for f in found_centres):
            continue
        if _looks_like_a_marker(h, quad):
            targets.append((quad, None))
    if not targets:
        return []
    reader = _detector_for_crops()
    height, width = gray.shape[:2]
    extra: list[tuple[int, Array]] = []
    for quad, wanted in targets:
        side = float(min(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)))
        span = quad.max(axis=0) - quad.min(axis=0)
        x0, y0 = np.floor(quad.min(axis=0) - 0.6 * span).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0) + 0.6 * span).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        scale = float(np.clip(LOOK_AGAIN_SIDE_PX / max(side, 1.0), 1.0, 4.0))
        crop = cv2.resize(
            gray[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC
        )
        corners, ids, _ = reader.detectMarkers(crop)
        if ids is None:
            continue
        for raw_id, quad_found in zip(ids.ravel().tolist(), corners, strict=True):
            marker_id = int(raw_id)
            if marker_id in seen or (wanted is not None and marker_id != wanted):
                continue
            if card_for_marker(marker_id) is None:
                continue
            # Back to the photo's pixels (pixel centres: x' = (x + 0.5) / scale - 0.5).
            back = (quad_found.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5
            extra.append((marker_id, back + np.array([x0, y0], dtype=np.float64)))
            seen.add(marker_id)
    if not extra:
        return []
    sharp = refine_corners(gray, np.array([quad for _, quad in extra]))
    return _named(zip([i for i, _ in extra], sharp, strict=True))
