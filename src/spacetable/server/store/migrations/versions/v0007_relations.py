"""The tables of follows and blocks (issue 69 item 4): filled in by the work on that item."""

from __future__ import annotations

revision = "0007_relations"
down_revision: str | None = "0006_name_skeletons"


def upgrade() -> None:
    """Nothing yet."""
