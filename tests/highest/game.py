"""Highest number's registration: its rules wired to its bot and its browser module.
``SPACETABLE_GAMES=tests.highest.game`` registers it in a server or CLI process."""

from __future__ import annotations

from pathlib import Path

from spacetable.registry import Bots, Game
from tests.highest.bot import LEVELS, make_bot
from tests.highest.rules import RULES

GAME = Game(
    RULES,
    bots=Bots(
        make=make_bot, levels=LEVELS, default="random", about=(("random", "picks any number"),)
    ),
    web_dir=Path(__file__).resolve().parent / "web",
)
