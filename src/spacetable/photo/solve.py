"""From one photo of the table to every marked card's pose on the table plane.

1. OpenCV's ArUco detector finds the markers (:mod:`.markers`, :mod:`.detection`), with
   sub-pixel corners; each id names a card and the marker's place on it.
2. The table plane's homography and every card's pose are fitted **jointly** to all the
   markers' corners: a first guess (one card's own homography, then rigid poses and a
   RANSAC homography over every marker, a few rounds), then Levenberg-Marquardt on the
   reprojection error in the image; a marker whose corners stay far off the fit is dropped
   and the fit redone on the others (a card held by one good marker keeps its pose).
3. The poses are given in the table file's frame (DESIGN section 3 and
   ``docs/formats.md``): x toward the photo's right (at the photo's centre), y away from
   the camera, angles counter-clockwise, origin at the centre of the cards' bounding box;
   each with its standard deviation from the fit (``sigma_mm`` for the centre, the larger
   axis of its error ellipse, and ``sigma_deg``).

Errors the user can act on raise :class:`PhotoError` with one line naming the problem.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from spacetable.i18n import N_
from spacetable.photo.detection import Marker, PhotoError, detect, detector, refine_corners
from spacetable.photo.markers import CARD_SIZE_MM, CardKey, marker_corners_mm

__all__ = [
    "FoundCard",
    "Marker",
    "PhotoError",
    "Solution",
    "detect",
    "detector",
    "refine_corners",
    "solve",
    "table_frame",
]

#: numpy arrays (OpenCV's typing says little more about them).
Array = NDArray[Any]

#: A marker whose corners fit worse than both of these (px; times the median marker's)
#: is taken for a bad one and dropped, unless it is its card's last. Measured on the
#: corpus: at 55 to 60 degrees off vertical, good small markers fit up to 5 times worse
#: than the median (1 px and 4 times dropped four good markers of one photo, and a card
#: held by its other marker alone came out 1.6 mm off instead of 0.3).
OUTLIER_PX = 1.5
OUTLIER_RATIO = 6.0


@dataclass(frozen=True, slots=True)
class FoundCard:
    """A card found in the photo: its pose in the table frame (mm, degrees
    counter-clockwise), the pose's standard deviations, and the markers that placed it."""

    key: CardKey
    x: float
    y: float
    rotation_deg: float
    sigma_mm: float
    sigma_deg: float
    markers: tuple[int, ...]
    #: The card's four corners in the image (px), counter-clockwise from front-right.
    outline_px: tuple[tuple[float, float], ...]
    #: Covariance of (x, y, rotation) in the table frame (mm², mm·rad, rad²).
    covariance: tuple[tuple[float, ...], ...]


@dataclass(frozen=True, slots=True)
class Solution:
    """Every card found, the homography from the table frame (mm) to the image (px), the
    markers dropped as bad, and the fit's residual (px, root mean square)."""

    cards: tuple[FoundCard, ...]
    homography: tuple[tuple[float, ...], ...]
    dropped: tuple[int, ...]
    rms_px: float


# --- the joint fit ---------------------------------------------------------------------


def _pose_matrix(x: float, y: float, theta: float) -> Array:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s, x], [s, c, y], [0.0, 0.0, 1.0]])


def _apply(h: Array, points: Array) -> Array:
    """A homography applied to an (n, 2) array of points."""
    ones = np.ones((points.shape[0], 1))
    mapped: Array = np.hstack([points, ones]) @ h.T
    return mapped[:, :2] / mapped[:, 2:3]


def _rigid_fit(local: Array, plane: Array) -> tuple[float, float, float]:
    """The rigid motion (x, y, theta) taking ``local`` points closest to ``plane`` ones."""
    lc, pc = local.mean(axis=0), plane.mean(axis=0)
    a, b = local - lc, plane - pc
    theta = math.atan2(float(np.sum(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])), float(np.sum(a * b)))
    c, s = math.cos(theta), math.sin(theta)
    x = pc[0] - (c * lc[0] - s * lc[1])
    y = pc[1] - (s * lc[0] + c * lc[1])
    return float(x), float(y), theta


