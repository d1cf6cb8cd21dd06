"""The packed arrays the kernels read: their columns, and the tuples they travel in."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from spacetable.lasers.geometry import EPSILON_MM, GRAZE_MM

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
