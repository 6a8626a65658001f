"""Why a piece cannot move: one scenario per rule family and variant, and the property that a
reason is given exactly when ``legal_moves`` has no move of the tapped piece."""

from __future__ import annotations

import random

import pytest

from senet.engine import OFF
from senet.engine.explain import KINDS, Reason, piece_can_move, why_not

from .conftest import ALL_VARIANTS, pos, random_game


def reason(variant: str, a=(), b=(), throw: int = 1, square: int = 0, **fields) -> Reason | None:
    position = pos(variant, a, b, fields.pop("turn", "A"), throw, **fields)
    return why_not(position, square)


# ------------------------------------------------------------------ what is not a piece to move
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_no_reason_for_a_piece_that_can_move(variant):
    assert reason(variant, (10,), (20,), 2, 10) is None


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_empty_square_other_players_piece_and_no_throw(variant):
    assert reason(variant, (10,), (20,), 2, 11) == Reason("empty", (11,))
    assert reason(variant, (10,), (20,), 2, 20) == Reason("not_yours", (20,))
    waiting = pos(variant, (10,), (20,), "A", None)
    assert why_not(waiting, 10) == Reason("no_decision")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_the_square_must_be_on_the_track(variant):
    with pytest.raises(ValueError, match="1-30"):
        why_not(pos(variant, (10,), (20,), "A", 2), OFF)


# ------------------------------------------------------------------ landing squares
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_own_piece_on_the_target(variant):
    """Every variant: never onto one's own piece (adelaida §16, jequier: backward: nor back past
    square 1)."""
    per_piece_back = variant.startswith("adelaida") or variant == "jequier"
    back = Reason("off_board", (2,)) if per_piece_back else None
    if variant == "piccione":  # a divided throw: every part of the 3 must be barred
        assert reason(variant, (2, 3, 4, 5), (20,), 3, 2) == Reason("own_piece", (5,))
        return
    assert reason(variant, (2, 5), (20,), 3, 2) == Reason("own_piece", (5,), back=back)


@pytest.mark.parametrize("variant", ["standard", "kendall", "adelaida", "adelaida-long"])
def test_a_pair_protects(variant):
    """standard/kendall: a neighbour of its colour protects; adelaida §12: a pair protects."""
    # a lone piece: adelaida §16 and kendall rule 4 try the way back too
    back = Reason("off_board", (2,)) if variant != "standard" else None
    assert reason(variant, (2,), (6, 7), 4, 2) == Reason("protected", (6, 6, 7), back=back)


def test_bell_has_no_protection():
    """bell: no protection; a piece attacked is removed."""
    assert reason("bell", (2,), (6, 7), 4, 2) is None


@pytest.mark.parametrize("variant", ["adelaida", "adelaida-long"])
def test_adelaida_middle_of_three_is_open_but_a_row_of_four_protects(variant):
    """adelaida §13: the middle of exactly three can be attacked; §14: a longer row cannot."""
    assert reason(variant, (1,), (4, 5, 6), 4, 1) is None
    got = reason(variant, (1,), (4, 5, 6, 7), 4, 1)
    assert got == Reason("protected", (5, 4, 7), back=Reason("off_board", (1,)))


@pytest.mark.parametrize(
    "variant,square,n",
    [
        ("standard", 27, 2),
        ("bell", 26, 2),
        ("adelaida", 15, 2),
        ("adelaida", 16, 2),
    ],
)
def test_no_attack_on_a_safe_square(variant, square, n):
    """standard 27-30, bell 26-30, adelaida §21 (the Houses) are safe (kendall has no safe square:
    rule 1, see test_kendall_rule_1_attack_on_the_house_of_water)."""
    back = Reason("own_piece", (square - 2 * n,)) if variant == "adelaida" else None
    got = reason(variant, (square - n, square - 2 * n), (square,), n, square - n)
    assert got == Reason("safe", (square,), back=back)


# ------------------------------------------------------------------ the way there
@pytest.mark.parametrize("variant", ["adelaida", "adelaida-long"])
def test_adelaida_two_side_by_side_block_the_way(variant):
    """adelaida §8: only single pieces may be passed over."""
    got = reason(variant, (10,), (12, 13), 4, 10)
    # forward blocked, and backward 10-4=6 is free: so the piece moves back (§16)
    assert got is None
    got = reason(variant, (2,), (3, 4), 4, 2)
    assert got == Reason("blocked", (3, 4), back=Reason("off_board", (2,)))


def test_kendall_every_piece_stops_on_the_house_of_beauty():
    """kendall: no piece passes 26 without stopping there."""
    assert reason("kendall", (24, 5), (20,), 3, 24) == Reason("must_stop", (26,))


# ------------------------------------------------------------------ leaving the board
def test_standard_only_a_3_leaves_the_house_of_three_truths():
    """standard: from 29 only a 3 bears off; 26 with a 5 goes past the end and nothing leaves 26."""
    assert reason("standard", (29,), (1,), 2, 29) == Reason("beyond_end", (29,), (3,))
    assert reason("standard", (26,), (1,), 5, 26) == Reason("beyond_end", (26,), ())


@pytest.mark.parametrize(
    "variant,square,throw,leaving",
    [
        ("bell", 28, 2, (3,)),
        ("kendall", 29, 3, (2,)),
        ("adelaida", 28, 2, (3,)),
        ("adelaida-long", 30, 3, (1,)),
    ],
)
def test_exit_only_squares(variant, square, throw, leaving):
    """bell 27-30, kendall 27-30, adelaida §31-33 28-30: the piece only leaves, by one throw."""
    assert reason(variant, (square,), (1,), throw, square) == Reason(
        "exit_throw", (square,), leaving
    )


