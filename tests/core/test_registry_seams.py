"""The registry's seams hold what they promise: a function a game names by where it lives
(``lazy("package.module:function")``, imported on first use, which mypy cannot follow)
exists and takes what its field's Protocol passes."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from spacetable.registry import Game, games, listings
from spacetable.registry._listing import Lazy, load

#: Each Protocol's parameters, as the seam passes them.
DUEL = ("a", "b", "seed", "a_first", "turn_limit", "clock")
SHEETS = ("out", "job", "title", "run")
CHECK = ("job",)


def _named(entry: Game) -> Iterator[tuple[str, Callable[..., Any], tuple[str, ...]]]:
    """The functions ``entry`` names, with what each must take (``()``: not checked)."""
    if entry.duel is not None:
        yield "duel", entry.duel, DUEL
    if entry.sheets is not None:
        yield "sheets.draw", entry.sheets.draw, SHEETS
        if entry.sheets.check is not None:
            yield "sheets.check", entry.sheets.check, CHECK
    for name, function in entry.commands:
        yield f"command {name}", function, ()


@pytest.mark.parametrize("entry", games(), ids=lambda entry: entry.rules.key)
def test_every_function_a_game_names_exists_and_takes_what_its_seam_passes(entry: Game) -> None:
    for field, function, takes in _named(entry):
        found = load(function.target) if isinstance(function, Lazy) else function
        assert callable(found), (entry.rules.key, field)
        parameters = inspect.signature(found).parameters
        missing = [name for name in takes if name not in parameters]
        assert not missing, f"{entry.rules.key}: {field} takes no {missing}"


def test_the_games_that_print_say_so_before_they_load() -> None:
    prints = {listing.key: listing.prints for listing in listings()}
    assert prints == {entry.rules.key: entry.sheets is not None for entry in games()}
