"""The one-line position notation and move notation: canonical form, round trips, and errors that
name the line, the column and what was expected."""

import pytest

from senet.engine import (
    OFF,
    VARIANTS,
    IllegalMove,
    InvalidPosition,
    Move,
    NotationError,
    Position,
    find_variant,
    parse_move,
)
from senet.engine.notation import parse_position

from .conftest import fen, pos


@pytest.mark.parametrize(
    "text",
    [
        "standard ABABABABAB/........../.......... A -",
        "adelaida .A.B...A../....AB..../.....B.... B 3 extra=0/1 drowned=1/0",
        "adelaida .........A/....B...../.....A.... A - skip=0/1 pending=fate",
        "adelaida .........A/....B...../.....A.... A 5 pending=fate",
        "bell A.B......./........../.......... B 4 captured=3/2",
        "kendall A........./........../......B... A - pending=water",
        "adelaida-long ABABABABAB/ABAB....../.......... B 1 extra=2/0 skip=0/1",
    ],
)
def test_round_trip_of_written_positions(text):
    p = Position.from_fen(text)
    assert p.fen() == text
    assert Position.from_fen(p.fen()) == p and hash(Position.from_fen(text)) == hash(p)


def test_fields_read_back():
    p = Position.from_fen("adelaida .A.B...A../....AB..../.....B.... B 3 extra=0/1 drowned=1/0")
    assert p.variant is find_variant("adelaida")
    assert p.pieces(0) == (2, 8, 15) and p.pieces(1) == (4, 16, 26)
    assert p.turn == 1 and p.throw == 3 and p.extra(1) == 1 and p.drowned(0) == 1
    assert p.off(0) == 1 and p.off(1) == 2
    assert str(p) == p.fen() and "adelaida" in repr(p)


def test_initial_positions():
    for name, text in {
        "standard": "standard ABABABABAB/........../.......... A -",
        "bell": "bell ABABABABAB/ABABABABAB/.......... A -",
        "kendall": "kendall ABABABABAB/........../.......... A -",
        "adelaida": "adelaida ABABABABAB/........../.......... A -",
        "adelaida-long": "adelaida-long ABABABABAB/ABAB....../.......... A -",
    }.items():
        assert Position.initial(find_variant(name)).fen() == text
        assert Position.from_fen(text) == Position.initial(find_variant(name))


def test_variants_differ_in_identity():
    a = Position.from_fen("adelaida A........./........../.......... A -")
    b = Position.from_fen("adelaida-long A........./........../.......... A -")
    assert a != b and a.fen() != b.fen()


def _error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        Position.from_fen(text)
    err = info.value
    assert err.line == 1 and f"line 1, column {err.column}" in str(err)
    assert err.expected and err.expected in str(err)
    return err


BOARD = "ABABABABAB/........../.........."


def test_error_bad_board_character():
    err = _error("standard ABABAXABAB/........../.......... A -")
    assert err.column == len("standard ABABA") + 1 and "A, B or ." in err.expected


def test_error_short_row():
    err = _error("standard ABABABABA/........../.......... A -")
    assert err.column == len("standard ABABABABA") + 1  # the '/' where a square was due


def test_error_wrong_field_order():
    err = _error(f"adelaida {BOARD} A - skip=1/0 extra=1/0")
    assert err.column == len(f"adelaida {BOARD} A - skip=1/0 ") + 1
    assert "order" in err.message and "extra, skip" in err.expected


def test_error_fields_swapped_board_and_turn():
    err = _error(f"standard A {BOARD} -")
    assert err.column == len("standard A") + 1 and "three rows of ten" in err.expected


def test_error_unknown_variant():
    err = _error(f"senat {BOARD} A -")
    assert (
        err.column == 1
        and "unknown variant 'senat'" in err.message
        and err.expected == "a variant name"
    )


def test_error_alias_is_not_canonical():
    err = _error(f"std {BOARD} A -")
    assert err.column == 1 and err.expected == "standard"


def test_error_too_many_pieces():
    err = _error("standard AAAAAAABBB/........../.......... A -")
    assert err.column == len("standard ") + 1 and "at most 5" in err.expected
    err = _error("bell AAAAAAAAAA/A........./.......... A -")
    assert "at most 10" in err.expected


