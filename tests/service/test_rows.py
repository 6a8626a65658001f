"""The one way rows become the dataclasses of the tables beside the games
(``senet.service.database.rows``), on a real SQLite database: each declared type is converted, a
missing column keeps the field's default or is an error that names it, a joined table is read
under its prefix, and ``values_of`` writes back exactly the table's columns."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    select,
)

from senet.service.database.rows import from_row, values_of


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Thing:
    id: str
    flag: bool
    count: int
    colour: Colour
    words: tuple[str, ...]
    maybe: int | None
    note: str = "none"


_meta = MetaData()
things = Table(
    "things",
    _meta,
    Column("id", String(8), primary_key=True),
    Column("flag", Integer),  # 0/1, as SQLite gives a boolean expression back
    Column("count", BigInteger),
    Column("colour", String(8)),
    Column("words", String(80)),
    Column("maybe", Integer),
)


@pytest.fixture
def conn() -> Iterator[Connection]:
    engine = create_engine("sqlite://")
    _meta.create_all(engine)
    with engine.begin() as c:
        yield c
    engine.dispose()


def test_a_row_round_trips_with_every_type_converted(conn: Connection) -> None:
    thing = Thing("t1", True, 7, Colour.BLUE, ("read", "play"), None)
    values = values_of(thing, things)
    assert values == {
        "id": "t1",
        "flag": True,
        "count": 7,
        "colour": Colour.BLUE,
        "words": "read play",
        "maybe": None,
    }  # "note" is not a column of the table
    conn.execute(things.insert().values({**values, "colour": "blue", "flag": 1}))
    read = from_row(Thing, conn.execute(select(things)).one())
    assert read == thing
    assert type(read.flag) is bool and isinstance(read.colour, Colour)


def test_given_fields_and_prefixed_columns(conn: Connection) -> None:
    conn.execute(things.insert().values(id="t2", flag=0, count=3, colour="red", words="", maybe=5))
    row = conn.execute(select(*(c.label(f"x_{c.name}") for c in things.c))).one()
    read = from_row(Thing, row, prefix="x_", note="given")
    assert read == Thing("t2", False, 3, Colour.RED, (), 5, "given")


def test_a_missing_column_without_default_is_named(conn: Connection) -> None:
    conn.execute(
        things.insert().values(id="t3", flag=0, count=3, colour="red", words="a", maybe=None)
    )
    row = conn.execute(select(things.c.id, things.c.flag)).one()
    with pytest.raises(KeyError, match=r"Thing\.count"):
        from_row(Thing, row)


def test_only_dataclasses() -> None:
    with pytest.raises(TypeError, match="not a dataclass"):
        from_row(int, {"x": 1})
