"""Compiled kernels of the fast battle path (private; see :mod:`spacetable.lasers.fast`).

Every function here is compiled by numba with ``cache=True``. All compiled code of the fast
path lives in this one module on purpose: numba's disk cache is invalidated by changes to
the file that defines a function, not to the files of the functions it calls, so a kernel
in another module could keep running a stale copy of these. They repeat the arithmetic of
:mod:`spacetable.lasers.geometry` and the rules of :mod:`spacetable.lasers.battle`
operation for operation, so the fast path agrees with the reference bit for bit. Tables
arrive packed in numpy arrays whose columns are the constants below; arrays travel in the
tuples named below.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from spacetable.lasers.geometry import EPSILON_MM, GRAZE_MM

F = TypeVar("F", bound=Callable[..., Any])
IntArr = NDArray[np.int64]
FloatArr = NDArray[np.float64]
#: A packed table (cf, ci, lf, li, si, sf): cards, lasers and shields (layouts below).
Geometry = tuple[FloatArr, IntArr, FloatArr, IntArr, IntArr, FloatArr]
#: Every base laser's hit list, nearest first (hs, hi, hf), see :func:`all_hits`.
Hits = tuple[IntArr, IntArr, FloatArr]
#: A batch candidate's hits: base lasers on it (ext_i, ext_f) and its own lasers' hit lists
#: (cq_n, cq_i, cq_f).
Extra = tuple[IntArr, FloatArr, IntArr, IntArr, FloatArr]
#: Battle workspace: w (state per card), dmg (card x player), scratch (3 x cards), claims,
#: pairs, scores.
Work = tuple[IntArr, IntArr, IntArr, IntArr, IntArr, IntArr]
#: Ship definitions for batch candidates: (dci, dspeeds, dlf, dli, dsi, dsf).
Defs = tuple[IntArr, IntArr, FloatArr, IntArr, IntArr, FloatArr]
#: Event log: event ints, event floats, ship ids of the steps.
Log = tuple[IntArr, FloatArr, IntArr]
#: A ray (origin x, origin y, unit direction x, y) and a card (x, y, cos, sin, half sizes).
Ray = tuple[float, float, float, float]
Box = tuple[float, float, float, float, float, float]
#: A flag passed as ``np.bool_`` where a literal ``True``/``False`` would make numba compile
#: one more specialization.
Flag = bool | np.bool_


def jit(fn: F) -> F:
    """``numba.njit(cache=True)`` with the function's own signature kept for mypy."""
    return cast(F, numba.njit(cache=True)(fn))


def jit_inline(fn: F) -> F:
    """Like :func:`jit`, inlined into its callers by numba (no call or reference-count
    overhead for the array arguments of hot helpers)."""
    return cast(F, numba.njit(cache=True, inline="always")(fn))


def jit_parallel(fn: F) -> F:
    """Like :func:`jit`, parallel (``prange`` loops run on all numba threads)."""
    return cast(F, numba.njit(cache=True, parallel=True)(fn))


EPS = EPSILON_MM
GRAZE = GRAZE_MM
INF = math.inf
DEG_TO_RAD = math.pi / 180.0  # CPython's math.radians multiplies by exactly this

# Card floats (cf, one row per quantity, one column per card so that loops over cards read
# contiguous memory): centre, cos/sin of the rotation, half sizes, bounding radius (+ margin).
CX, CY, CC, CS, CHW, CHL, CR = range(7)
NCF = 7
# Card ints (ci): ship flag, owner (-1 asteroid), health, vp, cargo flag, rocks at start,
# lasers and shields as (start, count) in the flat arrays.
IS_SHIP, OWNER, HEALTH, VP, CARGO, ROCKS, LZ0, LZN, SH0, SHN = range(10)
NCI = 10
# Laser floats (lf): world origin and unit direction. Laser ints (li): card, power, kind.
LOX, LOY, LDX, LDY = range(4)
LCARD, LPOW, LKIND = range(3)
# Ship definitions for batch candidates (dci); floats per definition laser (dlf).
D_HEALTH, D_VP, D_CARGO, D_ROCKS, D_SPD0, D_SPDN, D_LZ0, D_LZN, D_SH0, D_SHN = range(10)
NDCI = 10
DAX, DAY, DANG = range(3)
# Hit records: ints (card, first edge, blocked), floats (distance, point x, point y).
H_CARD, H_EDGE, H_BLOCK = range(3)
H_T, H_X, H_Y = range(3)
# Workspace columns per card.
W_ON, W_ROCKS, W_DELAY, W_FIRED, W_PILE, W_GAIN = range(6)
NW = 6
NOT_KILLED = -2

