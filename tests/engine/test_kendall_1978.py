"""Kendall's published rules as Ludii summarises them (ruleset 922): scenario tests per clause
and one test per decision.  Positions are in the engine's notation; ``bank=`` lists the other
throws of the turn not yet used, ``returned=`` the pieces back from the House of Water."""

from fractions import Fraction

import pytest

from senet.engine import IllegalMove, Position, find_variant, parse_move
from senet.engine.rulebook import rulebook

from .conftest import after, fen, moves, play, pos

V = "kendall-1978"


def test_pieces_and_first_throw():
    """kendall-1978: pieces, kendall-1978: first throw: seven a side alternating on 1-14; the
    player who threw the first 1 (A, white) has moved his front piece 14 to 15 and throws again."""
    start = find_variant(V).start_position()
    assert start.fen() == fen(V, [2, 4, 6, 8, 10, 12, 15], [1, 3, 5, 7, 9, 11, 13], "A")
    assert start.is_chance() and start.turn == 0
    assert find_variant(V).seat_name(0) == "white"


def test_decision_kendall_1978_first_throw():
    """The game starts after the opening 1: white's piece is on 15, white throws."""
    start = find_variant(V).start_position()
    assert start.owner(15) == 0 and start.owner(14) is None
    assert start.decider is None  # chance: white's next throw


def test_throws():
    """kendall-1978: throws: four sticks, the count of blank sides up, none up = 5."""
    outcomes = dict(find_variant(V).start_position().chance_outcomes())
    assert outcomes == {
        1: Fraction(4, 16),
        2: Fraction(6, 16),
        3: Fraction(4, 16),
        4: Fraction(1, 16),
        5: Fraction(1, 16),
    }


def test_extra_throws_are_all_made_before_moving():
    """kendall-1978: extra throws, kendall-1978: throws first: a 1, 4 or 5 throws again at once;
    the moves start after the 2 or 3 that ends the run, with every throw known."""
    p = find_variant(V).start_position()
    p = play(p, 4)
    assert p.is_chance() and p.banked == (4,) and p.throw == 0
    p = play(p, 1, 5)
    assert p.is_chance() and p.banked == (1, 4, 5)
    p = play(p, 2)
    assert not p.is_chance() and p.decider == 0
    assert p.throws == (1, 2, 4, 5)
    assert p.fen().endswith(" A 1 bank=2,4,5")


def test_decision_kendall_1978_order():
    """Any order, one throw a move; the turn goes on while throws are left."""
    p = pos(V, [2, 20], [1], "A", 1, bank=[3])
    assert moves(p) == ["2-3", "2-5", "20-21", "20-23"]
    q = play(p, "20-23")  # the 3 first
    assert q.fen() == fen(V, [2, 23], [1], "A", 1)
    r = play(q, "23-24")
    assert r.fen() == fen(V, [2, 24], [1], "B")  # no throw left: B throws
    assert r.is_chance() and r.turn == 1


def test_the_throw_a_move_plays_among_the_turns_throws():
    """kendall-1978: throws first, any order: each move plays one of the turn's throws, by its
    length, or (bearing off 30, where any throw serves) the throw it names; a pass plays none
    of them and names the throw in play, as every other variant's moves do."""
    p = pos(V, [2, 20], [1], "A", 1, bank=[3])
    assert [p.throw_used(parse_move(m)) for m in moves(p)] == [1, 3, 1, 3]
    q = pos(V, [30], [1], "A", 1, bank=[3])
    assert [q.throw_used(parse_move(m)) for m in moves(q)] == [1, 3, 1]
    single = pos("standard", [2], [1], "A", 3)
    assert single.throw_used(parse_move("2-5")) == 3


def test_a_move_uses_exactly_one_throw():
    """kendall-1978: throws first: «a piece must move the full value of one throw at a time» —
    no move of the sum, and a throw not in the bank is refused."""
    p = pos(V, [2], [1], "A", 1, bank=[3])
    assert "2-6" not in moves(p)
    with pytest.raises(IllegalMove):
        p.apply(parse_move("2-4"))


