"""Scenarios for Jéquier's reconstruction as Ludii summarises it (ruleset no. 939).

Each clause test names its clause (``jequier: capture``); each decision of the rulebook is pinned
by ``test_decision_jequier_<key>``.  Seat A plays black (it threw the deciding 1), seat B white.
"""

from fractions import Fraction

import pytest

from senet.engine import STICKS6, NotationError, Position, find_variant, parse_move
from senet.service.fairness.throws import pattern_value

from .conftest import after, fen, moves, play, pos

V = "jequier"


def test_jequier_pieces():
    """jequier: pieces: five a side on the first row, alternating white then black."""
    v = find_variant(V)
    assert v.pieces == 5 and v.seat_name(0) == "black" and v.seat_name(1) == "white"
    # white on 1, 3, 5, 7, 9; black on 2, 4, 6, 8 and its front piece already on 11 (first throw)
    assert Position.initial(v).fen() == "jequier BABABABAB./A........./.......... A -"


def test_jequier_throws():
    """jequier: throws: the count of plain sides up, 1 to 4; all red sides up is 6 (never 5)."""
    p = Position.initial(find_variant(V))
    assert p.chance_outcomes() == (
        (1, Fraction(1, 4)),
        (2, Fraction(3, 8)),
        (3, Fraction(1, 4)),
        (4, Fraction(1, 16)),
        (6, Fraction(1, 16)),
    )
    assert STICKS6.value_of(0b0000) == 6 and STICKS6.value_of(0b0111) == 3
    assert pattern_value(0, STICKS6) == 6  # the site's fair throws read the same
    with pytest.raises(NotationError):
        Position.from_fen("jequier BABABABAB./A........./.......... A 5")


def test_jequier_extra_throws():
    """jequier: extra throws: 1, 4 and 6 give another throw, played at once."""
    for n in (1, 2, 3, 4, 6):
        turn = "A" if n in (1, 4, 6) else "B"
        assert after(pos(V, [12], [1], "A", n), f"12-{12 + n}") == fen(V, [12 + n], [1], turn), n


def test_jequier_first_throw():
    """jequier: first throw: black threw the 1, moved its front piece 10 to 11 and throws again."""
    p = Position.initial(find_variant(V)).apply_throw(2)
    assert p.decider == 0 and moves(p) == ["11-13"]  # 2, 4, 6, 8 wait behind white pieces
    q = play(p, "11-13", 1)
    assert moves(q) == ["9-10"]  # white's 9 is free now that 10 is empty; 1-7 wait


def test_jequier_starting_squares():
    """jequier: starting squares: a piece on its starting square waits while the square in front
    of it is occupied."""
    assert moves(pos(V, [2, 12], [3, 20], "A", 1)) == ["12-13"]
    assert moves(pos(V, [2, 12], [5, 20], "A", 1)) == ["12-13", "2-3"]
    # a piece on the other side's starting square does not wait (and may send 4 back)
    assert moves(pos(V, [3, 12], [4, 20], "A", 1)) == ["12-13", "3-4"]


def test_jequier_three_in_a_row():
    """jequier: three in a row: no move passes three opposing pieces in a row."""
    assert moves(pos(V, [12], [14, 15, 16, 1], "A", 6)) == ["12-6"]  # forward barred: back
    assert moves(pos(V, [12], [14, 15, 1], "A", 6)) == ["12-18"]  # two may be passed
    assert "12-18" in moves(pos(V, [12, 14, 15, 16], [1], "A", 6))  # own pieces never block


def test_jequier_three_in_a_row_bearing_off():
    """jequier: three in a row: bearing off passes the squares to the end of the board, so
    three opponents in a row there bar it as they bar a move on the board."""
    p = Position.from_fen("jequier B........./.....B..../AA.AA..BBB A 6")
    assert moves(p) == ["21-27", "24-18", "25-19"]  # 25 cannot pass 28-30, so it goes back
    assert moves(pos(V, [25, 21], [28, 29, 1], "A", 6)) == ["21-27", "25-off"]  # two may be passed
    assert moves(pos(V, [30, 21], [26, 28, 29], "A", 6)) == ["21-27", "30-off"]  # all behind it


def test_jequier_capture():
    """jequier: capture: the opponent's piece goes back to the free square furthest from the end;
    two or more in a row are protected."""
    p = pos(V, [12], [15, 1, 2], "A", 3)
    assert after(p, "12-15") == fen(V, [15], [1, 2, 3], "B")
    assert p.move_text(parse_move("12-15")) == "12x15"
    assert moves(pos(V, [12], [15, 16, 1], "A", 3)) == ["12-9"]  # a pair is protected


def test_jequier_safe_squares():
    """jequier: safe squares: no piece on 20, 26, 28 or 29 is sent back."""
    for sq in (20, 26, 28, 29):
        n = 3 if sq == 29 else 2  # (nothing stands on 27)
        assert moves(pos(V, [sq - n], [sq, 1], "A", n)) == [f"{sq - n}-{sq - 2 * n}"], sq
    assert moves(pos(V, [19], [21, 1], "A", 2)) == ["19-21"]


