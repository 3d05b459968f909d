"""A server secret for the creators' address hashes; correspondence reminders.

Revision ID: 0006_secrets_and_correspondence
Revises: 0005_accounts
Create Date: 2026-11-28

``server_secrets`` holds secrets shared by every server process on the
database (``creators.py``); ``seats.email`` the address a person gave for
reminders when taking a seat in a correspondence game (``None``: none);
``games.reminded_ply`` the ply of the last turn whose reminder was sent (so
that several server processes send it once).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_secrets_and_correspondence"
down_revision = "0005_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("reminded_ply", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("reminded_ply")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("email")
    op.drop_table("server_secrets")
