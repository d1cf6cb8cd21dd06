"""What an FTL position is worth to a player, as the match will be judged.

The match ends when a ship is gone, or at the turn limit, where the most hits scored win,
then the most pieces left (docs/rulings.md F13). So the worth of a position is, first, the
hits each side has scored (taken by the other's ship), then the pieces each has left, and
while turns remain, the *threat* each side has built: missiles whose tape already crosses
an enemy ship's post (a strike if it rotates or launches), missiles lying on its sprint
line (a mine if it sprints through), missiles near it, missiles still to launch. The
threat counts less as the limit comes near and nothing on the last turn, when only hits
and pieces count. Everything here is pure.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

from spacetable.bots.ftl._aim import REACH_IN, clean_strike, launch_point, on_path, stands_on
from spacetable.games.ftl.match import limit_winner
from spacetable.games.ftl.pieces import HITS_TO_DESTROY, Kind, Piece

#: A match won, lost, or drawn (every ship gone in a collision, or even at the limit):
#: a draw is worse than an even position with turns left (which the matrix levels charge
#: 150, ``matrix.EVEN``), since the bots mean to win; a side behind still takes it over a
#: loss. At -150 a collision cost no more than staying even (a ship would sprint through
#: the other's post on that gamble), and two ``hard`` bots drew 21 duels in 100 (12 at
#: -300, same seeds).
WIN, LOSS, DRAW = 1000.0, -1000.0, -300.0
#: A hit scored (or taken), and a piece left: what decides the match at the limit.
HIT, PIECE = 100.0, 4.0
#: Threat: a missile whose tape crosses an enemy ship's post; one on its sprint line; one
#: within a sprint of it; a missile still in store.
AIMED, MINE, NEAR, STORED = 24.0, 14.0, 7.0, 2.0
#: Each further threatening missile counts this share of the one before (one strikes at a
#: time, but several close a ship's ways out).
FALLOFF = 0.7
#: A ship nearer the table's edge than this (in) pays per inch (it loses room to dodge,
#: and sprints off the table are lost).
EDGE_IN, EDGE_COST = 4.0, 6.0
#: A ship farther than this from the nearest enemy ship (in) pays per inch.
FAR_IN, FAR_COST = 12.0, 1.0
#: A missile standing on its ship's launch point, while the ship has missiles to launch,
#: costs this much: it bars the next launch (a new missile would stack on it).
BLOCK = 6.0
#: ``FALLOFF ** k`` for the k-th threatening missile (more than a side can have).
_FALLOFFS = tuple(FALLOFF**k for k in range(64))
#: Turns over which the threat fades in before the limit.
FADE_TURNS = 1


def standing_ships(board: Mapping[str, Piece], players: Sequence[str]) -> list[Piece]:
    """The players' ships still on the table, in seat order."""
    return [board[p] for p in players if p in board and board[p].on_table]


def hits_taken(board: Mapping[str, Piece], player: str) -> int:
    """Hits on ``player``'s ship (three once it is gone)."""
    ship = board.get(player)
    if ship is None:
        return 0
    return ship.hits if ship.on_table else HITS_TO_DESTROY


def pieces_left(board: Mapping[str, Piece], player: str) -> int:
    """``player``'s ship and missiles on the table and the missiles in its store."""
    return sum(
        1 + (p.missiles if p.is_ship else 0)
        for p in board.values()
        if p.owner == player and p.on_table
    )


def scores(board: Mapping[str, Piece], players: Sequence[str]) -> dict[str, int]:
    """Hits each player has scored, as a duel sees it: the hits the others' ships took
    (split among the others when there are more than two players)."""
    out = {}
    for player in players:
        taken = sum(hits_taken(board, p) for p in players if p != player)
        out[player] = taken // max(1, len(players) - 1)
    return out


