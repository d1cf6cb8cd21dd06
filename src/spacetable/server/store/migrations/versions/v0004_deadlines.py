"""The correspondence turns' deadlines (issue 37 item 4): ``live_rooms.deadline``, the
wall time a stored room's turn runs out, indexed, so that a server finds the rooms whose
turn ran out with nobody holding them in one query (``rooms/deadlines.py``). A database
whose ``live_rooms`` was made before gets the column, the index, and each unfinished
room's deadline read from its extras; one without the table yet gets it whole when the
live rooms' store first opens it (``store/live_store.py``).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_deadlines"
down_revision: str | None = "0003_ratings"


def upgrade() -> None:
    """Add ``live_rooms.deadline`` and its index, filled from each room's extras."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("live_rooms"):
        return  # made whole, with the column, when the live rooms' store opens
    columns = {column["name"] for column in present.get_columns("live_rooms")}
    if "deadline" not in columns:
        op.add_column("live_rooms", sa.Column("deadline", sa.Float(), nullable=True))
    if "live_rooms_by_deadline" not in {i["name"] for i in present.get_indexes("live_rooms")}:
        op.create_index("live_rooms_by_deadline", "live_rooms", ["deadline"])
    if "extras" not in columns:
        return  # a table older than the extras: no correspondence room in it
    rooms = sa.table(
        "live_rooms",
        sa.column("id", sa.String()),
        sa.column("phase", sa.String()),
        sa.column("extras", sa.JSON()),
        sa.column("deadline", sa.Float()),
    )
    bind = op.get_bind()
    found = bind.execute(sa.select(rooms.c.id, rooms.c.phase, rooms.c.extras)).all()
    deadlines = [
        {"room": room, "at": at}
        for room, phase, extras in found
        if (at := _deadline(phase, extras)) is not None
    ]
    if deadlines:
        bind.execute(
            rooms.update()
            .where(rooms.c.id == sa.bindparam("room"))
            .values(deadline=sa.bindparam("at")),
            deadlines,
        )


def _deadline(phase: str, extras: Any) -> float | None:
    """The deadline a room's extras held when this revision was written (a migration
    keeps its own reading: the live rooms' store may read them otherwise later)."""
    about = extras.get("correspondence") if isinstance(extras, dict) else None
    if phase == "playing" and isinstance(about, dict) and about.get("waiting"):
        at = about.get("deadline")
        return float(at) if isinstance(at, int | float) else None
    return None


def downgrade() -> None:
    """Drop ``live_rooms.deadline`` and its index."""
    op.drop_index("live_rooms_by_deadline", "live_rooms")
    op.drop_column("live_rooms", "deadline")
