"""``tests/server/`` mirrors ``server/``'s packages (issue 68 item 5; docs/developing.md,
"Where the tests are"): a newcomer looking for the tests of ``server/rooms/chat.py`` finds
them in ``tests/server/rooms/``. Beside the packages' folders, three cut across them:
``hostile/`` (attacks), ``durable/`` (restarts and storage faults) and ``protocol/`` (the
frames' declarations, itself a package of the server). A test file directly in
``tests/server/`` tests one of the server's top-level modules, which it names."""

from __future__ import annotations

import ast
from pathlib import Path

import spacetable.server

TESTS = Path(__file__).resolve().parent / "server"
SERVER = Path(spacetable.server.__file__).resolve().parent
#: The folders of tests/server that are no package of server/: they cut across them.
ACROSS = {"durable", "hostile"}


def test_every_folder_of_the_server_s_tests_is_a_server_package_or_cuts_across_them() -> None:
    packages = {p.name for p in SERVER.iterdir() if (p / "__init__.py").exists()}
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders - packages - ACROSS == set()
    assert all((TESTS / folder / "__init__.py").exists() for folder in folders)


def test_a_test_file_beside_the_folders_names_the_top_level_module_it_tests() -> None:
    modules = {p.name for p in SERVER.glob("*.py") if p.name != "__init__.py"}
    for path in sorted(TESTS.glob("test_*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
        named = {m for m in modules if f"server/{m}" in doc}
        assert named, f"{path.name} tests no top-level module of server/: move it to its package"
