"""The players' look-alike keys computed again: the key now folds compatibility forms (NFKC)
and the letters that read as a pair (``m`` as ``rn``, ``w`` as ``vv``, ``d`` as ``cl``), and
``8`` as ``b``, so a name stored under the old key is found under the new one.

A name whose new key another name holds already (``Kim`` and ``Kirn`` both taken before)
keeps its old key: nobody loses a name, and ``Players.by_name`` finds such a name by its exact
spelling.

Revision ID: 0007_name_keys
Revises: 0006_bots
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

from senet.service.players.names import name_key

revision = "0007_name_keys"
down_revision = "0006_bots"
branch_labels = None
depends_on = None

_players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("created_at", sa.DateTime),
)


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(_players.c.id, _players.c.name, _players.c.name_key).order_by(
            _players.c.created_at, _players.c.id
        )
    ).all()
    taken = {row.name_key for row in rows}
    for row in rows:
        key = name_key(row.name)
        if key == row.name_key or key in taken:
            continue  # unchanged, or an older name has it: this one keeps its old key
        conn.execute(sa.update(_players).where(_players.c.id == row.id).values(name_key=key))
        taken.discard(row.name_key)
        taken.add(key)


def downgrade() -> None:
    """The new keys stay: the old code finds every name it finds by the new key's value only
    where the two agree, which is every name without the folded pairs."""
