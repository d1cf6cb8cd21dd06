"""Every browser test checks its pages' frames against the protocol (issue 68 item 4): the
pooled pages do (``open_page``, ``borrowed_page``: tests/browser/_pages.py), and a test
that makes a browser context of its own (a restart, a silent socket, the memory of ten
matches, a cluster's failover) must hand its pages' sockets to
:func:`tests.browser._frames.check_frames` too. This test reads the tests: a module that
calls ``new_context`` and never ``check_frames`` fails, naming itself."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: The browser pages' pool, which checks the frames of every page it makes.
POOL = TESTS / "browser" / "_pages.py"


def _calls(tree: ast.AST) -> set[str]:
    """The names of the functions and methods ``tree`` calls."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                names.add(func.attr)
            elif isinstance(func, ast.Name):
                names.add(func.id)
    return names


def test_a_test_with_a_browser_context_of_its_own_checks_its_frames() -> None:
    unchecked = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == POOL or "__pycache__" in path.parts:
            continue
        calls = _calls(ast.parse(path.read_text("utf-8")))
        if "new_context" in calls and "check_frames" not in calls:
            unchecked.append(str(path.relative_to(TESTS)))
    assert unchecked == [], f"pages whose frames nobody checks (check_frames): {unchecked}"
