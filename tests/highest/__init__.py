"""Highest number: a throw-away game that lives in the tests alone, to prove that a game
plugs into spacetable through its registration and its own folders (docs/adding-a-game.md).

- :mod:`tests.highest.rules`: the match and the game's rules entry.
- :mod:`tests.highest.bot`: its bot.
- :mod:`tests.highest.game`: the registration (the ``SPACETABLE_GAMES`` variable names it).
- ``web/index.js``: its browser module.
"""