def test_error_bad_turn_marker():
    err = _error(f"standard {BOARD} C -")
    assert err.column == len(f"standard {BOARD} ") + 1 and err.expected == "A or B"


def test_error_bad_throw():
    err = _error(f"standard {BOARD} A 7x")
    assert err.column == len(f"standard {BOARD} A ") + 1 and "throw" in err.expected
    err = _error(f"bell {BOARD} A 5")  # the long die has no 5
    assert err.column == len(f"bell {BOARD} A ") + 1 and "1, 2, 3, 4" in err.expected


def test_error_missing_fields_and_spaces():
    err = _error(f"standard {BOARD}")
    assert err.column == len(f"standard {BOARD}") + 1 and "side on turn" in err.expected
    err = _error(f"standard  {BOARD} A -")
    assert (
        err.column == len("standard ") and "single spaces" in err.expected
    )  # at the doubled space
    err = _error("")
    assert "variant" in err.expected or "ends too early" in err.message


def test_error_zero_and_unknown_fields():
    err = _error(f"standard {BOARD} A - extra=0/0")
    assert "leaving the field out" in err.message
    err = _error(f"standard {BOARD} A - colour=1/0")
    assert err.column == len(f"standard {BOARD} A - ") + 1 and "pending=" in err.expected
    err = _error(f"standard {BOARD} A - extra=x")
    assert err.column == len(f"standard {BOARD} A - extra=") + 1 and "1/0" in err.expected
    err = _error(f"adelaida {BOARD} A - pending=doom")
    assert (
        err.column == len(f"adelaida {BOARD} A - pending=") + 1 and err.expected == "fate or water"
    )


def test_error_impossible_positions():
    err = _error(f"adelaida {BOARD} A - pending=fate")  # nobody on 26
    assert err.column == len(f"adelaida {BOARD} A - ") + 1 and "Rejuvenation" in err.message
    err = _error("standard ABABABAB.B/........../.......... A - drowned=1/0")
    assert "no piece is ever drowned in standard" in err.message
    assert err.column == len("standard ABABABAB.B/........../.......... A - ") + 1
    err = _error("standard ABABABAB.B/........../.......... A - captured=1/0")
    assert "no piece is ever captured in standard" in err.message
    err = _error(f"bell {BOARD.replace('..........', 'ABABABABAB', 1)} A - extra=1/0")
    assert "no extra throw" in err.message and err.column == len(f"bell {BOARD} A - ") + 1
    err = _error(f"kendall {BOARD} A - skip=0/1")
    assert (
        "no turn is ever skipped" in err.message and err.column == len(f"kendall {BOARD} A - ") + 1
    )
    err = _error("kendall A........./........../......B... A 3 pending=water")
    assert "before the next throw" in err.message
    assert err.column == len("kendall A........./........../......B... A ") + 1  # the throw


@pytest.mark.parametrize(
    "parts,field,square",
    [
        ({"pieces": ([3, 5], [5])}, "board", 5),
        ({"pieces": ([21], [1])}, "board", 21),  # adelaida §25: nothing rests on Ba
        ({"pieces": ([31], [1])}, "board", None),
        ({"pieces": ([1], [2]), "turn": 2}, "turn", None),
        ({"pieces": ([1], [2]), "throw": 6}, "throw", None),
        ({"pieces": ([1], [2]), "captured": (1, 0)}, "captured", None),
        ({"pieces": ([1], [2]), "pending": 1}, "pending", None),  # nobody on 26
        ({"pieces": ([1], [2]), "skip": (-1, 0)}, "skip", None),
    ],
)
def test_impossible_positions_name_the_field_and_square(parts, field, square):
    """The error carries where the fault is, not only words about it."""
    with pytest.raises(InvalidPosition) as info:
        Position.from_parts(find_variant("adelaida"), **parts)
    assert (info.value.field, info.value.square) == (field, square)
    assert isinstance(info.value, ValueError)


def test_error_line_and_column_offsets():
    with pytest.raises(NotationError) as info:
        parse_position(f"standard {BOARD} C -", line=4, column=9)
    assert info.value.line == 4 and info.value.column == 9 + len(f"standard {BOARD} ")


