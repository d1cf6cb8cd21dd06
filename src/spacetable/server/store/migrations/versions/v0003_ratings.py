"""Ratings and each account's matches (issue 37 item 3): one openskill rating (``mu``,
``sigma``) and record per game and account, and the stored matches an account played.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0003_ratings"
down_revision: str | None = "0002_accounts"


def upgrade() -> None:
    """Create ``ratings`` and ``account_matches``."""
    op.create_table(
        "ratings",
        account_id(primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
    )
    op.create_index("ratings_by_game", "ratings", ["game"])
    op.create_table(
        "account_matches",
        account_id(primary_key=True),
        sa.Column("match_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
    )
    op.create_index("account_matches_latest", "account_matches", ["account_id", "finished_at"])
    op.create_index("account_matches_by_match", "account_matches", ["match_id"])


def downgrade() -> None:
    """Drop ``account_matches`` and ``ratings``."""
    op.drop_table("account_matches")
    op.drop_table("ratings")
