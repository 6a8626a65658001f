"""Scenarios for the rules of the «Adelaida» club (000_b98b112805fe9d06.txt, §1-34), both lengths.

Each clause test names its clause (``adelaida §25``); each decision of the rulebook is pinned
once per variant (``test_decision_adelaida_<key>`` and ``test_decision_adelaida_long_<key>``).
"""

from fractions import Fraction

import pytest

from senet.engine import IllegalMove, Position, find_variant, parse_move

from .conftest import after, fen, moves, play, pos

V = "adelaida"


# ------------------------------------------------------------------ §1-§7: material, start, throws
@pytest.mark.parametrize("name,count", [("adelaida", 5), ("adelaida-long", 7)])
def test_adelaida_1_board_and_material(name, count):
    """adelaida §1: a 10x3 snake track of 30 squares; 5 (7 in the long game) spools and cones; 4 sticks."""
    v = find_variant(name)
    assert v.pieces == count and v.instrument.patterns == 16
    p = Position.initial(v)
    assert len(p.pieces(0)) == len(p.pieces(1)) == count
    rows = p.fen().split(" ")[1].split("/")
    assert [len(r) for r in rows] == [10, 10, 10]


def test_adelaida_2_start_alternates_spool_first():
    """adelaida §2: spools and cones alternate on 1-10 (1-14 in the long game), a spool on 1."""
    assert (
        Position.initial(find_variant("adelaida")).fen()
        == "adelaida ABABABABAB/........../.......... A -"
    )
    assert Position.initial(find_variant("adelaida-long")).fen() == (
        "adelaida-long ABABABABAB/ABAB....../.......... A -"
    )


def test_adelaida_3_spools_move_first():
    """adelaida §3: whoever throws the first 1 plays the spools (seat A) and moves first."""
    v = find_variant(V)
    assert (
        v.seat_name(0) == "spools"
        and v.seat_name(0, "ru") == "катушки"
        and v.seat_name(1, "ru") == "конусы"
    )
    p = Position.initial(v)
    assert p.turn == 0 and p.is_chance() and p.apply_throw(3).decider == 0


def test_adelaida_4_throws_and_extra_throws():
    """adelaida §4: one white side 1, two 2, three 3, four 4, none 5; 1, 4 and 5 give another throw."""
    p = Position.initial(find_variant(V))
    assert p.chance_outcomes() == (
        (1, Fraction(4, 16)),
        (2, Fraction(6, 16)),
        (3, Fraction(4, 16)),
        (4, Fraction(1, 16)),
        (5, Fraction(1, 16)),
    )
    for n in (1, 2, 3, 4, 5):
        turn = "A" if n in (1, 4, 5) else "B"
        assert after(pos(V, [3], [30], "A", n), f"3-{3 + n}") == fen(V, [3 + n], [30], turn), n


def test_adelaida_5_one_throw_one_piece():
    """adelaida §5: the points of one throw cannot be split between pieces."""
    p = pos(V, [3, 8], [30], "A", 3)
    assert moves(p) == ["3-6", "8-11"]  # no 3-4 + 8-10 or the like
    q = p.apply(parse_move("3-6"))
    assert q.pieces(0) == (6, 8) and q.throw == 0 and q.turn == 1


def test_adelaida_6_extra_throw_moves_any_piece():
    """adelaida §6: an extra throw may move any piece of one's colour, not only the one that earned it."""
    p = play(pos(V, [3, 8], [30], "A", 1), "3-4")
    assert p.is_chance() and p.turn == 0
    q = p.apply_throw(2)
    assert moves(q) == ["4-6", "8-10"]
    assert after(q, "8-10") == fen(V, [4, 10], [30], "B")


def test_adelaida_7_moves_by_the_count():
    """adelaida §7: a piece moves as many squares as the sticks show."""
    for n in (1, 2, 3, 4, 5):
        assert moves(pos(V, [2], [30], "A", n)) == [f"2-{2 + n}"]


