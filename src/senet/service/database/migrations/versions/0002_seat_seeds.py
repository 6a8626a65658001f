"""Each seat's own seed: ``seats.seed``, given once before the first throw.

The throws of a game are derived from the server's committed secret and both players' seeds
(see :mod:`senet.service.fairness.throws`); the seeds are kept per seat so that each is stored once,
whichever server process receives it.  Nullable: games from before have none (their
``games.player_seeds`` already holds what their throws were derived with).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("seats")}
    if "seed" not in columns:
        op.add_column("seats", sa.Column("seed", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seed")
