"""docs/protocol.md's message tables, written from the declarations
(``spacetable protocol docs`` rewrites them in the page; tests/server/protocol checks that
the committed page equals what this writes).

Each table sits between two marker comments in the page, ``<!-- protocol:client -->`` ...
``<!-- /protocol:client -->`` and the same for ``server`` and ``events`` (the lines of a
bot's event stream: :mod:`~spacetable.server.protocol.event_lines`); the prose around them is the
page's own. The server table's fields are each record field's ``Doc``
(:mod:`~spacetable.server.protocol.server_messages`); the client table's words are
:data:`~spacetable.server.protocol.client_docs.CLIENT_DOCS`, one row per message the
server accepts (:func:`~spacetable.server.protocol.client_messages.client_models`).
"""

from __future__ import annotations

import re
from typing import Any

from spacetable.server.protocol.bot_messages import GAME_LINES
from spacetable.server.protocol.client_docs import CLIENT_DOCS
from spacetable.server.protocol.client_messages import client_models
from spacetable.server.protocol.event_lines import EVENT_LINES
from spacetable.server.protocol.schema import server_fields
from spacetable.server.protocol.server_messages import SERVER_MESSAGES


def _cell(text: str) -> str:
    """``text`` as one table cell: on one line, ``|`` escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def client_table() -> str:
    """The table of the messages a page sends."""
    rows = ["| type | fields | when | effect |", "|---|---|---|---|"]
    for kind in client_models():
        words = CLIENT_DOCS[kind]
        rows.append(
            f"| `{kind}` | {_cell(words.said())} | {_cell(words.when)} | {_cell(words.effect)} |"
        )
    return "\n".join(rows)


def server_table() -> str:
    """The table of the messages the server sends."""
    return _records_table(SERVER_MESSAGES)


def events_table() -> str:
    """The table of the lines of a bot's event stream (``GET /api/stream/event``)."""
    return _records_table(EVENT_LINES)


def game_lines_table() -> str:
    """The table of a bot's game stream's own lines (``GET /api/bot/game/stream/{room}``)."""
    return _records_table(GAME_LINES)


def _records_table(records: tuple[type[Any], ...]) -> str:
    """The table of ``records`` (declared messages): type, fields, meaning."""
    rows = ["| type | fields | meaning |", "|---|---|---|"]
    for cls in records:
        said = []
        for field in server_fields(cls):
            if field.spread:
                said.append(field.doc)
                continue
            note = f"{field.doc}; left out when null" if field.omitted else field.doc
            said.append(f"`{field.name}` ({note})" if note else f"`{field.name}`")
        rows.append(
            f"| `{cls.type_name}` | {_cell(', '.join(said))} | {_cell(cls.__doc__ or '')} |"
        )
    return "\n".join(rows)


TABLES = {
    "client": client_table,
    "server": server_table,
    "events": events_table,
    "game-lines": game_lines_table,
}


def rewritten(page: str) -> str:
    """``page`` (docs/protocol.md's text) with each table between its markers written
    again from the declarations. Raises ``ValueError`` when a marker is missing."""
    for name, table in TABLES.items():
        pattern = re.compile(
            rf"(<!-- protocol:{name} -->\n).*?(\n<!-- /protocol:{name} -->)", re.DOTALL
        )
        found = pattern.search(page)
        if found is None:
            raise ValueError(f"docs/protocol.md lacks the markers of the {name} table")
        start, end = found.span()
        page = page[:start] + found.group(1) + table() + found.group(2) + page[end:]
    return page
