"""``bench/past_the_tables.py``: positions one piece past the three-against-two table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bench_scripts import bench_module

from senet.ai.tables import LARGE_TABLE_SPECS, large_table_for, read_three_a_side
from senet.engine import find_variant

past = bench_module("past_the_tables")


@pytest.mark.parametrize("name", sorted(LARGE_TABLE_SPECS))
def test_positions_are_four_against_two_or_three_against_three_outside_the_table(
    name: str,
) -> None:
    variant = find_variant(name)
    table = large_table_for(variant)
    assert table is not None
    rng = random.Random(3)
    made = [past.past_the_table(variant, rng, 9) for _ in range(60)]
    positions = [p for p in made if p is not None]
    assert len(positions) >= 10
    materials = set()
    for pos in positions:
        seat = pos.decider
        assert seat is not None and len(pos.legal_moves()) >= 2
        counts = (len(pos.pieces(seat)), len(pos.pieces(1 - seat)))
        assert counts in past.MATERIAL
        materials.add(counts)
        assert all(22 <= sq <= 30 for s in (0, 1) for sq in pos.pieces(s))
        assert table.move_values(pos) is None  # the master cannot read it at the root
    assert materials == set(past.MATERIAL)


@pytest.mark.slow  # two masters' searches at a fixed depth: more than a few seconds
def test_both_masters_play_at_a_fixed_depth_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    # --depth takes the clock out: both masters search two decisions deep, one reading the
    # tables inside its search and one at the root only, each with its own searcher.
    assert past.main(["--variant", "standard", "--positions", "2", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "standard: 2 positions" in out
    for player in past.PLAYERS:
        assert f"  {player}" in out
    pos = next(
        p
        for p in (
            past.past_the_table(find_variant("standard"), random.Random(5), 9) for _ in range(50)
        )
        if p is not None
    )
    for player in past.PLAYERS:
        assert past.move_of(player, pos, 2) in pos.legal_moves()


@pytest.mark.slow  # a solve of some two million positions
def test_three_against_three_is_judged_by_the_three_a_side_table(
    three_a_side_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = find_variant("standard")
    truth = read_three_a_side(variant, three_a_side_dir)
    tallies, size, _ = past.measure(variant, 3, 1, 7, 0, depth=2, truth=truth)
    assert size == len(truth) and all(len(t.losses) == 3 for t in tallies.values())
    rng = random.Random(2)
    for _ in range(20):
        pos = past.past_the_table(variant, rng, 7, ((3, 3),))
        if pos is not None:
            assert [len(pos.pieces(s)) for s in (0, 1)] == [3, 3]
            assert truth.move_values(pos) is not None
    args = ["--variant", "standard", "--positions", "2", "--squares", "7", "--depth", "2"]
    assert past.main([*args, "--three-a-side", str(three_a_side_dir)]) == 0
    out = capsys.readouterr().out
    assert "standard: 2 positions (3 against 3)" in out and "the three-a-side table" in out