FRONT, BACK, LEFT, RIGHT = 0, 1, 2, 3  # geometry.EDGES order
NORMAL, ION, PENETRATING = 0, 1, 2  # ships.LASER_KINDS order
SPACE, BLOCKED, DAMAGE, ION_HIT, MINE = range(5)
EV_STEP, EV_LASER, EV_DELAY, EV_TAKE, EV_VAPOR, EV_DESTROYED, EV_GOODS, EV_LEFT = range(8)
VAP_PULSE, VAP_OWN_CARGO, VAP_DESTROYED = range(3)
LEFT_DEPLETED, LEFT_EMPTIED = range(2)
NEV_I = 10  # int columns of an event row
NEV_F = 2  # float columns (a laser's end point)


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


@jit_inline
def emit(record: Flag, ev_i: IntArr, ne: int, kind: int, a: int, b: int, c: int) -> int:
    """Write one event row ``(kind, a, b, c)`` when recording; returns the event count."""
    if not record:
        return ne
    ev_i[ne, 0], ev_i[ne, 1], ev_i[ne, 2], ev_i[ne, 3] = kind, a, b, c
    return ne + 1


@jit_inline
def kill_pile(i: int, owner: int, dmg: IntArr, n_players: int) -> int:
    """``_Battle.kill_pile_for`` (ruling 6): a player index, or -1 when it is vaporized."""
    if n_players == 2:
        return 1 if owner == 0 else 0
    most = dmg[i, 0]
    for p in range(1, n_players):
        most = max(most, dmg[i, p])
    leaders = 0
    leader = -1
    for p in range(n_players):
        if dmg[i, p] == most:
            if p == owner:
                return owner
            leaders += 1
            leader = p if leaders == 1 else leader
    return leader if leaders == 1 else -1


@jit_inline
def share_rocks(
    nclaims: int, claims: IntArr, w: IntArr, record: Flag, ev_i: IntArr, ne: int
) -> int:
    """``_Battle.share_rocks`` (ruling 4) over this step's claims (ship, target, value,
    vaporize, taken), targets in order of their first claim; gains go to ``W_GAIN``."""
    for a in range(nclaims):
        target = claims[a, 1]
        seen = False
        for b in range(a):
            seen = seen or claims[b, 1] == target
        if seen:
            continue
        pool = w[target, W_ROCKS]
        claims[a:nclaims, 4] = 0
        vaporized = 0
        for pulse in range(1, 4):
            firing = 0
            for b in range(a, nclaims):
                if claims[b, 1] == target and claims[b, 2] >= pulse:
                    firing += 1
            if firing == 0 or pool == 0:
                continue
            if pool < firing:
                vaporized += pool
                pool = 0
                continue
            for b in range(a, nclaims):
                if claims[b, 1] == target and claims[b, 2] >= pulse:
                    claims[b, 4] += 1
            pool -= firing
        taken = 0
        for b in range(a, nclaims):
            taken += claims[b, 4] if claims[b, 1] == target else 0
        w[target, W_ROCKS] -= taken + vaporized
        if vaporized:
            ne = emit(record, ev_i, ne, EV_VAPOR, target, vaporized, VAP_PULSE)
        for b in range(a, nclaims):  # one event per (ship, vaporize), in first-claim order
            if claims[b, 1] != target or claims[b, 4] == 0:
                continue
            ship, vap = claims[b, 0], claims[b, 3]
            grouped = False
            count = 0
            for c in range(a, nclaims):
                if claims[c, 1] == target and claims[c, 0] == ship and claims[c, 3] == vap:
                    grouped = grouped or (c < b and claims[c, 4] > 0)
                    count += claims[c, 4]
            if grouped:
                continue
            if vap:
                ne = emit(record, ev_i, ne, EV_VAPOR, target, count, VAP_OWN_CARGO)
            else:
                ne = emit(record, ev_i, ne, EV_TAKE, target, ship, count)
                w[ship, W_GAIN] += count
    return ne


