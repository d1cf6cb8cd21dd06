"""Where a laser meets a card: ray and box, edges, shields, and every laser's hit list."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from spacetable.lasers._kernels import jit, jit_inline
from spacetable.lasers._kernels.layout import (
    BACK,
    CC,
    CHL,
    CHW,
    CR,
    CS,
    CX,
    CY,
    DEG_TO_RAD,
    EPS,
    FRONT,
    GRAZE,
    H_BLOCK,
    H_CARD,
    H_EDGE,
    H_T,
    H_X,
    H_Y,
    INF,
    IS_SHIP,
    LCARD,
    LDX,
    LDY,
    LEFT,
    LOX,
    LOY,
    RIGHT,
    SH0,
    SHN,
    Box,
    FloatArr,
    Geometry,
    Hits,
    IntArr,
    Ray,
)


@jit
def py_max(a: float, b: float) -> float:
    """Python's ``max(a, b)``: ``a`` unless ``b`` is strictly greater (keeps signed zeros)."""
    return b if b > a else a


@jit
def py_min(a: float, b: float) -> float:
    """Python's ``min(a, b)``: ``a`` unless ``b`` is strictly smaller."""
    return b if b < a else a


@jit
def cos_sin(angle_deg: float) -> tuple[float, float]:
    """``geometry._cos_sin``: exact at multiples of 90 degrees, libm elsewhere."""
    quarter = angle_deg / 90.0
    if quarter == math.floor(quarter):
        k = int(quarter) % 4
        k = k + 4 if k < 0 else k
        if k == 0:
            return 1.0, 0.0
        if k == 1:
            return 0.0, 1.0
        return (-1.0, 0.0) if k == 2 else (0.0, -1.0)
    rad = angle_deg * DEG_TO_RAD
    return math.cos(rad), math.sin(rad)


@jit_inline
def slab(o: float, v: float, half: float) -> tuple[bool, float, float]:
    """``geometry._slab``: (non-empty, t_in, t_out)."""
    if v == 0.0:
        return -half <= o and o <= half, -INF, INF
    t1 = (-half - o) / v
    t2 = (half - o) / v
    return (True, t1, t2) if t1 <= t2 else (True, t2, t1)


@jit_inline
def crossing(
    ox: float, oy: float, vx: float, vy: float, hw: float, hl: float
) -> tuple[bool, float, bool]:
    """``geometry._crossing``: (crosses, t_in, entered through the left or right side)."""
    x_ok, x0, x1 = slab(ox, vx, hw)
    y_ok, y0, y1 = slab(oy, vy, hl)
    if not x_ok or not y_ok:
        return False, 0.0, False
    t_in = py_max(x0, y0)
    t_out = py_min(x1, y1)
    if t_in > t_out or t_out < 0.0:
        return False, 0.0, False
    return True, t_in, x0 >= y0


@jit_inline
def passes(wx: float, wy: float, vx: float, vy: float) -> bool:
    """``geometry._passes``: the ray passes within EPS of the point ``(wx, wy)``."""
    if wx * vx + wy * vy < 0.0:
        return wx * wx + wy * wy <= EPS * EPS
    return abs(wx * vy - wy * vx) <= EPS


@jit_inline
def edges_at(lx: float, ly: float, hw: float, hl: float) -> tuple[int, int]:
    """``geometry._edges_at`` (or the nearest edge): (first edge, edge bit mask)."""
    gaps = (hl - ly, ly + hl, lx + hw, hw - lx)  # front, back, left, right
    first = -1
    mask = 0
    for e in range(4):
        if abs(gaps[e]) <= EPS:
            first = e if first < 0 else first
            mask |= 1 << e
    if mask == 0:  # the nearest edge, first in EDGES order on ties
        first = 0
        for e in range(1, 4):
            first = e if abs(gaps[e]) < abs(gaps[first]) else first
        mask = 1 << first
    return first, mask


