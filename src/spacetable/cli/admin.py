"""``spacetable admin``: give an account the moderators' page ``/admin``, or take it back
(docs/moderation.md). Each is written in the audit log, by ``console``."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from spacetable.cli._common import fail


class Action(StrEnum):
    """What ``spacetable admin`` does."""

    grant = "grant"
    revoke = "revoke"


def admin(
    action: Annotated[
        Action,
        typer.Argument(
            help="`grant`: make the account a moderator (its /admin page: reports, mutes, "
            "bans, closing rooms). `revoke`: make it a player like any other again."
        ),
    ],
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    db: Annotated[
        str | None,
        typer.Option(
            help="Storage: the server's database, as `serve --db` names it (a SQLite file's "
            "path or URL, default: SQLite in your data folder, or postgresql://...)."
        ),
    ] = None,
) -> None:
    """Make an account a moderator (`grant`), or no longer one (`revoke`)."""
    from spacetable.server.store.accounts import AccountStore
    from spacetable.server.store.moderation import ModerationStore
    from spacetable.server.store.storage import Storage

    try:
        storage = Storage(db)
    except Exception as exc:  # any driver error: report it in one line
        fail(f"cannot open the database {db or '(default)'}: {exc}")
    try:
        account = AccountStore(storage).find(name)
        if account is None:
            fail(f"no account is called {name!r}")
        store = ModerationStore(storage)
        if action is Action.grant:
            done = store.grant(account)
            typer.echo(
                f"{account.name} is a moderator now: /admin"
                if done
                else f"{account.name} was a moderator already"
            )
        else:
            done = store.revoke(account)
            typer.echo(
                f"{account.name} is no moderator now"
                if done
                else f"{account.name} was no moderator"
            )
    finally:
        storage.close()
