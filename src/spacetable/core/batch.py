"""Batches of independent calls, and the one way the lab runs them.

A study (seeded duels, the race matrix) is a list of independent :class:`Call` s, each a
module-level function with its arguments, so that the results do not depend on where or
in which order they run. A :data:`Runner` runs a batch and returns the results in the
batch's order, telling ``progress(index, result)`` of each as it finishes (in any order).
:func:`run_here` runs them one after another in this process; ``spacetable.lab.spread``
runs the same calls on a Ray cluster. Pure: nothing here reads a clock or draws at random.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Call(Generic[R]):
    """``fn(*args, **kwargs)``, kept for later. ``fn`` must be importable by name (a
    module-level function) and the arguments picklable for the batch to leave the process."""

    fn: Callable[..., R]
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self) -> R:
        """Make the call."""
        return self.fn(*self.args, **self.kwargs)


#: Tells of one finished call: its index in the batch and its result.
Progress = Callable[[int, R], None]

#: Runs a batch and returns the results in the batch's order; ``progress`` hears of each.
Runner = Callable[[Sequence[Call[Any]], "Progress[Any] | None"], list[Any]]


def run_here(calls: Sequence[Call[R]], progress: Progress[R] | None = None) -> list[R]:
    """Run ``calls`` one after another in this process, in order."""
    results = []
    for index, call in enumerate(calls):
        result = call()
        results.append(result)
        if progress is not None:
            progress(index, result)
    return results