@jit
def ray_hit(ray: Ray, box: Box) -> tuple[bool, float, int, int, float, float]:
    """``geometry.ray_hit``: (hit, distance, first edge, edge bit mask, local x, local y).
    Edge bit ``1 << e`` for each edge ``e`` the point touches."""
    px, py, dx, dy = ray
    cx, cy, c, s, hw, hl = box
    ddx = px - cx
    ddy = py - cy
    ox = c * ddx + s * ddy
    oy = -s * ddx + c * ddy
    vx = c * dx + s * dy
    vy = -s * dx + c * dy
    grown, t_in, _ = crossing(ox, oy, vx, vy, hw + EPS, hl + EPS)
    if not grown:
        return False, 0.0, -1, 0, 0.0, 0.0
    t0 = py_max(t_in, 0.0)
    ex = ox + vx * t0
    ey = oy + vy * t0
    qx = py_min(py_max(ex, -hw), hw)
    qy = py_min(py_max(ey, -hl), hl)
    if qx != ex and qy != ey and not passes(qx - ox, qy - oy, vx, vy):
        return False, 0.0, -1, 0, 0.0, 0.0
    reach = t0 + GRAZE
    corner = False
    best = INF
    csx = csy = 0.0
    for k in range(4):  # the first corner the ray passes near (geometry._first_corner)
        sx = 1.0 if k == 0 or k == 3 else -1.0
        sy = 1.0 if k < 2 else -1.0
        wx = sx * hw - ox
        wy = sy * hl - oy
        along = py_max(wx * vx + wy * vy, 0.0)
        if (not corner or along < best) and passes(wx, wy, vx, vy):
            corner, best, csx, csy = True, along, sx, sy
    if corner and best <= reach:
        x_edge = RIGHT if csx > 0 else LEFT
        y_edge = FRONT if csy > 0 else BACK
        first = x_edge if abs(vx) >= abs(vy) else y_edge
        return True, best, first, (1 << x_edge) | (1 << y_edge), csx * hw, csy * hl
    inside, t_in, through_x = crossing(ox, oy, vx, vy, hw, hl)
    entry = py_max(t_in, 0.0)
    if inside and entry <= reach:
        lx = ox + vx * entry
        ly = oy + vy * entry
        if t_in >= 0.0:
            first = (LEFT if vx > 0 else RIGHT) if through_x else (BACK if vy > 0 else FRONT)
            return True, entry, first, 1 << first, lx, ly
        first, mask = edges_at(lx, ly, hw, hl)
        return True, entry, first, mask, lx, ly
    distance = py_max((qx - ox) * vx + (qy - oy) * vy, 0.0)
    first, mask = edges_at(qx, qy, hw, hl)
    return True, distance, first, mask, qx, qy


@jit_inline
def box_of(cf: FloatArr, j: int) -> Box:
    """Card ``j``'s rectangle for :func:`ray_hit`."""
    return cf[CX, j], cf[CY, j], cf[CC, j], cf[CS, j], cf[CHW, j], cf[CHL, j]


@jit_inline
def shielded(mask: int, lx: float, ly: float, sh0: int, shn: int, si: IntArr, sf: FloatArr) -> bool:
    """``battle.shielded``: a shield on one of the touched edges covers the point. ``sf``
    holds each shield's bounds with the 1e-9 tolerance already applied."""
    for k in range(sh0, sh0 + shn):
        if (mask >> si[k]) & 1:
            coord = lx if si[k] < LEFT else ly
            if sf[k, 0] <= coord and coord <= sf[k, 1]:
                return True
    return False


@jit
def may_hit(ray: Ray, cx: float, cy: float, r: float) -> bool:
    """Cheap conservative test: can the ray reach the bounding circle (centre, radius)?"""
    px, py, dx, dy = ray
    ex = cx - px
    ey = cy - py
    return ex * dx + ey * dy >= -r and abs(ex * dy - ey * dx) <= r


@jit_inline
def add_hit(
    ray: Ray, j: int, geo: Geometry, out_i: IntArr, out_f: FloatArr, start: int, pos: int
) -> int:
    """Cast the ray on card ``j``; on a hit, insert it into the rows ``start..pos`` kept
    sorted by distance (stable: the earlier card first on equal distances, like the
    reference's strict ``<``). Returns the new end row."""
    cf, ci, _, _, si, sf = geo
    hit, t, first, mask, lx, ly = ray_hit(ray, box_of(cf, j))
    if not hit:
        return pos
    blocked = ci[j, IS_SHIP] == 1 and shielded(mask, lx, ly, ci[j, SH0], ci[j, SHN], si, sf)
    p = pos
    while p > start and out_f[p - 1, H_T] > t:
        out_i[p] = out_i[p - 1]
        out_f[p] = out_f[p - 1]
        p -= 1
    out_i[p, H_CARD], out_i[p, H_EDGE], out_i[p, H_BLOCK] = j, first, 1 if blocked else 0
    out_f[p, H_T], out_f[p, H_X], out_f[p, H_Y] = t, ray[0] + ray[2] * t, ray[1] + ray[3] * t
    return pos + 1


@jit_inline
def near_cards(ray: Ray, cf: FloatArr, near: NDArray[np.uint8]) -> None:
    """:func:`may_hit` on every card into ``near``, branch-free so that it vectorizes."""
    px, py, dx, dy = ray
    for j in range(cf.shape[1]):
        ex = cf[CX, j] - px
        ey = cf[CY, j] - py
        near[j] = (ex * dx + ey * dy >= -cf[CR, j]) & (abs(ex * dy - ey * dx) <= cf[CR, j])


@jit
def all_hits(geo: Geometry) -> Hits:
    """For every laser, every card but its own that it would touch, nearest first (CSR:
    rows ``hs[l]..hs[l+1]`` of ``hi`` and ``hf``)."""
    cf, _, lf, li, _, _ = geo
    n = cf.shape[1]
    m = lf.shape[0]
    hs = np.zeros(m + 1, np.int64)
    hi = np.empty((max(m * n, 1), 3), np.int64)
    hf = np.empty((max(m * n, 1), 3), np.float64)
    near = np.empty(n, np.uint8)
    for k in range(m):
        ray = (lf[k, LOX], lf[k, LOY], lf[k, LDX], lf[k, LDY])
        near_cards(ray, cf, near)
        pos = hs[k]
        for j in range(n):
            if near[j] and j != li[k, LCARD]:
                pos = add_hit(ray, j, geo, hi, hf, hs[k], pos)
        hs[k + 1] = pos
    return hs, hi, hf
