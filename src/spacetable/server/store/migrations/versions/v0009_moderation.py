"""The tables of reports, moderators, mutes, bans and the audit log (issue 69 item 5;
``store/moderation.py``, docs/moderation.md): ``reports`` (who reported whom, why, the room
and the words, open or handled), ``moderators`` (the accounts given ``/admin`` by ``spacetable
admin grant``), ``sanctions`` (an account's mute or ban, until when or for good) and
``audit`` (every moderator's action: who, what, on whom, why, when; names kept as text, so
that it outlives the accounts it names).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0009_moderation"
down_revision: str | None = "0008_meetings"


def upgrade() -> None:
    """Create ``reports``, ``moderators``, ``sanctions`` and ``audit`` with their indexes
    (what a database already has of them is kept: one set back by hand to a revision
    before, as a test does, gets only what it lacks)."""
    present = sa.inspect(op.get_bind())
    for table, make in (
        ("reports", _reports),
        ("moderators", _moderators),
        ("sanctions", _sanctions),
        ("audit", _audit),
    ):
        if not present.has_table(table):
            make()


def _reports() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        account_id(nullable=False),  # the account reported
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("room", sa.String(64), nullable=True),
        sa.Column("text", sa.String(500), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("reports_by_status", "reports", ["status", "created_at"])
    op.create_index("reports_by_reporter", "reports", ["reporter_id", "created_at"])


def _moderators() -> None:
    op.create_table(
        "moderators",
        account_id(primary_key=True),
        sa.Column("granted_at", sa.Float(), nullable=False),
    )


def _sanctions() -> None:
    op.create_table(
        "sanctions",
        account_id(primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),  # "mute" or "ban"
        sa.Column("until", sa.Float(), nullable=True),  # None: for good
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("sanctions_by_kind", "sanctions", ["kind"])


def _audit() -> None:
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target", sa.String(80), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )
    op.create_index("audit_latest", "audit", ["at"])


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("audit")
    op.drop_table("sanctions")
    op.drop_table("moderators")
    op.drop_table("reports")