@jit_inline
def end_step(
    ci: IntArr, chk: IntArr, nchk: int, rules: IntArr, w: IntArr, dmg: IntArr, dead: IntArr,
    pairs: IntArr, npairs: int, record: Flag, ev_i: IntArr, ne: int,
) -> int:  # fmt: skip
    """``_Battle.end_step`` (rulings 5, 6, 9, 11) on the cards ``chk[:nchk]`` (sorted; all
    cards when ``nchk < 0``): after the first step only the cards hit in a step can die or
    run out of rocks in it. Returns the event count."""
    n_players = rules[0]
    stellar = rules[1] == 1
    count_chk = ci.shape[0] if nchk < 0 else nchk
    ndead = 0
    for a in range(count_chk):
        i = a if nchk < 0 else chk[a]
        if w[i, W_ON] and ci[i, IS_SHIP]:
            total = 0
            for p in range(n_players):
                total += dmg[i, p]
            if total >= ci[i, HEALTH]:
                dead[ndead] = i
                ndead += 1
    for a in range(ndead):
        i = dead[a]
        w[i, W_PILE] = kill_pile(i, ci[i, OWNER], dmg, n_players)
        w[i, W_ON] = 0
        ne = emit(record, ev_i, ne, EV_DESTROYED, i, w[i, W_PILE], 0)
    for a in range(ndead):
        i = dead[a]
        count = w[i, W_ROCKS]
        if count == 0:
            continue
        w[i, W_ROCKS] = 0
        shooters = 0  # distinct ships that damaged it this step, dead or alive
        killer = -1
        for b in range(npairs):
            shooter = pairs[b, 0]
            if pairs[b, 1] != i:
                continue
            again = False
            for c in range(b):
                again = again or (pairs[c, 1] == i and pairs[c, 0] == shooter)
            if not again:
                shooters += 1
                killer = shooter
        alone = shooters == 1 and w[killer, W_PILE] == NOT_KILLED  # ruling 11
        if stellar and rules[3] == 1 and not ci[i, CARGO] and alone:
            w[killer, W_ROCKS] += count
            ne = emit(record, ev_i, ne, EV_GOODS, i, killer, count)
        else:
            ne = emit(record, ev_i, ne, EV_VAPOR, i, count, VAP_DESTROYED)
    for a in range(count_chk):
        i = a if nchk < 0 else chk[a]
        if not w[i, W_ON] or w[i, W_ROCKS] > 0:
            continue
        if not ci[i, IS_SHIP] or (stellar and ci[i, CARGO]):
            w[i, W_ON] = 0
            reason = LEFT_EMPTIED if ci[i, IS_SHIP] else LEFT_DEPLETED
            ne = emit(record, ev_i, ne, EV_LEFT, i, reason, 0)
    return ne


@jit_inline
def score(ci: IntArr, stellar: bool, n_players: int, w: IntArr, scores: IntArr) -> int:
    """``_Battle.outcome``'s scores (ruling 7) into ``scores``; returns the winner or -1."""
    kills = np.zeros(4, np.int64)
    scores[:] = 0
    for i in range(ci.shape[0]):
        pile = w[i, W_PILE]
        if pile >= 0:
            worth = ci[i, VP] if stellar else ci[i, HEALTH]
            if ci[i, OWNER] == pile:
                scores[pile] -= worth
            else:
                scores[pile] += worth
                kills[pile] += 1
        elif w[i, W_ON] and ci[i, OWNER] >= 0:
            scores[ci[i, OWNER]] += w[i, W_ROCKS]
    best = scores[:n_players].max()
    most = -1
    for p in range(n_players):
        most = max(most, kills[p]) if scores[p] == best else most
    leaders = 0
    winner = -1
    for p in range(n_players):
        if scores[p] == best and (not stellar or kills[p] == most):
            leaders += 1
            winner = p
    # Stellar Conflict breaks ties by enemy kills (with one leader, ``most`` is its own).
    return winner if leaders == 1 else -1