def evaluate(
    board: Mapping[str, Piece],
    me: str,
    players: Sequence[str],
    table_in: tuple[float, float],
    turns_left: int,
    lead: float = 0.0,
    even: float = 0.0,
) -> float:
    """How good ``board`` is for ``me`` with ``turns_left`` turns after it (0: the match
    is judged on it now): :data:`WIN`, :data:`LOSS` or :data:`DRAW` once decided, else
    hits and pieces, then the threat each side built, ours minus the best enemy's; with a
    ``lead`` weight, plus (or minus) that much when we are ahead (or behind) as the turn
    limit would judge it now, since a side ahead keeps its lead by keeping still (F14),
    and minus ``even`` when neither is ahead (a draw in the making: a side that plays to
    win takes a fair chance of the lead over it)."""
    standing = standing_ships(board, players)
    alive = any(s.id == me for s in standing)
    if not alive:
        return LOSS if standing else DRAW
    enemies = [s for s in standing if s.id != me]
    if not enemies:
        return WIN
    ship = board[me]
    scored = scores(board, players)
    # One pass over the board: every player's pieces left and missiles on the table
    # (as pieces_left and threat count them, in the board's order).
    left = dict.fromkeys(players, 0)
    missiles: dict[str, list[Piece]] = {}
    for piece in board.values():
        if not piece.on_table:
            continue
        owner = piece.owner
        if piece.kind is Kind.SHIP:
            count = 1 + piece.missiles
        else:
            count = 1
            missiles.setdefault(owner, []).append(piece)
        if owner in left:
            left[owner] += count
    if turns_left <= 0:
        winner = limit_winner([s.id for s in standing], scored, left)
        return DRAW if winner is None else WIN if winner == me else LOSS
    rival = max(enemies, key=lambda e: (scored[e.id], left[e.id]))
    value = HIT * (scored[me] - scored[rival.id]) + PIECE * (left[me] - left[rival.id])
    if lead:
        mine_rank, rival_rank = (scored[me], left[me]), (scored[rival.id], left[rival.id])
        value += lead * ((mine_rank > rival_rank) - (mine_rank < rival_rank))
        value -= even * (mine_rank == rival_rank)
    fade = min(1.0, turns_left / FADE_TURNS)
    mine = _threat(ship, missiles.get(ship.owner, ()), enemies, table_in)
    theirs = max(
        _threat(e, missiles.get(e.owner, ()), [ship, *(o for o in enemies if o is not e)], table_in)
        for e in enemies
    )
    return value + fade * (mine - theirs)


def threat(
    board: Mapping[str, Piece], ship: Piece, targets: Sequence[Piece], table_in: tuple[float, float]
) -> float:
    """The threat ``ship``'s side holds over ``targets`` (enemy ships), less what its own
    position costs it (the edge, the distance, a missile barring its launch point)."""
    own = [
        piece
        for piece in board.values()
        if piece.owner == ship.owner and not piece.is_ship and piece.on_table
    ]
    return _threat(ship, own, targets, table_in)


def _threat(
    ship: Piece, missiles: Sequence[Piece], targets: Sequence[Piece], table_in: tuple[float, float]
) -> float:
    """:func:`threat` given the side's missiles on the table, in the board's order."""
    worth = []
    blocked = 0.0
    targets = tuple(targets)
    launch = launch_point(ship) if ship.missiles > 0 else None
    for piece in missiles:
        if launch is not None and stands_on(piece, launch):
            blocked = BLOCK  # it bars the ship's next launch
        worth.append(missile_threat(piece, targets))
    worth.sort(reverse=True)
    falloffs = (
        _FALLOFFS if len(worth) <= len(_FALLOFFS) else [FALLOFF**k for k in range(len(worth))]
    )
    falloff = zip(worth, falloffs, strict=False)
    total = sum(w * f for w, f in falloff) + STORED * ship.missiles - blocked
    margin = min(table_in[0] / 2.0 - abs(ship.x), table_in[1] / 2.0 - abs(ship.y))
    total -= EDGE_COST * max(0.0, EDGE_IN - margin)
    nearest = min(math.dist((ship.x, ship.y), (t.x, t.y)) for t in targets)
    total -= FAR_COST * max(0.0, nearest - FAR_IN)
    return total


@functools.lru_cache(maxsize=8192)
def missile_threat(missile: Piece, targets: tuple[Piece, ...]) -> float:
    """The threat one missile holds over the nearest-to-hit of ``targets``: aimed, a mine,
    near, or less the farther it is. Remembered: looking ahead, the bots weigh the same
    missile against the same ships on many boards (about twenty times each, in the hard
    bot's plots), and the answer depends on nothing else."""
    best = 0.0
    for target in targets:
        if clean_strike(missile, target):
            best = max(best, AIMED)
            continue
        distance = math.dist((missile.x, missile.y), (target.x, target.y))
        if distance > REACH_IN + 2.0:
            best = max(best, NEAR * REACH_IN / distance)
        elif on_path(missile, target):
            best = max(best, MINE)
        else:
            best = max(best, NEAR)
    return best
