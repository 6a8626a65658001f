"""The exact endgame solver against values worked out by hand and by plain recursion."""

from __future__ import annotations

import random

import pytest

from senet.ai import choose_move
from senet.ai.evaluation import terminal_value
from senet.ai.solver import TooLarge, for_seat, move_values, solve, solve_many
from senet.engine import Position


def test_one_piece_each_race_by_hand() -> None:
    # A's last piece on 30 leaves only with a 2 (p = 3/8); B's on 29 only with a 3 (p = 1/4).
    # A throw that cannot be used ends the turn (no extra throw after a pass), so A, throwing
    # first, wins with p = (3/8) / (1 - 5/8 * 3/4) = 12/17.
    pos = Position.from_fen("standard ........../........../........BA A -")
    assert solve(pos) == pytest.approx(12 / 17, abs=1e-10)
    # With B to throw first: B wins with (1/4) / (1 - 3/4 * 5/8) = 8/17.
    pos_b = Position.from_fen("standard ........../........../........BA B -")
    assert solve(pos_b) == pytest.approx(1 - 8 / 17, abs=1e-10)


def test_values_after_each_throw_by_hand() -> None:
    pos = Position.from_fen("standard ........../........../........BA A -")
    solution = solve_many([pos])
    assert solution.value(pos.apply_throw(2)) == pytest.approx(1.0)
    # A misses, then B misses with 3/4 and we are back at the start: 3/4 * 12/17 = 9/17.
    assert solution.value(pos.apply_throw(3)) == pytest.approx(9 / 17, abs=1e-10)


def test_kendall_water_choice_by_hand() -> None:
    # A's last piece has just landed on 27; the choice closes A's turn.  B's last piece is on
    # 29, which only a 2 bears off (p = 3/8; any other throw is a lost turn).  If A risks, the
    # piece drowns until a 4 (p = 1/16) bears it off, so A wins with
    # (5/8 * 1/16) / (1 - 5/8 * 15/16) = 5/53.  Returning to 15 is worse.
    pos = Position.from_fen("kendall ........../........../......A.B. A - pending=water")
    values = dict((m.text(), v) for m, v in move_values(pos))
    assert values["risk"] == pytest.approx(5 / 53, abs=1e-12)
    assert values["return"] < values["risk"]
    assert solve(pos) == pytest.approx(5 / 53, abs=1e-12)


def test_bell_draw_is_worth_a_half() -> None:
    # Nothing can be captured on 26-30: both last pieces will be borne off, scores equal.
    pos = Position.from_fen("bell ........../........../........BA A - captured=1/1")
    assert solve(pos) == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize(
    "fen",
    [
        "bell ........../.......AB./.B...A.... A 2 captured=3/3",
        "adelaida ........../........../.......AB. A 1 drowned=0/1",
        # the largest of these endgames (tens of seconds)
        pytest.param("kendall ........../........B./....A.A..B A 1", marks=pytest.mark.slow),
        "standard ........../........../....A.B.AB A 1",
    ],
)
def test_every_solved_value_satisfies_the_bellman_equations(fen: str) -> None:
    """Recomputed through the Position API (not the solver's arrays): a chance node is the
    average of its throws, a decision the best move for whoever decides."""
    pos = Position.from_fen(fen)
    solution = solve_many([pos])
    states = solution.states
    for state in random.Random(0).sample(states, min(1500, len(states))):
        p = Position(pos.variant, state)
        done = terminal_value(p)
        if done is not None:
            expected = done
        elif p.is_chance():
            expected = sum(
                float(pr) * solution.value(p.apply_throw(n)) for n, pr in p.chance_outcomes()
            )
        else:
            vals = [solution.value(p.apply_unchecked(m)) for m in p.legal_moves()]
            expected = max(vals) if p.decider == 0 else min(vals)
        assert solution.value(p) == pytest.approx(expected, abs=1e-9), p.fen()


def test_cycles_converge_and_values_are_probabilities() -> None:
    # Kendall: backward moves and the return from the House of Water make the graph cyclic.
    pos = Position.from_fen("kendall ........../........B./.B......A. B 2")
    solution = solve_many([pos])
    assert len(solution.best_moves(pos)) < len(pos.legal_moves())  # a real choice
    assert solution.residual < 1e-11
    assert ((solution.values >= -1e-12) & (solution.values <= 1 + 1e-12)).all()
    seat = pos.decider
    best = solution.best_moves(pos)
    top = max(for_seat(v, seat) for _, v in solution.move_values(pos))
    assert all(
        for_seat(solution.value(pos.apply_unchecked(m)), seat) == pytest.approx(top) for m in best
    )
    # The value of a decision is the value of its best move.
    assert for_seat(solution.value(pos), seat) == pytest.approx(top)


def test_too_large_is_reported() -> None:
    with pytest.raises(TooLarge):
        solve(Position.from_fen("standard ABABABABAB/........../.......... A -"), max_states=1000)


def test_master_plays_solved_endgames_optimally() -> None:
    rng = random.Random(0)
    fens = [
        "kendall ........../.........A/........BA A 1",  # bearing off (30-off) is the mistake here
        "standard ........../........../..B.A...A. A 1",
        "bell ........../.........B/A...A..... A 2 captured=3/3",
    ]
    for fen in fens:
        pos = Position.from_fen(fen)
        solution = solve_many([pos])
        assert choose_move(pos, "master", rng) in solution.best_moves(pos), fen
