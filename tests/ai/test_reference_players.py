"""bench/reference_players.py: the frozen master plays kendall-1978 (a run of banked throws
costs its search a ply) and plays as before everywhere else (there a throw is always followed
by a decision or the end of the game, so the ply is never taken)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bench_scripts import BENCH, bench_module

from senet.engine import VARIANTS, Position, draw_throw, find_variant


def _throws_followed_by_a_throw(variant: str, games: int, plies: int) -> int:
    """How many throws, over every throw possible at every chance node met in ``games``
    seeded games of random moves, leave chance next again."""
    chained = 0
    for g in range(games):
        rng = random.Random(g)
        pos = Position.initial(find_variant(variant))
        for _ in range(plies):
            if pos.is_over():
                break
            if pos.is_chance():
                chained += sum(pos.apply_throw(n).is_chance() for n, _ in pos.chance_outcomes())
                pos = pos.apply_throw(draw_throw(rng, pos.variant.instrument))
            else:
                pos = pos.apply(rng.choice(pos.legal_moves()))
    return chained


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "kendall-1978"])
def test_elsewhere_a_throw_is_followed_by_a_decision_so_the_frozen_search_is_unchanged(
    variant: str,
) -> None:
    assert _throws_followed_by_a_throw(variant, games=3, plies=600) == 0


def test_in_kendall_1978_throws_of_1_4_and_5_are_banked_and_chance_is_next_again() -> None:
    # kendall-1978: extra throws, throws first
    assert _throws_followed_by_a_throw("kendall-1978", games=1, plies=60) > 0


@pytest.mark.parametrize("player,decisions", [("frozen-master", 6), ("pip3", 4)])
def test_the_fixed_references_play_kendall_1978_where_their_search_meets_runs_of_throws(
    player: str, decisions: int
) -> None:
    # Before the ply (a throw followed by another throw costs the search a ply) a run of banked
    # throws recursed until the bank overflowed (255 ones), in both searches.
    references = bench_module("reference_players")
    rng = random.Random(5)
    pos = Position.initial(find_variant("kendall-1978"))
    made = 0
    while made < decisions and not pos.is_over():
        if pos.is_chance():
            pos = pos.apply_throw(draw_throw(rng, pos.variant.instrument))
            continue
        legal = pos.legal_moves()
        move = references.reference_move(player, pos, rng)
        assert move in legal
        made += len(legal) > 1
        pos = pos.apply(move)
    assert made == decisions


def _first_real_decision(variant: str, rng: random.Random) -> Position:
    """The first position of a seeded game where a decision offers two moves or more."""
    pos = Position.initial(find_variant(variant))
    while pos.is_chance() or len(pos.legal_moves()) < 2:
        if pos.is_chance():
            pos = pos.apply_throw(draw_throw(rng, pos.variant.instrument))
        else:
            pos = pos.apply(pos.legal_moves()[0])
    return pos


def test_the_linear_master_searches_with_the_linear_evaluation_whatever_ships() -> None:
    # the yardstick for what a network adds where the master had only the linear model
    from senet.ai import searcher_for
    from senet.ai.evaluation import Evaluator, evaluator_for

    references = bench_module("reference_players")
    rng = random.Random(3)
    pos = _first_real_decision("adelaida", rng)
    searcher = searcher_for(pos, references.LINEAR_MASTER)
    assert isinstance(searcher.evaluator, Evaluator)
    assert searcher.evaluator is evaluator_for(pos.variant, "linear")
    assert references.reference_move("linear-master", pos, rng) in pos.legal_moves()


def test_the_candidate_master_searches_with_the_weights_put_beside_the_references(
    tmp_path, monkeypatch
) -> None:
    # a network being tried is set against the master inside the ladder before it ships
    import shutil

    import senet.ai

    references = bench_module("reference_players")
    monkeypatch.setattr(references, "_WEIGHTS", tmp_path)
    rng = random.Random(3)
    pos = _first_real_decision("adelaida", rng)
    with pytest.raises(FileNotFoundError, match="adelaida.candidate.npz"):
        references.reference_move("candidate-master", pos, rng)
    # the file is what the search loads: another variant's weights are refused by name
    shutil.copy(
        BENCH / "reference_weights" / "standard.td-selfplay.npz",
        tmp_path / "adelaida.candidate.npz",
    )
    with pytest.raises(ValueError, match="network weights of standard, not adelaida"):
        references.reference_move("candidate-master", pos, rng)
    shipped = Path(senet.ai.__file__).parent / "weights" / "adelaida.td.npz"
    shutil.copy(shipped, tmp_path / "adelaida.candidate.npz")
    assert references.reference_move("candidate-master", pos, rng) in pos.legal_moves()


def test_the_rollout_master_rolls_out_where_the_master_searches() -> None:
    # the yardstick for what root rollouts would add in the variants where the master searches
    from senet.ai import find_level, rolls_out

    references = bench_module("reference_players")
    rng = random.Random(3)
    pos = _first_real_decision("adelaida", rng)
    assert rolls_out(pos, references.ROLLOUT_MASTER)
    assert not rolls_out(pos, find_level("master"))
    assert references.reference_move("rollout-master", pos, rng) in pos.legal_moves()
    # where the simulator cannot play the rules (pieces in hand, a divided throw) it searches
    piccione = _first_real_decision("piccione", random.Random(3))
    assert not rolls_out(piccione, references.ROLLOUT_MASTER)
    assert references.reference_move("rollout-master", piccione, rng) in piccione.legal_moves()


@pytest.mark.parametrize(
    ("variant", "whole_turns"), [("kendall-1978", True), ("piccione", True), ("standard", False)]
)
def test_the_turn_master_counts_whole_turns_where_one_seat_decides_twice_in_a_row(
    variant: str, whole_turns: bool
) -> None:
    # the yardstick for what counting whole turns adds where one seat decides again before
    # the next throw
    from senet.ai import searcher_for

    references = bench_module("reference_players")
    rng = random.Random(3)
    pos = _first_real_decision(variant, rng)
    assert searcher_for(pos, references.TURN_MASTER).whole_turns is whole_turns
    assert references.reference_move("turn-master", pos, rng) in pos.legal_moves()
