"""The ``spacetable`` command (typer): serve the browser game; resolve and draw any game's
files; list ships; replay stored matches; measure resolvers, servers and bots.

One module per group of commands: :mod:`~spacetable.cli.serve`,
:mod:`~spacetable.cli.referee` (``resolve``, ``render``, ``cards``),
:mod:`~spacetable.cli.photo` (``photo``), :mod:`~spacetable.cli.replay`,
:mod:`~spacetable.cli.lab` (``bench``, ``loadtest``, ``duels``),
:mod:`~spacetable.cli.printing` (``print``); a game adds its own commands through the
registry (``Game.commands``).

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

from spacetable.cli import catalogs, lab, photo, printing, referee, replay, serve
from spacetable.cli._common import fail, titles
from spacetable.registry import games


def _help() -> str:
    return (
        f"Tabletop space-combat games on a computer: {titles()}. Play them in the browser "
        "with friends and bots, referee the files of real games exactly, replay and study."
    )


app = typer.Typer(
    name="spacetable",
    help=_help(),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Help paragraphs are reflowed to the terminal (docstrings wrap at 88 columns).
    rich_markup_mode="markdown",
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


for _game in games():
    for _name, _function in _game.commands:
        app.command(_name)(_game_command(_function))


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