@jit_inline
def add_unique_sorted(values: IntArr, count: int, value: int) -> int:
    """Insert ``value`` into the sorted ``values[:count]`` unless present; new count."""
    p = count
    while p > 0 and values[p - 1] > value:
        p -= 1
    if p > 0 and values[p - 1] == value:
        return count
    for q in range(count, p, -1):
        values[q] = values[q - 1]
    values[p] = value
    return count + 1


@jit_inline
def resort(ents: IntArr, p: int, w: IntArr) -> None:
    """Delay tokens moved ships: insertion sort of ``ents[p:]`` by (speed, card)."""
    for a in range(p + 1, ents.shape[0]):
        card, spd = ents[a, 0], ents[a, 1]
        key = spd + 2 * w[card, W_DELAY]
        b = a
        while b > p:
            prev = ents[b - 1, 0]
            prev_key = ents[b - 1, 1] + 2 * w[prev, W_DELAY]
            if prev_key < key or (prev_key == key and prev <= card):
                break
            ents[b, 0], ents[b, 1] = prev, ents[b - 1, 1]
            b -= 1
        ents[b, 0], ents[b, 1] = card, spd


@jit_inline
def claim(claims: IntArr, nclaims: int, ship: int, target: int, value: int, vap: bool) -> int:
    """Record a mining or stealing claim (ruling 4); returns the claim count."""
    claims[nclaims, 0], claims[nclaims, 1], claims[nclaims, 2] = ship, target, value
    claims[nclaims, 3] = 1 if vap else 0
    return nclaims + 1


