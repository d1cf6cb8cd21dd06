"""Columns that more than one revision (``versions/``) writes. A revision that has run
keeps its schema: change none of these, add another."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa


def account_id(**kwargs: Any) -> sa.Column[int]:
    """The ``account_id`` of a table whose rows belong to an account and go with it when it
    is deleted; ``kwargs``: the column's other settings (``primary_key``, ``index``...)."""
    return sa.Column(
        "account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), **kwargs
    )