def test_swap():
    """kendall-1978: swap: the opponent goes to the square the mover came from."""
    assert after(pos(V, [10], [12], "A", 2), "10-12") == fen(V, [12], [10], "B")


def test_protection():
    """kendall-1978: protection: two in consecutive spaces cannot be sent back."""
    assert moves(pos(V, [10], [12, 13], "A", 2)) == ["10-8"]  # back: no forward move
    assert moves(pos(V, [10], [12, 14], "A", 2)) == ["10-12"]


def test_backward_per_throw():
    """kendall-1978: backward: a throw that moves no piece forward moves one back (swapping
    with an opponent there); the turn's other throws still go forward."""
    p = pos(V, [25], [22], "A", 1, bank=[3])
    assert moves(p) == ["25-22", "25-26"]  # 3: 28 lies past 26, so back; 1: forward
    assert after(p, "25-22") == fen(V, [22], [25], "A", 1)


def test_decision_kendall_1978_backward_when():
    """A throw is a backward throw when the player uses it: on the board as it stands then."""
    p = pos(V, [21, 24], [1], "A", 2, bank=[3])
    assert moves(p) == ["21-18", "21-23", "24-26"]  # the 3 has no forward move now
    q = play(p, "24-26")
    assert moves(q) == ["21-24", "26-29"]  # after the 2, the 3 goes forward


def test_no_move():
    """kendall-1978: no move: «If a player cannot move, the turn ends.»"""
    blocked = pos(V, [1, 2], [3, 4, 5, 6], "A", 2)
    assert moves(blocked) == ["pass"]
    assert after(blocked, "pass") == fen(V, [1, 2], [3, 4, 5, 6], "B")


def test_decision_kendall_1978_unusable():
    """When no throw left can move any piece, all are lost at once."""
    p = pos(V, [1, 2], [3, 4, 5, 6, 7], "A", 2, bank=[5])
    assert moves(p) == ["pass"]
    assert after(p, "pass") == fen(V, [1, 2], [3, 4, 5, 6, 7], "B")
    q = pos(V, [20], [1], "A", 2, bank=[5])
    assert play(q, "20-22").fen() == fen(V, [22], [1], "A", 5)
    assert moves(play(q, "20-22")) == ["22-17"]  # 27 lies past 26: back


def test_house_of_beauty():
    """kendall-1978: house of beauty: 26 cannot be passed; from it a 5 bears off, 4, 3, 2, 1 go
    to 30, 29, 28, 27."""
    assert moves(pos(V, [24], [1], "A", 3)) == ["24-21"]
    assert moves(pos(V, [24], [1], "A", 2)) == ["24-26"]
    assert moves(pos(V, [26], [1], "A", 5)) == ["26-off", "pass"]
    assert moves(pos(V, [26], [1], "A", 1, bank=[2, 3, 4])) == [
        "26-27",
        "26-28",
        "26-29",
        "26-30",
    ]


def test_last_houses():
    """kendall-1978: last houses: 28 leaves only with a 3, 29 only with a 2, 30 with any throw
    (the move names it); none of them moves back."""
    assert moves(pos(V, [28], [1], "A", 3)) == ["28-off", "pass"]
    assert moves(pos(V, [28], [1], "A", 2)) == ["pass"]
    assert moves(pos(V, [29], [1], "A", 2)) == ["29-off", "pass"]
    assert moves(pos(V, [30], [1], "A", 1, bank=[3])) == ["30-off/1", "30-off/3", "pass"]
    p = pos(V, [30], [1, 3], "A", 1, bank=[3])
    assert after(p, "30-off/3") == fen(V, [], [1, 3], "A", 1)


