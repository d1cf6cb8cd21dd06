"""The tables of reports, moderators, mutes, bans and the audit log (issue 69 item 5): filled in by the work on that item."""

from __future__ import annotations

revision = "0009_moderation"
down_revision: str | None = "0008_meetings"


def upgrade() -> None:
    """Nothing yet."""