@jit
def simulate(
    geo: Geometry, ents: IntArr, lazy: Flag, hits: Hits, extra: int | np.int64, ext: Extra,
    rules: IntArr, work: Work, record: Flag, log: Log,
) -> tuple[int, int, int]:  # fmt: skip
    """``_Battle.run``: every speed step (rulings 1-11) on a packed table.

    ``ents`` lists (card, speed) for every speed of every ship, sorted by (speed, card); it
    is reordered in place when Delay tokens move ships. With ``lazy`` each laser is cast
    when it fires, against the cards then on the table. Otherwise base lasers (those
    before the ``extra`` card's) use the hit lists ``hits``; when ``extra >= 0`` that card
    (a batch candidate, in no base list) also counts, via ``ext``. ``rules`` is
    (players, stellar, piracy, stolen goods). The final state is left in ``work``. Returns
    (winner or -1, events written, step ship ids written); events only when ``record``.
    """
    cf, ci, lf, li, si, sf = geo
    hs, hi, hf = hits
    ext_i, ext_f, cq_n, cq_i, cq_f = ext
    w, dmg, scratch, claims, pairs, scores = work
    firing, dead, chk = scratch[0], scratch[1], scratch[2]
    ev_i, ev_f, step_ships = log
    n_players = rules[0]
    stellar = rules[1] == 1
    piracy = rules[2] == 1
    n = ci.shape[0]
    m_base = ci[extra, LZ0] if extra >= 0 else li.shape[0]
    for i in range(n):
        w[i, W_ON], w[i, W_ROCKS], w[i, W_DELAY] = 1, ci[i, ROCKS], 0
        w[i, W_FIRED], w[i, W_PILE], w[i, W_GAIN] = 0, NOT_KILLED, 0
    dmg[:] = 0
    near = np.empty(n, np.uint8)
    ne = nss = 0
    p = 0  # entries before p have fired (or belonged to cards gone from the table)
    delayed = False
    first_step = True
    while True:
        if delayed:
            resort(ents, p, w)
            delayed = False
        while p < ents.shape[0] and not w[ents[p, 0], W_ON]:
            p += 1
        if p == ents.shape[0]:
            break
        speed = ents[p, 1] + 2 * w[ents[p, 0], W_DELAY]  # ruling 1: the lowest speed left
        nf = 0
        while p < ents.shape[0] and ents[p, 1] + 2 * w[ents[p, 0], W_DELAY] == speed:
            card = ents[p, 0]
            if w[card, W_ON] and (nf == 0 or firing[nf - 1] != card):
                firing[nf] = card
                nf += 1
            p += 1
        if record:
            ne = emit(record, ev_i, ne, EV_STEP, speed, nss, nf)
            step_ships[nss : nss + nf] = firing[:nf]
            nss += nf
        for f in range(nf):
            w[firing[f], W_FIRED] = 1
        nclaims = npairs = 0
        for f in range(nf):
            i = firing[f]
            owner = ci[i, OWNER]
            for laser in range(ci[i, LZ0], ci[i, LZ0] + ci[i, LZN]):
                # Ruling 2: the first card on the table (at the start of the step) it touches.
                # (Written out here: helpers taking many arrays cost reference counting.)
                target, edge, blocked, ex, ey = -1, -1, False, 0.0, 0.0
                if lazy:  # battle.shot: cards in table order, a strictly nearer hit wins
                    ray = (lf[laser, LOX], lf[laser, LOY], lf[laser, LDX], lf[laser, LDY])
                    near_cards(ray, cf, near)
                    best = INF
                    best_mask = 0
                    best_lx = best_ly = 0.0
                    for j in range(n):
                        if not near[j] or j == i or not w[j, W_ON]:
                            continue
                        # The bounding circle starts after the best hit: it cannot be nearer.
                        along = (cf[CX, j] - ray[0]) * ray[2] + (cf[CY, j] - ray[1]) * ray[3]
                        if along - cf[CR, j] > best:
                            continue
                        hit, t, first, mask, lx, ly = ray_hit(ray, box_of(cf, j))
                        if hit and (target < 0 or t < best):
                            target, edge, best, best_mask, best_lx, best_ly = (
                                j,
                                first,
                                t,
                                mask,
                                lx,
                                ly,
                            )
                    if target >= 0:
                        ex, ey = ray[0] + ray[2] * best, ray[1] + ray[3] * best
                        if ci[target, IS_SHIP] and ci[target, SHN]:
                            sh0, shn = ci[target, SH0], ci[target, SHN]
                            blocked = shielded(best_mask, best_lx, best_ly, sh0, shn, si, sf)
                elif laser >= m_base:  # a batch candidate's laser: its own hit list
                    q = laser - m_base
                    for h in range(cq_n[q]):
                        if w[cq_i[q, h, H_CARD], W_ON]:
                            target, edge = cq_i[q, h, H_CARD], cq_i[q, h, H_EDGE]
                            blocked = cq_i[q, h, H_BLOCK] == 1
                            ex, ey = cq_f[q, h, H_X], cq_f[q, h, H_Y]
                            break
                else:  # the base hit list, or the candidate card if strictly nearer
                    found = -1
                    for h in range(hs[laser], hs[laser + 1]):
                        if w[hi[h, H_CARD], W_ON]:
                            found = h
                            break
                    best = hf[found, H_T] if found >= 0 else INF
                    if extra >= 0 and w[extra, W_ON] and ext_f[laser, H_T] < best:
                        target, edge, blocked = int(extra), ext_i[laser, 0], ext_i[laser, 1] == 1
                        ex, ey = ext_f[laser, H_X], ext_f[laser, H_Y]
                    elif found >= 0:
                        target, edge = hi[found, H_CARD], hi[found, H_EDGE]
                        blocked = hi[found, H_BLOCK] == 1
                        ex, ey = hf[found, H_X], hf[found, H_Y]
                power = li[laser, LPOW]
                kind = li[laser, LKIND]
                damage = 0
                if target < 0:
                    result = SPACE
                elif not ci[target, IS_SHIP]:
                    result = MINE
                    value = power if kind == NORMAL else (0 if kind == ION else 1)
                    if value:
                        nclaims = claim(claims, nclaims, i, target, value, False)
                elif kind != PENETRATING and blocked:  # ruling 3
                    result = BLOCKED
                elif kind == ION:
                    result = ION_HIT
                else:
                    result = DAMAGE
                    damage = 1 if kind == PENETRATING else power
                if record:
                    ev_i[ne, 0], ev_i[ne, 1], ev_i[ne, 2] = EV_LASER, speed, i
                    ev_i[ne, 3], ev_i[ne, 4], ev_i[ne, 5] = laser - ci[i, LZ0], laser, target
                    ev_i[ne, 6], ev_i[ne, 7], ev_i[ne, 8] = edge, result, damage
                    ev_f[ne, 0], ev_f[ne, 1] = ex, ey
                    ne += 1
                if target < 0 or not ci[target, IS_SHIP]:
                    continue
                if result == ION_HIT and not w[target, W_FIRED]:  # ruling 10
                    w[target, W_DELAY] += 1
                    delayed = True
                    ne = emit(record, ev_i, ne, EV_DELAY, target, w[target, W_DELAY], 0)
                if damage:
                    dmg[target, owner] += damage
                    pairs[npairs, 0], pairs[npairs, 1] = i, target
                    npairs += 1
                    cargo = stellar and ci[target, CARGO] == 1  # ruling 9
                    if cargo or (not stellar and piracy):  # rulings 8, 9: steal the damage
                        own = cargo and ci[target, OWNER] == owner
                        nclaims = claim(claims, nclaims, i, target, damage, own)
        ne = share_rocks(nclaims, claims, w, record, ev_i, ne)
        for f in range(nf):
            i = firing[f]
            w[i, W_ROCKS] += w[i, W_GAIN]
            w[i, W_GAIN] = 0
        nchk = -1
        if not first_step:
            nchk = 0
            for a in range(npairs):
                nchk = add_unique_sorted(chk, nchk, pairs[a, 1])
            for a in range(nclaims):
                nchk = add_unique_sorted(chk, nchk, claims[a, 1])
        first_step = False
        ne = end_step(ci, chk, nchk, rules, w, dmg, dead, pairs, npairs, record, ev_i, ne)
    return score(ci, stellar, n_players, w, scores), ne, nss


