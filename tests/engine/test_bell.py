"""Scenarios for R. C. Bell's rules (002_06e4c6456ad7fdb1.txt, «Сенет по Беллу»)."""

from fractions import Fraction

import pytest

from senet.engine import IllegalMove, Position, find_variant, parse_move

from .conftest import after, fen, moves, play, pos

V = "bell"


def test_bell_pieces_start():
    """bell: pieces: ten each, the first player on odd 1-19, the second on even 2-20; the first seat starts."""
    p = Position.initial(find_variant(V))
    assert p.fen() == "bell ABABABABAB/ABABABABAB/.......... A -"
    assert p.pieces(0) == tuple(range(1, 20, 2)) and p.pieces(1) == tuple(range(2, 21, 2))
    assert p.turn == 0 and p.apply_throw(1).decider == 0


def test_bell_throws_long_die_no_extra():
    """bell: throws: one four-sided long die, 1-4 uniform, and no extra throws."""
    p = Position.initial(find_variant(V))
    assert p.chance_outcomes() == tuple((n, Fraction(1, 4)) for n in (1, 2, 3, 4))
    with pytest.raises(IllegalMove):
        p.apply_throw(5)
    for n in (1, 2, 3, 4):
        assert after(pos(V, [1], [30], "A", n), f"1-{1 + n}") == fen(V, [1 + n], [30], "B")


def test_bell_own_piece():
    """bell: own piece: a piece may not land on its own."""
    p = pos(V, [1, 3], [30], "A", 2)
    assert moves(p) == ["3-5"]


def test_bell_capture_removes_without_protection():
    """bell: capture: landing on an opponent removes it from the game; neighbours do not protect."""
    p = pos(V, [1], [4, 5], "A", 3)
    assert moves(p) == ["1-4"]
    q = p.apply(parse_move("1-4"))
    assert q.fen() == fen(V, [4], [5], "B", captured=(0, 1))
    assert q.captured(1) == 1 and q.off(1) == 8


def test_bell_safe_squares():
    """bell: safe squares: pieces on 26-30 cannot be captured."""
    for sq in range(26, 31):
        p = pos(V, [sq - 4, 1], [sq], "A", 4)
        assert f"{sq - 4}-{sq}" not in moves(p), sq
    assert moves(pos(V, [21], [25], "A", 4)) == ["21-25"]  # 25 is not safe


def test_bell_house_of_beauty_gate():
    """bell: house of beauty: a piece on 26 must move on as soon as it can."""
    p = pos(V, [26, 3], [1], "A", 2)
    assert moves(p) == ["26-28"]
    # when it cannot move (its square is taken), any other piece may move
    p = pos(V, [26, 3], [28, 1], "A", 2)
    assert moves(p) == ["3-5"]


def test_bell_marked_squares_exact_throws():
    """bell: marked squares: X III II I (27-30) leave only with the exact 4, 3, 2, 1."""
    exact = {27: 4, 28: 3, 29: 2, 30: 1}
    for sq, need in exact.items():
        for n in (1, 2, 3, 4):
            ms = moves(pos(V, [sq], [1], "A", n))
            assert ms == ([f"{sq}-off"] if n == need else ["pass"]), (sq, n)
    # and a piece leaves only from them: 25 with a 4 lands on 29, never off
    assert moves(pos(V, [25], [1], "A", 4)) == ["25-29"]
    q = pos(V, [28, 5], [1], "A", 3).apply(parse_move("28-off"))
    assert q.fen() == fen(V, [5], [1], "B") and q.off(0) == 9


def test_bell_forced_moves_from_26_to_30():
    """bell: forced moves: if any piece on 26-30 can move, one of them must move."""
    p = pos(V, [5, 27, 28], [1], "A", 4)
    assert moves(p) == ["27-off"]
    p = pos(V, [5, 27, 26], [30], "A", 4)  # 26-30 is barred (30 is safe): one of 27-30 must move
    assert moves(p) == ["27-off"]
    p = pos(V, [5, 29], [1], "A", 4)
    assert moves(p) == ["5-9"]  # 29 cannot move with a 4: free choice again


