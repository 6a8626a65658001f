"""When a seat holder was last connected: ``seats.left_at`` (ms since the epoch).

Set when a seat is taken (nobody has connected yet) and when its holder's last connection
closes, cleared when the holder connects.  An untimed game whose opponent has been gone long
enough may be claimed by the player who stayed (see :mod:`senet.service.games.commands`).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("seats")}
    if "left_at" not in columns:
        op.add_column("seats", sa.Column("left_at", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_at")
