"""Scenarios for the site's standard game (002_06e4c6456ad7fdb1.txt, «Сенет (стандарт)» column).

Each test names the clause (``standard: ...``) or the decision it pins; the expected moves and
positions come from the source text, not from the engine.
"""

from fractions import Fraction

import pytest

from senet.engine import IllegalMove, Position, find_variant, parse_move

from .conftest import after, fen, moves, play, pos

V = "standard"


def test_start_position_standard_pieces():
    """standard: pieces: five each, alternating on 1-10, the first player on the odd squares, moving first."""
    p = Position.initial(find_variant(V))
    assert p.fen() == "standard ABABABABAB/........../.......... A -"
    assert p.pieces(0) == (1, 3, 5, 7, 9) and p.pieces(1) == (2, 4, 6, 8, 10)
    assert p.is_chance() and p.turn == 0
    assert play(p, 2).decider == 0


def test_throws_are_four_sticks():
    """standard: throws: four sticks, 1-4 marked sides up, none up counts 5: 4/16 6/16 4/16 1/16 1/16."""
    p = Position.initial(find_variant(V))
    assert p.chance_outcomes() == (
        (1, Fraction(4, 16)),
        (2, Fraction(6, 16)),
        (3, Fraction(4, 16)),
        (4, Fraction(1, 16)),
        (5, Fraction(1, 16)),
    )
    with pytest.raises(IllegalMove):
        p.apply_throw(6)
    with pytest.raises(IllegalMove):
        p.apply_throw(0)


@pytest.mark.parametrize("n", [1, 4, 5])
def test_extra_throw_after_1_4_5(n):
    """standard: extra throws: a throw of 1, 4 or 5 gives another throw after the move."""
    p = pos(V, [1], [20], "A", n)
    assert after(p, f"1-{1 + n}") == fen(V, [1 + n], [20], "A")


@pytest.mark.parametrize("n", [2, 3])
def test_no_extra_throw_after_2_3(n):
    """standard: extra throws: 2 and 3 pass the turn."""
    p = pos(V, [1], [20], "A", n)
    assert after(p, f"1-{1 + n}") == fen(V, [1 + n], [20], "B")


def test_swap_with_a_single_piece():
    """standard: swap: landing on a lone opponent swaps the two pieces."""
    p = pos(V, [3, 9], [6, 12], "A", 3)
    assert moves(p) == ["3-6", "9-12"]
    assert after(p, "3-6") == fen(V, [6, 9], [3, 12], "B")
    assert p.move_text(parse_move("3-6")) == "3x6"


def test_swap_refused_when_protected_by_a_neighbour():
    """standard: swap: a piece with a neighbour of its own colour cannot be attacked."""
    p = pos(V, [3, 4], [6, 7], "A", 3)
    assert moves(p) == ["pass"]  # 6 and 7 protect each other
    with pytest.raises(IllegalMove):
        p.apply(parse_move("3-6"))


def test_protection_both_sides():
    """standard: swap: the victim is protected by a neighbour behind it or ahead of it."""
    assert moves(pos(V, [1], [4, 5], "A", 3)) == ["pass"]  # 5 protects 4
    assert moves(pos(V, [1], [3, 4], "A", 3)) == ["pass"]  # 3 protects 4
    assert moves(pos(V, [1], [4, 6], "A", 3)) == ["1-4"]  # 6 is not a neighbour of 4
    # a neighbour of the other colour gives no protection
    assert moves(pos(V, [1, 5], [4], "A", 3)) == ["1-4", "5-8"]


def test_safe_squares_27_to_30():
    """standard: safe squares: no piece on 27-30 can be attacked."""
    for sq in (27, 29, 30):
        n = sq - 25
        assert f"25-{sq}" not in moves(pos(V, [25], [sq], "A", n)), sq
    # the same attack on 26 (not a House) is a swap
    assert after(pos(V, [24], [26], "A", 2), "24-26") == fen(V, [26], [24], "B")


def test_houses_water_sends_to_15():
    """standard: houses: 28, the House of Water, sends the piece to 15."""
    p = pos(V, [25], [1], "A", 3)
    assert after(p, "25-28") == fen(V, [15], [1], "B")
    p = pos(V, [27], [1], "A", 1)
    assert after(p, "27-28") == fen(V, [15], [1], "A")  # a 1 also gives another throw
    v = find_variant(V)
    assert {sq: h.name_en for sq, h in v.houses.items()} == {
        27: "House of Beauty",
        28: "House of Water",
        29: "House of Three Truths",
        30: "House of Ra-Atum",
    }


def test_free_choice_any_piece_that_can_move():
    """standard: free choice: any piece that can move may move (no priority for the last squares)."""
    p = pos(V, [3, 27], [1], "A", 2)
    assert moves(p) == ["27-29", "3-5"]


