"""Bot accounts (issue 72 item 2; ``store/bots.py``, docs/bots.md): ``bot_accounts``, one
row per account turned into a bot account, for good, and when it was. A bot account plays
challenges, never the quick-pairing pools, and is ranked on the bots' leaderboard, apart
from the people's.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0016_bot_accounts"
down_revision: str | None = "0015_bot_api"


def upgrade() -> None:
    """Create ``bot_accounts`` (kept as it is when a database already has it: one set back
    by hand to a revision before, as a test does)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("bot_accounts"):
        op.create_table(
            "bot_accounts",
            account_id(primary_key=True),
            sa.Column("made_at", sa.Float(), nullable=False),
        )


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("bot_accounts")
