"""The tables of seeks and challenges (issue 69 items 2 and 3): filled in by the work on that item."""

from __future__ import annotations

revision = "0008_meetings"
down_revision: str | None = "0007_relations"


def upgrade() -> None:
    """Nothing yet."""
