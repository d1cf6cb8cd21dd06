"""What each account is told, and how (issue 70 item 5; ``store/notifications.py``,
docs/notifications.md): ``notify_choices``, one row per account that changed the
defaults: the notification kinds it wants no push for (``push_off``: their groups' names,
comma-separated) and the one switch that turns every push and the daily digest off
(``all_off``). An account without a row is pushed everything.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0014_notify_choices"
down_revision: str | None = "0012_tournaments"


def upgrade() -> None:
    """Create ``notify_choices`` (kept as it is when a database already has it: one set
    back by hand to a revision before, as a test does)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("notify_choices"):
        op.create_table(
            "notify_choices",
            account_id(primary_key=True),
            sa.Column("push_off", sa.String(200), nullable=False),
            sa.Column("all_off", sa.Boolean(), nullable=False),
            sa.Column("changed_at", sa.Float(), nullable=False),
        )


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("notify_choices")
