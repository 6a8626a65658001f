"""Scenarios for the Kendall-style summary (001_c5b7b048a63617b4.txt)."""

from fractions import Fraction

import pytest

from senet.engine import IllegalMove, Position, find_variant, parse_move

from .conftest import after, fen, moves, play, pos

V = "kendall"


def test_kendall_throws():
    """kendall: throws: four sticks (1-4 light sides, none = 5); 1, 4 and 5 give another move."""
    p = Position.initial(find_variant(V))
    assert p.chance_outcomes() == (
        (1, Fraction(1, 4)),
        (2, Fraction(3, 8)),
        (3, Fraction(1, 4)),
        (4, Fraction(1, 16)),
        (5, Fraction(1, 16)),
    )
    for n in (1, 2, 3, 4, 5):
        expected_turn = "A" if n in (1, 4, 5) else "B"
        assert after(pos(V, [3], [20], "A", n), f"3-{3 + n}") == fen(
            V, [3 + n], [20], expected_turn
        )


def test_kendall_rule_1_swap():
    """kendall: rule 1: moving onto an opponent's stone swaps the two."""
    p = pos(V, [4], [7], "A", 3)
    assert after(p, "4-7") == fen(V, [7], [4], "B")


def test_kendall_rule_1_attack_on_the_house_of_water():
    """kendall: rule 1 on 27: nothing calls the House of Water safe and rule 5 takes its protection
    away, so a stone risking there is attacked like any other: the stones swap, and the attacker's
    stone, now on 27, faces the Water choice."""
    p = Position.from_fen("kendall ..A.B...../........../.....AB... A 1")
    assert moves(p) == ["26-27", "3-4"]
    q = p.apply(parse_move("26-27"))
    assert p.move_text(parse_move("26-27")) == "26x27"
    assert q.fen() == fen(V, [3, 27], [5, 26], "A", extra=(1, 0), pending="water")
    assert q.decider == 0 and moves(q) == ["return", "risk"]
    # the attacked stone is free again: on B's turn it moves like any other
    r = play(q, "risk", 2, "pass")  # A risks; the extra throw is a 2: A's stones are frozen
    assert r.fen() == fen(V, [3, 27], [5, 26], "B")
    assert moves(r.apply_throw(3)) == ["26-29", "5-8"]


def test_kendall_rule_2_not_onto_own():
    """kendall: rule 2: a stone may not move onto a stone of its own colour."""
    p = pos(V, [4, 7], [20], "A", 3)
    assert moves(p) == ["7-10"]


def test_kendall_rule_3_neighbours_protect():
    """kendall: rule 3: two or more stones of one colour side by side protect each other."""
    assert moves(pos(V, [4, 20], [7, 8], "A", 3)) == ["20-23"]
    assert moves(pos(V, [5, 20], [7, 8, 9], "A", 3)) == [
        "20-23"
    ]  # 8: middle of three, protected too
    assert moves(pos(V, [4, 20], [7, 9], "A", 3)) == [
        "20-23",
        "4-7",
    ]  # 7 and 9 are not neighbours


def test_kendall_rule_4_backward_only_when_no_forward():
    """kendall: rule 4: forward if possible; else one stone back by the same count; else the turn is lost."""
    # forward exists for 3 (to 6): no backward move is offered for 10
    assert moves(pos(V, [3, 10], [13, 14], "A", 3)) == ["3-6"]
    # no forward move at all: each stone may go back
    p = pos(V, [10, 12], [13, 14, 15], "A", 3)
    assert moves(p) == ["10-7", "12-9"]
    assert after(p, "12-9") == fen(V, [9, 10], [13, 14, 15], "B")
    # backward onto a lone opponent swaps
    assert after(pos(V, [10], [7, 13, 14], "A", 3), "10-7") == fen(V, [7], [10, 13, 14], "B")
    # neither: the turn is lost
    p = pos(V, [2], [4, 5], "A", 3)
    assert moves(p) == ["pass"] and after(p, "pass") == fen(V, [2], [4, 5], "B")


def test_kendall_rule_5_no_protection_on_27_to_30():
    """kendall: rule 5: stones on 27-30 do not protect each other, even side by side."""
    # B on 28 and 29 side by side: A from 26 attacks 28 (the stone drowns in the free 27)
    p = pos(V, [26], [28, 29], "A", 2)
    assert moves(p) == ["26-28"]
    # B on 27 and 28 side by side: no protection, so the stone on 27 is attacked (rule 1)
    p = pos(V, [26], [27, 28, 1], "A", 1)
    assert moves(p) == ["26-27"]
    # but 26 is not among 27-30: a stone on 26 and one on 27 protect each other (decision beauty-attack)
    assert moves(pos(V, [24], [26, 27], "A", 2)) == ["24-22"]


