"""Finishing games and finding opponents: time controls, terminations, open games.

``games`` gains:

* ``time_control`` (``untimed``, ``move:S``, ``clock:S+I``) and the server's clock: each
  seat's remaining milliseconds (``clock_a``, ``clock_b``), the seat whose decision is timed
  now (``clock_seat``) and its ``deadline`` (milliseconds since the epoch), all written with
  the actions in the same statement;
* ``termination``: how a player ended the game (``resignation``, ``time forfeit``,
  ``abandoned``), NULL when the rules ended it or it goes on;
* ``listed``: an open game shown in the lobby while its free seat waits; ``pairing``: the
  request (variant and time control) of a quick-pairing seeker whose game it is;
  ``colour_choice``: the creator's choice of side (``A``, ``B`` or ``random``) to show there;
  ``public``: listed for spectators while in progress.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def columns() -> tuple[sa.Column[Any], ...]:
    return (
        sa.Column("time_control", sa.String(24), nullable=False, server_default="untimed"),
        sa.Column("clock_a", sa.Integer),
        sa.Column("clock_b", sa.Integer),
        sa.Column("clock_seat", sa.Integer),
        sa.Column("deadline", sa.BigInteger),
        sa.Column("termination", sa.String(16)),
        sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("pairing", sa.String(64)),
        sa.Column("colour_choice", sa.String(8), nullable=False, server_default="random"),
        sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def upgrade() -> None:
    existing = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    for column in columns():
        if column.name not in existing:
            op.add_column("games", column)
    op.create_index("ix_games_listed", "games", ["listed", "pairing"])


def downgrade() -> None:
    op.drop_index("ix_games_listed", "games")
    with op.batch_alter_table("games") as batch:
        for column in columns():
            batch.drop_column(column.name)
