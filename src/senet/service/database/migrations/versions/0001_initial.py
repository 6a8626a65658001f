"""The initial schema: games, seats, actions (UNIQUE (game_id, ply)).

A database made before migrations existed (by ``metadata.create_all``) already has these
tables: they are kept as they are and only the version is recorded.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in existing:
        op.create_table(
            "games",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("variant", sa.String(32), nullable=False),
            sa.Column("mode", sa.String(16), nullable=False),
            sa.Column("level", sa.String(16)),
            sa.Column("ply", sa.Integer, nullable=False),
            sa.Column("result", sa.String(8)),
            sa.Column("reason", sa.String(200)),
            sa.Column("score_a", sa.Integer),
            sa.Column("score_b", sa.Integer),
            sa.Column("secret", sa.String(64), nullable=False),
            sa.Column("commitment", sa.String(64), nullable=False),
            sa.Column("player_seeds", sa.String(200), nullable=False),
            sa.Column("rematch_of", sa.String(32)),
            sa.Column("rematch_id", sa.String(32)),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        )
    if "seats" not in existing:
        op.create_table(
            "seats",
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("token_hash", sa.String(64)),
            sa.Column("invite_token", sa.String(64)),
            sa.Column("claimed", sa.Boolean, nullable=False),
        )
    if "actions" not in existing:
        op.create_table(
            "actions",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
            sa.Column("ply", sa.Integer, nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("seat", sa.Integer),
            sa.Column("notation", sa.String(16), nullable=False),
            sa.Column("pattern", sa.Integer),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.UniqueConstraint("game_id", "ply", name="uq_actions_game_ply"),
        )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
