"""The finished matches (the baseline: the ``matches`` table as it was when the migrations
began, with the ``chat`` column of issue 19).

Revision ID: 0001_matches
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_matches"
down_revision: str | None = None


def upgrade() -> None:
    """Create ``matches``."""
    op.create_table(
        "matches",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(64), nullable=False, index=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False, index=True),
        sa.Column("chat", sa.JSON(), nullable=True),
    )


def downgrade() -> None:
    """Drop ``matches``."""
    op.drop_table("matches")
