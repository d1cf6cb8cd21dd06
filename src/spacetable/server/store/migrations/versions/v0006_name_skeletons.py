"""The accounts' name skeletons (issue 67 item 8): ``accounts.skeleton``, what look-alike
names share (Unicode's confusables skeleton, UTS #39: ``store/names.py``), under a unique
index, so that a name that looks like an account's is refused by one indexed look-up, and
two look-alike sign-ups at the same moment cannot both succeed. Each account of a database
made before gets its name's skeleton; of accounts whose names already looked alike, the
oldest keeps it and the others are left without (``NULL``: they block nothing the oldest
does not, and keep their names).
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0006_name_skeletons"
down_revision: str | None = "0005_room_accounts"


def upgrade() -> None:
    """Add ``accounts.skeleton``, filled from each account's name, and its unique index
    (what a database already has of them is kept: one set back by hand to a revision
    before, as a test does, gets only what it lacks)."""
    present = sa.inspect(op.get_bind())
    if "skeleton" in {column["name"] for column in present.get_columns("accounts")}:
        if "accounts_by_skeleton" not in {i["name"] for i in present.get_indexes("accounts")}:
            op.create_index("accounts_by_skeleton", "accounts", ["skeleton"], unique=True)
        return
    op.add_column("accounts", sa.Column("skeleton", sa.String(255), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("skeleton", sa.String()),
    )
    bind = op.get_bind()
    found = bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id))
    held: set[str] = set()
    shapes = []
    for account, name in found.all():
        shape = _skeleton(name)
        if shape not in held:
            held.add(shape)
            shapes.append({"account": account, "shape": shape})
    if shapes:
        bind.execute(
            accounts.update()
            .where(accounts.c.id == sa.bindparam("account"))
            .values(skeleton=sa.bindparam("shape")),
            shapes,
        )
    op.create_index("accounts_by_skeleton", "accounts", ["skeleton"], unique=True)


def _skeleton(name: str) -> str:
    """A name's skeleton as ``names.skeleton`` computed it when this revision was written
    (a migration keeps its own reading: the names' module may compute it otherwise later)."""
    import icu  # PyICU (pyicu-wheels): ICU's SpoofChecker computes UTS #39's skeleton

    checker = icu.SpoofChecker()
    shown = unicodedata.normalize("NFKC", name).strip()
    return str(checker.getSkeleton(0, checker.getSkeleton(0, shown).casefold()))


def downgrade() -> None:
    """Drop ``accounts.skeleton`` and its index."""
    op.drop_index("accounts_by_skeleton", "accounts")
    op.drop_column("accounts", "skeleton")
