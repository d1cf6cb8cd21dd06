"""The ``spacetable`` command (typer): serve the browser game; resolve and draw any game's
files; list ships; replay stored matches; measure resolvers, servers and bots.

One module per group of commands: :mod:`~spacetable.cli.serve`,
:mod:`~spacetable.cli.referee` (``resolve``, ``render``, ``cards``),
:mod:`~spacetable.cli.photo` (``photo``), :mod:`~spacetable.cli.replay`,
:mod:`~spacetable.cli.lab` (``bench``, ``loadtest``, ``duels``),
:mod:`~spacetable.cli.printing` (``print``); a game adds its own commands through the
registry (``Game.commands``).

Commands import what they use when they run (numba's kernels, OpenCV, reportlab,
SQLAlchemy, the server, the bots), and a game's own commands are imported only when they
run or show their help, so every command starts at once (docs/performance.md,
tests/cli/test_cli_imports.py).

Errors in the user's input (a malformed file, an unknown ship, an illegal order...) print
one line on stderr naming the problem and exit with status 2; nothing is printed on stdout.
Every help text that names games is built from the registry (:mod:`spacetable.registry`).
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable
from typing import Any

import typer
from typer import _click as click  # typer's own click, which its commands are made of
from typer.core import TyperCommand, TyperGroup

from spacetable.cli._common import fail, titles
from spacetable.registry import GameCommand, listings
from spacetable.registry._listing import load


def _help() -> str:
    return (
        f"Tabletop space-combat games on a computer: {titles()}. Play them in the browser "
        "with friends and bots, referee the files of real games exactly, replay and study."
    )


#: How every ``spacetable`` command shows its help: paragraphs reflowed to the terminal
#: (docstrings wrap at 88 columns), no completion options, plain tracebacks.
_SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": "markdown",
}


#: This package's commands, in the order ``spacetable --help`` lists them: the name, the
#: function (``module:attribute``, imported when the command runs or shows its help) and
#: the first paragraph of its docstring, which the list shows
#: (tests/cli/test_cli_imports.py checks each against its function).
COMMANDS = (
    GameCommand(
        "serve",
        "spacetable.cli.serve:serve",
        "Run the browser game: lobby, real-time matches with friends and bots, replays.",
    ),
    GameCommand(
        "resolve",
        "spacetable.cli.referee:resolve",
        "Resolve a file of any game and tell what happens step by step (or as JSON).",
    ),
    GameCommand(
        "render",
        "spacetable.cli.referee:render",
        "Draw a file of any game as SVG, optionally with what happens on it.",
    ),
    GameCommand("cards", "spacetable.cli.referee:cards", "List the ships of a catalog."),
    GameCommand(
        "photo",
        "spacetable.cli.photo:photo",
        "Read a photo of printed cards (`spacetable print`): find every card, write its table "
        "file, and with --resolve settle the battle, flagging the shots the photo cannot "
        "settle (close calls) so that the players check those by eye.",
    ),
    GameCommand(
        "bench",
        "spacetable.cli.lab:bench",
        "Measure how many tables per second the resolvers handle (reference, fast, batch), "
        "with --photo how well and how fast the photo referee reads a table, with "
        "--state-bytes what the match states cost to send, or with --startup how fast "
        "commands start.",
    ),
    GameCommand(
        "loadtest",
        "spacetable.cli.lab:loadtest",
        "Measure how many rooms one server core holds (load benchmark).",
    ),
    GameCommand(
        "duels",
        "spacetable.cli.lab:duels",
        "Measure one bot against another over seeded duels, in any game with bots.",
    ),
    GameCommand(
        "replay",
        "spacetable.cli.replay:replay",
        "Replay a stored match from its seed and action log and check that it reaches the "
        "result stored (exit 1 if not).",
    ),
    GameCommand(
        "catalogs",
        "spacetable.cli.catalogs:catalogs",
        "Bring every language's catalog up to the messages the code uses (for translators: "
        "docs/translating.md) and say how many each still lacks.",
    ),
    GameCommand(
        "protocol",
        "spacetable.cli.protocol:protocol",
        "Print the websocket protocol's JSON Schema, or write docs/protocol.md's message "
        "tables or the pages' JSDoc typedefs, from the protocol's declarations (server/protocol/).",
    ),
    GameCommand(
        "admin",
        "spacetable.cli.admin:admin",
        "Make an account a moderator (`grant`), or no longer one (`revoke`).",
    ),
    GameCommand(
        "print",
        "spacetable.cli.printing:print_sheets",
        "Print true-size card sheets, tokens, rulers and logs to play on a real table.",
    ),
)


class _LoadedOnUse(TyperCommand):
    """A command that ``spacetable --help`` lists by its summary, and that is imported
    (with its libraries, or its game) only when it runs or shows its own help. A game's
    command (``game``) returns the text to print (:func:`_game_command`)."""

    def __init__(self, command: GameCommand, game: bool = False) -> None:
        super().__init__(command.name, help=command.summary, short_help=command.summary)
        self.target = command.target
        self.game = game

    @functools.cached_property
    def loaded(self) -> click.Command:
        """The typer command itself."""
        function = load(self.target)
        single = typer.Typer(**_SETTINGS)
        single.command(self.name)(_game_command(function) if self.game else function)
        return typer.main.get_command(single)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """Parse ``args`` with the loaded command (the context names it: it runs)."""
        return self.loaded.make_context(info_name, args, parent=parent, **extra)


class _Spacetable(TyperGroup):
    """The ``spacetable`` group: the commands of this package (:data:`COMMANDS`), then
    each registered game's own, every one loaded on use (:class:`_LoadedOnUse`)."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        for command in COMMANDS:
            self.add_command(_LoadedOnUse(command))
        for entry in listings():
            for own in entry.commands:
                self.add_command(_LoadedOnUse(own, game=True))


