"""``spacetable replay``: play a stored match of any game again from its seed and action
log, and check it reaches the result stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from spacetable.cli._common import fail, titles
from spacetable.core.replays import replay_record
from spacetable.registry import UnknownGame, game_for_ruleset


def replay(
    source: Annotated[
        str,
        typer.Argument(
            help=f"A stored match of {titles(lambda g: g.rules.playable, 'or')}: a JSON "
            "file as GET /api/matches/{id} returns it, or a match id in the database (--db)."
        ),
    ],
    db: Annotated[
        str | None,
        typer.Option(help="Storage URL to find a match id in (default: serve's SQLite)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the outcome as one JSON object.")
    ] = False,
    log: Annotated[bool, typer.Option("--log", help="Print the match's log in words.")] = False,
) -> None:
    """Replay a stored match from its seed and action log and check that it reaches the
    result stored (exit 1 if not)."""
    path = Path(source)
    try:
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            from spacetable.server.storage import Storage

            storage = Storage(db)
            try:
                found = storage.get(source)
            finally:
                storage.close()
            if found is None:
                fail(f"{source}: no such file, and no stored match with that id")
            data = found.to_json()
        if not isinstance(data, dict):
            fail(f"{source}: a stored match must be a JSON object")
        match_type = game_for_ruleset(data.get("ruleset")).rules.match
        if match_type is None:
            fail(f"{source}: {data.get('ruleset')} has no matches to replay")
        replayed = replay_record(data, match_type)
    except (OSError, json.JSONDecodeError, ValueError, UnknownGame) as exc:
        fail(f"{source}: {exc}")
    if as_json:
        print(json.dumps(replayed.to_json(), indent=2))
    else:
        print(f"{replayed.title}: {', '.join(replayed.players)}; {replayed.actions} actions")
        if log:
            print("\n".join(replayed.log))
        print(f"result: {json.dumps(replayed.result)}")
        print("replays exactly" if replayed.exact else f"stored: {json.dumps(replayed.stored)}")
    if not replayed.exact:
        raise typer.Exit(1)
