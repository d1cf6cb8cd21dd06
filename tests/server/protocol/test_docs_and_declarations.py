"""The protocol's declarations are the one source: docs/protocol.md's message tables are
what they write, every client message the server accepts is declared and documented, and
no socket message is built as a hand-written dict outside the protocol package."""

from __future__ import annotations

import ast
from pathlib import Path

from typer.testing import CliRunner

from spacetable.cli import app
from spacetable.server.protocol.client_docs import CLIENT_DOCS
from spacetable.server.protocol.docs import rewritten
from spacetable.server.protocol.schema import protocol_schema
from spacetable.server.sockets.protocol import client_models
from tests._paths import ROOT

PAGE = ROOT / "docs" / "protocol.md"
SERVER = ROOT / "src" / "spacetable" / "server"

#: Dicts with a ``"type"`` built in the server that are no socket message to a page, each
#: with its reason (none of them is a message the pages read).
NOT_SOCKET_MESSAGES = {
    # ASGI's own events (uvicorn's interface), not JSON sent to a page.
    "http/http_protocol.py": "ASGI events (websocket.close, http.response.start/body)",
    # The protocol's declarations themselves.
    "protocol/": "the declarations",
}
#: Functions elsewhere whose typed dict is no socket message, with the reason.
NOT_SOCKET_MESSAGE_FUNCTIONS = {
    # The values a refusal's words name ({game} and {type}), not a message.
    ("rooms/match.py", "_named"): "a refusal's parameters",
}


def test_the_committed_page_equals_what_the_declarations_write() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert rewritten(page) == page, "run `uv run spacetable protocol docs`"
    result = CliRunner().invoke(app, ["protocol", "docs", "--check"])
    assert result.exit_code == 0, result.output


def test_a_changed_declaration_makes_the_page_stale(tmp_path: Path) -> None:
    page = tmp_path / "protocol.md"
    text = PAGE.read_text(encoding="utf-8").replace(
        "| `pong` |  | Answer to `ping`. |", "| `pong` |  | Answer. |"
    )
    page.write_text(text, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["protocol", "docs", "--check", "--page", str(page)]).exit_code == 1
    assert runner.invoke(app, ["protocol", "docs", "--page", str(page)]).exit_code == 0
    assert page.read_text(encoding="utf-8") == PAGE.read_text(encoding="utf-8")


def test_every_client_message_the_server_accepts_is_declared_and_documented() -> None:
    accepted = set(client_models())
    assert accepted == set(CLIENT_DOCS)
    client = protocol_schema()["$defs"]["client"]["oneOf"]
    assert {b["properties"]["type"]["const"] for b in client} == accepted


def test_each_field_of_each_client_message_is_documented_in_the_model_s_order() -> None:
    """docs/protocol.md's client table says each field in words (issue 68 item 3), and
    the schema gives each field's property those words: a field added to a model without
    them, or words of a field gone, fails."""
    client = {
        b["properties"]["type"]["const"]: b for b in protocol_schema()["$defs"]["client"]["oneOf"]
    }
    for kind, model in client_models().items():
        fields = [name for name in model.model_fields if name != "type"]
        words = CLIENT_DOCS[kind].fields
        assert list(words) == fields, kind
        assert all(said.strip() for said in words.values()), kind
        properties = client[kind]["properties"]
        assert all(properties[name]["description"] == words[name] for name in fields), kind


def _builds_a_typed_dict(node: ast.AST) -> bool:
    """A ``{"type": ...}`` literal, or ``dict(type=...)``."""
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "type" for k in node.keys)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return any(k.arg == "type" for k in node.keywords)
    return False


def test_no_socket_message_is_a_hand_written_dict_outside_the_declarations() -> None:
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        where = path.relative_to(SERVER).as_posix()
        if any(where.startswith(allowed) for allowed in NOT_SOCKET_MESSAGES):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside: dict[int, str] = {}  # node -> the innermost function around it
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                inside.update((id(n), function.name) for n in ast.walk(function))
        found += [
            f"{where}:{getattr(n, 'lineno', '?')}"
            for n in ast.walk(tree)
            if _builds_a_typed_dict(n)
            and (where, inside.get(id(n))) not in NOT_SOCKET_MESSAGE_FUNCTIONS
        ]
    assert found == [], "build socket messages through server/protocol/server_messages.py"
