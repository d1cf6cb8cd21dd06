"""Swiss tournaments (issue 71; ``store/tournaments.py``, docs/tournaments.md):
``tournaments`` (name, game and options, seats a table, rounds, pace, rated, start, online
or over the board, director, status and current round: the round is raised by one
conditional ``UPDATE`` whose row count says which process paired it), ``tournament_players``
(starting number, account key and name, rating, the round joined, withdrawn) and
``tournament_games`` (each table of each round: seats, places, where the result came from,
the room, the over-the-board code and a report waiting for its confirmation).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_tournaments"
down_revision: str | None = "0011_notifications"


def upgrade() -> None:
    """Create the three tables (what a database already has of them is kept)."""
    present = sa.inspect(op.get_bind())
    if not present.has_table("tournaments"):
        op.create_table(
            "tournaments",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("game", sa.String(32), nullable=False),
            sa.Column("options", sa.Text(), nullable=False),
            sa.Column("seats", sa.Integer(), nullable=False),
            sa.Column("rounds", sa.Integer(), nullable=False),
            sa.Column("turn_hours", sa.Float(), nullable=True),
            sa.Column("rated", sa.Boolean(), nullable=False),
            sa.Column("starts_at", sa.Float(), nullable=False),
            sa.Column("venue", sa.String(16), nullable=False),
            sa.Column("director", sa.String(80), nullable=False),
            sa.Column("director_name", sa.String(80), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.Float(), nullable=False),
        )
        op.create_index("tournaments_by_status", "tournaments", ["status", "starts_at"])
    if not present.has_table("tournament_players"):
        op.create_table(
            "tournament_players",
            sa.Column("tournament", sa.String(32), primary_key=True),
            sa.Column("number", sa.Integer(), primary_key=True),
            sa.Column("key", sa.String(80), nullable=False),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("rating", sa.Integer(), nullable=False),
            sa.Column("joined_round", sa.Integer(), nullable=False),
            sa.Column("withdrawn", sa.Boolean(), nullable=False),
        )
        op.create_index(
            "tournament_players_by_key", "tournament_players", ["tournament", "key"], unique=True
        )
    if not present.has_table("tournament_games"):
        op.create_table(
            "tournament_games",
            sa.Column("tournament", sa.String(32), primary_key=True),
            sa.Column("round", sa.Integer(), primary_key=True),
            sa.Column("table", sa.Integer(), primary_key=True),
            sa.Column("seats", sa.Text(), nullable=False),
            sa.Column("places", sa.Text(), nullable=True),
            sa.Column("source", sa.String(16), nullable=False),
            sa.Column("room", sa.String(32), nullable=True),
            sa.Column("code", sa.String(16), nullable=True),
            sa.Column("report", sa.Text(), nullable=True),
        )
        op.create_index("tournament_games_by_room", "tournament_games", ["room"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
