"""``spacetable protocol``: the websocket protocol as its declarations write it
(``server/protocol/``): its JSON Schema, or docs/protocol.md's message tables rewritten."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

#: The page whose tables ``spacetable protocol docs`` rewrites.
PAGE = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"
#: The module of JSDoc typedefs ``spacetable protocol jsdoc`` writes.
JSDOC = Path(__file__).resolve().parents[1] / "web" / "js" / "shell" / "protocol.js"


class What(StrEnum):
    """What ``spacetable protocol`` writes."""

    schema = "schema"
    docs = "docs"
    jsdoc = "jsdoc"


def protocol(
    what: Annotated[
        What,
        typer.Argument(
            help="`schema`: print the protocol's JSON Schema (draft 2020-12: `$defs/client`, "
            "`$defs/server`, `$defs/games` (each game's state and result), `$defs/http`). "
            "`docs`: rewrite the message tables of "
            "docs/protocol.md (between their marker comments) from the declarations. "
            "`jsdoc`: rewrite web/js/shell/protocol.js, the messages' JSDoc typedefs."
        ),
    ],
    page: Annotated[Path, typer.Option(help="The page `docs` rewrites.", dir_okay=False)] = PAGE,
    check: Annotated[
        bool,
        typer.Option(help="With `docs` or `jsdoc`: change nothing, exit 1 when the file differs."),
    ] = False,
) -> None:
    """Print the websocket protocol's JSON Schema, or write docs/protocol.md's message
    tables or the pages' JSDoc typedefs, from the protocol's declarations (server/protocol/)."""
    if what is What.jsdoc:
        from spacetable.server.protocol.jsdoc import protocol_jsdoc

        written = protocol_jsdoc()
        same = JSDOC.exists() and JSDOC.read_text(encoding="utf-8") == written
        if check:
            raise typer.Exit(0 if same else 1)
        if not same:
            JSDOC.write_text(written, encoding="utf-8")
        typer.echo(f"{JSDOC}: {'up to date' if same else 'rewritten'}")
        return
    if what is What.schema:
        from spacetable.server.app import create_app
        from spacetable.server.protocol.schema import protocol_schema
        from spacetable.server.store.storage import Storage

        openapi = create_app(Storage("sqlite:///:memory:")).openapi()
        typer.echo(json.dumps(protocol_schema(openapi), indent=2, ensure_ascii=False))
        return
    from spacetable.server.protocol.docs import rewritten

    text = page.read_text(encoding="utf-8")
    new = rewritten(text)
    if check:
        raise typer.Exit(0 if new == text else 1)
    if new != text:
        page.write_text(new, encoding="utf-8")
    typer.echo(f"{page}: {'rewritten' if new != text else 'up to date'}")
