"""The notifications and Web Push (issue 70 items 1 and 2; ``store/notifications.py``,
``store/push.py``, docs/notifications.md): ``notifications`` (an account's events: what
kind, its values as JSON, the page it links to, the tag a newer one of the same room
replaces, when, whether read: the text is written at read time, in the reader's
language), ``push_subscriptions`` (a browser's push endpoint and its keys, tied to the
session that subscribed: the SHA-256 digest of its id, never the id; retried sends'
next try and failures) and ``push_keys`` (the server's VAPID key pair, made once).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0011_notifications"
down_revision: str | None = "0010_email"


def upgrade() -> None:
    """Create ``notifications``, ``push_subscriptions`` and ``push_keys``
    (what a database already has of them is kept: one set back by hand to a revision
    before, as a test does, gets only what it lacks)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("notifications"):
        op.create_table(
            "notifications",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            account_id(nullable=False),
            sa.Column("kind", sa.String(32), nullable=False),
            sa.Column("params", sa.JSON(), nullable=False),
            sa.Column("url", sa.String(200), nullable=False),
            sa.Column("tag", sa.String(64), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.Column("read", sa.Boolean(), nullable=False),
        )
        op.create_index("notifications_by_account", "notifications", ["account_id", "id"])
    if not present.has_table("push_subscriptions"):
        op.create_table(
            "push_subscriptions",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            account_id(nullable=False),
            sa.Column("session_digest", sa.String(64), nullable=False),
            sa.Column("endpoint", sa.String(1000), nullable=False),
            sa.Column("p256dh", sa.String(200), nullable=False),
            sa.Column("auth", sa.String(100), nullable=False),
            sa.Column("lang", sa.String(8), nullable=False),  # the pushes' language
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.Column("failures", sa.Integer(), nullable=False),
        )
        op.create_index("push_subscriptions_by_account", "push_subscriptions", ["account_id"])
        op.create_index(
            "push_subscriptions_by_endpoint", "push_subscriptions", ["endpoint"], unique=True
        )
        op.create_index("push_subscriptions_by_session", "push_subscriptions", ["session_digest"])
    if not present.has_table("push_keys"):
        op.create_table(
            "push_keys",
            sa.Column("id", sa.Integer(), primary_key=True),  # always 1: one key pair
            sa.Column("private_pem", sa.Text(), nullable=False),
            sa.Column("public_key", sa.String(120), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
        )


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_table("push_keys")
    op.drop_table("push_subscriptions")
    op.drop_table("notifications")