@dataclass
class _Problem:
    """The markers to fit: for each, its card's index, its corners in the card frame (mm)
    and in the image (normalized coordinates)."""

    card_of: list[int]
    local: list[Array]
    image: list[Array]

    def stacked(self, keep: list[int]) -> tuple[Array, Array, Array]:
        card = np.repeat([self.card_of[i] for i in keep], 4)
        return (
            card,
            np.vstack([self.local[i] for i in keep]),
            np.vstack([self.image[i] for i in keep]),
        )


def _projection(
    h: Array, poses: Array, card: Array, local: Array
) -> tuple[Array, Array, Array, Array, Array]:
    """The points ``local`` (each in its ``card``'s frame) placed on the plane by
    ``poses`` (``X``, ``Y``), then seen through ``h``: the homogeneous ``w`` and the
    image's ``u``, ``v``."""
    c, s = np.cos(poses[card, 2]), np.sin(poses[card, 2])
    X = poses[card, 0] + c * local[:, 0] - s * local[:, 1]
    Y = poses[card, 1] + s * local[:, 0] + c * local[:, 1]
    w = h[2, 0] * X + h[2, 1] * Y + h[2, 2]
    u = (h[0, 0] * X + h[0, 1] * Y + h[0, 2]) / w
    v = (h[1, 0] * X + h[1, 1] * Y + h[1, 2]) / w
    return X, Y, w, u, v


def _project(h: Array, poses: Array, card: Array, local: Array) -> Array:
    _, _, _, u, v = _projection(h, poses, card, local)
    return np.stack([u, v], axis=1)


def _jacobian(
    h: Array, poses: Array, card: Array, local: Array, reference: int
) -> tuple[Array, Array]:
    """Residual Jacobian: columns for h11..h32 (h33 stays 1), then (x, y, theta) of every
    card but the reference (which fixes the plane's frame). Also the projections."""
    n_points, n_cards = local.shape[0], poses.shape[0]
    X, Y, w, u, v = _projection(h, poses, card, local)
    jac = np.zeros((2 * n_points, 8 + 3 * n_cards))
    ru, rv = slice(0, 2 * n_points, 2), slice(1, 2 * n_points, 2)
    jac[ru, 0], jac[ru, 1], jac[ru, 2] = X / w, Y / w, 1 / w
    jac[rv, 3], jac[rv, 4], jac[rv, 5] = X / w, Y / w, 1 / w
    jac[ru, 6], jac[ru, 7] = -u * X / w, -u * Y / w
    jac[rv, 6], jac[rv, 7] = -v * X / w, -v * Y / w
    du_dx, du_dy = (h[0, 0] - u * h[2, 0]) / w, (h[0, 1] - u * h[2, 1]) / w
    dv_dx, dv_dy = (h[1, 0] - v * h[2, 0]) / w, (h[1, 1] - v * h[2, 1]) / w
    dx_dt, dy_dt = -(Y - poses[card, 1]), X - poses[card, 0]
    rows = np.arange(n_points)
    base = 8 + 3 * card
    for offset, (gu, gv) in enumerate(
        (
            (du_dx, dv_dx),
            (du_dy, dv_dy),
            (du_dx * dx_dt + du_dy * dy_dt, dv_dx * dx_dt + dv_dy * dy_dt),
        )
    ):
        jac[2 * rows, base + offset] = gu
        jac[2 * rows + 1, base + offset] = gv
    keep = np.ones(jac.shape[1], dtype=bool)
    keep[8 + 3 * reference : 11 + 3 * reference] = False
    return jac[:, keep], np.stack([u, v], axis=1)


def _normal_equations(jac: Array, err: Array) -> tuple[Array, Array]:
    """``J^T J`` and ``J^T e`` with OpenCV's own arithmetic. numpy's OpenBLAS starts its
    threads for matrices this size (a few hundred rows, a hundred columns), and on a busy
    machine they cost more processor time than the sums: 0.8 s of a photo's 1.3 s
    measured on the corpus's slowest photo; OpenCV's one thread takes a few ms."""
    jtj = cv2.mulTransposed(np.ascontiguousarray(jac), True)
    none = np.zeros((jac.shape[1], 1))
    jte = cv2.gemm(jac, err.reshape(-1, 1), 1.0, none, 0.0, flags=cv2.GEMM_1_T)
    return jtj, np.asarray(jte).ravel()


