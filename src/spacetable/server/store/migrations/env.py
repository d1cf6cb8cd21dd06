"""Alembic's environment: the migrations run on the connection :func:`migrate` hands over
(``config.attributes["connection"]``), never on a URL of their own."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