# ------------------------------------------------------------------ Houses
@pytest.mark.parametrize("variant", ["adelaida", "adelaida-long"])
def test_house_of_ba_would_need_a_square_taken_by_your_own_piece(variant):
    """adelaida §25: 19 + 2 lands on Ba (21) and goes on to 23, taken by your own piece."""
    got = reason(variant, (19, 23, 17), (5,), 2, 19)
    assert got == Reason(
        "ba", (21, 23), cause=Reason("own_piece", (23,)), back=Reason("own_piece", (17,))
    )


@pytest.mark.parametrize("variant", ["adelaida", "adelaida-long"])
def test_house_of_ba_onward_way_blocked(variant):
    """adelaida §25 with §8: the onward move from Ba may not pass two pieces side by side."""
    got = reason(variant, (17, 13), (22, 23), 4, 17)
    assert got == Reason(
        "ba", (21, 25), cause=Reason("blocked", (22, 23)), back=Reason("own_piece", (13,))
    )


def test_kendall_drowning_piece_alone_may_move():
    """kendall: while a piece drowns in the House of Water no other piece moves; only a 4."""
    assert reason("kendall", (27, 10), (1,), 2, 10) == Reason("drowning", (27,))
    assert reason("kendall", (27, 10), (1,), 2, 27) == Reason("exit_throw", (27,), (4,))


def test_kendall_water_choice_pending():
    position = pos("kendall", (27, 10), (1,), "A", None, pending="water")
    assert why_not(position, 10) == Reason("water_choice", (27,))


@pytest.mark.parametrize("variant", ["adelaida", "adelaida-long"])
def test_adelaida_fate_pending(variant):
    """adelaida §27: the throw of fate moves only the piece on the House of Rejuvenation."""
    position = pos(variant, (26, 10), (28,), "A", 3, pending="fate")
    assert why_not(position, 10) == Reason("fate", (26,))
    # 26 + 2 = 28 holds a cone on a safe House: the fate move is impossible
    position = pos(variant, (26, 10), (28,), "A", 2, pending="fate")
    assert why_not(position, 26) == Reason("safe", (28,))


def test_bell_priority_squares_move_first():
    """bell: if a piece on 26-30 can move, one of them must."""
    assert reason("bell", (10, 27), (1,), 4, 10) == Reason("priority", (27,))
    # a piece on 27 that cannot move leaves the others free
    assert reason("bell", (10, 27), (1,), 3, 10) is None


def test_bell_house_of_beauty_gate_moves_first():
    """bell: house of beauty: the piece on 26 moves on as soon as it can, before any other."""
    assert reason("bell", (10, 26, 27), (1,), 4, 27) == Reason("gate", (26,))
    assert reason("bell", (10, 26, 27), (1,), 4, 10) == Reason("gate", (26,))
    assert reason("bell", (10, 26, 27), (1,), 4, 26) is None
    # 26 + 4 = 30 taken by an opponent on a safe square: the gate is shut, 27 may leave
    assert reason("bell", (10, 26, 27), (30,), 4, 27) is None


# ------------------------------------------------------------------ backward moves
@pytest.mark.parametrize("variant", ["adelaida", "adelaida-long"])
def test_adelaida_back_when_forward_fails(variant):
    """adelaida §16: a piece that cannot go forward goes back; the reason names both ways."""
    got = reason(variant, (2, 4), (8,), 2, 2)
    assert got == Reason("own_piece", (4,), back=Reason("off_board", (2,)))


def test_kendall_back_only_when_no_piece_goes_forward():
    """kendall rule 4: backward moves only when no forward move exists at all."""
    # 24's forward move passes 26: stopped; 10 moves forward, so 24 may not go back
    assert reason("kendall", (24, 10), (20,), 3, 24) == Reason("must_stop", (26,))
    # alone, 24 goes back to 21
    assert reason("kendall", (24,), (20,), 3, 24) is None
    # no piece goes forward (5 meets a protected pair): 2 may go back, but not past square 1
    got = reason("kendall", (2, 5), (8, 9), 3, 2)
    assert got == Reason("own_piece", (5,), back=Reason("off_board", (2,)))


def test_jequier_bearing_off_past_three_in_a_row():
    """jequier: three in a row: bearing off from 25 with a 6 would pass 28-30; back, 19 is taken
    (jequier: backward: to an open space only)."""
    got = reason("jequier", (25, 21), (19, 28, 29, 30), 6, 25)
    assert got == Reason("past_three", (28, 29, 30), back=Reason("back_empty", (19,)))


# ------------------------------------------------------------------ agreement with legal_moves
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_a_reason_exactly_when_the_piece_has_no_legal_move(variant):
    """On random games: for every piece of the decider, why_not is None iff legal_moves moves it."""
    rng = random.Random(f"explain-{variant}")
    seen: set[str] = set()
    for _ in range(12):
        for position, _action in random_game(variant, rng):
            if position.decider is None:
                continue
            for square in position.pieces(position.decider):
                got = why_not(position, square)
                assert (got is None) == piece_can_move(position, square), (position.fen(), square)
                if got is not None:
                    assert got.kind in KINDS
                    seen.add(got.kind)
    assert "own_piece" in seen
