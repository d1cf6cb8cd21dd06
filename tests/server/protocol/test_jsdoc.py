"""The pages' JSDoc typedefs of the protocol (web/js/shell/protocol.js) are written from the
declarations (``spacetable protocol jsdoc``): a renamed field in Python shows in the typedefs
the shell's socket code names (issue 68 item 4)."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from spacetable.cli import app
from spacetable.server.protocol.jsdoc import protocol_jsdoc
from spacetable.server.protocol.schema import protocol_schema
from tests._paths import ROOT

SHELL = ROOT / "src" / "spacetable" / "web" / "js" / "shell"
JSDOC = SHELL / "protocol.js"


def test_the_committed_typedefs_equal_what_the_declarations_write() -> None:
    assert JSDOC.read_text(encoding="utf-8") == protocol_jsdoc(), (
        "web/js/shell/protocol.js is stale: run `uv run spacetable protocol jsdoc`"
    )
    assert CliRunner().invoke(app, ["protocol", "jsdoc", "--check"]).exit_code == 0


def test_each_message_has_a_typedef_with_its_fields_and_the_unions_name_them_all() -> None:
    text = protocol_jsdoc()
    defs = protocol_schema()["$defs"]
    for side, prefix in (("server", "Server"), ("client", "Client")):
        union = re.search(rf"@typedef \{{\((.*)\)\}} {prefix}Message \*/", text)
        assert union is not None, side
        names = union.group(1).split("|")
        assert len(names) == len(defs[side]["oneOf"])
        for name, branch in zip(names, defs[side]["oneOf"], strict=True):
            block = text.split(f"@typedef {{Object}} {name}\n", 1)[1].split(" */", 1)[0]
            tag = branch["properties"]["type"]["const"]
            assert f'@property {{"{tag}"}} type' in block
            for field in branch["properties"]:
                assert re.search(rf"\}} \[?{field}\]?( |$)", block, re.M), (name, field)
    # The welcome's token, which the page keeps: a renamed field would show here.
    assert "@property {(string|null)} token - " in text


def test_the_shell_socket_code_names_the_typedefs() -> None:
    socket = (SHELL / "socket.js").read_text(encoding="utf-8")
    room = (SHELL / "room.js").read_text(encoding="utf-8")
    assert '@param {import("./protocol.js").ClientMessage} message' in socket
    assert 'import("./protocol.js").ServerMessage' in socket
    assert '@param {import("./protocol.js").ServerMessage} message' in room
