"""One battle's speed steps on a packed table: damage, kills, rocks, scores, the log."""

from __future__ import annotations

import numpy as np

from spacetable.lasers._kernels import jit, jit_inline
from spacetable.lasers._kernels.layout import (
    BLOCKED,
    CARGO,
    CR,
    CX,
    CY,
    DAMAGE,
    EV_DELAY,
    EV_DESTROYED,
    EV_GOODS,
    EV_LASER,
    EV_LEFT,
    EV_STEP,
    EV_TAKE,
    EV_VAPOR,
    H_BLOCK,
    H_CARD,
    H_EDGE,
    H_T,
    H_X,
    H_Y,
    HEALTH,
    INF,
    ION,
    ION_HIT,
    IS_SHIP,
    LDX,
    LDY,
    LEFT_DEPLETED,
    LEFT_EMPTIED,
    LKIND,
    LOX,
    LOY,
    LPOW,
    LZ0,
    LZN,
    MINE,
    NEV_F,
    NEV_I,
    NORMAL,
    NOT_KILLED,
    NW,
    OWNER,
    PENETRATING,
    ROCKS,
    SH0,
    SHN,
    SPACE,
    VAP_DESTROYED,
    VAP_OWN_CARGO,
    VAP_PULSE,
    VP,
    W_DELAY,
    W_FIRED,
    W_GAIN,
    W_ON,
    W_PILE,
    W_ROCKS,
    Extra,
    Flag,
    Geometry,
    Hits,
    IntArr,
    Log,
    Work,
)
from spacetable.lasers._kernels.rays import (
    box_of,
    near_cards,
    ray_hit,
    shielded,
)


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


@jit
def repeat_resolve(reps: int, geo: Geometry, ents: IntArr, rules: IntArr, ev_cap: int) -> int:
    """Resolve one packed table ``reps`` times with its event log, in compiled code (the
    benchmark of the single-table path, without Python call overhead per table)."""
    total = 0
    for _ in range(reps):
        total += resolve_table(geo, ents, rules, ev_cap, np.bool_(True))[3]
    return total