# ------------------------------------------------------------------ §8-§17: moving, taking, blocking
def test_adelaida_8_jumping_single_pieces():
    """adelaida §8: a piece may jump single pieces of either colour if free squares lie between and after them."""
    assert moves(pos(V, [1, 4], [2], "A", 5)) == [
        "1-6",
        "4-9",
    ]  # over B on 2 and A on 4, 3 free between
    assert moves(pos(V, [1], [2, 3], "A", 5)) == [
        "pass"
    ]  # 2 and 3 side by side: no free square between
    assert moves(pos(V, [1, 3], [2], "A", 3)) == [
        "3-6"
    ]  # 1-4 would jump 2 and 3: no free square between
    p = pos(V, [1, 4], [2], "A", 5)
    assert after(p, "1-6") == fen(V, [4, 6], [2], "A")  # the jumped pieces stay where they are


@pytest.mark.parametrize("name", ["adelaida", "adelaida-long"])
def test_adelaida_8_with_26_no_pair_is_jumped(name):
    """adelaida §8 with adelaida §26: only pieces with free squares between them are jumped, so any
    two side by side bar the way: an own pair, an opponent's pair (§12) and a mixed pair alike."""
    assert moves(pos(name, [1, 3, 4], [30], "A", 4)) == ["3-7", "4-8"]  # own pair 3-4
    assert moves(pos(name, [1, 4], [3], "A", 4)) == ["4-8"]  # mixed pair 3-4
    assert moves(pos(name, [1, 8], [3, 4], "A", 4)) == ["8-12"]  # opponent's pair 3-4
    assert moves(pos(name, [1, 4], [6], "A", 4)) == ["1-5", "4-8"]  # singles: fine


def test_adelaida_9_one_piece_a_square():
    """adelaida §9: two pieces never share a square: no landing on one's own piece."""
    p = pos(V, [3, 6], [30], "A", 3)
    assert moves(p) == ["6-9"]  # 3-6 is impossible forward ... and 3 cannot go back 3 either


def test_adelaida_10_capture_by_swap():
    """adelaida §10: a piece may take an opponent on its last square: the two swap places."""
    p = pos(V, [3], [6], "A", 3)
    assert after(p, "3-6") == fen(V, [6], [3], "B")
    assert p.move_text(parse_move("3-6")) == "3x6"


def test_adelaida_11_capture_behind_own_piece():
    """adelaida §11: a piece may take an opponent standing just behind one of its own pieces."""
    p = pos(V, [3, 5], [6], "A", 3)
    assert "3-6" in moves(p)
    assert after(p, "3-6") == fen(V, [5, 6], [3], "B")


def test_adelaida_12_pair_protects_and_blocks():
    """adelaida §12: a piece next to another of its colour cannot be taken; a pair blocks the way."""
    assert moves(pos(V, [4], [6, 7], "A", 2)) == ["4-2"]  # 6 protected: back instead (§16)
    assert moves(pos(V, [4], [6, 7], "A", 3)) == ["4-1"]  # 7 protected
    assert moves(pos(V, [4], [6, 7], "A", 4)) == ["pass"]  # 4-8 jumps the pair; 0 is off the track
    assert moves(pos(V, [5], [6, 7], "A", 4)) == ["5-1"]


def test_adelaida_13_triple_broken_in_the_middle():
    """adelaida §13: a triple is broken by landing on its middle piece, which swaps with the attacker."""
    p = pos(V, [2], [4, 5, 6], "A", 3)
    assert moves(p) == ["2-5"]
    assert after(p, "2-5") == fen(V, [5], [2, 4, 6], "B")
    assert moves(pos(V, [2], [4, 5, 6], "A", 2)) == ["pass"]  # the end of a triple is protected


