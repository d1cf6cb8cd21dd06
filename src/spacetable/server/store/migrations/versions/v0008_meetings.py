"""The seeks and challenges (issue 69 items 2 and 3; ``store/meetings.py``): ``seeks``, the
players waiting to be paired (one a game and player: a unique index), and ``challenges``,
each from one account to another, kept an hour after it closed (the hourly limit counts
them). Players are named by key (an account's name key, or a guest's ``guest:`` digest,
never his cookie), so that a guest's seek is stored as an account's is.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_meetings"
down_revision: str | None = "0007_relations"


def upgrade() -> None:
    """Create ``seeks`` and ``challenges`` with their indexes (what a database already
    has of them is kept: one set back by hand to a revision before, as a test does, gets
    only what it lacks)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("seeks"):
        _seeks()
    if not present.has_table("challenges"):
        _challenges()


def _seeks() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("turn_hours", sa.Float(), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("range_min", sa.Float(), nullable=True),
        sa.Column("range_max", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("alive_at", sa.Float(), nullable=False),
    )
    op.create_index("seeks_one_a_game", "seeks", ["player", "game"], unique=True)


def _challenges() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_key", sa.String(80), nullable=False),
        sa.Column("from_name", sa.String(80), nullable=False),
        sa.Column("to_key", sa.String(80), nullable=False),
        sa.Column("to_name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("turn_hours", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("room", sa.String(32), nullable=True),
    )
    op.create_index("challenges_sent", "challenges", ["from_key", "created_at"])
    op.create_index("challenges_received", "challenges", ["to_key", "status"])
    op.create_index("challenges_open", "challenges", ["status", "expires_at"])


def downgrade() -> None:
    """Drop ``challenges`` and ``seeks``."""
    op.drop_table("challenges")
    op.drop_table("seeks")
