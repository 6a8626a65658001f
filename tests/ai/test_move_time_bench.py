"""bench/ai_move_time.py: its sample covers every phase of the game with real decisions, and a
small run prints a verdict per variant (the times themselves are not tested)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from bench_scripts import BENCH, bench_module


def test_the_sample_takes_every_phase_of_every_game_and_only_real_decisions() -> None:
    bench = bench_module("ai_move_time")
    samples = bench.sample("standard", games=3, phases=4, seed=7)
    assert sorted(s.phase for s in samples) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    for s in samples:
        assert s.position.decider is not None and len(s.position.legal_moves()) == s.moves >= 2
    # the opening is crowded, the last phase has pieces borne off
    first = [s.on_board for s in samples if s.phase == 0]
    last = [s.on_board for s in samples if s.phase == 3]
    assert min(first) > max(last)
    again = bench.sample("standard", games=3, phases=4, seed=7)
    assert [str(s.position) for s in again] == [str(s.position) for s in samples]


@pytest.mark.slow  # times a level's moves over seeded games: more than a few seconds
def test_a_small_run_prints_each_phase_and_the_verdicts() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "ai_move_time.py"),
            "--variant",
            "bell",
            "--games",
            "1",
            "--phases",
            "2",
        ]
        + ["--cpu-clock"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a target not met on this machine
    out = done.stdout
    assert "bell: the master on 2 positions (CPU-time budget)" in out
    assert "phase 1/2" in out and "phase 2/2" in out and "crowded 1/4" in out
    assert "wall: median < 300 ms" in out and "CPU: median < 300 ms" in out
    assert "load average" in out


@pytest.mark.slow  # the master's moves four times over, with a process spinning
def test_a_busy_run_compares_the_moves_played_quiet_and_busy() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "ai_move_time.py"), "--busy", "1"]
        + ["--variant", "bell", "--games", "1", "--phases", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "with 1 processes spinning" in lines[0]
    assert any(
        line.split()[:2] == ["bell", "master"] and "2 of 2 moves alike" in line for line in lines
    )
    assert any(line.split()[:2] == ["bell", "timed"] for line in lines)
    assert lines[-1] == "the master's moves: the same, quiet or busy"