def test_adelaida_14_four_neither_broken_nor_jumped():
    """adelaida §14: four or more of one colour can be neither broken nor jumped, by either colour."""
    for n in (2, 3, 4, 5):
        assert moves(pos(V, [1], [3, 4, 5, 6], "A", n)) == ["pass"], n
    # an own four cannot be jumped either
    assert moves(pos(V, [2, 3, 4, 5, 6], [30], "A", 5)) == [
        "5-10",
        "6-11",
    ]  # 2-7, 3-8, 4-9 are barred


def test_adelaida_15_no_taking_own_pieces():
    """adelaida §15: one may not take one's own pieces, not even the middle of an own triple."""
    p = pos(V, [1, 3, 4, 5], [30], "A", 3)
    assert "1-4" not in moves(p)
    assert moves(p) == ["4-7", "5-8"]  # 3-6 jumps the pair 4-5


def test_adelaida_16_backward_when_forward_impossible():
    """adelaida §16: a piece that cannot go forward by the throw must go back by it."""
    p = pos(V, [10], [13, 14], "A", 3)
    assert moves(p) == ["10-7"]
    assert after(p, "10-7") == fen(V, [7], [13, 14], "B")
    # backward onto a lone opponent takes it (swap)
    assert after(pos(V, [10], [7, 13, 14], "A", 3), "10-7") == fen(V, [7], [10, 13, 14], "B")


def test_adelaida_17_no_move_either_way_pass():
    """adelaida §17: no move forward or back: the player passes."""
    p = pos(V, [2], [4, 5], "A", 3)
    assert moves(p) == ["pass"]
    assert after(p, "pass") == fen(V, [2], [4, 5], "B")
    with pytest.raises(IllegalMove):
        p.apply(parse_move("2-5"))


def test_adelaida_19_first_to_bear_off_all_wins():
    """adelaida §19: the first to bear off all pieces wins; there are no draws."""
    q = play(pos(V, [30], [1, 2], "A", 1), "30-off")
    assert q.outcome().winner == 0 and q.outcome().score == (5, 3)
    # a drowned piece is not borne off: the game goes on
    q = play(pos(V, [30], [1], "A", 1, drowned=(1, 0)), "30-off")
    assert q.outcome() is None and q.is_chance()


# ------------------------------------------------------------------ §20-§34: the eight Houses
def test_adelaida_20_house_of_rebirth():
    """adelaida §20: 15, House of Rebirth: landing there earns another throw; drowned pieces come back there."""
    assert after(pos(V, [12], [1], "A", 3), "12-15") == fen(V, [15], [1], "A")
    assert after(pos(V, [11], [1], "A", 4), "11-15") == fen(
        V, [15], [1], "A", extra=(1, 0)
    )  # 4 and Rebirth
    assert after(pos(V, [5], [1], "A", 2, drowned=(1, 0)), "revive") == fen(V, [5, 15], [1], "B")


def test_adelaida_21_no_capture_in_houses():
    """adelaida §21: no piece can be taken on any of the eight Houses; a swap may put one into 15, 16, 21, 26."""
    for origin, sq in ((12, 15), (13, 16), (23, 26), (25, 28), (25, 29), (25, 30)):
        n = sq - origin
        back = origin - n if origin - n != 21 else 21 - n  # back by §16 (through Ba for 25-21-17)
        assert moves(pos(V, [origin], [sq, 1], "A", n)) == [f"{origin}-{back}"], sq
    assert moves(pos(V, [18], [24, 1], "A", 3)) == [
        "18-24"
    ]  # through Ba onto a lone piece: not in a House
    # a swap from 15 puts the opponent into the House of Rebirth
    assert after(pos(V, [15], [18], "A", 3), "15-18") == fen(V, [18], [15], "B", extra=(0, 1))