# ------------------------------------------------------------------ moves
@pytest.mark.parametrize(
    "text,move,canon",
    [
        ("12-15", Move("move", 12, 15), "12-15"),
        ("12x15", Move("move", 12, 15), "12-15"),
        ("28-off", Move("move", 28, OFF), "28-off"),
        ("28-OFF", Move("move", 28, OFF), "28-off"),
        ("15-12", Move("move", 15, 12), "15-12"),
        ("pass", Move("pass"), "pass"),
        ("Revive", Move("revive"), "revive"),
        ("risk", Move("risk"), "risk"),
        ("return", Move("return"), "return"),
    ],
)
def test_move_notation(text, move, canon):
    assert parse_move(text) == move and move.text() == canon and str(move) == canon


@pytest.mark.parametrize(
    "text,column,expects",
    [
        ("hop", 1, "a move such as"),
        ("31-off", 1, "origin square 1-30"),
        ("12-12", 4, "target square"),
        ("12-40", 4, "target square"),
        ("0-3", 1, "origin square"),
    ],
)
def test_move_notation_errors(text, column, expects):
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert info.value.column == column and expects in info.value.expected


# ------------------------------------------------------------------ illegal moves change nothing
def test_illegal_move_raises_and_changes_nothing():
    p = pos("standard", [3, 9], [6, 7], "A", 3)
    before = p.fen()
    with pytest.raises(IllegalMove) as info:
        p.apply(parse_move("3-6"))
    assert "9-12" in str(info.value)  # the message lists the legal moves
    assert p.fen() == before and p.legal_moves() == [Move("move", 9, 12)]


def test_illegal_throw_and_moves_at_chance():
    p = pos("standard", [3], [6], "A")
    with pytest.raises(IllegalMove):
        p.apply(parse_move("3-6"))  # a throw is due
    with pytest.raises(IllegalMove):
        p.apply_throw(3).apply_throw(2)  # a move is due
    with pytest.raises(IllegalMove):
        p.apply_throw(9)
    assert p.fen() == fen("standard", [3], [6], "A")


def test_no_moves_after_the_game_is_over():
    q = pos("standard", [27], [1], "A", 4).apply(parse_move("27-off"))
    assert q.is_over() and not q.is_chance() and q.decider is None and q.chance_outcomes() == ()
    with pytest.raises(IllegalMove):
        q.apply_throw(3)
    with pytest.raises(IllegalMove):
        q.apply(parse_move("pass"))


@pytest.mark.parametrize(
    "name,square", [("adelaida", 21), ("adelaida", 27), ("adelaida-long", 21), ("standard", 28)]
)
def test_error_piece_on_a_house_it_only_passes(name, square):
    """No piece rests on Ba (adelaida §25) or on a Water that sends it on (adelaida §28, standard: houses)."""
    text = fen(name, [square], [1], "A", 3)
    err = _error(text)
    board_col = len(name) + 2
    assert (
        err.column == board_col + square - 1 + (square - 1) // 10
        and f"stand on {square}" in err.message
    )
    assert Position.from_fen(fen("kendall", [27], [1], "A", 3)).pieces(0) == (
        27,
    )  # Kendall's Water holds one


def test_an_impossible_position_read_at_an_offset_points_at_its_square():
    """The square at fault is counted from where the text starts in its document, through
    Position.from_fen as through parse_position (the '/' after squares 10 and 20 count)."""
    text = "standard AAAAAAAAAA/A........./.......... A -"  # six pieces of A: too many
    for read in (parse_position, Position.from_fen):
        with pytest.raises(NotationError) as info:
            read(text, line=3, column=7)
        assert (info.value.line, info.value.column) == (3, 7 + len("standard "))
        assert info.value.reason is not None and info.value.reason.code == "too_many_pieces"
    on_a_house = "standard A........./.....B..../.......A.. A -"  # 28 sends back: never occupied
    with pytest.raises(NotationError) as info:
        Position.from_fen(on_a_house, line=2, column=5)
    assert info.value.reason is not None and info.value.reason.square == 28
    assert on_a_house[info.value.column - 5] == "A"


def test_a_variants_start_position_is_the_initial_position():
    for name in VARIANTS:
        variant = find_variant(name)
        start = variant.start_position()
        assert isinstance(start, Position) and start == Position.initial(variant)
        assert Position.from_fen(start.fen()) == start
