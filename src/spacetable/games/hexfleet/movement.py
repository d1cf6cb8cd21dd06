"""Movement on the hex grid: a ship spends one hex of movement per working propulsion cell,
one for each hex it enters straight ahead and one for each side it turns (DESIGN section 6).

Steps are written as letters: ``F`` into the hex ahead, ``L`` and ``R`` a turn of one side
(60 degrees) anticlockwise or clockwise. A ship may not enter a hex another ship holds
or leave the board (docs/rulings.md, H3).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass

from spacetable.games.hexfleet.hexes import Board, Hex
from spacetable.i18n.phrase import Reason, phrase_n, refusal

STEP_LETTERS = frozenset("FLR")
#: The longest steps string a move may hold (more than any ship's movement).
MAX_STEPS = 64


@dataclass(frozen=True, slots=True)
class Walk:
    """Where a ship's steps take it: the hexes entered, the end and its facing."""

    path: tuple[Hex, ...]
    at: Hex
    facing: int
    cost: int


def walk(
    at: Hex, facing: int, steps: str, board: Board, blocked: Collection[Hex], allowance: int
) -> Walk:
    """Follow ``steps`` from ``at`` facing ``facing``. Raises ``ValueError`` naming the
    step that leaves the board, enters a ship's hex or spends more than ``allowance``; its
    message is a :class:`~spacetable.i18n.phrase.Reason`, for each reader's language."""
    if not steps:
        raise ValueError(refusal("a move needs at least one step (F, L or R)"))
    if len(steps) > MAX_STEPS or not set(steps) <= STEP_LETTERS:
        raise ValueError(refusal("steps {steps} must be letters F, L and R only",
                                 steps=repr(steps[:MAX_STEPS])))  # fmt: skip
    if len(steps) > allowance:
        raise ValueError(Reason(phrase_n(
            "{n} step costs {n} hex of movement; {left} left",
            "{n} steps cost {n} hexes of movement; {left} left", len(steps), left=allowance,
        )))  # fmt: skip
    path: list[Hex] = []
    for i, step in enumerate(steps, 1):
        if step == "L":
            facing = (facing + 5) % 6
        elif step == "R":
            facing = (facing + 1) % 6
        else:
            ahead = at.neighbour(facing)
            if ahead not in board:
                raise ValueError(refusal("step {i} (F) would leave the board at {hex}",
                                         i=i, hex=str(ahead)))  # fmt: skip
            if ahead in blocked:
                raise ValueError(refusal("step {i} (F) would enter {hex}, where a ship is",
                                         i=i, hex=str(ahead)))  # fmt: skip
            at = ahead
            path.append(at)
    return Walk(tuple(path), at, facing, len(steps))


def reachable(
    at: Hex, facing: int, allowance: int, board: Board, blocked: Collection[Hex]
) -> dict[tuple[Hex, int], str]:
    """Every (hex, facing) a ship can end in with ``allowance`` hexes of movement, with the
    cheapest steps to it (breadth first: fewest steps, then F before L before R). The
    start itself is left out."""
    keys, index, ahead_of = _grid(board)
    start = index.get(at)
    if start is None:  # off the board: only turns in place
        return _reachable_slow(at, facing, allowance, board, blocked)
    stop = {index[h] for h in blocked if h in index}
    # States are numbered hex * 6 + facing; the search runs level by level (each level
    # one step longer), in the order the queue of the plain search visits them.
    first = start * 6 + facing
    best: dict[int, str] = {first: ""}
    level = [first]
    for _ in range(allowance):
        following = []
        for state in level:
            steps = best[state]
            here, face = divmod(state, 6)
            ahead = ahead_of[state]
            if ahead >= 0 and ahead not in stop:
                nxt = ahead * 6 + face
                if nxt not in best:
                    best[nxt] = steps + "F"
                    following.append(nxt)
            nxt = here * 6 + (face + 5) % 6
            if nxt not in best:
                best[nxt] = steps + "L"
                following.append(nxt)
            nxt = here * 6 + (face + 1) % 6
            if nxt not in best:
                best[nxt] = steps + "R"
                following.append(nxt)
        if not following:
            break
        level = following
    del best[first]
    return {keys[state]: steps for state, steps in best.items()}


def _reachable_slow(
    at: Hex, facing: int, allowance: int, board: Board, blocked: Collection[Hex]
) -> dict[tuple[Hex, int], str]:
    """:func:`reachable` for a start off the board (the plain breadth-first search)."""
    best: dict[tuple[Hex, int], str] = {(at, facing): ""}
    queue = deque([(at, facing)])
    ahead_of = _ahead_on(board)
    while queue:
        here, face = queue.popleft()
        steps = best[(here, face)]
        if len(steps) >= allowance:
            continue
        around = ahead_of.get(here)
        ahead = around[face] if around is not None else _ahead(here, face, board)
        options = []
        if ahead is not None and ahead not in blocked:
            options.append(((ahead, face), "F"))
        options.append(((here, (face + 5) % 6), "L"))
        options.append(((here, (face + 1) % 6), "R"))
        for state, letter in options:
            if state not in best:
                best[state] = steps + letter
                queue.append(state)
    del best[(at, facing)]
    return best


@functools.lru_cache(maxsize=16)
def _grid(board: Board) -> tuple[list[tuple[Hex, int]], dict[Hex, int], list[int]]:
    """:func:`reachable`'s tables for ``board``: each state (hex number * 6 + facing) as
    (hex, facing), the hexes' numbers, and for each state the number of the hex ahead
    (-1 off the board)."""
    hexes = list(board)
    index = {h: i for i, h in enumerate(hexes)}
    keys = [(h, facing) for h in hexes for facing in range(6)]
    ahead_of = [-1] * (6 * len(hexes))
    for i, here in enumerate(hexes):
        for facing in range(6):
            ahead = _ahead(here, facing, board)
            ahead_of[i * 6 + facing] = -1 if ahead is None else index[ahead]
    return keys, index, ahead_of


def _ahead(here: Hex, facing: int, board: Board) -> Hex | None:
    """The hex ahead of ``here`` facing ``facing``, or ``None`` off the board."""
    ahead = here.neighbour(facing)
    return ahead if ahead in board else None


@functools.lru_cache(maxsize=16)
def _ahead_on(board: Board) -> dict[Hex, tuple[Hex | None, ...]]:
    """For each hex of ``board``, the hex ahead of it by facing (``None`` off the board):
    :func:`reachable` asks it of every hex and facing it reaches, and a board has few
    sizes."""
    return {here: tuple(_ahead(here, facing, board) for facing in range(6)) for here in board}