def test_adelaida_22_houses_act_on_swapped_pieces():
    """adelaida §22: a piece knocked into a House is subject to that House's rules."""
    # into the Net: its owner skips a turn
    # (B's next turn is the one skipped: A throws again at once)
    assert after(pos(V, [16, 1], [19], "A", 3), "16-19") == fen(V, [1, 19], [16], "A")
    # into the House of Rejuvenation: a throw of fate for that piece, at once
    q = play(
        pos(V, [26, 29], [23, 1], "A", 3), "26-23"
    )  # 26-29 is barred by A's own piece: back (§16)
    assert q.fen() == fen(V, [23, 29], [1, 26], "A", pending="fate")
    assert q.is_chance()
    r = q.apply_throw(3)
    assert r.decider == 1 and moves(r) == ["pass"]  # 29 is taken: B's fate move is lost
    r = q.apply_throw(2)
    assert r.decider == 1 and moves(r) == ["26-28"]
    assert after(r, "26-28") == fen(V, [23, 29], [1, 28], "B")


def test_adelaida_23_house_of_the_net_skips_a_turn():
    """adelaida §23: 16, House of the Net: the piece's owner skips a turn."""
    p = play(pos(V, [13], [1], "A", 3), "13-16")
    assert p.fen() == fen(V, [16], [1], "B", skip=(1, 0))
    q = play(p, 2, "1-3")
    assert q.fen() == fen(V, [16], [3], "B")  # A's turn is skipped: B again


def test_adelaida_24_extra_throws_accumulate_net_cancels_one():
    """adelaida §24: extra throws accumulate; a skip in the Net may cancel one of them."""
    p = pos(V, [11, 3], [1], "A", 4)
    q = p.apply(parse_move("11-15"))  # the 4 and the Rebirth: two extra throws, one thrown now
    assert q.fen() == fen(V, [3, 15], [1], "A", extra=(1, 0))
    r = play(q, 1, "3-4")  # the 1 earns another: still one owed after this throw
    assert r.fen() == fen(V, [4, 15], [1], "A", extra=(1, 0))
    s = play(
        r, 1, "15-16"
    )  # the 1's extra throw is cancelled by the Net; the older one is still owed
    assert s.fen() == fen(V, [4, 16], [1], "A")


def test_adelaida_25_house_of_ba_goes_on():
    """adelaida §25: 21, House of Ba: the piece goes on the same way by the same count."""
    assert moves(pos(V, [17], [1], "A", 4)) == ["17-25"]
    assert after(pos(V, [18], [1], "A", 3), "18-24") == fen(V, [24], [1], "B")
    # backward into Ba goes on backward
    p = pos(V, [24], [25, 26, 1], "A", 3)  # 24-27 jumps the pair 25-26: back to 21, on to 18
    assert moves(p) == ["24-18"]
    assert after(p, "24-18") == fen(V, [18], [1, 25, 26], "B")
    p = pos(V, [23], [25, 26, 1], "A", 2)  # 23-25 protected -> back 2 to 21 -> on to 19
    assert moves(p) == ["23-19"]


def test_adelaida_26_impossible_doubling_forbids_the_move():
    """adelaida §26: if the doubled move from Ba is impossible, the move into Ba is not allowed."""
    p = pos(V, [17, 25], [1], "A", 4)  # 21 then 25: own piece
    assert moves(p) == ["17-13", "25-29"]
    p = pos(
        V, [18], [23, 24, 1], "A", 3
    )  # 21 then 24: jumping the pair 23-24 ... and 24 is protected
    assert moves(p) == ["18-15"]