def test_decision_kendall_1978_last_back():
    """Pieces on 27-30 never move back, even when their throw moves nothing forward."""
    assert moves(pos(V, [28, 29], [1], "A", 1)) == ["pass"]
    assert moves(pos(V, [27], [1], "A", 1)) == ["pass", "return"]


def test_decision_kendall_1978_bear_off_optional():
    """«bearing off is not required from any space»: when bearing off is all the throws allow,
    the player may pass instead; when another move exists, a pass is no option."""
    assert moves(pos(V, [26], [1], "A", 5)) == ["26-off", "pass"]
    assert "pass" not in moves(pos(V, [10, 26], [1], "A", 5))


def test_attack_on_28_to_30():
    """kendall-1978: attack on 28-30: the victim goes to 27, not to 26."""
    p = pos(V, [26], [29], "A", 3)
    assert after(p, "26-29") == fen(V, [29], [27], "B")


def test_guarded():
    """kendall-1978: guarded: 28-30 are safe while a piece is on 27, whoever's."""
    assert "26-29" not in moves(pos(V, [26], [27, 29], "A", 3))
    assert "26-29" not in moves(pos(V, [26, 27], [29], "B", 3, bank=[]))  # B has no piece on 26
    assert moves(pos(V, [26, 10], [27, 29], "A", 3)) == ["10-13"]


def test_house_of_water():
    """kendall-1978: house of water: the piece on 27 leaves with a 4, or goes back to 15 and its
    owner loses his next turn; meanwhile no other piece of his moves."""
    p = pos(V, [10, 27], [1], "A", 2, bank=[4])
    assert moves(p) == ["27-off", "return"]
    assert moves(pos(V, [10, 27], [1], "A", 2, bank=[3])) == ["pass", "return"]
    assert after(p, "27-off") == fen(V, [10], [1], "A", 2)  # the 2 is left for the others
    q = play(p, "return")
    assert q.fen() == fen(V, [10, 15], [1], "A", 2, skip=(1, 0), bank=[4], returned=[15])


def test_decision_kendall_1978_return():
    """The return uses no throw; the throws move the returned piece first; the owner's next
    turn is lost."""
    p = pos(V, [10, 27], [1], "A", 2, bank=[3])
    q = play(p, "return")
    assert moves(q) == ["15-17", "15-18"]  # only the returned piece moves, with either throw
    r = play(q, "15-17")
    assert r.returned == () and moves(r) == ["10-13", "17-20"]
    s = play(r, "10-13")
    assert s.turn == 1 and s.skip(0) == 1
    t = play(s, 2, "1-3")  # B's turn; A's is skipped: B throws again
    assert t.turn == 1 and t.is_chance() and t.skip(0) == 0


def test_waiting():
    """kendall-1978: waiting: while his piece waits on 27 or a returned one has not moved, a
    player moves nothing else, and his pieces side by side lose their protection."""
    assert moves(pos(V, [5, 15], [1], "A", 2, returned=[15])) == ["15-17"]
    assert moves(pos(V, [5, 15], [1], "A", 2)) == ["15-17", "5-7"]
    exposed = pos(V, [10, 11, 27], [8], "B", 2)
    assert moves(exposed) == ["8-10"]
    assert after(exposed, "8-10") == fen(V, [8, 11, 27], [10], "A")
    assert moves(pos(V, [10, 11], [8], "B", 2)) == ["8-6"]  # the pair protects: back
    assert moves(pos(V, [10, 11, 15], [8], "B", 2, returned=[15])) == ["8-10"]


def test_decision_kendall_1978_exposed():
    """Only the waiting player's pieces lose their protection, not the opponent's."""
    p = pos(V, [8, 27], [10, 11], "A", 2)
    assert moves(p) == ["pass", "return"]  # A waits: A moves nothing; B's pair keeps its protection
    q = pos(V, [8, 15], [10, 11], "A", 2, returned=[15])
    assert moves(q) == ["15-17"]
    r = pos(V, [8], [10, 11, 27], "A", 2)
    assert moves(r) == ["8-10"]  # B waits: B's pair is exposed