app = typer.Typer(
    name="spacetable", help=_help(), no_args_is_help=True, cls=_Spacetable, **_SETTINGS
)


@app.callback()
def _group() -> None:
    # The group itself takes no options; its commands are _Spacetable's.
    pass


def _game_command(function: Callable[..., str]) -> Callable[..., None]:
    """A game's command (:attr:`~spacetable.registry.Game.commands`) as ``spacetable``
    runs it: the game's function returns the text to print, or raises ``ValueError``
    naming the bad option (one line on stderr, exit status 2)."""

    @functools.wraps(function)
    def command(*args: Any, **kwargs: Any) -> None:
        try:
            text = function(*args, **kwargs)
        except ValueError as exc:
            fail(str(exc))
        print(text)

    return command


#: Why writing the output fails while the command itself went well: a full disk or device
#: (``> /dev/full``), a quota, a file grown too large, a failing device.
_OUTPUT_ERRORS = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO))


def main() -> None:
    """Entry point of the ``spacetable`` console script.

    A command line typer cannot parse (a word where a number goes, an unknown option, a
    missing argument) ends like any user error: one line on stderr naming the option,
    exit status 2 (:func:`parse_error`). So does output that cannot be written (stdout on
    a full disk, ``> /dev/full``). (A closed pipe, ``| head``, is typer's own: quietly,
    status 1.)

    NumPy's OpenBLAS runs on one thread unless ``OPENBLAS_NUM_THREADS`` says otherwise:
    spacetable's linear algebra is on small matrices (a card's pose, a homography), where
    OpenBLAS's other threads only spin, and ``photo --resolve`` spent a fifth of its
    processor time there (docs/performance.md, "Starting a command")."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy is imported
    try:
        try:
            # Not standalone: typer hands its parse errors here instead of drawing them
            # in a panel, and returns the status a command exits with.
            status = app(standalone_mode=False)
        except typer.TyperException as exc:
            if exc.format_message():  # (empty when the help was shown for no arguments)
                print(f"spacetable: error: {parse_error(exc)}", file=sys.stderr)
            status = 2 if exc.exit_code == 2 else exc.exit_code
        except typer.Abort:  # Ctrl-D at a prompt
            print("Aborted!", file=sys.stderr)
            status = 1
        finally:
            # Flush now rather than at exit, where a failure is only a warning.
            sys.stdout.flush()
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRORS:
            raise
        # What is still buffered would fail again as the interpreter exits.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"spacetable: error: cannot write the output: {exc.strerror}", file=sys.stderr)
        raise SystemExit(2) from None
    raise SystemExit(status if isinstance(status, int) else 0)


def parse_error(exc: typer.TyperException) -> str:
    """A parse error of typer's as one line naming the option first, like the range
    checks' (:mod:`spacetable._number_options`): "--port: input should be a valid
    integer, unable to parse string as an integer", "No such option: --prot"."""
    option = getattr(exc.param, "opts", None) if isinstance(exc, typer.BadParameter) else None
    if option and exc.message:  # a value that is not what its option takes
        problem = " ".join(exc.message.split())
        return f"{option[0]}: {problem[:1].lower()}{problem[1:]}"
    return " ".join(exc.format_message().split())
