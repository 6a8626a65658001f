"""Bot accounts and personal API tokens.

``players.kind`` may now be ``bot`` (a named player upgraded to a BOT account, for good);
``players.accepts_bots``: a person lets quick pairing give them a bot as the opponent (false
unless they tick it).  ``api_tokens`` holds each personal API token as its SHA-256 (the token
itself is shown once, when it is made), its public id (to revoke it), its label and scopes.

Revision ID: 0006_bots
Revises: 0006_push
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_bots"
down_revision = "0006_push"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("accepts_bots", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "api_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(16), nullable=False, unique=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_api_tokens_player", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player", "api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("accepts_bots")