def test_decision_kendall_1978_water_safe():
    """The piece on 27 cannot be attacked."""
    assert moves(pos(V, [26], [27], "A", 1)) == ["26-25"]


def test_decision_kendall_1978_return_occupied():
    """With 15 taken, the returned piece goes to the nearest free square behind it."""
    p = pos(V, [27], [15, 14], "A", 2)
    assert after(p, "return") == fen(V, [13], [14, 15], "A", 2, skip=(1, 0), returned=[13])
    assert moves(play(p, "return")) == ["13-11"]


def test_decision_kendall_1978_passing():
    """Pieces pass over any others."""
    assert "10-13" in moves(pos(V, [10], [11, 12], "A", 3))


def test_winning():
    """kendall-1978: winning: the first to bear off every piece wins."""
    p = pos(V, [26], [1], "A", 5)
    q = play(p, "26-off")
    assert q.is_over() and q.outcome().winner == 0


def test_decision_kendall_1978_source():
    """The text followed is Ludii's summary, ruleset 922, and the page says so."""
    assert "922" in find_variant(V).source
    assert "Ludii" in rulebook(V).decisions[0].answer("en")


def test_decision_kendall_1978_options():
    """Ludii's options are not applied: seven pieces, and overshooting 26 is not a fall into 27
    (the «trap»), nor is a home row required before bearing off."""
    assert find_variant(V).pieces == 7
    assert moves(pos(V, [24], [1], "A", 5)) == ["24-19"]  # no trap into 27: back instead
    assert moves(pos(V, [3, 26], [1], "A", 5)) == ["26-off", "3-8"]  # 3 on row 1 may stay


def test_notation_reads_back():
    """Banked throws and returned pieces are part of the position, written and read back."""
    text = fen(V, [5, 15], [1], "A", 2, skip=(1, 0), bank=[4, 5], returned=[15])
    assert Position.from_fen(text).fen() == text
    with pytest.raises(ValueError):
        Position.from_fen(fen(V, [5, 15], [1], "A", 4, bank=[2]))  # the lowest waits as throw
    with pytest.raises(ValueError):
        Position.from_fen(fen(V, [5], [1], "A", 2, returned=[15]))  # no piece on 15
    with pytest.raises(ValueError):
        Position.from_fen(fen("kendall", [5], [1], "A", 2, bank=[4]))  # kendall banks nothing


def test_the_difference_table_names_the_new_rules():
    """The table against the standard game is computed from the data: it names the banked
    throws, the waiting House of Water, the guarded squares and the optional bearing off."""
    from senet.engine.differences import difference_table

    rows = {row.key: row.a for row in difference_table(V)}
    assert "before the moves" in rows["extra"]
    assert "28–30 while a piece stands on 27" in rows["safe"]
    assert "waits for a 4" in rows["houses"]
    assert "moves no piece forward" in rows["backward"]
    assert "may pass" in rows["bearing-off"]


def test_decision_kendall_1978_stay():
    """«may leave the piece in square 27 until a 4 is thrown»: without a 4 its owner may pass,
    giving up the turn's throws, and the piece waits on 27 into his next turn; with a 4 it is
    borne off or returned, never left."""
    p = pos(V, [10, 27], [1], "A", 2, bank=[3])
    assert moves(p) == ["pass", "return"]
    q = play(p, "pass")
    assert q.turn == 1 and q.is_chance()
    assert q.fen() == fen(V, [10, 27], [1], "B")
    r = play(q, 2, "1-3")  # B moves; A throws again with his piece still waiting
    assert r.fen() == fen(V, [10, 27], [3], "A")
    assert moves(pos(V, [10, 27], [1], "A", 2, bank=[4])) == ["27-off", "return"]