def test_adelaida_27_throw_of_fate():
    """adelaida §27: 26, House of Rejuvenation: a throw of fate for that piece: 5 back five, 1 to the Water,
    2/3/4 to the Houses 2/3/4 on; an impossible fate move is lost."""
    p = play(pos(V, [23], [1], "A", 3), "23-26")
    assert p.fen() == fen(V, [26], [1], "A", pending="fate") and p.is_chance()
    assert p.chance_outcomes() == Position.initial(find_variant(V)).chance_outcomes()
    expect = {  # the 1, 4 and 5 earn another throw (decision fate-extra)
        1: fen(V, [], [1], "B", drowned=(1, 0)),  # ... cancelled by the Water (§29)
        2: fen(V, [28], [1], "B"),
        3: fen(V, [29], [1], "B"),
        4: fen(V, [30], [1], "A"),
        5: fen(V, [16], [1], "B"),  # ... cancelled by the Net instead of a skipped turn (§24)
    }
    for n, want in expect.items():
        q = p.apply_throw(n)
        assert q.decider == 0 and len(q.legal_moves()) == 1
        assert q.apply(q.legal_moves()[0]).fen() == want, n
    # impossible: 28 taken -> the fate move is lost, the piece stays, and no other piece may use the 2
    q = play(pos(V, [23, 5], [28, 1], "A", 3), "23-26", 2)
    assert moves(q) == ["pass"]
    assert after(q, "pass") == fen(V, [5, 26], [1, 28], "B")


def test_adelaida_28_house_of_water():
    """adelaida §28: 27, House of Water: the piece leaves the board, not borne off; instead of a later move it
    comes back to 15 if free, compulsorily when nothing else can move; with 15 taken, another move or a pass."""
    q = play(pos(V, [24], [1], "A", 3), "24-27")
    assert q.fen() == fen(V, [], [1], "B", drowned=(1, 0)) and q.off(0) == 4 and q.drowned(0) == 1
    assert moves(pos(V, [5], [1], "A", 3, drowned=(1, 0))) == ["5-8", "revive"]
    assert moves(pos(V, [30], [1], "A", 3, drowned=(1, 0))) == ["revive"]  # compulsory
    assert moves(pos(V, [5], [1, 15], "A", 3, drowned=(1, 0))) == ["5-8"]  # 15 taken: another move
    p = pos(V, [30], [15], "A", 3, drowned=(1, 0))
    assert moves(p) == ["pass"] and after(p, "pass") == fen(V, [30], [15], "B", drowned=(1, 0))


def test_adelaida_29_water_cancels_extra_throws():
    """adelaida §29: falling into the Water cancels the extra throws."""
    p = pos(V, [22, 3], [1], "A", 5, extra=(2, 0))
    assert after(p, "22-27") == fen(V, [3], [1], "B", drowned=(1, 0))
    q = play(
        pos(V, [22, 3], [1], "A", 4), "22-26", 1
    )  # fate 1 into the Water: the 4's throw is gone
    assert after(q, "26-27") == fen(V, [3], [1], "B", drowned=(1, 0))


def test_adelaida_30_reborn_piece_waits_for_the_next_throw():
    """adelaida §30: a piece reborn on 15 moves only from the next throw."""
    p = pos(V, [5], [1], "A", 3, drowned=(1, 0))
    q = p.apply(parse_move("revive"))
    assert q.fen() == fen(V, [5, 15], [1], "B")  # the 3 is used up by the revival
    r = play(q, 2, "1-3", 3)
    assert "15-18" in moves(r)


@pytest.mark.parametrize("sq,need,clause", [(28, 3, "§31"), (29, 2, "§32"), (30, 1, "§33")])
def test_adelaida_31_32_33_last_houses(sq, need, clause):
    """adelaida §31, adelaida §32, adelaida §33: 28, 29, 30 let a piece off only with 3, 2, 1; otherwise it stays."""
    for n in (1, 2, 3, 4, 5):
        # "otherwise it stays": neither on (even to a free square) nor back
        for others in ([1], [1, 20]):
            got = moves(pos(V, [sq], others, "A", n))
            assert got == ([f"{sq}-off"] if n == need else ["pass"]), (clause, n, others)
    turn = "A" if need == 1 else "B"
    assert after(pos(V, [sq, 5], [1], "A", need), f"{sq}-off") == fen(V, [5], [1], turn)


