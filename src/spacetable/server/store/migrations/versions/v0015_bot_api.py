"""The bot API's personal access tokens (issue 72 item 1; ``store/tokens.py``,
docs/bots.md): ``api_tokens``, one row per token an account made: its public id, the
SHA-256 digest of the token (never the token), what it is for (``description``), the
scopes it grants (space-separated) and when it was made. A revoked token's row is deleted,
so the next request that shows it, on any process, finds nothing.

Revision 0013 was set aside for this table, but ``0014_notify_choices`` already follows
``0012_tournaments``: this one comes after it instead.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0015_bot_api"
down_revision: str | None = "0014_notify_choices"


def upgrade() -> None:
    """Create ``api_tokens`` (kept as it is when a database already has it: one set back
    by hand to a revision before, as a test does)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("api_tokens"):
        op.create_table(
            "api_tokens",
            sa.Column("id", sa.String(16), primary_key=True),
            account_id(nullable=False, index=True),
            sa.Column("digest", sa.String(64), nullable=False, unique=True),
            sa.Column("description", sa.String(200), nullable=False),
            sa.Column("scopes", sa.String(200), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
        )


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("api_tokens")
