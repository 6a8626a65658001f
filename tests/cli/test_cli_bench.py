"""bench/engine.py and `senet bench` run and report what they measure (timing itself is not tested)."""

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


# ``senet bench``: the same measurements from the installed command (timing is not asserted,
# only what is measured and how it is reported).


def test_bench_engine_measures_each_named_variant_three_ways(run) -> None:
    result = run("bench", "engine", "-v", "bell", "-v", "Kendall", "--seconds", "0.05", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [row["variant"] for row in rows] == ["bell", "kendall"]  # an alias is resolved
    for row in rows:
        for key in ("playouts_per_s", "raw_playouts_per_s", "compiled_playouts_per_s"):
            assert row[key] > 0, key
        assert row["games"] >= 1 and row["us_per_generation"] > 0 and row["positions"] == 50


def test_bench_engine_prints_a_row_per_variant_with_the_compiled_target(run) -> None:
    result = run("bench", "engine", "-v", "kendall", "-v", "piccione", "--seconds", "0.05")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if line.split()}
    assert "(25,000)" in rows["kendall"]  # the compiled simulator's target, met or NOT MET
    assert rows["piccione"].split()[-3:] == ["—", "—", "—"]  # the simulator refuses it...
    assert "piccione: no compiled playouts" in result.stderr  # ... and says why


def test_bench_engine_refuses_an_unknown_variant_in_one_line(run) -> None:
    result = run("bench", "engine", "-v", "nope")
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("Error: unknown variant 'nope'; known: standard")
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_bench_moves_times_every_phase_and_restores_the_search_clock(run) -> None:
    from senet.ai import search

    before = search.now
    result = run(
        "bench", "moves", "-v", "standard", "--level", "expert", "--games", "2", "--phases", "3",
        "--cpu-clock", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["level"] == "expert" and report["cpu_clock"] is True
    (row,) = report["rows"]
    assert row["all"]["positions"] == 6  # three points of each of two games
    assert row["crowded"]["positions"] == 1  # the crowded quarter
    assert row["crowded"]["median_on_board"] >= row["all"]["median_on_board"]
    assert 0 < row["all"]["cpu_median"] <= row["all"]["cpu_max"]
    assert search.now is before  # the CPU clock was the command's only


def test_bench_moves_exits_with_1_when_a_target_is_missed(run, monkeypatch) -> None:
    from senet.ai import timing

    monkeypatch.setattr(timing, "MEDIAN_TARGET", 0.0)  # no move is that fast
    result = run("bench", "moves", "-v", "bell", "--level", "beginner", "--games", "1")
    assert result.exit_code == 1
    assert "median under 0 ms: NOT MET" in result.stdout