def test_adelaida_34_other_move_instead_of_bearing_off():
    """adelaida §34: instead of bearing a piece off from 28-30 the player may make any other legal move."""
    p = pos(V, [28, 5], [1], "A", 3)
    assert moves(p) == ["28-off", "5-8"]
    assert after(p, "5-8") == fen(V, [8, 28], [1], "B")


def test_adelaida_rulebook_clause_ids():
    """adelaida §18 is a table manner: it is in the rulebook and pinned by the decision touch-move."""
    from senet.engine.rulebook import rulebook

    assert [c.id for c in rulebook(V).clauses] == [f"adelaida §{i}" for i in range(1, 35)]


# ------------------------------------------------------------------ decisions (each for both lengths)
def _backward_per_piece(name):
    p = pos(name, [5, 10], [7, 8], "A", 3)  # 5-8 hits a pair; 10-13 is free
    assert moves(p) == ["10-13", "5-2"]


def _first_throw(name):
    p = Position.initial(find_variant(name))
    assert p.is_chance() and p.turn == 0 and p.throw == 0
    assert dict(p.chance_outcomes())[1] == Fraction(1, 4)  # a fresh throw, not the deciding 1
    assert p.apply_throw(2).decider == 0


def _pass_26(name):
    assert moves(pos(name, [24], [1], "A", 4)) == ["24-28"]
    assert moves(pos(name, [25], [1], "A", 5)) == ["25-30"]
    assert after(pos(name, [24], [1], "A", 5), "24-29") == fen(name, [29], [1], "A")


def _fate_extra(name):
    """§27 calls the fate throw an additional throw; §24: one giving 1, 4 or 5 gives a new one."""
    p = Position.from_fen(f"{name} ....B...../........../.....A.... A 4 pending=fate")
    assert moves(p) == ["26-30"]
    assert after(p, "26-30") == fen(name, [30], [5], "A")
    q = play(p, "26-30", 1)
    assert moves(q) == ["30-off"]  # the new throw may move any piece (§6)
    # owed to the owner of a piece swapped into 26: thrown in his own next turn
    q = play(pos(name, [26, 28, 10], [24, 1], "A", 2), "26-24", 4, "26-30")
    assert q.fen() == fen(name, [10, 24, 28], [1, 30], "B", extra=(0, 1))
    assert play(q, 2, "1-3").fen() == fen(name, [10, 24, 28], [3, 30], "B")
    # the Water (§29) and the Net (§24) cancel it at once
    r = play(pos(name, [23], [1], "A", 3), "23-26")
    assert after(play(r, 1), "26-27") == fen(name, [], [1], "B", drowned=(1, 0))
    assert after(play(r, 5), "26-16") == fen(name, [16], [1], "B")
    assert after(play(r, 2), "26-28") == fen(name, [28], [1], "B")  # a 2 earns nothing


def _fate_ba(name):
    p = play(pos(name, [23], [1], "A", 3), "23-26", 5)
    assert moves(p) == ["26-16"]
    p = play(pos(name, [23], [16, 1], "A", 3), "23-26", 5)
    assert moves(p) == ["pass"]  # 16 is a House: no capture there
    # the impossible fate move is lost, and with it the 5's extra throw (decision pass-extra)
    assert after(p, "pass") == fen(name, [26], [1, 16], "B")
    p = play(
        pos(name, [23], [18, 19, 1], "A", 3), "23-26", 5
    )  # the pair 18-19 bars the way from Ba
    assert moves(p) == ["pass"]


def _revival_throw(name):
    assert after(pos(name, [5], [1], "A", 2, drowned=(1, 0)), "revive") == fen(
        name, [5, 15], [1], "B"
    )
    for n in (1, 4, 5):
        assert after(pos(name, [5], [1], "A", n, drowned=(1, 0)), "revive") == fen(
            name, [5, 15], [1], "A"
        )


