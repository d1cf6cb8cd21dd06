"""Many candidate placements of one more card on a base table, each scored by its own
battle: :func:`batch_chunk` scores a chunk of them, without the interpreter's lock, so
that several threads score chunks at once (``spacetable.lasers.fast``)."""

from __future__ import annotations

import numpy as np

from spacetable.lasers._kernels import jit_inline, jit_nogil
from spacetable.lasers._kernels.battle import (
    simulate,
    workspace,
)
from spacetable.lasers._kernels.layout import (
    CC,
    CR,
    CS,
    CX,
    CY,
    D_CARGO,
    D_HEALTH,
    D_LZ0,
    D_LZN,
    D_ROCKS,
    D_SH0,
    D_SHN,
    D_SPD0,
    D_SPDN,
    D_VP,
    DANG,
    DAX,
    DAY,
    EPS,
    H_T,
    H_X,
    H_Y,
    INF,
    LCARD,
    LDX,
    LDY,
    LKIND,
    LOX,
    LOY,
    LPOW,
    NCI,
    NEV_I,
    Defs,
    Extra,
    FloatArr,
    Geometry,
    Hits,
    IntArr,
)
from spacetable.lasers._kernels.rays import (
    add_hit,
    cos_sin,
    may_hit,
    ray_hit,
    shielded,
)


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


@jit_nogil
def batch_chunk(
    table: Geometry, ents: IntArr, corners: FloatArr, hits: Hits, defs: Defs,
    size: FloatArr, cand: FloatArr, rules: IntArr, check_touch: bool,
    out_scores: IntArr, out_winner: IntArr,
) -> None:  # fmt: skip
    """Score the base table plus each candidate of ``cand``, one after the other, into
    ``out_scores`` and ``out_winner`` (-2: the candidate touches a base card). The shared
    arrays are only read; each call from the interpreter holds them through reference
    counts of its own, so threads running it at once do not share one."""
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
