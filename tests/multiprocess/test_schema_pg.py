"""The migrations make exactly the tables of :mod:`senet.service.database.schema` on PostgreSQL too,
in a database of the test's own on the package's server."""

from __future__ import annotations

import uuid

from service.schema_check import differences

from senet.service.database import schema
from senet_testkit.loops import run

from .test_backup_pg import create_database


def test_the_migrations_make_exactly_the_described_schema_on_postgresql(pg_url: str) -> None:
    url = run(create_database(pg_url, f"schema_{uuid.uuid4().hex[:8]}"))
    assert run(differences(url, schema.metadata)) == []
