"""``bench/load.py`` on the embedded default, at its smallest: a real ``senet serve``, real
WebSocket bots and the bare relay play, and it reports what it measures (timing itself is not
asserted: only that every part ran and said what it found)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "load.py"


@pytest.mark.slow  # a server, a relay and their bots for some 30 s
def test_the_load_bench_plays_games_on_sqlite_and_reports_every_part() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--setup", "sqlite", "--games", "3", "--duration", "10"]
        + ["--think", "0.5", "--connect-rate", "20", "--pair-rate", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "created 3 games on 1 process(es)" in out
    assert "bot errors 0" in out
    assert "senet:" in out and "bare relay:" in out and "ratio senet/relay" in out
    assert "load generator's own collector:" in out
    assert "target (p99 < 100 ms at 3 games, sqlite):" in out
