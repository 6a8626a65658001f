"""A database row into the frozen dataclass that stands for it, and back: one way for every
table kept beside the games (players, ratings, bots and their tokens, challenges, push
subscriptions), so that each table's shape is written once, in its dataclass.

:func:`from_row` fills each field of the dataclass from the row's column of the same name,
converted by the field's declared type — ``bool`` (SQLite gives 0 and 1 back from an
expression), ``int`` (a ``BigInteger`` may come back as another integer type), an ``Enum``
(the stored value), ``tuple[str, ...]`` (stored as one text of words separated by spaces) and
each of these ``| None`` — while any other type is taken as read.  A field the row lacks
keeps its default; ``given`` sets fields computed by the caller; ``prefix`` reads the columns
of a second table joined under labels ``<prefix><field>``.  :func:`values_of` is the other
way: the fields of a dataclass that are columns of a table, for an insert.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, TypeVar

from sqlalchemy import Row, Table

__all__ = ["from_row", "values_of"]

T = TypeVar("T")

_Convert = Callable[[Any], Any]


def _words(value: Any) -> tuple[str, ...]:
    return tuple(str(value).split()) if isinstance(value, str) else tuple(value)


def _converter(hint: Any) -> _Convert | None:
    """How a stored value becomes a value of type ``hint`` (None: as it is)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        convert = _converter(inner[0]) if len(inner) == 1 else None
        if convert is None:
            return None
        return lambda value: None if value is None else convert(value)
    if hint is bool:
        return bool
    if hint is int:
        return int
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    if typing.get_origin(hint) is tuple and typing.get_args(hint) == (str, ...):
        return _words
    return None


_Plan = tuple[tuple[str, _Convert | None, bool], ...]
_plans: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    """Per field of ``cls``: its name, its converter, whether it has a default (worked out
    once per class)."""
    found = _plans.get(cls)
    if found is not None:
        return found
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    hints = typing.get_type_hints(cls)
    plan = _plans[cls] = tuple(
        (
            f.name,
            _converter(hints[f.name]),
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
        if f.init
    )
    return plan


def from_row(
    cls: type[T], row: Row[*tuple[Any, ...]] | Mapping[str, Any], prefix: str = "", **given: Any
) -> T:
    """The ``cls`` that ``row`` stores (see the module's text); a field that is neither in
    the row nor given and has no default is a :class:`KeyError` naming it."""
    columns: Mapping[Any, Any] = row._mapping if isinstance(row, Row) else row
    values: dict[str, Any] = {}
    for name, convert, has_default in _plan(cls):
        if name in given:
            values[name] = given[name]
            continue
        column = prefix + name
        if column not in columns:
            if has_default:
                continue
            raise KeyError(f"{cls.__name__}.{name}: the row has no column {column!r}")
        value = columns[column]
        values[name] = value if convert is None else convert(value)
    return cls(**values)


def values_of(item: object, table: Table) -> dict[str, Any]:
    """The fields of the dataclass instance ``item`` that are columns of ``table`` (a
    ``tuple[str, ...]`` as its words separated by spaces), for an insert."""
    out: dict[str, Any] = {}
    for name, convert, _ in _plan(type(item)):
        if name in table.c:
            value = getattr(item, name)
            out[name] = " ".join(value) if convert is _words else value
    return out
