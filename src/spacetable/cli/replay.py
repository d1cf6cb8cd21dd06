"""``spacetable replay``: play a stored match of any game again from its seed and action
log, and check it reaches the result stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from spacetable import i18n
from spacetable._userinput import parse_json, read_limited
from spacetable.cli._common import fail, fail_on, titles
from spacetable.cli.referee import LangOption
from spacetable.core.replays import replay_record
from spacetable.i18n.phrase import Phrase, phrase, player_said
from spacetable.registry import UnknownGame, game_for_ruleset

#: The largest stored match file read (a long match's action log is far smaller).
MAX_MATCH_BYTES = 64 << 20


def _refuse(source: str, why: Phrase, tr: i18n.Translator) -> NoReturn:
    """``spacetable: error: SOURCE: why`` in ``tr``'s language; exit status 2."""
    fail(tr.gettext("{file}: {error}", file=source, error=why.text(tr)), tr)


def replay(
    source: Annotated[
        str,
        typer.Argument(
            help=f"A stored match of {titles(lambda g: g.playable, 'or')}: a JSON "
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
    lang: LangOption = None,
) -> None:
    """Replay a stored match from its seed and action log and check that it reaches the
    result stored (exit 1 if not)."""
    tr = i18n.translator(lang or i18n.SOURCE)
    path = Path(source)
    try:
        if path.is_file():
            data = parse_json(read_limited(path, MAX_MATCH_BYTES))
        else:
            from spacetable.server.store.storage import Storage

            try:
                storage = Storage(db)
                try:
                    found = storage.get(source)
                finally:
                    storage.close()
            except Exception as exc:  # any driver error, a database out of reach: one line
                where = db or tr.gettext("(default)")
                fail(tr.gettext("cannot open the database {db}: {error}", db=where,
                                error=str(exc)), tr)  # fmt: skip
            if found is None:
                _refuse(source, phrase("no such file, and no stored match with that id"), tr)
            data = found.to_json()
        if not isinstance(data, dict):
            _refuse(source, phrase("a stored match must be a JSON object"), tr)
        match_type = game_for_ruleset(data.get("ruleset")).rules.match
        if match_type is None:
            ruleset = str(data.get("ruleset"))
            _refuse(source, phrase("{ruleset} has no matches to replay", ruleset=ruleset), tr)
        replayed = replay_record(data, match_type)
    except (OSError, ValueError, UnknownGame) as exc:
        fail_on(source, exc, tr)
    if as_json:
        print(json.dumps(replayed.to_json(), indent=2))
    else:
        said = (player_said(p) for p in replayed.players)
        players = ", ".join(p.text(tr) if isinstance(p, Phrase) else str(p) for p in said)
        print(tr.ngettext("{game}: {players}; {n} action", "{game}: {players}; {n} actions",
                          replayed.actions, game=tr.gettext(replayed.title),
                          players=players))  # fmt: skip
        if log:
            print("\n".join(replayed.log_in(tr)))
        print(tr.gettext("result: {result}", result=json.dumps(replayed.result)))
        if replayed.exact:
            print(tr.gettext("replays exactly"))
        else:
            print(tr.gettext("stored: {result}", result=json.dumps(replayed.stored)))
    if not replayed.exact:
        raise typer.Exit(1)
