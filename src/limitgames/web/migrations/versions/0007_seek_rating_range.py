"""A seek's rating range.

Revision ID: 0007_seek_rating_range
Revises: 0006_secrets_and_correspondence
Create Date: 2026-11-28

``seeks.rating_min`` and ``seeks.rating_max``: the ratings (in the seek's game)
a person must have to accept the seek (``None``: no bound).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_seek_rating_range"
down_revision = "0006_secrets_and_correspondence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("rating_min", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rating_max", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("rating_max")
        batch.drop_column("rating_min")
