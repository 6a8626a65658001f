"""Piccione's rules for «King Tut's Game» as Ludii summarises them (ruleset 938): scenario tests
per clause and one test per decision.  Positions are in the engine's notation; ``hand=`` counts
the pieces waiting to enter, ``direction=`` the turn's direction once a move is made,
``divided=yes`` marks the points left of a throw already divided, ``entered=yes`` a piece just
entered on 1 that the throw must move first."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine import IllegalMove, Position, find_variant, parse_move
from senet.engine.rulebook import rulebook

from .conftest import fen, moves, play, pos, random_game

V = "piccione"


def test_pieces_start_in_the_hand():
    """piccione: pieces: five a side, none on the board at the start."""
    start = find_variant(V).start_position()
    assert start.fen() == "piccione ........../........../.......... A - hand=5/5"
    assert start.hand(0) == start.hand(1) == 5 and start.pieces(0) == start.pieces(1) == ()


def test_decision_piccione_start():
    """Every piece in the hand, seat A (white) throws first."""
    start = find_variant(V).start_position()
    assert start.is_chance() and start.turn == 0
    assert find_variant(V).seat_name(0) == "white"
    assert moves(start.apply_throw(2)) == ["pass"]  # nothing on the board, no 1: nothing to do


def test_sticks_and_throws():
    """piccione: sticks, piccione: throws: the flat sides up, none up = 5."""
    outcomes = dict(find_variant(V).start_position().chance_outcomes())
    assert outcomes == {
        1: Fraction(4, 16),
        2: Fraction(6, 16),
        3: Fraction(4, 16),
        4: Fraction(1, 16),
        5: Fraction(1, 16),
    }


def test_five_grants_another_throw():
    """piccione: five: after a 5 the same player throws again; other throws pass the turn."""
    p = pos(V, [3], [20], "A", hand=(4, 4)).apply_throw(5)
    assert p.extra(0) == 1  # owed at once, taken once the 5 is used
    assert play(p, "3-8").fen() == fen(V, [8], [20], "A", hand=(4, 4), direction="forward")
    q = play(pos(V, [3], [20], "A", hand=(4, 4)), 3, "3-6")
    assert q.fen() == fen(V, [6], [20], "B", hand=(4, 4))


def test_decision_piccione_extra_five():
    """A 5 that no piece can use still gives its throw; a 5 divided is used up first."""
    p = play(pos(V, [], [20], "A", hand=(5, 4)), 5)
    assert moves(p) == ["pass"]
    q = play(p, "pass")
    assert q.is_chance() and q.turn == 0
    r = play(pos(V, [3], [20], "A", hand=(4, 4)), 5, "3-5")
    assert not r.is_chance() and r.throw == 3 and r.extra(0) == 1
    assert play(r, "5-8").fen() == fen(V, [8], [20], "A", hand=(4, 4), direction="forward")


def test_entering():
    """piccione: entering: a throw of 1 enters a piece from the hand on square 1."""
    p = pos(V, [], [20], "A", 1, hand=(5, 4))
    assert moves(p) == ["enter"]
    q = play(p, "enter")
    assert q.fen() == fen(V, [1], [20], "A", hand=(4, 4), direction="forward", entered=True)
    assert q.is_chance() and q.turn == 0


def test_entered_piece_moves_with_the_granted_throw():
    """piccione: entered piece: the granted throw must move the entered piece."""
    p = pos(V, [1, 10], [20], "A", 3, hand=(3, 4), direction="forward", entered=True)
    assert moves(p) == ["1-2", "1-3", "1-4"]
    with pytest.raises(IllegalMove):
        p.apply(parse_move("10-13"))


def test_decision_piccione_entered_first():
    """The entered piece makes the first move of its throw, by any part; the rest is free."""
    p = pos(V, [1, 10], [20], "A", 3, hand=(3, 4), direction="forward", entered=True)
    q = play(p, "1-2")
    assert q.fen() == fen(V, [2, 10], [20], "A", 2, hand=(3, 4), direction="forward", divided=True)
    assert moves(q) == ["10-11", "10-12", "2-3", "2-4"]


def test_decision_piccione_entering_throw():
    """The throw for the entered piece comes at once; extra throws owed wait until it is used."""
    p = pos(V, [5], [20], "A", 1, extra=(1, 0), hand=(4, 4))
    q = play(p, "enter")
    assert q.is_chance() and q.extra(0) == 1 and q.entered
    r = play(q, 2)
    assert moves(r) == ["1-2", "1-3"]
    s = play(r, "1-3")
    assert s.fen() == fen(V, [3, 5], [20], "A", hand=(3, 4), direction="forward")
    assert s.is_chance() and s.extra(0) == 0


def test_dividing():
    """piccione: dividing: a throw is divided among the pieces as the player sees fit."""
    p = pos(V, [3, 10], [20], "A", 4, hand=(3, 4))
    assert moves(p) == sorted(["3-4", "3-5", "3-6", "3-7", "10-11", "10-12", "10-13", "10-14"])
    q = play(p, "3-5")
    assert q.fen() == fen(V, [5, 10], [20], "A", 2, hand=(3, 4), direction="forward", divided=True)
    assert play(q, "10-12").fen() == fen(V, [5, 12], [20], "B", hand=(3, 4))


def test_decision_piccione_use_all():
    """While points are left and a piece can use them the player goes on: no pass."""
    q = play(pos(V, [3, 10], [20], "A", 4, hand=(3, 4)), "3-5")
    assert "pass" not in moves(q) and q.decider == 0


def test_dividing_and_entering():
    """piccione: dividing and entering: the rest of a divided throw never enters a piece."""
    p = play(pos(V, [3], [20], "A", 2, hand=(4, 4)), "3-4")
    assert p.throw == 1 and p.divided
    assert moves(p) == ["4-5"]
    whole = pos(V, [4], [20], "A", 1, hand=(4, 4))
    assert moves(whole) == ["4-5", "enter"]


def test_one_piece_per_square():
    """piccione: one per square: no piece lands on another, of either colour."""
    assert moves(pos(V, [3, 5], [20], "A", 2, hand=(3, 4))) == ["3-4", "5-6", "5-7"]
    assert moves(pos(V, [3], [5], "A", 2, hand=(4, 4))) == ["3-4"]


def test_decision_piccione_no_capture():
    """No attack: the opponent's square is refused like one's own, and explained so."""
    from senet.engine.explain import why_not

    p = pos(V, [3], [4, 5], "A", 2, hand=(4, 3))
    assert moves(p) == ["3-1", "3-2"]  # nothing forward: back
    assert why_not(pos(V, [3, 20], [4, 5], "A", 2, hand=(3, 3)), 3).kind == "occupied"


def test_backward():
    """piccione: backward: a throw that moves no piece forward moves one back."""
    p = pos(V, [10], [11, 12], "A", 2, hand=(4, 3))
    assert moves(p) == ["10-8", "10-9"]
    assert play(p, "10-8").fen() == fen(V, [8], [11, 12], "B", hand=(4, 3))


def test_decision_piccione_forward_first():
    """Forward while any part of the throw moves a piece forward: a 1 of 3 is forward."""
    p = pos(V, [10], [12, 13], "A", 3, hand=(4, 3))
    assert moves(p) == ["10-11"]


def test_decision_piccione_rest_lost():
    """Points that no piece can use in the turn's direction are lost (a pass), and extra
    throws already earned are still taken."""
    p = play(pos(V, [10], [12, 13], "A", 3, hand=(4, 3)), "10-11")
    assert p.throw == 2 and moves(p) == ["pass"]  # 11-9 would go back
    assert play(p, "pass").fen() == fen(V, [11], [12, 13], "B", hand=(4, 3))
    q = pos(V, [13], [16, 17], "A", 3, hand=(4, 3))
    r = play(q, "13-15", "pass")
    assert r.fen() == fen(V, [15], [16, 17], "A", hand=(4, 3), direction="forward")


def test_one_direction():
    """piccione: one direction: once a piece went back, the turn's other moves go back too."""
    p = pos(V, [10], [11, 12, 13], "A", 3, hand=(4, 2))
    q = play(p, "10-9")
    assert q.fen() == fen(
        V, [9], [11, 12, 13], "A", 2, hand=(4, 2), direction="backward", divided=True
    )
    assert moves(q) == ["9-7", "9-8"]  # 9-10 is free, but the turn goes back