def _solve_symmetric(a: Array, b: Array) -> Array:
    """``a x = b`` for a symmetric positive definite ``a``, by OpenCV's Cholesky
    decomposition (see :func:`_normal_equations`: not numpy's threaded LAPACK)."""
    ok, x = cv2.solve(a, b.reshape(-1, 1), flags=cv2.DECOMP_CHOLESKY)
    if not ok:
        ok, x = cv2.solve(a, b.reshape(-1, 1), flags=cv2.DECOMP_SVD)
    out: Array = x.ravel()
    return out


def _unpack(params: Array, n_cards: int, reference: int, ref_pose: Array) -> tuple[Array, Array]:
    h = np.append(params[:8], 1.0).reshape(3, 3)
    rest = params[8:].reshape(-1, 3)
    poses = np.insert(rest, reference, ref_pose, axis=0) if n_cards else rest
    return h, poses


def _levenberg_marquardt(
    h: Array, poses: Array, problem: _Problem, keep: list[int], reference: int
) -> tuple[Array, Array]:
    """Minimize the image reprojection error of the kept markers over the homography and
    every card's pose but the reference card's."""
    card, local, image = problem.stacked(keep)
    h = h / h[2, 2]
    ref_pose = poses[reference].copy()
    params = np.concatenate([h.ravel()[:8], np.delete(poses, reference, axis=0).ravel()])
    lam = 1e-3
    jac, proj = _jacobian(h, poses, card, local, reference)
    err = (image - proj).ravel()
    cost = float(err @ err)
    for _ in range(50):
        jtj, jte = _normal_equations(jac, err)
        step = _solve_symmetric(jtj + lam * np.diag(np.diag(jtj) + 1e-12), jte)
        trial = params + step
        th, tp = _unpack(trial, poses.shape[0], reference, ref_pose)
        t_err = (image - _project(th, tp, card, local)).ravel()
        t_cost = float(t_err @ t_err)
        if t_cost < cost:
            params, h, poses = trial, th, tp
            improvement = (cost - t_cost) / max(cost, 1e-30)
            cost, lam = t_cost, lam * 0.3
            jac, proj = _jacobian(h, poses, card, local, reference)
            err = (image - proj).ravel()
            if improvement < 1e-10:
                break
        else:
            lam *= 10
            if lam > 1e8:
                break
    return h, poses


def _first_guess(problem: _Problem, n_cards: int) -> tuple[Array, Array, int]:
    """Rigid poses and a homography to start from, and the reference card: the card seen
    largest, whose own frame is the plane's frame at first. Also the markers kept by
    RANSAC."""
    by_card: dict[int, list[int]] = {}
    for index, owner in enumerate(problem.card_of):
        by_card.setdefault(owner, []).append(index)

    def area(owner: int) -> float:
        pts = np.vstack([problem.image[i] for i in by_card[owner]]).astype(np.float32)
        return float(cv2.contourArea(cv2.convexHull(pts)))

    reference = max(by_card, key=lambda owner: (len(by_card[owner]), area(owner)))
    ref_local = np.vstack([problem.local[i] for i in by_card[reference]])
    ref_image = np.vstack([problem.image[i] for i in by_card[reference]])
    h, _ = cv2.findHomography(ref_local, ref_image)
    if h is None:
        raise PhotoError(N_("the markers found do not fit a flat table"))
    poses = np.zeros((n_cards, 3))
    everything = list(range(len(problem.card_of)))
    card, local, image = problem.stacked(everything)
    for _round in range(12):
        inverse = np.linalg.inv(h)
        for owner, indices in by_card.items():
            mine_local = np.vstack([problem.local[i] for i in indices])
            plane = _apply(inverse, np.vstack([problem.image[i] for i in indices]))
            poses[owner] = _rigid_fit(mine_local, plane)
        c, s = np.cos(poses[card, 2]), np.sin(poses[card, 2])
        plane = np.stack(
            [
                poses[card, 0] + c * local[:, 0] - s * local[:, 1],
                poses[card, 1] + s * local[:, 0] + c * local[:, 1],
            ],
            axis=1,
        )
        if plane.shape[0] < 8:
            break
        fitted, _ = cv2.findHomography(plane, image)
        if fitted is None:
            break
        h = fitted
    # The reference card's pose fixes the frame: put it at the origin.
    shift = np.linalg.inv(_pose_matrix(*poses[reference]))
    h = h @ np.linalg.inv(shift)
    for owner in by_card:
        m = shift @ _pose_matrix(*poses[owner])
        poses[owner] = (m[0, 2], m[1, 2], math.atan2(m[1, 0], m[0, 0]))
    return h, poses, reference


