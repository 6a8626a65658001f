"""One description of the database: the migrations shipped make exactly the tables of
:mod:`senet.service.database.schema` (on SQLite here; on PostgreSQL in tests/multiprocess), every store
takes its tables from there, Alembic's ``target_metadata`` is it, and the migration files sort
in the order they apply."""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import Column, Integer, MetaData

from senet.service.database import schema
from senet_testkit.loops import run

from .schema_check import differences

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "src" / "senet" / "service"
MIGRATIONS = SERVICE / "database" / "migrations"


def test_the_migrations_make_exactly_the_described_schema(tmp_path: Path) -> None:
    assert run(differences(f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}", schema.metadata)) == []


def test_a_described_change_without_a_migration_is_found(tmp_path: Path) -> None:
    changed = MetaData()
    for table in schema.metadata.tables.values():
        table.to_metadata(changed)
    changed.tables["games"].append_column(Column("new_column", Integer))
    found = run(differences(f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}", changed))
    assert [d[0] for d in found] == ["add_column"] and found[0][3].name == "new_column"


def test_every_table_is_described_once_in_the_schema_module() -> None:
    for path in SERVICE.rglob("*.py"):
        if path.name == "schema.py" or "migrations" in path.parts:
            continue
        text = path.read_text()
        assert "MetaData(" not in text and " = Table(" not in text, path


def test_alembic_compares_with_the_schema() -> None:
    env = (MIGRATIONS / "env.py").read_text()
    assert "from senet.service.database.schema import metadata" in env
    assert "target_metadata=metadata" in env


def test_the_migration_files_sort_in_the_order_they_apply() -> None:
    versions = sorted((MIGRATIONS / "versions").glob("0*.py"))
    previous = None
    for path in versions:
        text = path.read_text()
        down = re.search(r'^down_revision = (?:"([^"]+)"|None)', text, re.M)
        revision = re.search(r'^revision = "([^"]+)"', text, re.M)
        assert down is not None and revision is not None, path
        assert down.group(1) == previous, f"{path.name} follows {down.group(1)}, not {previous}"
        previous = revision.group(1)