@jit_inline
def no_extra() -> Extra:
    """Empty :data:`Extra` arrays (no candidate card)."""
    return (
        np.empty((0, 2), np.int64),
        np.empty((0, 3), np.float64),
        np.empty(0, np.int64),
        np.empty((0, 0, 3), np.int64),
        np.empty((0, 0, 3), np.float64),
    )


@jit_inline
def workspace(n: int, m: int, n_players: int) -> Work:
    """A :data:`Work` for ``n`` cards and ``m`` lasers."""
    return (
        np.empty((n, NW), np.int64),
        np.zeros((n, 4), np.int64),
        np.empty((3, n), np.int64),
        np.empty((max(m, 1), 5), np.int64),
        np.empty((max(m, 1), 2), np.int64),
        np.zeros(n_players, np.int64),
    )


@jit
def resolve_table(
    geo: Geometry, ents: IntArr, rules: IntArr, ev_cap: int, record: Flag
) -> tuple[int, Work, Log, int, int]:
    """The whole battle on one packed table, each laser cast when it fires. Returns (winner
    or -1, final workspace, event log, events written, step ship ids written)."""
    n = geo[1].shape[0]
    cap = ev_cap if record else 1
    log = (
        np.empty((cap, NEV_I), np.int64),
        np.empty((cap, NEV_F), np.float64),
        np.empty(cap, np.int64),
    )
    work = workspace(n, geo[2].shape[0], rules[0])
    no_hits = (np.zeros(1, np.int64), np.empty((0, 3), np.int64), np.empty((0, 3), np.float64))
    # np.bool_/np.int64: plain values, not literals, so that this call and the batch's share
    # one compiled ``simulate`` (numba specializes on literal arguments).
    lazy, no_card = np.bool_(True), np.int64(-1)
    winner, ne, nss = simulate(
        geo, ents.copy(), lazy, no_hits, no_card, no_extra(), rules, work, np.bool_(record), log
    )
    return winner, work, log, ne, nss