def solve(markers: list[Marker], image_size: tuple[int, int]) -> Solution:
    """Fit the table plane and every card's pose to the detected markers (see the module
    docstring). ``image_size`` is (width, height) in px. Raises :class:`PhotoError` for no
    markers or a card cut off at the frame."""
    if not markers:
        raise PhotoError(N_("no card markers found in the photo (are the printed cards in it?)"))
    width, height = image_size
    scale = max(width, height) / 2.0
    centre = np.array([width / 2.0, height / 2.0])
    keys = sorted(
        {m.card for m in markers}, key=lambda k: min(x.id for x in markers if x.card == k)
    )
    index = {key: i for i, key in enumerate(keys)}
    problem = _Problem(
        [index[m.card] for m in markers],
        [np.array(marker_corners_mm(m.slot), dtype=float) for m in markers],
        [(np.array(m.corners, dtype=float) - centre) / scale for m in markers],
    )
    if len(markers) == 1:
        h, _ = cv2.findHomography(problem.local[0], problem.image[0])
        poses, reference, keep = np.zeros((1, 3)), 0, [0]
    else:
        # Image coordinates are normalized for the fit (centre 0, the larger side 2 long).
        h, poses, reference = _first_guess(problem, len(keys))
        keep = list(range(len(markers)))
    dropped: list[int] = []
    for _round in range(12):
        h, poses = _levenberg_marquardt(h, poses, problem, keep, reference)
        residual = _marker_residuals(h, poses, problem)
        limit = max(OUTLIER_PX / scale, OUTLIER_RATIO * float(np.median(residual[keep])))
        # A card's last marker stays: alone, it places its card and nothing else.
        per_card = Counter(problem.card_of[i] for i in keep)
        bad = [i for i in keep if residual[i] > limit and per_card[problem.card_of[i]] > 1]
        if not bad:
            break
        worst = max(bad, key=lambda i: residual[i])
        keep.remove(worst)
        dropped.append(markers[worst].id)
    to_pixels = np.array([[scale, 0.0, centre[0]], [0.0, scale, centre[1]], [0.0, 0.0, 1.0]])
    return _in_table_frame(
        to_pixels @ h, poses, problem, keep, keys, markers, (width, height), scale, dropped
    )


def _marker_residuals(h: Array, poses: Array, problem: _Problem) -> Array:
    out = np.empty(len(problem.card_of))
    for i, owner in enumerate(problem.card_of):
        card = np.full(4, owner)
        diff = problem.image[i] - _project(h, poses, card, problem.local[i])
        out[i] = math.sqrt(float(np.mean(np.sum(diff**2, axis=1))))
    return out


def table_frame(
    homography: Array, image_size: tuple[int, int], poses: Array
) -> tuple[Array, float]:
    """The change to the table file's frame for card poses ``(x, y, theta)`` on a plane
    seen through ``homography`` (plane mm to image px): the 3 x 3 rigid motion to apply
    and its rotation (radians). x runs toward the photo's right at its centre, y away from
    the camera, the origin at the centre of the cards' bounding box."""
    inverse = np.linalg.inv(homography)
    cx, cy = image_size[0] / 2.0, image_size[1] / 2.0
    a, b = _apply(inverse, np.array([[cx, cy], [cx + 1.0, cy]]))
    turn = -math.atan2(b[1] - a[1], b[0] - a[0])
    rotate = _pose_matrix(0.0, 0.0, turn)
    hw, hl = CARD_SIZE_MM[0] / 2, CARD_SIZE_MM[1] / 2
    corners = []
    for x, y, theta in poses:
        m = rotate @ _pose_matrix(x, y, theta)
        for lx, ly in ((hw, hl), (-hw, hl), (-hw, -hl), (hw, -hl)):
            corners.append(m @ np.array([lx, ly, 1.0]))
    pts = np.array(corners)[:, :2]
    middle = (pts.min(axis=0) + pts.max(axis=0)) / 2
    move = np.array([[1.0, 0.0, -middle[0]], [0.0, 1.0, -middle[1]], [0.0, 0.0, 1.0]])
    return move @ rotate, turn


