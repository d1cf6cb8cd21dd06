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

from spacetable.cli import catalogs, lab, photo, printing, referee, replay, serve
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


class _LoadedOnUse(TyperCommand):
    """A game's command (:class:`~spacetable.registry.GameCommand`) that ``spacetable
    --help`` lists by its summary, and that is imported, with its game, only when it runs
    or shows its own help."""

    def __init__(self, command: GameCommand) -> None:
        super().__init__(command.name, help=command.summary, short_help=command.summary)
        self.target = command.target

    @functools.cached_property
    def loaded(self) -> click.Command:
        """The typer command itself."""
        single = typer.Typer(**_SETTINGS)
        single.command(self.name)(_game_command(load(self.target)))
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
    """The ``spacetable`` group: the commands of this package, then each registered
    game's own (:class:`_LoadedOnUse`)."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        for entry in listings():
            for command in entry.commands:
                self.add_command(_LoadedOnUse(command))


app = typer.Typer(
    name="spacetable", help=_help(), no_args_is_help=True, cls=_Spacetable, **_SETTINGS
)

for _command in (
    serve.serve,
    referee.resolve,
    referee.render,
    referee.cards,
    photo.photo,
    lab.bench,
    lab.loadtest,
    lab.duels,
    replay.replay,
    catalogs.catalogs,
):
    app.command()(_command)
app.command("print")(printing.print_sheets)


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
    status 1.)"""
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
