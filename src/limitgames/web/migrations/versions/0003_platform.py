"""Platform features: how a game ended (resign, agreed draw), rematches and chat.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

``games.ending`` is ``None`` for a game the rules ended (or one still being
played), ``"resign:N"`` when seat N resigned and ``"draw"`` for a draw both
seats agreed to. ``games.rematch_of`` names the game a rematch follows.
``chat`` holds the messages of both channels (``seats`` and ``spectators``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ending", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_game_channel", "chat", ["game_id", "channel", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_game_channel", table_name="chat")
    op.drop_table("chat")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_of")
        batch.drop_column("ending")