def test_decision_piccione_direction():
    """The turn's direction holds through its extra throws and ends with it; entering counts
    as forward."""
    p = pos(V, [9, 20], [21, 22], "A", 2, hand=(3, 3), direction="backward")
    assert moves(p) == ["20-18", "20-19", "9-7", "9-8"]
    assert play(p, "9-7").fen() == fen(V, [7, 20], [21, 22], "B", hand=(3, 3))
    assert moves(pos(V, [5], [20], "A", 1, hand=(4, 4), direction="backward")) == ["5-4"]


def test_stuck_on_square_one():
    """piccione: stuck on 1: the entered piece that cannot move goes back to the hand."""
    p = pos(V, [1, 2, 3, 4], [5], "A", 4, hand=(1, 4), direction="forward", entered=True)
    assert moves(p) == ["pass"]
    assert play(p, "pass").fen() == fen(V, [2, 3, 4], [5], "B", hand=(2, 4))


def test_decision_piccione_stuck_on_1():
    """Only the entered piece with its throw is taken off; a piece on 1 at other times waits."""
    p = pos(V, [1, 10], [2, 3], "A", 2, hand=(3, 3))
    assert moves(p) == ["10-11", "10-12"]
    assert play(p, "10-12").owner(1) == 0


def test_no_move_ends_the_turn():
    """piccione: no move: with no move forward or back the turn ends."""
    p = pos(V, [], [20], "A", 3, hand=(5, 4))
    assert moves(p) == ["pass"]
    assert play(p, "pass").fen() == fen(V, [], [20], "B", hand=(5, 4))