def test_jequier_backward():
    """jequier: backward: each piece that cannot go forward goes back, to an open space only;
    with no move at all the turn ends."""
    assert moves(pos(V, [12, 20], [14, 15, 16, 1], "A", 6)) == ["12-6", "20-26"]
    p = pos(V, [12], [6, 14, 15, 16], "A", 6)  # back onto 6 would land on a piece
    assert moves(p) == ["pass"]
    assert after(pos(V, [12], [6, 14, 15, 16], "A", 3), "12-9") == fen(V, [9], [6, 14, 15, 16], "B")


def test_jequier_water():
    """jequier: water: a piece landing on 27 goes back to the free square furthest from the end."""
    assert after(pos(V, [25], [1, 2], "A", 2), "25-27") == fen(V, [3], [1, 2], "B")
    assert after(pos(V, [25], [2], "A", 2), "25-27") == fen(V, [1], [2], "B")


def test_jequier_bearing_off():
    """jequier: bearing off: only with every piece on the last row, then by any throw past 30."""
    assert moves(pos(V, [28, 12], [1], "A", 3)) == ["12-15", "28-25"]
    assert moves(pos(V, [28, 22], [1], "A", 3)) == ["22-25", "28-off"]
    assert moves(pos(V, [25, 30], [1], "A", 6)) == ["25-off", "30-off"]


def test_jequier_winning():
    """jequier: winning: the first to bear off every piece wins, scoring 3, 2, 1 for each
    opposing piece left on the first, middle, last row."""
    q = pos(V, [30], [1, 12, 22], "A", 1).apply(parse_move("30-off"))
    outcome = q.outcome()
    assert outcome.winner == 0 and outcome.points == 3 + 2 + 1 and "6 points" in outcome.reason


# ------------------------------------------------------------------ decisions
def test_decision_jequier_text():
    """The rules follow Ludii's summary, which names its reference."""
    v = find_variant(V)
    assert "Ludii" in v.source and "939" in v.source and "Jéquier 1930" in v.source


def test_decision_jequier_opening():
    """The game starts after black's opening 1: its front piece on 11, black to throw."""
    p = Position.initial(find_variant(V))
    assert p.is_chance() and p.turn == 0 and p.owner(11) == 0 and p.owner(10) is None


def test_decision_jequier_waiting():
    """A piece sent back onto a starting square waits like one that never moved."""
    q = play(pos(V, [2, 10], [12, 20], "A", 2), "10-12")
    assert q.fen() == fen(V, [2, 12], [1, 20], "B")  # white's 12 sent back to 1
    assert moves(q.apply_throw(3)) == ["20-23"]  # 1 waits: 2 is occupied


def test_decision_jequier_safe_20():
    """20 is safe, as the text says; 15 is not."""
    assert moves(pos(V, [18], [20, 1], "A", 2)) == ["18-16"]
    assert moves(pos(V, [13], [15, 1], "A", 2)) == ["13-15"]


def test_decision_jequier_backward():
    """Per piece, even when another piece can go forward; never onto a piece going back."""
    assert moves(pos(V, [12, 20], [14, 15, 16, 1], "A", 6)) == ["12-6", "20-26"]
    assert moves(pos(V, [12, 20], [6, 14, 15, 16], "A", 6)) == ["20-26"]


def test_decision_jequier_send_back():
    """After the move: the capturer's old square counts as free."""
    assert after(pos(V, [1], [4, 20], "A", 3), "1-4") == fen(V, [4], [1, 20], "B")


def test_decision_jequier_three_in_a_row():
    """Three opponents strictly between start and end block, forward or back."""
    assert moves(pos(V, [20], [26, 15, 16, 17], "A", 6)) == ["pass"]  # 26 safe; back over three
    assert moves(pos(V, [20], [26, 15, 16, 1], "A", 6)) == ["20-14"]  # two: back is open
    assert moves(pos(V, [10], [12, 13, 14, 1], "A", 6)) == ["10-4"]  # 16 lies past the three


def test_decision_jequier_extra_after_pass():
    """A 1, 4 or 6 that no piece can use still gives another throw."""
    for n, turn in ((6, "A"), (4, "A"), (2, "B")):
        p = pos(V, [12], [12 - n, 12 + n - 1, 12 + n, 12 + n + 1], "A", n)
        assert moves(p) == ["pass"], n
        assert after(p, "pass").split(" ")[2] == turn, n


def test_decision_jequier_points():
    """The winner is the first off; the points only measure the win."""
    q = pos(V, [30], [21, 22, 23, 24, 25], "A", 6).apply(parse_move("30-off"))
    assert q.outcome().winner == 0 and q.outcome().points == 5
