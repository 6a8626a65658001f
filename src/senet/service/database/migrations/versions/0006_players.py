"""Players with a name: the names, their devices' sessions, transfer codes, passkeys, ratings.

``seats.player_id`` links a seat to the named player who holds it (NULL: anonymous, as every
seat before this revision); ``games.rated`` marks a rated game and ``games.rating_done`` says
that its players' ratings were updated (set in the same transaction: exactly once).

Revision ID: 0005_players
Revises: 0005_reviews
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_players"
down_revision = "0005_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False, server_default="human"),
        sa.Column("level", sa.String(16)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_sessions_player", "player_sessions", ["player_id"])
    op.create_table(
        "transfer_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])
    op.create_table(
        "auth_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32)),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "game_id", name="uq_rating_changes_player_game"),
    )
    op.create_index("ix_rating_changes_game", "rating_changes", ["game_id"])
    # plain ADD COLUMN (a batch copy of games would trip the seats' foreign key on SQLite)
    op.add_column("seats", sa.Column("player_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_player", "seats", ["player_id"])
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column(
        "games", sa.Column("rating_done", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rating_done")
        batch.drop_column("rated")
    op.drop_index("ix_seats_player", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
    op.drop_index("ix_rating_changes_game", "rating_changes")
    for table in (
        "rating_changes",
        "ratings",
        "auth_challenges",
        "passkeys",
        "transfer_codes",
        "player_sessions",
    ):
        op.drop_table(table)
    op.drop_table("players")