def _in_table_frame(
    h: Array,
    poses: Array,
    problem: _Problem,
    keep: list[int],
    keys: list[CardKey],
    markers: list[Marker],
    image_size: tuple[int, int],
    scale: float,
    dropped: list[int],
) -> Solution:
    frame, turn = table_frame(h, image_size, poses)
    h_out = h @ np.linalg.inv(frame)
    h_out = h_out / h_out[2, 2]
    pixel_problem = _pixel_problem(problem, scale, image_size)
    residual = _marker_residuals(h, poses, pixel_problem)
    rms = math.sqrt(float(np.mean(residual[keep] ** 2)))
    width, height = image_size
    hw, hl = CARD_SIZE_MM[0] / 2, CARD_SIZE_MM[1] / 2
    found: list[FoundCard] = []
    for owner, key in enumerate(keys):
        mine = [i for i in keep if problem.card_of[i] == owner]
        m = frame @ _pose_matrix(*poses[owner])
        x, y, theta = float(m[0, 2]), float(m[1, 2]), math.atan2(m[1, 0], m[0, 0])
        outline = _apply(
            h,
            _apply(
                _pose_matrix(*poses[owner]), np.array([[hw, hl], [-hw, hl], [-hw, -hl], [hw, -hl]])
            ),
        )
        if (
            (outline < 0).any()
            or (outline[:, 0] > width - 1).any()
            or (outline[:, 1] > height - 1).any()
        ):
            raise PhotoError(
                N_(
                    "card {card} is cut off at the photo's edge: take the photo again with "
                    "every card whole in it"
                ),
                card=key.card_id,
            )
        cov = _card_covariance(h, poses, owner, mine, pixel_problem, rms)
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        cov_xy = rot @ cov[:2, :2] @ rot.T
        full = np.zeros((3, 3))
        full[:2, :2] = cov_xy
        full[:2, 2] = full[2, :2] = rot @ cov[:2, 2]
        full[2, 2] = cov[2, 2]
        found.append(
            FoundCard(
                key,
                x,
                y,
                math.degrees(theta),
                math.sqrt(max(float(np.linalg.eigvalsh(cov_xy).max()), 0.0)),
                math.degrees(math.sqrt(max(float(cov[2, 2]), 0.0))),
                tuple(markers[i].id for i in mine),
                tuple((float(px), float(py)) for px, py in outline),
                tuple(tuple(float(v) for v in row) for row in full),
            )
        )
    return Solution(
        tuple(found),
        tuple(tuple(float(v) for v in row) for row in h_out),
        tuple(dropped),
        rms,
    )


def _pixel_problem(problem: _Problem, scale: float, image_size: tuple[int, int]) -> _Problem:
    centre = np.array([image_size[0] / 2.0, image_size[1] / 2.0])
    return _Problem(
        problem.card_of, problem.local, [image * scale + centre for image in problem.image]
    )


def _card_covariance(
    h: Array, poses: Array, owner: int, mine: list[int], problem: _Problem, rms_px: float
) -> Array:
    """Covariance of one card's (x, y, theta) given the plane's homography (plane mm to
    image px): from its own corners' Jacobian, scaled by the larger of the fit's residual
    and the card's own (a card whose corners fit worse is less sure)."""
    card, local, image = problem.stacked(mine)
    full, proj = _jacobian_full(h, poses, card, local)
    j = full[:, 8 + 3 * owner : 11 + 3 * owner]
    err = (image - proj).ravel()
    dof = max(err.size - 3, 1)
    own = float(err @ err) / dof
    variance = max(own, rms_px**2 / 2)  # per coordinate
    return variance * np.linalg.inv(j.T @ j)


def _jacobian_full(h: Array, poses: Array, card: Array, local: Array) -> tuple[Array, Array]:
    """The residual Jacobian with every card's columns (none fixed)."""
    n_cards = poses.shape[0]
    fake = n_cards  # an index past the cards: nothing is removed
    padded = np.vstack([poses, np.zeros((1, 3))])
    jac, proj = _jacobian(h, padded, card, local, fake)
    return jac[:, : 8 + 3 * n_cards], proj
