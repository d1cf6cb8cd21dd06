"""E-mail addresses and their single-use tokens (issue 70 items 3 and 4; ``store/email.py``,
docs/notifications.md): ``email_addresses`` (an account's address as given, the form it is
compared by, when it was verified, the hour of its daily digest, in which time zone and
language, and when the last went) and ``email_tokens`` (the
SHA-256 digest of each link's token, never the token: what it is for, the address it was
sent to, when it was made, when it runs out, when it was used). The tokens also count the
mails sent, per account and per address, for their limits.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0010_email"
down_revision: str | None = "0009_moderation"


def upgrade() -> None:
    """Create ``email_addresses`` and ``email_tokens`` with their indexes
    (what a database already has of them is kept: one set back by hand to a revision
    before, as a test does, gets only what it lacks)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("email_addresses"):
        op.create_table(
            "email_addresses",
            account_id(primary_key=True),
            sa.Column("address", sa.String(254), nullable=False),
            sa.Column("address_key", sa.String(254), nullable=False),
            sa.Column("verified_at", sa.Float(), nullable=True),
            sa.Column("digest_hour", sa.Integer(), nullable=True),  # None: no digest
            sa.Column("digest_zone", sa.String(64), nullable=True),  # the hour's time zone
            sa.Column("digest_lang", sa.String(8), nullable=True),  # the digest's language
            sa.Column("digest_sent", sa.Float(), nullable=True),
            sa.Column("changed_at", sa.Float(), nullable=False),
        )
        op.create_index("email_addresses_by_key", "email_addresses", ["address_key"])
    if not present.has_table("email_tokens"):
        op.create_table(
            "email_tokens",
            sa.Column("digest", sa.String(64), primary_key=True),
            account_id(nullable=False),
            sa.Column("purpose", sa.String(16), nullable=False),  # verify, reset, unsubscribe
            sa.Column("address_key", sa.String(254), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
            sa.Column("expires_at", sa.Float(), nullable=False),
            sa.Column("used_at", sa.Float(), nullable=True),
        )
        op.create_index(
            "email_tokens_by_account", "email_tokens", ["account_id", "purpose", "created_at"]
        )
        op.create_index(
            "email_tokens_by_address", "email_tokens", ["address_key", "purpose", "created_at"]
        )


def downgrade() -> None:
    """Drop the two tables."""
    op.drop_table("email_tokens")
    op.drop_table("email_addresses")
