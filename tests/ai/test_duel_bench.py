"""bench/ai_duel.py: its evaluations are the ones it names, its game pairs cancel the throws'
luck exactly between equal players, and a small run prints the score with its interval."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from bench_scripts import BENCH, bench_module

from senet.ai.evaluation import Evaluator, default_weights
from senet.ai.search import Searcher
from senet.engine import Position, find_variant


def test_pip_is_the_pip3_references_count_where_no_piece_stands_exposed() -> None:
    duel, references = bench_module("ai_duel"), bench_module("reference_players")
    variant = find_variant("piccione")
    pip = duel.evaluation(variant, "pip")
    # no lone piece with an opposing one 1-5 squares behind it: pip3's safety term is zero
    for fen in (
        "piccione ........A./.A......../.......... A - hand=3/5",
        "piccione B........./........A./.........A B - hand=2/3",
    ):
        pos = Position.from_fen(fen)
        assert pip.value(pos) == pytest.approx(references.pip_value(pos), abs=1e-12)


def test_equal_players_score_exactly_half_and_files_load(tmp_path: Path) -> None:
    duel = bench_module("ai_duel")
    variant = find_variant("piccione")
    path = tmp_path / "piccione.json"
    path.write_text(Evaluator(variant, default_weights(variant)).to_json())
    loaded = duel.evaluation(variant, str(path))
    hand_made = duel.evaluation(variant, "hand-made")
    assert list(loaded.weights) == pytest.approx(list(hand_made.weights))
    a, b = Searcher(loaded, 1), Searcher(hand_made, 1)
    for seed in (7, 8):
        first = duel.play(variant, (a, b), seed)
        assert first in (0.0, 1.0)
        # the same throws and the same play with the seats swapped: the pair scores ½
        assert duel.play(variant, (b, a), seed) == first


def test_a_small_run_prints_the_score_and_its_interval() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "ai_duel.py"),
            "--variant",
            "piccione",
            "--a",
            "pip",
            "--b",
            "hand-made",
            "--pairs",
            "2",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "piccione: pip against hand-made, depth 1:" in done.stdout
    assert "over 4 games" in done.stdout
