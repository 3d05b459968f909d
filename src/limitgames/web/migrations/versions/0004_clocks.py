"""Clocks and zombie seats: the clock settings and remaining times of a game, why a seat is a zombie.

Revision ID: 0004_clocks
Revises: 0003
Create Date: 2026-11-23

``games.clock`` holds the settings chosen at creation (``None`` for games stored
before: they have no clock, and the server's default time away before a seat
becomes a zombie); ``games.clock_state`` each seat's remaining seconds;
``seats.zombie`` is ``"time"`` or ``"left"`` while the computer plays a
person's seat, else ``None``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_clocks"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("clock_state", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("zombie", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("zombie")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_state")
        batch.drop_column("clock")
