"""Challenges between players: one named player (or an anonymous opponent of a finished game)
asks another named player for a game with set terms; and each player's setting of whom they
take challenges from.

``game_challenges``: the terms (variant, time control, the challenger's colour, rated), who
asks (``challenger_id`` NULL: anonymous, known by the SHA-256 of the challenge's secret) and
whom, the status (open, accepted, declined, cancelled, expired), when it was made and when it
expires (ms since the epoch, the server's clock), and the game an accepted challenge made.
``challenge_settings``: a player's ``accept`` (everyone, named, nobody); no row: everyone.

Revision ID: 0006_challenges
Revises: 0005_fair_play
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_challenges"
down_revision = "0005_fair_play"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenger_id", sa.String(32)),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("challenged_id", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("time_control", sa.String(32), nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("from_game", sa.String(32)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.String(32)),
    )
    op.create_index("ix_game_challenges_challenged", "game_challenges", ["challenged_id", "status"])
    op.create_index("ix_game_challenges_challenger", "game_challenges", ["challenger_id", "status"])
    op.create_table(
        "challenge_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("accept", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("challenge_settings")
    op.drop_index("ix_game_challenges_challenger", "game_challenges")
    op.drop_index("ix_game_challenges_challenged", "game_challenges")
    op.drop_table("game_challenges")