def test_kendall_house_of_beauty_cannot_be_passed():
    """kendall: House of Beauty: every stone stops on 26 first; from it a 5 bears the stone off."""
    for n in (2, 3, 4, 5):
        assert moves(pos(V, [25], [1, 2], "A", n)) == ["25-" + str(25 - n)], (
            n
        )  # forward impossible: back
    assert moves(pos(V, [22], [1], "A", 4)) == ["22-26"]
    assert moves(pos(V, [22], [1], "A", 5)) == ["22-17"]
    assert moves(pos(V, [26], [1], "A", 5)) == ["26-off"]
    assert after(pos(V, [26, 3], [1], "A", 5), "26-off") == fen(V, [3], [1], "A")


def test_kendall_house_of_water_choice_and_risk():
    """kendall: House of Water: the owner risks (a 4 bears off, anything else loses the turn) or returns to 15;
    while a stone drowns no other stone may move."""
    p = pos(V, [26, 5], [1], "A", 1)
    q = p.apply(parse_move("26-27"))
    assert q.fen() == fen(V, [5, 27], [1], "A", extra=(1, 0), pending="water")
    assert q.decider == 0 and moves(q) == ["return", "risk"] and not q.is_chance()
    # return: to 15, the House of Second Life; then the throw's extra move
    assert after(q, "return") == fen(V, [5, 15], [1], "A")
    # risk: the stone stays; then only a 4 moves it, and nothing else may move
    r = q.apply(parse_move("risk"))
    assert r.fen() == fen(V, [5, 27], [1], "A")
    for n in (1, 2, 3, 5):
        s = r.apply_throw(n)
        assert moves(s) == ["pass"], n
        assert after(s, "pass") == fen(V, [5, 27], [1], "B")
    s = r.apply_throw(4)
    assert moves(s) == ["27-off"]
    assert after(s, "27-off") == fen(V, [5], [1], "A")  # the 4 gives another move


def test_kendall_house_of_three_judges():
    """kendall: House of Three Judges: 28 only leaves, and only with a 3."""
    for n in (1, 2, 3, 4, 5):
        assert moves(pos(V, [28, 1], [20], "A", n)) == sorted(
            [f"1-{1 + n}"] + (["28-off"] if n == 3 else [])
        ), n


def test_kendall_house_of_two_judges():
    """kendall: House of Two Judges: 29 only leaves, and only with a 2."""
    for n in (1, 2, 3, 4, 5):
        assert moves(pos(V, [29, 1], [20], "A", n)) == sorted(
            [f"1-{1 + n}"] + (["29-off"] if n == 2 else [])
        ), n
    assert moves(pos(V, [29], [1], "A", 1)) == ["pass"]  # not even to a free 30


def test_kendall_house_of_horus():
    """kendall: House of Horus: 30 leaves with any throw."""
    for n in (1, 2, 3, 4, 5):
        assert moves(pos(V, [30], [1], "A", n)) == ["30-off"]


def test_kendall_attacked_in_the_last_houses():
    """kendall: attacked in the last houses: a stone on 28-30 attacked goes at once to 27 and drowns."""
    for sq in (28, 29, 30):
        p = pos(V, [26], [sq, 1], "A", sq - 26)
        q = p.apply(parse_move(f"26-{sq}"))
        extra = (1, 0) if sq == 30 else (0, 0)  # the 4 that took 26 to 30 gives A another move
        assert q.fen() == fen(V, [sq], [27, 1], "A", extra=extra, pending="water")
        assert q.decider == 1 and moves(q) == ["return", "risk"]
        then = "A" if sq == 30 else "B"
        assert after(q, "return") == fen(V, [sq], [1, 15], then)
        assert after(q, "risk") == fen(V, [sq], [1, 27], then)


# ------------------------------------------------------------------ decisions
def test_decision_kendall_pieces():
    """Five a side, alternating on 1-10, the first player on the odd squares."""
    assert Position.initial(find_variant(V)).fen() == "kendall ABABABABAB/........../.......... A -"


def test_decision_kendall_first_player():
    """The first seat (A) starts."""
    p = Position.initial(find_variant(V))
    assert p.turn == 0 and p.apply_throw(2).decider == 0


