"""The review of a finished game, stored once: ``reviews`` (game, the judged decisions as JSON).

A review takes seconds of a worker's CPU; it is computed once and read by every process.

Revision ID: 0005_reviews
Revises: 0004
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_reviews"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "reviews" not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            "reviews",
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("rows", sa.Text, nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("reviews")