@jit_inline
def place_candidate(
    row: FloatArr, table: Geometry, ents: IntArr, defs: Defs, size: FloatArr,
    wci: IntArr, went: IntArr, wli: IntArr, ext: Extra,
) -> int:  # fmt: skip
    """Put a batch candidate (owner, definition, x, y, rotation, rocks or -1) on the base
    table as card ``n0``: its row, its firing schedule merged into ``ents`` (it sorts last
    on equal speeds), its lasers cast on the base cards, and the base lasers cast on it.
    Returns the length of the merged schedule."""
    _, ci, lf, _, _, _ = table
    dci, dspeeds, dlf, dli, dsi, dsf = defs
    ext_i, ext_f, cq_n, cq_i, cq_f = ext
    n0, m0, e0 = ci.shape[0], lf.shape[0], ents.shape[0]
    d = int(row[1])
    x, y, rot = row[2], row[3], row[4]
    c, s = cos_sin(rot)
    rocks = int(row[5]) if row[5] >= 0 else dci[d, D_ROCKS]
    values = (1, int(row[0]), dci[d, D_HEALTH], dci[d, D_VP], dci[d, D_CARGO], rocks,
              m0, dci[d, D_LZN], 0, 0)  # fmt: skip
    for q in range(NCI):
        wci[n0, q] = values[q]
    spd0, nsp = dci[d, D_SPD0], dci[d, D_SPDN]
    b = q = 0
    for out in range(e0 + nsp):
        if q < nsp and (b == e0 or dspeeds[spd0 + q] < ents[b, 1]):
            went[out, 0], went[out, 1] = n0, dspeeds[spd0 + q]
            q += 1
        else:
            went[out, 0], went[out, 1] = ents[b, 0], ents[b, 1]
            b += 1
    for q in range(dci[d, D_LZN]):
        lz = dci[d, D_LZ0] + q
        c2, s2 = cos_sin(rot + dlf[lz, DANG])
        ray = (
            x + c * dlf[lz, DAX] - s * dlf[lz, DAY],
            y + s * dlf[lz, DAX] + c * dlf[lz, DAY],
            -s2,
            c2,
        )
        wli[m0 + q, LCARD], wli[m0 + q, LPOW], wli[m0 + q, LKIND] = n0, dli[lz, 0], dli[lz, 1]
        cq_n[q] = 0
        for j in range(n0):
            if may_hit(ray, table[0][CX, j], table[0][CY, j], table[0][CR, j]):
                cq_n[q] = add_hit(ray, j, table, cq_i[q], cq_f[q], 0, cq_n[q])
    box = (x, y, c, s, size[0] / 2.0, size[1] / 2.0)
    for laser in range(m0):
        ray = (lf[laser, LOX], lf[laser, LOY], lf[laser, LDX], lf[laser, LDY])
        ext_f[laser, H_T] = INF
        if not may_hit(ray, x, y, size[2]):
            continue
        hit, t, first, mask, lx, ly = ray_hit(ray, box)
        if hit:
            blocked = shielded(mask, lx, ly, dci[d, D_SH0], dci[d, D_SHN], dsi, dsf)
            ext_i[laser, 0], ext_i[laser, 1] = first, 1 if blocked else 0
            ext_f[laser, H_T] = t
            ext_f[laser, H_X], ext_f[laser, H_Y] = ray[0] + ray[2] * t, ray[1] + ray[3] * t
    return int(e0 + nsp)


@jit_inline
def touches_any(row: FloatArr, cf: FloatArr, corners: FloatArr, size: FloatArr) -> bool:
    """Whether a candidate touches or overlaps a base card: ``geometry.rects_touch`` (the
    separating-axis test on both cards' edge normals) from the corners."""
    x, y = row[2], row[3]
    c, s = cos_sin(row[4])
    hw, hl = size[0] / 2.0, size[1] / 2.0
    own = np.empty(8, np.float64)
    for q in range(4):  # Rect.corners order
        lx = hw if q == 0 or q == 3 else -hw
        ly = hl if q < 2 else -hl
        own[2 * q], own[2 * q + 1] = x + c * lx - s * ly, y + s * lx + c * ly
    for j in range(cf.shape[1]):
        gx, gy, reach = cf[CX, j] - x, cf[CY, j] - y, cf[CR, j] + size[2]
        if gx * gx + gy * gy > reach * reach:
            continue
        apart = False
        for axis in range(4):
            ac, a_s = (c, s) if axis < 2 else (cf[CC, j], cf[CS, j])
            ax, ay = (ac, a_s) if axis % 2 == 0 else (-a_s, ac)
            amin = bmin = INF
            amax = bmax = -INF
            for q in range(4):
                pa = ax * own[2 * q] + ay * own[2 * q + 1]
                pb = ax * corners[j, 2 * q] + ay * corners[j, 2 * q + 1]
                amin, amax = min(amin, pa), max(amax, pa)
                bmin, bmax = min(bmin, pb), max(bmax, pb)
            apart = apart or bmin - amax > EPS or amin - bmax > EPS
        if not apart:
            return True
    return False


