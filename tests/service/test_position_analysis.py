"""The analysis board's judgement of a position where a throw is due and no exact solution
reaches: each throw's chance is the master's value of the best move after it, seen from the
seat on turn, and the position's chance is their mean weighted by the throws' probabilities."""

from __future__ import annotations

import pytest

from senet.engine import Position, find_variant
from senet.service.analysis.position_analysis import analyse


@pytest.mark.parametrize(
    "fen",
    [
        "standard ABABABABAB/........../.......... A -",  # the opening, A on turn
        "kendall ..A.B.A.B./A..B....../....A.B... B -",  # a midgame, B on turn
    ],
)
def test_a_large_position_before_a_throw_is_estimated_throw_by_throw(fen: str) -> None:
    position = Position.from_fen(fen)
    judged = analyse(position)
    assert judged.exact is False and judged.decider is None
    assert [t.throw for t in judged.throws] == [n for n, _ in position.chance_outcomes()]
    on_turn = position.turn
    for throw in judged.throws:
        after = analyse(Position.from_fen(throw.after))  # the same analysis the board shows next
        assert after.decider is not None and after.chance is not None
        expected = after.chance if after.decider == on_turn else 1 - after.chance
        assert throw.chance == pytest.approx(expected, abs=1e-12)
        assert 0 < throw.chance < 1
    mean = sum(t.probability * t.chance for t in judged.throws if t.chance is not None)
    assert judged.chance == pytest.approx(mean, abs=1e-12)


def test_kendall_1978_throws_again_before_moving_so_a_throw_has_no_estimate() -> None:
    """All of a turn's throws come before its moves: after a 1, 4 or 5 another throw is due, so
    no decision follows at once and that throw's chance stays unknown (and so the whole)."""
    position = Position.initial(find_variant("kendall-1978"))
    judged = analyse(position)
    rethrow = [t for t in judged.throws if Position.from_fen(t.after).is_chance()]
    assert rethrow and all(t.chance is None for t in rethrow)
    assert judged.chance is None


@pytest.mark.parametrize(
    "fen",
    [
        "standard ........../........../..A..A...B A -",  # solved exactly, a throw due
        "standard ........../........../..A..A...B A 1",  # solved exactly, a decision
        "standard ABABABABAB/........../.......... A -",  # too large for either solver
    ],
)
def test_the_compiled_solver_judges_as_the_reference_solver(fen: str) -> None:
    """The analyses use the compiled solver once it is loaded (found too large in milliseconds
    instead of a second): the same judgement, to 1e-9, as with the reference solver."""
    from senet.service.analysis import position_analysis

    position = Position.from_fen(fen)
    saved = position_analysis._compiled_solve
    try:
        position_analysis._compiled_solve = None
        reference = position_analysis._analyse(position, position_analysis.SOLVE_STATES)
        position_analysis.load_compiled_solver()
        compiled = position_analysis._analyse(position, position_analysis.SOLVE_STATES)
    finally:
        position_analysis._compiled_solve = saved
    assert compiled.exact == reference.exact == ("ABAB" not in fen)
    assert [m.move for m in compiled.moves] == [m.move for m in reference.moves]
    assert [t.throw for t in compiled.throws] == [t.throw for t in reference.throws]
    pairs = [(compiled.chance, reference.chance)]
    pairs += [(a.chance, b.chance) for a, b in zip(compiled.moves, reference.moves, strict=True)]
    pairs += [(a.chance, b.chance) for a, b in zip(compiled.throws, reference.throws, strict=True)]
    for got, expected in pairs:
        assert got == pytest.approx(expected, abs=1e-9)