def _net_extra(name):
    assert after(pos(name, [12], [1], "A", 4), "12-16") == fen(name, [16], [1], "B")
    assert after(pos(name, [13], [1], "A", 3), "13-16") == fen(name, [16], [1], "B", skip=(1, 0))
    assert after(pos(name, [13], [1], "A", 3, extra=(1, 0)), "13-16") == fen(name, [16], [1], "B")


def _revival_timing(name):
    p = pos(name, [5], [1], "A", None, drowned=(1, 0))
    assert p.is_chance() and p.legal_moves() == []
    with pytest.raises(IllegalMove):
        p.apply(parse_move("revive"))
    q = p.apply_throw(5)
    assert "revive" in moves(q)
    assert moves(pos(name, [5], [15], "A", 5, drowned=(1, 0))) == ["5-10"]


def _revival_later(name):
    """adelaida §28: the right to revive does not lapse when another move is made first."""
    p = pos(name, [5], [1], "A", 3, drowned=(1, 0))
    assert moves(p) == ["5-8", "revive"]
    q = play(
        p, "5-8", 2, "1-3", 2
    )  # A moved instead of reviving; a turn later the right is still there
    assert moves(q) == ["8-10", "revive"]
    assert after(q, "revive") == fen(name, [8, 15], [3], "B")


def _ba_capture(name):
    """The captured piece is swapped into Ba (21), and Ba carries it on, in the direction it moved
    (back), by the same count: to the capturer's starting square (§21, §22, §25)."""
    p = pos(name, [17], [25, 1], "A", 4)
    assert after(p, "17-25") == fen(name, [25], [1, 17], "A")
    assert p.move_text(parse_move("17-25")) == "17x25"
    # a backward capture through Ba: the captured piece goes on forward, to 24
    p = pos(name, [24], [18, 25, 26], "A", 3)  # 24-27 would jump the pair 25-26: back
    assert moves(p) == ["24-18"]
    assert after(p, "24-18") == fen(name, [18], [24, 25, 26], "B")


def _swapped_into_house(name):
    q = play(pos(name, [15], [18, 1], "A", 3), "15-18")
    assert q.fen() == fen(name, [18], [1, 15], "B", extra=(0, 1))
    r = play(q, 2, "1-3")
    assert r.fen() == fen(name, [18], [3, 15], "B")  # B's extra throw, in B's own turn
    q = play(pos(name, [16], [19, 1], "A", 3), "16-19")
    assert q.fen() == fen(name, [19], [1, 16], "A")  # B's next turn is skipped: A again
    q = play(pos(name, [26, 28], [24, 1], "A", 2), "26-24")
    assert q.fen() == fen(name, [24, 28], [1, 26], "A", pending="fate") and q.is_chance()


def _fate_lost(name):
    p = play(pos(name, [23, 5], [28, 1], "A", 3), "23-26", 2, "pass")
    assert p.fen() == fen(name, [5, 26], [1, 28], "B") and p.pending_name == ""
    q = play(p, 3, "1-4", 2)
    assert moves(q) == ["26-24", "5-7"]  # 28 is taken: back by §16, like any piece
    q = play(p, 3, "1-4", 3)
    assert "26-29" in moves(q)
    r = play(q, "26-29")
    assert r.pending_name == "" and r.fen() == fen(name, [5, 29], [4, 28], "B")
    # a fate 4 that cannot be played is lost whole: no extra throw either (§27)
    p = play(pos(name, [23, 5], [30, 1], "A", 3), "23-26", 4, "pass")
    assert p.fen() == fen(name, [5, 26], [1, 30], "B")


