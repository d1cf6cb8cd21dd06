"""What the ``spacetable`` commands share: the one way a user error ends a command, and
help texts that name the registered games (built from the registry, so they cannot go
stale when a game is added)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import NoReturn

import typer

from spacetable._userinput import os_said
from spacetable.i18n import ENGLISH, Translator
from spacetable.i18n.phrase import Phrase, value_of
from spacetable.registry import Listing, listings


def fail(message: str, tr: Translator = ENGLISH) -> NoReturn:
    """Report a user error on stderr (in ``tr``'s language) and exit with status 2."""
    print(tr.gettext("spacetable: error: {message}", message=message), file=sys.stderr)
    raise typer.Exit(2)


def said(error: BaseException, tr: Translator = ENGLISH) -> str:
    """``error``'s message in ``tr``'s language when it is a phrase (a
    :class:`~spacetable.i18n.phrase.Reason`), else as it is."""
    value = value_of(error)
    return value.text(tr) if isinstance(value, Phrase) else str(value)


def fail_on(source: object, error: BaseException, tr: Translator = ENGLISH) -> NoReturn:
    """Report ``error`` about ``source`` (a file) in ``tr``'s language and exit with
    status 2: ``spacetable: error: table.json: ...``."""
    fail(tr.gettext("{file}: {error}", file=str(source), error=said(error, tr)), tr)


def cannot_write(path: object, error: OSError, tr: Translator = ENGLISH) -> str:
    """``cannot write out.svg: Permission denied``, in ``tr``'s language."""
    return tr.gettext("cannot write {file}: {error}", file=str(path), error=os_said(error, tr))


def in_words(items: Iterable[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last`` joins the last two)."""
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


def titles(having: Callable[[Listing], object] = lambda entry: True, last: str = "and") -> str:
    """The titles of the registered games for which ``having`` is true, in words (read
    off their listings: no game is loaded)."""
    return in_words((g.title for g in listings() if having(g)), last)


def choices(having: Callable[[Listing], object] = lambda entry: True) -> str:
    """The keys of the registered games for which ``having`` is true, each with its title:
    "lightspeed (Light Speed), ftl (Faster Than Light) or ..."."""
    return in_words((f"{g.key} ({g.title})" for g in listings() if having(g)), "or")


def bot_levels() -> str:
    """Each registered game's bot levels, in words: "Light Speed: beginner, random...;
    Faster Than Light: ..."."""
    return "; ".join(f"{g.title}: {', '.join(g.bot_levels)}" for g in listings() if g.bot_levels)


def file_kinds() -> str:
    """The files ``resolve`` and ``render`` settle, game by game, in words: "a Light Speed
    table file, a Stellar Conflict table file, a Faster Than Light turn file..."."""
    return in_words((f"a {g.title} {g.file_kind}" for g in listings() if g.file_kind), "or")
