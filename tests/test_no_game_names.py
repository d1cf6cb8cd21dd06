"""No shared module names a game (issue 34, item 3; DESIGN section 7): the server, the
printing and command-line plumbing, the photo referee, the browser's shell and pages and
the shared stylesheet reach every game through the registry (Python) or ``loadGame(key)``
(the browser), never by its key. A game's own modules (``games/<key>/``,
``registry/<key>.py``, ``printing/<key>.py``, ``web/js/games/<key>/``...) are not looked at.

A key counts as named when it is an identifier or a part of one (``ftl_bots``,
``HEXFLEET_COPIES``, ``FtlBoard``, ``.ftl-zoom``), an import (``spacetable.games.hexfleet``)
or a word of a string (``"lightspeed"``, ``"#ftl-result"``). Docstrings and comments may
speak of the games; a title in prose ("Stellar Conflict") is not a key.

:data:`LEFT_FOR_LATER` lists, with the reason, the shared modules that still name a game:
each entry must still be needed (an entry whose module no longer names a game fails too,
so the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from spacetable.registry import BUILTIN

SRC = Path(__file__).resolve().parents[1] / "src" / "spacetable"
#: The game keys (the registry's: a game added to BUILTIN is looked for too).
KEYS = frozenset(listing.key for listing in BUILTIN)

#: The shared modules, by glob under ``src/spacetable``.
SHARED = (
    "server/**/*.py",
    "printing/*.py",
    "cli/*.py",
    "photo/*.py",
    "web/*.html",
    "web/css/*.css",
    "web/js/shell/*.js",
    "web/js/pages/*.js",
    "web/js/games/index.js",  # loadGame(key): the one place a key becomes a module
)
#: Modules of a shared package that are one game's (or one family's) own, as
#: ``render/ftl_svg.py`` is: the registry wires them to their game.
GAME_MODULES = frozenset(
    {
        "printing/lasers.py",  # Light Speed's and Stellar Conflict's card sheets
        "printing/ftl.py",  # Faster Than Light's tokens and order sheets
        "printing/hexfleet.py",  # the hex fleet's counters and ship's logs
    }
)

#: Shared modules that still name a game, and why: each is a piece of issue 34 not done yet.
LEFT_FOR_LATER: dict[str, str] = {}
#: Shared modules that speak of one game in its own words, which no key gives away: left
#: for later too, listed so that what is left is whole (none now: the server's race choice
#: and fleet messages are Stellar Conflict's registration's, ``registry/stellar.py``).
UNSEEN: dict[str, str] = {}


def _words(text: str) -> Iterator[str]:
    """The words of ``text`` that may be a key: identifiers and words split at ``_``, ``-``,
    ``.`` and camel case, each as written."""
    for token in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", token)
        for part in parts:
            # A capitalised word alone is prose ("Stellar Conflict"); inside an identifier
            # (FtlBoard) or in capitals (FTL) it is the key.
            if part.islower() or part.isupper() or len(parts) > 1:
                yield part.lower()


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _python_names(source: str) -> set[str]:
    """The keys a Python module names in its code (not its docstrings or comments)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    texts: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, ast.alias):
            texts.append(node.name)
        elif isinstance(node, ast.ImportFrom):
            texts.append(node.module or "")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            texts.append(node.name)
        elif isinstance(node, ast.arg):
            texts.append(node.arg)
        elif isinstance(node, ast.keyword):
            texts.append(node.arg or "")
    return {word for text in texts for word in _words(text)} & KEYS


def _web_names(source: str) -> set[str]:
    """The keys a script, stylesheet or page names outside its comments."""
    code = re.sub(r"/\*.*?\*/|<!--.*?-->", " ", source, flags=re.DOTALL)
    code = re.sub(r"(^|\s)//.*", " ", code)
    return set(_words(code)) & KEYS


def names_in(path: Path) -> set[str]:
    """The game keys the module at ``path`` names."""
    source = path.read_text("utf-8")
    return _python_names(source) if path.suffix == ".py" else _web_names(source)


def shared_modules() -> list[str]:
    """Every shared module, as a path under ``src/spacetable``."""
    found = {
        path.relative_to(SRC).as_posix()
        for pattern in SHARED
        for path in SRC.glob(pattern)
        if "__pycache__" not in path.parts
    }
    return sorted(found - GAME_MODULES)


def test_the_checks_find_a_key_however_it_is_written() -> None:
    code = 'from spacetable.games.hexfleet import x\nHEXFLEET_COPIES = 1\ndef f(): return "ftl"\n'
    assert _python_names(code) == {"hexfleet", "ftl"}
    assert _python_names('"""Stellar Conflict and lightspeed in words."""\n') == set()
    assert _web_names('el("p", { id: "ftl-result" }); new StellarRoom();') == {"ftl", "stellar"}
    assert _web_names(".ftl-zoom button { min-width: 40px; }") == {"ftl"}
    assert _web_names("// FTL's board\n/* hexfleet */ <!-- lightspeed -->") == set()
    assert _web_names("<p>Stellar Conflict is Light Speed's battle</p>") == set()


@pytest.mark.parametrize("module", shared_modules())
def test_a_shared_module_names_no_game(module: str) -> None:
    named = names_in(SRC / module)
    if module in LEFT_FOR_LATER:
        assert named, f"{module} names no game any more: take it off LEFT_FOR_LATER"
    else:
        assert not named, f"{module} names {sorted(named)}: reach the game through the registry"


def test_every_module_left_for_later_is_a_shared_one() -> None:
    assert set(LEFT_FOR_LATER) | set(UNSEEN) <= set(shared_modules())


#: The fields of a match's summary (GET /api/matches) that one game's results have and
#: another's not: the game's module says them (its ``matchScores``), not the shell.
GAME_RESULT_FIELDS = ("scores", "strength", "turns")


def test_each_game_says_its_own_scores_in_the_match_lists() -> None:
    """The match lists (the lobby's recent matches, /matches, a profile) read no game's
    result fields themselves: each game's module offers ``matchScores(summary)``, reached by
    its key (games/index.js), so a new game's scores need no change to the shell (issue 68
    item 5)."""
    for module in ("shell/matchlist.js", "pages/matches.js", "pages/profile.js", "pages/lobby.js"):
        module = f"web/js/{module}"
        code = re.sub(r"/\*.*?\*/", " ", (SRC / module).read_text("utf-8"), flags=re.DOTALL)
        code = re.sub(r"(^|\s)//.*", " ", code)
        read = {f for f in GAME_RESULT_FIELDS if re.search(rf"\.{f}\b", code)}
        assert not read, f"{module} reads a game's result fields {sorted(read)}"
    for key in sorted(KEYS):
        index = (SRC / "web" / "js" / "games" / key / "index.js").read_text("utf-8")
        offered = r"export (async )?function matchScores\b|export \{[^}]*\bmatchScores\b"
        assert re.search(offered, index), f"games/{key}/index.js offers no matchScores"
