"""Accounts and their sessions (issue 37 item 1): a name (shown as given, compared by its
``key``: NFKC, case folded), the password's argon2id hash, and the sessions, each stored as
the SHA-256 digest of its random id.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0002_accounts"
down_revision: str | None = "0001_matches"


def upgrade() -> None:
    """Create ``accounts`` and ``sessions``."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("key", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        account_id(nullable=False, index=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop ``sessions`` and ``accounts``."""
    op.drop_table("sessions")
    op.drop_table("accounts")
