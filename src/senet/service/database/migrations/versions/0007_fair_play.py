"""Open games that expire and count per client, and a deadline for the players' seeds.

``games.listed_until`` (ms since the epoch): an open game is shown in the lobby until then;
``games.listed_by``: a digest of the client that listed it (the cap of listed games per
client); ``games.seeding_deadline`` (ms since the epoch): once both seats are taken, the
seeds must be given by then, or the game is called off without a result.

Revision ID: 0005_fair_play
Revises: 0005_players
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_fair_play"
down_revision = "0005_players"
branch_labels = None
depends_on = None

COLUMNS = (
    ("listed_until", sa.BigInteger),
    ("listed_by", sa.String(64)),
    ("seeding_deadline", sa.BigInteger),
)


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    for name, kind in COLUMNS:
        if name not in present:
            op.add_column("games", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name, _kind in reversed(COLUMNS):
            batch.drop_column(name)