def test_decision_kendall_water_choice():
    """The choice is made at once by the owner, even out of turn; a risk cannot later become a return."""
    p = pos(V, [26], [29, 1], "A", 3)
    q = p.apply(parse_move("26-29"))
    assert q.turn == 0 and q.decider == 1  # B decides on A's turn
    with pytest.raises(IllegalMove):
        q.apply_throw(2)  # no throw before the choice
    r = q.apply(parse_move("risk"))
    # B's turn: with a 1 the risked stone cannot return, and no other stone may move
    s = r.apply_throw(1)
    assert s.decider == 1 and moves(s) == ["pass"]
    with pytest.raises(IllegalMove):
        s.apply(parse_move("return"))


def test_decision_kendall_return_occupied():
    """A returned stone goes to the nearest free square behind 15."""
    p = pos(V, [26, 15, 14], [1], "A", 1)
    q = play(p, "26-27", "return")
    assert q.fen() == fen(V, [13, 14, 15], [1], "A")
    p = pos(V, [26], [15, 14, 13, 12], "A", 1)
    assert play(p, "26-27", "return").fen() == fen(V, [11], [12, 13, 14, 15], "A")


def test_decision_kendall_beauty_attack():
    """A stone on 26 can be attacked (swap); only a neighbour on 25 protects it."""
    assert after(pos(V, [23], [26], "A", 3), "23-26") == fen(V, [26], [23], "B")
    assert moves(pos(V, [23, 1], [25, 26], "A", 3)) == ["1-4"]
    # a stone on 27 protects one on 26 (rule 3; rule 5 speaks only of stones on 27-30)
    p = Position.from_fen("kendall ....B...../........../....ABB... A 1")
    assert moves(p) == ["25-24"]  # not 25x26: forward impossible, so back (rule 4)
    assert after(pos(V, [23], [26, 28], "A", 3), "23-26") == fen(V, [26], [23, 28], "B")


def test_decision_kendall_attack_water_occupied():
    """An attack on 28-30 while 27 is occupied: the stones swap; the attacked stone goes to 26."""
    p = pos(V, [26], [27, 29, 1], "A", 3)
    assert after(p, "26-29") == fen(V, [29], [26, 27, 1], "B")
    p = pos(V, [26], [27, 30, 1], "A", 4)
    assert after(p, "26-30") == fen(V, [30], [26, 27, 1], "A")


def test_decision_kendall_extra_bearing_off():
    """Bearing off from 26 with a 5, or from 30 with 1, 4 or 5, still gives another move."""
    assert after(pos(V, [26, 3], [1], "A", 5), "26-off") == fen(V, [3], [1], "A")
    for n in (1, 4, 5):
        assert after(pos(V, [30, 3], [1], "A", n), "30-off") == fen(V, [3], [1], "A")
    for n in (2, 3):
        assert after(pos(V, [30, 3], [1], "A", n), "30-off") == fen(V, [3], [1], "B")


def test_decision_kendall_turn_lost():
    """A lost turn (no move, or a failed risk) ends the turn, even with a 1, 4 or 5."""
    for n in (1, 4, 5):
        p = pos(V, [1], [1 + n, 2 + n], "A", n)  # the target is protected, nothing behind square 1
        assert moves(p) == ["pass"], n
        assert after(p, "pass").endswith(" B -")
    p = pos(V, [27, 3], [1], "A", 5)
    assert moves(p) == ["pass"] and after(p, "pass") == fen(V, [3, 27], [1], "B")


def test_decision_kendall_passing():
    """Stones pass over other stones, pairs included."""
    assert moves(pos(V, [1], [2, 3, 4], "A", 4)) == ["1-5"]


def test_decision_kendall_drowning_freeze():
    """kendall: House of Water: the freeze binds the drowning stone's owner only; the opponent plays on."""
    # A risks on 27; on B's turn B moves freely (even next to the drowning stone)
    p = pos(V, [27, 5], [1, 20], "B", 3)
    assert moves(p) == ["1-4", "20-23"]
    # on A's turn nothing but the drowning stone may move, and only with a 4
    p = pos(V, [27, 5], [1, 20], "A", 3)
    assert moves(p) == ["pass"]
    assert moves(pos(V, [27, 5], [1, 20], "A", 4)) == ["27-off"]
    # the reason: «если конечно это поле не занято другим камнем» speaks of an attack on 28-30 while
    # a stone stands on 27, which only the drowning stone's opponent can make
    p = pos(V, [5, 27, 29], [1, 26], "B", 3)
    assert moves(p) == ["1-4", "26-29"]
    assert after(p, "26-29") == fen(V, [5, 26, 27], [1, 29], "A")  # 27 taken: a plain swap