def test_bearing_off_from_27_past_30():
    """standard: bearing off: from 27 by a throw past 30 (4 or 5); 1-3 stay on the board."""
    assert moves(pos(V, [27], [1], "A", 4)) == ["27-off"]
    assert moves(pos(V, [27], [1], "A", 5)) == ["27-off"]
    assert moves(pos(V, [27], [1], "A", 3)) == ["27-30"]
    assert after(pos(V, [27, 5], [1], "A", 5), "27-off") == fen(V, [5], [1], "A")


def test_bearing_off_from_29_only_with_3_and_30_only_with_2():
    """standard: bearing off: from 29 only with a 3, from 30 only with a 2."""
    for n in (1, 2, 3, 4, 5):
        ms = moves(pos(V, [29], [1], "A", n))
        assert ("29-off" in ms) == (n == 3), n
        ms = moves(pos(V, [30], [1], "A", n))
        assert ("30-off" in ms) == (n == 2), n


def test_no_bearing_off_before_27():
    """standard: bearing off: only from 27 on; 26 with a 5 cannot leave."""
    assert moves(pos(V, [26], [1], "A", 5)) == ["pass"]
    assert moves(pos(V, [26], [1], "A", 4)) == ["26-30"]


def test_winning_first_to_bear_off_five():
    """standard: winning: the first to bear off all five pieces wins."""
    p = pos(V, [27], [1, 2, 3], "A", 4)
    q = p.apply(parse_move("27-off"))
    assert q.outcome() is not None and q.outcome().winner == 0 and q.outcome().score == (5, 2)
    assert q.legal_moves() == [] and not q.is_chance()
    assert pos(V, [27, 3], [1], "A", 4).apply(parse_move("27-off")).outcome() is None


# ------------------------------------------------------------------ decisions
def test_decision_standard_backward():
    """No backward moves: with no forward move the player passes."""
    p = pos(V, [8, 9], [10, 11, 13, 14], "A", 3)  # 11 is protected by 10; 12 is free
    assert moves(p) == ["9-12"]
    p = pos(V, [9], [12, 13], "A", 3)
    assert moves(p) == ["pass"]
    assert after(p, "pass") == fen(V, [9], [12, 13], "B")


def test_decision_standard_water_occupied():
    """From the House of Water to the nearest free square behind 15 when 15 is occupied."""
    p = pos(V, [25, 15], [14, 1], "A", 3)
    assert after(p, "25-28") == fen(V, [13, 15], [1, 14], "B")
    p = pos(V, [25], [15, 14, 13], "A", 3)
    assert after(p, "25-28") == fen(V, [12], [13, 14, 15], "B")


def test_decision_standard_passing():
    """Pieces pass over any pieces, even a row of three."""
    p = pos(V, [1], [2, 3, 4], "A", 4)
    assert moves(p) == ["1-5"]
    p = pos(V, [1], [2, 3, 4, 5], "A", 5)
    assert moves(p) == ["1-6"]


def test_decision_standard_beauty_exact():
    """Pieces may pass the House of Beauty (27) without landing on it."""
    assert moves(pos(V, [25], [1], "A", 4)) == ["25-29"]
    assert moves(pos(V, [26], [1], "A", 3)) == ["26-29"]


def test_decision_standard_late_houses():
    """A piece on 29 may step 1 to a free 30; otherwise 29 and 30 move only off with 3 and 2."""
    assert moves(pos(V, [29], [1], "A", 1)) == ["29-30"]
    assert moves(pos(V, [29, 30], [1], "A", 1)) == ["pass"]
    assert moves(pos(V, [29], [30], "A", 1)) == ["pass"]  # 30 is safe
    assert moves(pos(V, [29], [1], "A", 2)) == ["pass"]
    assert moves(pos(V, [30], [1], "A", 1)) == ["pass"]
    assert moves(pos(V, [29, 30], [1], "A", 3)) == ["29-off"]
    assert moves(pos(V, [29, 30], [1], "A", 2)) == ["30-off"]


def test_decision_standard_extra_after_pass():
    """A 1, 4 or 5 with no move possible gives no extra throw: the turn goes over."""
    for n in (1, 4, 5):
        p = pos(V, [30], [1], "A", n)
        assert moves(p) == ["pass"]
        assert after(p, "pass") == fen(V, [30], [1], "B")


def test_decision_standard_pass():
    """No piece can move: the only move is 'pass', and the turn goes over."""
    p = pos(V, [30], [1], "B", 3)
    assert moves(p) == ["1-4"]
    p = pos(V, [9], [12, 13], "A", 3)
    assert [m.text() for m in p.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMove):
        p.apply(parse_move("9-12"))
    assert after(p, "pass") == fen(V, [9], [12, 13], "B")


def test_decision_standard_numbering():
    """Houses on 27-30 as the site writes them, not 26-30."""
    v = find_variant(V)
    assert sorted(v.houses) == [27, 28, 29, 30]
    # 26 is an ordinary square: a lone piece there can be attacked and no House acts on it
    assert after(pos(V, [23], [26], "A", 3), "23-26") == fen(V, [26], [23], "B")
    assert after(pos(V, [24], [1], "A", 3), "24-27") == fen(V, [27], [1], "B")
