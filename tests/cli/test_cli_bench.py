"""bench/engine.py runs and prints a row per variant (timing itself is not tested)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from senet.engine import VARIANTS

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


@pytest.mark.slow  # the benchmark of every variant, the compiled simulator included
def test_quick_run_prints_a_row_per_variant():
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name in VARIANTS:
        if f"{name}: not measured by default" in done.stderr:
            continue  # a variant whose uniformly random games do not end in time (and says why)
        row = next(line for line in lines if line.split()[:1] == [name])
        playouts = float(row.split()[1].replace(",", ""))
        assert playouts > 0
    kendall = next(line for line in lines if line.startswith("kendall "))
    assert "780" in kendall and "x" in kendall  # Ludii's figure and the ratio beside ours
    assert "not a same-run measurement" in done.stdout


def test_json_and_single_variant():
    done = subprocess.run(
        [sys.executable, str(BENCH), "--seconds", "0.05", "--variant", "bell", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    data = json.loads(done.stdout)
    assert [row["variant"] for row in data["rows"]] == ["bell"]
    row = data["rows"][0]
    assert (
        row["games"] >= 1 and row["us_per_generation"] > 0 and row["ludii_playouts_per_s"] == 2300
    )
