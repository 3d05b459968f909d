"""Hardening: who started a game (for the per-creator cap) and who chose its seed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Games stored before this revision get ``seed_source = "server"``: their seed stays
hidden until they end (a seed shown during play could reveal hidden cards).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(
            sa.Column("seed_source", sa.String(16), nullable=False, server_default="server")
        )
    op.create_index("ix_games_creator_status", "games", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_games_creator_status", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_source")
        batch.drop_column("creator")