def test_houses_grant_a_deferred_throw():
    """piccione: houses, piccione: deferred throw: 15 and 26 earn a throw, taken once the
    divided throw is used up."""
    p = pos(V, [13, 24], [20], "A", 4, hand=(3, 4))
    q = play(p, "13-15")
    assert q.fen() == fen(
        V, [15, 24], [20], "A", 2, extra=(1, 0), hand=(3, 4), direction="forward", divided=True
    )
    r = play(q, "24-26")
    assert r.is_chance() and r.turn == 0


def test_decision_piccione_houses_count():
    """Each landing earns its own throw, going back too."""
    r = play(pos(V, [13, 24], [20], "A", 4, hand=(3, 4)), "13-15", "24-26")
    assert r.fen() == fen(V, [15, 26], [20], "A", extra=(1, 0), hand=(3, 4), direction="forward")
    back = pos(V, [16], [17], "A", 1, hand=(0, 4))
    assert moves(back) == ["16-15"]
    assert play(back, "16-15").fen() == fen(V, [15], [17], "A", hand=(0, 4), direction="backward")


def test_house_of_water():
    """piccione: house of water: a piece landing on 27 goes back to the hand."""
    p = pos(V, [25], [20], "A", 2, hand=(3, 4))
    assert moves(p) == ["25-26", "25-27"]
    assert play(p, "25-27").fen() == fen(V, [], [20], "B", hand=(4, 4))


def test_decision_piccione_passing():
    """Pieces pass over others, and over 27, freely."""
    assert "10-13" in moves(pos(V, [10], [11, 12], "A", 3, hand=(4, 3)))
    assert "25-28" in moves(pos(V, [25], [20], "A", 3, hand=(4, 4)))


def test_exact_bearing_off():
    """piccione: exact bearing off: 30 with 1, 29 with 2, 28 with 3, 26 with 5."""
    assert moves(pos(V, [29], [20], "A", 2, hand=(0, 4))) == ["29-30", "29-off"]
    assert moves(pos(V, [26], [20], "A", 5, hand=(0, 4))) == sorted(
        ["26-27", "26-28", "26-29", "26-30", "26-off"]
    )
    assert "28-off" not in moves(pos(V, [28], [20], "A", 2, hand=(0, 4)))


