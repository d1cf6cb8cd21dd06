"""The accounts seated in each correspondence room, indexed by account
(``live_room_accounts``): a player's My games reads his rooms instead of every live room
(``store/live_store.py``). A database whose ``live_rooms`` was made before gets the table,
filled from each unfinished room's seats; one without ``live_rooms`` yet gets both whole
when the live rooms' store first opens it.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005_room_accounts"
down_revision: str | None = "0004_deadlines"


def upgrade() -> None:
    """Create ``live_room_accounts`` and its index, filled from the live rooms' seats."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("live_rooms"):
        return  # made whole when the live rooms' store opens
    if not present.has_table("live_room_accounts"):
        op.create_table(
            "live_room_accounts",
            sa.Column("room_id", sa.String(64), primary_key=True),
            sa.Column("account", sa.String(80), primary_key=True),
        )
        op.create_index("live_room_accounts_by_account", "live_room_accounts", ["account"])
    rooms = sa.table(
        "live_rooms",
        sa.column("id", sa.String()),
        sa.column("game", sa.JSON()),
        sa.column("phase", sa.String()),
        sa.column("seats", sa.JSON()),
    )
    bind = op.get_bind()
    found = bind.execute(
        sa.select(rooms.c.id, rooms.c.game, rooms.c.seats).where(rooms.c.phase != "over")
    ).all()
    seated = [
        {"room_id": room, "account": account}
        for room, game, seats in found
        for account in sorted(_seated(game, seats))
    ]
    if seated:
        accounts = sa.table(
            "live_room_accounts",
            sa.column("room_id", sa.String()),
            sa.column("account", sa.String()),
        )
        bind.execute(sa.delete(accounts))
        bind.execute(sa.insert(accounts), seated)


def _seated(game: Any, seats: Any) -> set[str]:
    """The accounts seated in a correspondence room when this revision was written (a
    migration keeps its own reading: the live rooms' store may read them otherwise later)."""
    if not (isinstance(game, dict) and game.get("turn_hours")):  # played by correspondence
        return set()
    return {s["account"] for s in seats or () if isinstance(s, dict) and s.get("account")}


def downgrade() -> None:
    """Drop ``live_room_accounts``."""
    op.drop_index("live_room_accounts_by_account", "live_room_accounts")
    op.drop_table("live_room_accounts")
