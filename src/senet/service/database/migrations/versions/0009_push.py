"""Web Push: the server's VAPID key pair, the players' push subscriptions, the notices sent.

``push_keys`` holds one row, the key pair every server process signs with (made by the first
process that starts).  ``push_subscriptions``: one row per device of a named player that
turned notifications on — the push service's endpoint and the device's public keys, the
player and the device's session (deleted with either: signing out on the device, or deleting
the name, forgets its subscriptions), and the language of its notifications.
``push_notices``: one row per notice sent (a turn of a game, a challenge), inserted once
whatever processes try, so each is sent once.

Revision ID: 0006_push
Revises: 0006_challenges
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_push"
down_revision = "0006_challenges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("private_key", sa.String(64), nullable=False),
        sa.Column("public_key", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint_hash", sa.String(64), primary_key=True),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "session_hash",
            sa.String(64),
            sa.ForeignKey("player_sessions.token_hash", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player_id"])
    op.create_index("ix_push_subscriptions_session", "push_subscriptions", ["session_hash"])
    op.create_table(
        "push_notices",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("push_notices")
    op.drop_index("ix_push_subscriptions_session", "push_subscriptions")
    op.drop_index("ix_push_subscriptions_player", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")
