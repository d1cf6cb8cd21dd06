"""The range check every number option of the ``spacetable`` command goes through
(``cli`` and the commands games add from ``lab``): a number within its bounds, never NaN
or an infinity, or one line on stderr naming the option and exit status 2, like every
user error of the command (``cli._common.fail``)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import typer

#: The largest seed an option takes: rooms and duels draw their chance from 31-bit seeds.
MAX_SEED = 2**31 - 1


def _shown(number: float) -> str:
    """A bound or a value as the user would write it: 65535, 0.5, 1e+308, nan."""
    if math.isfinite(number) and float(number).is_integer() and abs(number) < 1e15:
        return str(int(number))
    return f"{number:g}"


def within(
    low: float, high: float, *, above: bool = False, unit: str = ""
) -> Callable[[typer.CallbackParam, float | None], float | None]:
    """A typer option callback that lets through a number from ``low`` (more than ``low``
    with ``above``) to ``high``, or no value, and refuses anything else, NaN and the
    infinities included: "spacetable: error: --port: 99999 is out of range: give a number
    from 1 to 65535", exit status 2. ``unit`` follows the bounds ("seconds")."""
    bounds = (
        f"above {_shown(low)} and at most {_shown(high)}"
        if above
        else f"from {_shown(low)} to {_shown(high)}"
    )
    wanted = f"a number {bounds}{f' {unit}' if unit else ''}"

    def check(param: typer.CallbackParam, value: float | None) -> float | None:
        if value is None:
            return None
        inside = value > low if above else value >= low
        if not (math.isfinite(value) and inside and value <= high):
            option = param.opts[0] if param.opts else param.name
            problem = f"{option}: {_shown(value)} is out of range: give {wanted}"
            print(f"spacetable: error: {problem}", file=sys.stderr)
            raise typer.Exit(2)
        return value

    return check
