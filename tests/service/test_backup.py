"""``senet backup`` and ``senet restore`` on the embedded default (SQLite): a backup made while
the site stores moves holds every acknowledged action, restores into a fresh database, and the
restored site plays its games on to records that verify (the scenario: ``backups.py``).  Bad
input changes nothing: a missing file, an existing backup file, a database that holds games."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from .backups import backup_restore_and_play_on, senet


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.mark.slow  # two real servers and six whole games
def test_a_backup_during_moves_restores_every_acknowledged_move(tmp_path: Path) -> None:
    backup_restore_and_play_on(
        sqlite_url(tmp_path / "site.sqlite3"), sqlite_url(tmp_path / "restored.sqlite3"), tmp_path
    )


@pytest.mark.slow  # a database per refusal: more than a few seconds
def test_refusals_name_the_problem_and_write_nothing(tmp_path: Path) -> None:
    missing = senet("backup", str(tmp_path / "b"), database_url=sqlite_url(tmp_path / "none.db"))
    assert missing.returncode == 1 and "no such database file" in missing.stderr
    assert not (tmp_path / "b").exists()
    memory = senet("backup", str(tmp_path / "b"), database_url="sqlite+aiosqlite:///:memory:")
    assert memory.returncode == 1 and "in-memory" in memory.stderr
    nothing = senet("restore", str(tmp_path / "absent"), database_url=sqlite_url(tmp_path / "t.db"))
    assert nothing.returncode != 0 and not (tmp_path / "t.db").exists()
    # a file that is not a database is refused on restore, and the target is left alone
    (tmp_path / "junk").write_bytes(b"not a database" * 100)
    junk = senet("restore", str(tmp_path / "junk"), database_url=sqlite_url(tmp_path / "t.db"))
    assert junk.returncode == 1 and "not a readable SQLite database" in junk.stderr
    assert "Traceback" not in junk.stderr and not (tmp_path / "t.db").exists()


@pytest.mark.slow  # plays games, backs up and reads back a database: more than a few seconds
def test_a_backup_is_a_database_with_the_same_rows(tmp_path: Path) -> None:
    (tmp_path / "junk").write_bytes(b"not a database" * 100)
    source = tmp_path / "site.sqlite3"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE games (id TEXT PRIMARY KEY)")
        conn.execute("CREATE TABLE actions (game_id TEXT, ply INTEGER)")
        conn.executemany("INSERT INTO games VALUES (?)", [("g1",), ("g2",)])
        conn.executemany("INSERT INTO actions VALUES ('g1', ?)", [(i,) for i in range(7)])
    made = senet("backup", str(tmp_path / "copy"), database_url=sqlite_url(source))
    assert made.returncode == 0, made.stderr
    assert "2 games, 7 actions" in made.stdout
    with sqlite3.connect(tmp_path / "copy") as conn:
        assert conn.execute("SELECT count(*) FROM actions").fetchone() == (7,)
    target = tmp_path / "restored.sqlite3"
    done = senet("restore", str(tmp_path / "copy"), database_url=sqlite_url(target))
    assert done.returncode == 0 and "2 games, 7 actions" in done.stdout
    replaced = senet("restore", str(tmp_path / "copy"), database_url=sqlite_url(target))
    assert replaced.returncode == 1 and "--replace" in replaced.stderr
    forced = senet("restore", "--replace", str(tmp_path / "copy"), database_url=sqlite_url(target))
    assert forced.returncode == 0, forced.stderr
    # a broken backup given with --replace leaves the database as it was
    broken = senet("restore", "--replace", str(tmp_path / "junk"), database_url=sqlite_url(target))
    assert broken.returncode == 1
    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (2,)
