"""Movement on the hex grid: a ship spends one hex of movement per working propulsion cell,
one for each hex it enters straight ahead and one for each side it turns (DESIGN section 6).

Steps are written as letters: ``F`` into the hex ahead, ``L`` and ``R`` a turn of one side
(60 degrees) anticlockwise or clockwise. A ship may not enter a hex another ship holds
or leave the board (docs/rulings.md, H3).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass

from spacetable.games.hexfleet.hexes import Board, Hex

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
    step that leaves the board, enters a ship's hex or spends more than ``allowance``."""
    if not steps:
        raise ValueError("a move needs at least one step (F, L or R)")
    if len(steps) > MAX_STEPS or not set(steps) <= STEP_LETTERS:
        raise ValueError(f"steps {steps[:MAX_STEPS]!r} must be letters F, L and R only")
    if len(steps) > allowance:
        raise ValueError(
            f"{len(steps)} steps cost {len(steps)} hexes of movement; {allowance} left"
        )
    path: list[Hex] = []
    for i, step in enumerate(steps, 1):
        if step == "L":
            facing = (facing + 5) % 6
        elif step == "R":
            facing = (facing + 1) % 6
        else:
            ahead = at.neighbour(facing)
            if ahead not in board:
                raise ValueError(f"step {i} (F) would leave the board at {ahead}")
            if ahead in blocked:
                raise ValueError(f"step {i} (F) would enter {ahead}, where a ship is")
            at = ahead
            path.append(at)
    return Walk(tuple(path), at, facing, len(steps))


def reachable(
    at: Hex, facing: int, allowance: int, board: Board, blocked: Collection[Hex]
) -> dict[tuple[Hex, int], str]:
    """Every (hex, facing) a ship can end in with ``allowance`` hexes of movement, with the
    cheapest steps to it (breadth first: fewest steps, then F before L before R). The
    start itself is left out."""
    best: dict[tuple[Hex, int], str] = {(at, facing): ""}
    queue = deque([(at, facing)])
    while queue:
        here, face = queue.popleft()
        steps = best[(here, face)]
        if len(steps) >= allowance:
            continue
        ahead = here.neighbour(face)
        options = []
        if ahead in board and ahead not in blocked:
            options.append(((ahead, face), "F"))
        options.append(((here, (face + 5) % 6), "L"))
        options.append(((here, (face + 1) % 6), "R"))
        for state, letter in options:
            if state not in best:
                best[state] = steps + letter
                queue.append(state)
    del best[(at, facing)]
    return best
