"""bench/ladder_pool.py: runs of the ladder pooled as one run over all their pairs would be,
a run stopped by hand counted by its last progress line, and runs sharing pairs refused."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from bench_scripts import BENCH, bench_module


def summary_line(ladder, variant: str, scores: list[float], first: int) -> str:
    """What ai_ladder prints for a finished run of these pair scores (its own interval)."""
    mean, lo, hi = ladder.interval(scores)
    return (
        f"{variant:14s} {'master':>8s} vs {'frozen-master':<13s} {2 * len(scores):4d} games  "
        f"score {mean:6.1%}  95% [{lo:6.1%}, {hi:6.1%}]  target 65% met  "
        f"(pairs {first}–{first + len(scores) - 1}, 12s, load average 1.0)"
    )


def test_two_runs_pool_to_what_one_run_over_all_their_pairs_prints() -> None:
    ladder, pool = bench_module("ai_ladder"), bench_module("ladder_pool")
    rng = random.Random(7)
    pair_scores = [rng.choice((0.0, 0.5, 0.5, 1.0, 1.0)) for _ in range(300)]
    first, second = pair_scores[:120], pair_scores[120:]
    runs = [
        pool.read_runs(summary_line(ladder, "adelaida", part, start), f"run{start}")[
            ("adelaida", "master", "frozen-master")
        ]
        for part, start in ((first, 6000), (second, 6500))
    ]
    assert [r.games for r in runs] == [240, 360] and runs[1].pairs == range(6500, 6680)
    pooled = pool.pool(runs)
    mean, lo, hi = ladder.interval(pair_scores)
    assert pooled.games == 600
    assert pooled.mean == pytest.approx(mean, abs=0.001)  # (the printed means are rounded)
    assert pooled.lo == pytest.approx(lo, abs=0.004) and pooled.hi == pytest.approx(hi, abs=0.004)
    # narrower than either run alone
    assert pooled.hi - pooled.lo < min(r.hi - r.lo for r in runs)


def test_the_verdict_says_whether_the_pooled_interval_shows_the_target() -> None:
    pool = bench_module("ladder_pool")
    said = {
        (mean, lo, hi): pool.verdict(pool.Pooled(600, mean, lo, hi), 0.65)
        for mean, lo, hi in (
            (0.707, 0.669, 0.744),
            (0.68, 0.62, 0.74),
            (0.62, 0.58, 0.66),
            (0.505, 0.444, 0.567),
        )
    }
    assert list(said.values()) == [
        "target 65% met (the whole interval above)",
        "target 65% met by the score, not shown (the interval reaches both sides)",
        "target 65% NOT MET by the score, not shown (the interval reaches both sides)",
        "target 65% NOT MET (the whole interval below)",
    ]


def test_a_run_stopped_by_hand_counts_by_its_last_progress_line() -> None:
    pool = bench_module("ladder_pool")
    text = (
        "  ... adelaida master vs frozen-master: 40 games, 68.8% [54.1%, 83.4%]\n"
        "  ... adelaida master vs frozen-master: 80 games, 68.1% [57.3%, 78.9%]\n"
    )
    run = pool.read_runs(text, "stopped")[("adelaida", "master", "frozen-master")]
    assert (run.games, run.pairs) == (80, None)
    assert (run.mean, run.lo, run.hi) == pytest.approx((0.681, 0.573, 0.789))


def test_runs_that_share_pairs_are_refused_by_name() -> None:
    ladder, pool = bench_module("ai_ladder"), bench_module("ladder_pool")
    a = pool.read_runs(summary_line(ladder, "bell", [1.0, 0.5] * 30, 3000), "a.log")
    b = pool.read_runs(summary_line(ladder, "bell", [0.5, 0.0] * 30, 3050), "b.log")
    key = ("bell", "master", "frozen-master")
    with pytest.raises(ValueError, match=r"a\.log and b\.log share pairs 3050–3059"):
        pool.pool([a[key], b[key]])


@pytest.mark.slow  # plays the ladder's games: more than a few seconds
def test_the_ladders_own_output_pools_and_an_overlap_is_an_error(tmp_path) -> None:
    """Two real runs of the ladder on neighbouring offsets, then the same offset twice."""

    def run(offset: int) -> str:
        out = subprocess.run(
            [sys.executable, str(BENCH / "ai_ladder.py"), "--variant", "bell"]
            + ["--pair", "beginner:casual", "--games", "4", "--offset", str(offset)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert "pairs" in out.stdout, out.stderr
        return out.stdout

    logs = []
    for offset in (0, 2, 2):
        path = tmp_path / f"run{len(logs)}.log"
        path.write_text(run(offset))
        logs.append(str(path))
    pooled = subprocess.run(
        [sys.executable, str(BENCH / "ladder_pool.py"), *logs[:2]], capture_output=True, text=True
    )
    assert pooled.returncode == 0, pooled.stderr
    assert "bell casual vs beginner: 8 games over 2 run(s)" in pooled.stdout
    assert "pairs 0–1" in pooled.stdout and "pairs 2–3" in pooled.stdout
    clash = subprocess.run(
        [sys.executable, str(BENCH / "ladder_pool.py"), *logs[1:]], capture_output=True, text=True
    )
    assert clash.returncode == 2 and "share pairs 2–3" in clash.stderr
