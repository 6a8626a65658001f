"""The players' look-alike keys computed again: the key now folds compatibility forms (NFKC)
and the letters that read as a pair (``m`` as ``rn``, ``w`` as ``vv``, ``d`` as ``cl``), and
``8`` as ``b``, so a name stored under the old key is found under the new one.

A name whose new key another name holds already (``Kim`` and ``Kirn`` both taken before)
keeps its old key: nobody loses a name, and ``Players.by_name`` finds such a name by its exact
spelling.

The key is computed by a copy of :func:`senet.service.players.names.name_key` as it stood
when this migration was written: the database package knows no domain's code (and a migration
is history).  A test checks that the copy and the names' rule agree.

Revision ID: 0007_name_keys
Revises: 0006_bots
Create Date: 2026-12-07
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007_name_keys"
down_revision = "0006_bots"
branch_labels = None
depends_on = None

#: letters and digits folded to the one they look like (after case folding), so that names
#: differing only by these are one name: Cyrillic look-alikes of Latin letters, digits that
#: read as letters, and Latin letters that read as one another
_CONFUSABLE = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "з": "3",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "п": "n",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ь": "b",
        "ч": "4",
        "б": "6",
        "г": "r",
        "и": "u",
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        "5": "s",
        "8": "b",
        "ы": "bl",
        "_": "-",
    }
)

#: letters that read as a pair of letters, written as the pair after :data:`_CONFUSABLE`
#: (``Kim``/``Kirn``, ``wolf``/``vvolf``, ``Dana``/``Clana``): a letter becomes its pair,
#: never the other way, so that every spelling of a run such as ``vvv``/``wv``/``vw`` meets
_AS_PAIRS = str.maketrans({"m": "rn", "w": "vv", "d": "cl"})


def name_key(name: str) -> str:
    """A name's look-alike key (the players' names' rule of this migration's day)."""
    return (
        unicodedata.normalize("NFKC", name).casefold().translate(_CONFUSABLE).translate(_AS_PAIRS)
    )


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