def _pass_extra(name):
    """§4 gives the extra throw with the throw; only the Net (§24) and the Water (§29) cancel it."""
    p = pos(name, [30], [1], "A", 3, extra=(1, 0))
    assert moves(p) == ["pass"]
    assert after(p, "pass") == fen(name, [30], [1], "A")
    p = pos(name, [30], [1], "A", 2)
    assert after(p, "pass") == fen(name, [30], [1], "B")  # a 2 earns nothing
    p = Position.from_fen(f"{name} ....B...../........../.......A.. A 4")
    assert moves(p) == ["pass"]
    assert after(p, "pass") == fen(name, [28], [5], "A")  # the unused 4 earns its throw
    # consistent with a revival, which keeps the throw's extra throw too (decision revival-throw)
    revived = after(pos(name, [28], [5], "A", 4, drowned=(1, 0)), "revive")
    assert revived == fen(name, [15, 28], [5], "A")
    # but an impossible fate throw is lost whole (§27: its points serve no other piece)
    q = play(pos(name, [23], [1, 30], "A", 3), "23-26", 4)
    assert moves(q) == ["pass"]
    assert after(q, "pass") == fen(name, [26], [1, 30], "B")


def _touch_move(name):
    """adelaida §18 is not enforced: any legal move may be made, whatever was 'touched'."""
    p = pos(name, [3, 8], [1], "A", 2)
    assert moves(p) == ["3-5", "8-10"]
    assert after(p, "3-5") != after(p, "8-10")


def test_decision_adelaida_backward_per_piece():
    _backward_per_piece("adelaida")


def test_decision_adelaida_long_backward_per_piece():
    _backward_per_piece("adelaida-long")


def test_decision_adelaida_first_throw():
    _first_throw("adelaida")


def test_decision_adelaida_long_first_throw():
    _first_throw("adelaida-long")


def test_decision_adelaida_pass_26():
    _pass_26("adelaida")


def test_decision_adelaida_long_pass_26():
    _pass_26("adelaida-long")


def test_decision_adelaida_fate_extra():
    _fate_extra("adelaida")


def test_decision_adelaida_long_fate_extra():
    _fate_extra("adelaida-long")


def test_decision_adelaida_fate_ba():
    _fate_ba("adelaida")


def test_decision_adelaida_long_fate_ba():
    _fate_ba("adelaida-long")


def test_decision_adelaida_revival_throw():
    _revival_throw("adelaida")


def test_decision_adelaida_long_revival_throw():
    _revival_throw("adelaida-long")


def test_decision_adelaida_net_extra():
    _net_extra("adelaida")


def test_decision_adelaida_long_net_extra():
    _net_extra("adelaida-long")


def test_decision_adelaida_revival_timing():
    _revival_timing("adelaida")


def test_decision_adelaida_long_revival_timing():
    _revival_timing("adelaida-long")


def test_decision_adelaida_revival_later():
    _revival_later("adelaida")


def test_decision_adelaida_long_revival_later():
    _revival_later("adelaida-long")


def test_decision_adelaida_ba_capture():
    _ba_capture("adelaida")


def test_decision_adelaida_long_ba_capture():
    _ba_capture("adelaida-long")


def test_decision_adelaida_swapped_into_house():
    _swapped_into_house("adelaida")


def test_decision_adelaida_long_swapped_into_house():
    _swapped_into_house("adelaida-long")


def test_decision_adelaida_fate_lost():
    _fate_lost("adelaida")


def test_decision_adelaida_long_fate_lost():
    _fate_lost("adelaida-long")


def test_decision_adelaida_pass_extra():
    _pass_extra("adelaida")


def test_decision_adelaida_long_pass_extra():
    _pass_extra("adelaida-long")


def test_decision_adelaida_touch_move():
    _touch_move("adelaida")


def test_decision_adelaida_long_touch_move():
    _touch_move("adelaida-long")


def test_adelaida_spools_are_black_and_cones_white():
    """adelaida §1: black spools (seat A, §2-3) and white cones; the board draws them so."""
    from senet.engine import find_variant

    for name in ("adelaida", "adelaida-long"):
        v = find_variant(name)
        assert v.seat_name(0) == "spools" and v.dark_seat == 0
