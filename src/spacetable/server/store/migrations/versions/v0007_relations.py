"""The follows and blocks (issue 69 item 4; ``store/relations.py``): ``follows`` (an
account follows another, one way) and ``blocks`` (an account blocks another), each a pair
of account ids, so that a deleted account's rows go with it whichever side it is on
(``accounts.py``'s ``erase``) and a later account of the same name inherits none.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spacetable.server.store.migrations.columns import account_id

revision = "0007_relations"
down_revision: str | None = "0006_name_skeletons"

#: The two tables, alike.
_TABLES = ("follows", "blocks")


def upgrade() -> None:
    """Create ``follows`` and ``blocks``, each indexed by the account it points at too (what
    a database already has of them is kept: one set back by hand to a revision before, as
    a test does, gets only what it lacks)."""
    present = sa.inspect(op.get_bind())
    for table in _TABLES:
        if present.has_table(table):
            continue
        op.create_table(
            table,
            account_id(primary_key=True),  # who follows, or blocks
            sa.Column(
                "target_id",
                sa.Integer(),
                sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("created_at", sa.Float(), nullable=False),
        )
        op.create_index(f"{table}_by_target", table, ["target_id"])


def downgrade() -> None:
    """Drop ``blocks`` and ``follows``."""
    for table in reversed(_TABLES):
        op.drop_index(f"{table}_by_target", table)
        op.drop_table(table)