def test_decision_piccione_bear_off_part():
    """Part of a divided throw bears a piece off when it is exactly the points needed."""
    p = pos(V, [10, 29], [20], "A", 4, hand=(2, 4))
    assert "29-off" in moves(p)
    q = play(p, "29-off")
    assert q.fen() == fen(V, [10], [20], "A", 2, hand=(2, 4), direction="forward", divided=True)


def test_last_houses():
    """piccione: last houses: no piece moves back from 28, 29 or 30."""
    p = pos(V, [28], [29, 30], "A", 2, hand=(0, 3))
    assert moves(p) == ["pass"]
    assert moves(pos(V, [26], [27 + 1, 29, 30], "A", 3, hand=(0, 2))) == ["26-27"]


def test_bearing_off_optional():
    """piccione: bearing off optional: not required while another forward move exists."""
    assert moves(pos(V, [10, 30], [20], "A", 1, hand=(0, 4))) == ["10-11", "30-off"]
    assert moves(pos(V, [30], [29], "A", 1, hand=(0, 4))) == ["30-off"]


def test_winning():
    """piccione: winning: the first to bear off all five pieces wins."""
    p = play(pos(V, [30], [20], "A", 1, hand=(0, 4)), "30-off")
    outcome = p.outcome()
    assert outcome is not None and outcome.winner == 0


def test_decision_piccione_source():
    """The rules cite Ludii's ruleset 938 and its reference, not a text we could not read."""
    v = find_variant(V)
    assert "938" in v.source and "Piccione 1977" in v.source
    book = rulebook(V)
    assert len(book.clauses) == 20  # one clause per sentence of the summary
    assert book.ludii and all(d.ludii_en and d.ours_en for d in book.ludii)


def test_decision_piccione_enter_optional():
    """A whole 1 may enter a piece or move one on the board, but may not be declined: with
    entering the only move there is no pass (piccione: no move: the turn ends only when the
    player cannot move)."""
    assert moves(pos(V, [5], [20], "A", 1, hand=(4, 4))) == ["5-6", "enter"]
    assert moves(pos(V, [], [20], "A", 1, hand=(5, 4))) == ["enter"]
    assert moves(pos(V, [30], [20], "A", 1, hand=(4, 4))) == ["30-off", "enter"]


def test_decision_piccione_enter_occupied():
    """No piece enters while square 1 is taken, by either colour."""
    assert moves(pos(V, [1], [20], "A", 1, hand=(4, 4))) == ["1-2"]
    assert moves(pos(V, [5], [1], "A", 1, hand=(4, 4))) == ["5-6"]


def test_random_games_finish_and_keep_the_pieces():
    """Every state of random games is valid: five pieces a side on the board, in the hand or
    off, and every game ends."""
    import random

    rng = random.Random("piccione games")
    for _ in range(20):
        for p, _action in random_game(V, rng):
            for seat in (0, 1):
                assert len(p.pieces(seat)) + p.hand(seat) + p.off(seat) == 5
            assert p.owner(27) is None


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 300))
def test_notation_round_trip_of_piccione_positions(seed, cut):
    """Every position of a game reads back from its notation equal, hand, direction, divided
    and entered included."""
    import random

    rng = random.Random(seed)
    p = None
    for i, (p, _action) in enumerate(random_game(V, rng)):  # noqa: B007
        if i >= cut:
            break
    assert p is not None
    q = Position.from_fen(p.fen())
    assert q == p and q.state == p.state


@pytest.mark.parametrize(
    "text,at",
    [
        ("piccione ........../........../.......... A - hand=5/6", "........"),  # 6 pieces
        ("piccione ........../........../.......... A 2 hand=5/5 divided=yes", "divided"),
        ("piccione ........../........../.......... A - hand=5/5 entered=yes", "........"),
        ("piccione ........../........../.......... A - hand=5/5 direction=up", "up"),
        ("standard ABABA...../........../.......... A - hand=1/0", "hand"),
    ],
)
def test_malformed_piccione_fields_are_refused(text, at):
    """Bad hand, direction, divided or entered fields are refused, naming the column at fault."""
    from senet.engine.errors import NotationError

    with pytest.raises(NotationError) as exc:
        Position.from_fen(text)
    assert exc.value.column == text.index(at) + 1, str(exc.value)