@jit
def batch_chunk(
    table: Geometry, ents: IntArr, corners: FloatArr, hits: Hits, defs: Defs,
    size: FloatArr, cand: FloatArr, rules: IntArr, check_touch: bool,
    out_scores: IntArr, out_winner: IntArr,
) -> None:  # fmt: skip
    """Score the base table plus each candidate of ``cand``, one after the other."""
    cf, ci, lf, li, si, sf = table
    dci = defs[0]
    n0, m0 = ci.shape[0], lf.shape[0]
    qmax = max(1, dci[:, D_LZN].max()) if dci.shape[0] else 1
    smax = max(1, dci[:, D_SPDN].max()) if dci.shape[0] else 1
    wci = np.empty((n0 + 1, NCI), np.int64)
    wci[:n0] = ci
    wli = np.empty((m0 + qmax, 3), np.int64)
    wli[:m0] = li
    went = np.empty((ents.shape[0] + smax, 2), np.int64)
    ext = (
        np.empty((m0, 2), np.int64), np.empty((m0, 3), np.float64), np.zeros(qmax, np.int64),
        np.empty((qmax, n0, 3), np.int64), np.empty((qmax, n0, 3), np.float64),
    )  # fmt: skip
    work = workspace(n0 + 1, m0 + qmax, rules[0])
    log = (np.empty((1, NEV_I), np.int64), np.empty((1, 2), np.float64), np.empty(1, np.int64))
    geo = (cf, wci, lf, wli, si, sf)
    for c_index in range(cand.shape[0]):
        row = cand[c_index]
        if check_touch and touches_any(row, cf, corners, size):
            out_winner[c_index] = -2
            continue
        n_ents = place_candidate(row, table, ents, defs, size, wci, went, wli, ext)
        off = np.bool_(False)  # not a literal: shares resolve_table's compiled simulate
        winner, _, _ = simulate(geo, went[:n_ents], off, hits, n0, ext, rules, work, off, log)
        out_winner[c_index] = winner
        out_scores[c_index] = work[5]


@jit_parallel
def batch(
    table: Geometry, ents: IntArr, corners: FloatArr, hits: Hits, defs: Defs,
    size: FloatArr, cand: FloatArr, rules: IntArr, check_touch: bool, n_chunks: int,
    out_scores: IntArr, out_winner: IntArr,
) -> None:  # fmt: skip
    """:func:`batch_chunk` on ``n_chunks`` chunks of the candidates in parallel. Each chunk
    works on its own copies of the shared arrays: threads touching the reference counts of
    the same arrays would fight over their cache lines."""
    cf, ci, lf, li, si, sf = table
    hs, hi, hf = hits
    dci, dspeeds, dlf, dli, dsi, dsf = defs
    n_cand = cand.shape[0]
    for chunk in numba.prange(n_chunks):
        start, end = chunk * n_cand // n_chunks, (chunk + 1) * n_cand // n_chunks
        scores = np.zeros((end - start, out_scores.shape[1]), np.int64)
        winners = np.empty(end - start, np.int64)
        batch_chunk(
            (cf.copy(), ci.copy(), lf.copy(), li.copy(), si.copy(), sf.copy()), ents.copy(),
            corners.copy(), (hs.copy(), hi.copy(), hf.copy()),
            (dci.copy(), dspeeds.copy(), dlf.copy(), dli.copy(), dsi.copy(), dsf.copy()),
            size.copy(), cand[start:end].copy(), rules.copy(), check_touch, scores, winners,
        )  # fmt: skip
        out_scores[start:end] = scores
        out_winner[start:end] = winners


@jit
def repeat_resolve(reps: int, geo: Geometry, ents: IntArr, rules: IntArr, ev_cap: int) -> int:
    """Resolve one packed table ``reps`` times with its event log, in compiled code (the
    benchmark of the single-table path, without Python call overhead per table)."""
    total = 0
    for _ in range(reps):
        total += resolve_table(geo, ents, rules, ev_cap, np.bool_(True))[3]
    return total