def test_bell_scoring_and_early_end():
    """bell: scoring: a point a piece borne off; over once one side leads beyond reach; a draw when equal and empty."""
    # A has 9 off and one on 30; B has 8 off, 2 captured: B can reach 8 -> A with 9 already leads beyond reach
    p = Position.from_fen(fen(V, [30], [], "A", None, captured=(0, 2)))
    assert p.outcome() is not None and p.outcome().winner == 0 and p.outcome().score == (9, 8)
    # 5 off against 3 off with 2 still on the board: not yet decided
    p = Position.from_fen(fen(V, [1, 2, 3, 4, 5], [6, 7], "A", None, captured=(0, 5)))
    assert p.outcome() is None
    # one more capture and B (3 off, 1 left) cannot reach 5
    q = play(
        Position.from_fen(fen(V, [1, 2, 3, 4, 5], [6, 7], "A", 1, captured=(0, 5))),
        "5-6",
    )
    assert q.outcome().winner == 0 and q.outcome().reason
    # equal scores with an empty board: a draw
    p = pos(V, [30], [], "A", 1, captured=(1, 1))
    q = p.apply(parse_move("30-off"))
    assert (
        q.outcome().winner is None and q.outcome().score == (9, 9) and q.outcome().result == "draw"
    )


# ------------------------------------------------------------------ decisions
def test_decision_bell_beauty_exact():
    """A piece may pass 26 and land on 27-30 directly."""
    assert moves(pos(V, [23], [1], "A", 4)) == ["23-27"]
    assert moves(pos(V, [25], [1], "A", 3)) == ["25-28"]


def test_decision_bell_marked_moves():
    """Pieces on 27-30 never move within 27-30: they wait for the exact throw."""
    for sq in (27, 28, 29):
        for n in range(1, 31 - sq):
            ms = moves(pos(V, [sq], [1], "A", n))
            assert f"{sq}-{sq + n}" not in ms


def test_decision_bell_passing():
    """A piece may pass over any pieces."""
    assert moves(pos(V, [1], [2, 3, 4], "A", 4)) == ["1-5"]
    assert moves(pos(V, [1, 2, 3], [30], "A", 4)) == ["1-5", "2-6", "3-7"]


def test_decision_bell_pass():
    """With no move the player passes and the turn goes over."""
    p = pos(V, [27], [1], "A", 2)
    assert moves(p) == ["pass"]
    assert after(p, "pass") == fen(V, [27], [1], "B")


def test_decision_bell_beauty_gate():
    """«фишка на ней должна идти дальше, как только сможет»: the piece on 26 moves before any other,
    those on 27-30 included; only when it cannot does the choice come back."""
    p = Position.from_fen("bell ....A...../........../..B..AA... A 4 captured=7/9")
    assert moves(p) == ["26-30"]
    assert moves(pos(V, [5, 26, 27], [30], "A", 4)) == ["27-off"]  # 26-30 barred: 27 may leave
    assert moves(pos(V, [5, 26], [30], "A", 4)) == ["5-9"]  # neither: free choice again


def test_decision_bell_options():
    """Wikipedia's compulsory captures and Ludii's marked 15 are not applied: a capture is one
    move among others, and a piece on 15 can be captured and has no precedence."""
    p = pos(V, [1, 10], [4], "A", 3)
    assert moves(p) == ["1-4", "10-13"]  # the capture is not compulsory
    assert 15 not in find_variant(V).houses
    assert after(pos(V, [12], [1], "A", 3), "12-15") == fen(V, [15], [1], "B")
    assert after(pos(V, [11], [15], "A", 4), "11-15") == fen(V, [15], [], "B", captured=(0, 1))
    assert sorted(moves(pos(V, [3, 15], [1], "A", 2))) == ["15-17", "3-5"]  # 15 has no precedence
