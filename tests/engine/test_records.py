"""Game records (PGN-like): write -> parse -> same actions and text; validated replay with errors
that name the line, the column and what was expected; Game push/pop."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine import (
    Game,
    IllegalMove,
    NotationError,
    Position,
    Throw,
    find_variant,
    parse_move,
)
from senet.engine.record import (
    TERMINATIONS,
    GameRecord,
    parse_record,
    turn_numbers,
    write_record,
)

from .conftest import ALL_VARIANTS, fen, random_game


def random_full_game(
    name: str, seed: int, start: Position | None = None, limit: int | None = None
) -> Game:
    game = Game(start or find_variant(name))
    rng = random.Random(seed)
    for i, (_p, action) in enumerate(random_game(name, rng, start=start)):
        if action is None or (limit is not None and i >= limit):
            break
        if isinstance(action, int):
            game.push_throw(action)
        else:
            game.push(action)
    return game


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(ALL_VARIANTS),
    seed=st.integers(0, 10**9),
    cut=st.none() | st.integers(0, 300),
)
def test_record_round_trip(name, seed, cut):
    game = random_full_game(name, seed, limit=cut)
    record = GameRecord.from_game(
        game, PlayerA='Nefer "the" tari', PlayerB="Ramesses", Date="2026.11.30"
    )
    text = record.text()
    back = parse_record(text)
    assert back.actions == list(game.actions)
    assert back.tags == record.tags
    assert write_record(back) == text
    assert back.replay().position == game.position
    outcome = game.outcome()
    assert back.tags["Result"] == (outcome.result if outcome else "*")


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_record_from_a_start_position(name):
    middle = random_full_game(name, 7, limit=40).position
    game = random_full_game(name, 8, start=middle, limit=60)
    record = GameRecord.from_game(game)
    assert record.tags["Start"] == middle.fen()
    back = parse_record(record.text())
    assert (
        back.start == middle and back.actions == list(game.actions) and back.text() == record.text()
    )


def test_record_layout():
    game = Game("standard")
    for action in (3, "9-12", 4, "8-12", 2, "12-14", 2, "7-9"):
        game.push_throw(action) if isinstance(action, int) else game.push(action)
    text = GameRecord.from_game(game, Event="Club night").text()
    assert text == (
        '[Event "Club night"]\n[Variant "standard"]\n[Result "*"]\n\n'
        "1. A: (3) 9-12\n2. B: (4) 8x12 (2) 12-14\n3. A: (2) 7-9\n"
    )


def test_record_notes_a_skipped_turn():
    start = Position.from_fen(fen("adelaida", [13, 1], [20], "A"))
    game = Game(start)
    for action in (3, "13-16", 2, "20-22", 2):
        game.push_throw(action) if isinstance(action, int) else game.push(action)
    text = GameRecord.from_game(game).text()
    assert "3. B: {A skips a turn} (2)" in text
    assert parse_record(text).actions == list(game.actions)


# ------------------------------------------------------------------ errors
HEAD = '[Variant "standard"]\n[Result "*"]\n\n'


def _error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_record(text)
    err = info.value
    assert f"line {err.line}, column {err.column}" in str(err) and err.expected
    return err


def test_error_illegal_move_at_line_and_column():
    err = _error(HEAD + "1. A: (3) 9-12\n2. B: (2) 10-13\n")
    assert (err.line, err.column) == (5, 11)
    assert err.expected.startswith("one of ") and "10x12" in err.expected


def test_error_throw_when_a_move_is_due():
    err = _error(HEAD + "1. A: (3) (2) 9-12\n")
    assert (err.line, err.column) == (4, 11) and "one of" in err.expected


def test_error_impossible_throw():
    err = _error(HEAD + "1. A: (6) 9-15\n")
    assert (err.line, err.column) == (
        4,
        7,
    ) and "(1), (2), (3), (4), (5)" in err.expected


def test_error_wrong_result_tag():
    err = _error('[Variant "standard"]\n[Result "A"]\n\n1. A: (3) 9-12\n')
    assert err.line == 2 and err.expected == "*"
    err = _error('[Variant "standard"]\n[Result "win"]\n\n1. A: (3) 9-12\n')
    assert err.line == 2 and err.expected == "A, B, draw or *"


def test_error_bad_turn_marker():
    err = _error(HEAD + "1. A: (3) 9-12\n2. A: (2) 10x12\n")
    assert (err.line, err.column) == (5, 1) and err.expected == "2. B:"
    err = _error(HEAD + "1. A: (3) 9-12\n3. B: (2) 10x12\n")
    assert (err.line, err.column) == (5, 1) and err.expected == "2. B:"
    err = _error(HEAD + "1. A: (4) 9-13\n2. B: (2) 10-12\n")  # the 4 gives A another throw
    assert (err.line, err.column) == (5, 1) and "current turn" in err.expected
    err = _error(HEAD + "1. (3) 9-12\n")
    assert (err.line, err.column) == (4, 4) and err.expected == "A: or B:"


def test_error_malformed_tags():
    err = _error("[Variant standard]\n\n1. A: (3) 9-12\n")
    assert (err.line, err.column) == (1, 1) and err.expected == '[Name "value"]'
    err = _error('[Result "*"]\n\n1. A: (3) 9-12\n')
    assert "Variant" in err.expected
    err = _error('[Result "*"]\n[Variant "senat"]\n\n1. A: (3) 9-12\n')
    assert err.line == 2 and err.expected == "a known variant name"
    err = _error('[Variant "standard"]\n[Variant "bell"]\n')
    assert err.line == 2


def test_error_in_start_position():
    err = _error('[Variant "standard"]\n[Start "standard ABABABABAB/........../.......... C -"]\n')
    assert (
        err.line == 2
        and err.column == len('[Start "standard ABABABABAB/........../.......... ') + 1
    )
    err = _error('[Variant "standard"]\n[Start "bell ABABABABAB/ABABABABAB/.......... A -"]\n')
    assert err.line == 2 and err.expected == "standard"


def test_error_unclosed_comment_and_dangling_marker():
    err = _error(HEAD + "1. A: (3) 9-12 {oops\n")
    assert (err.line, err.column) == (4, 16)
    err = _error(HEAD + "1. A: (3) 9-12\n2.")
    assert (err.line, err.column) == (5, 1)


def test_error_bad_move_text():
    err = _error(HEAD + "1. A: (3) 9-99\n")
    assert err.line == 4 and "target" in err.expected


def test_bell_score_tag_checked():
    start = fen("bell", [30], [], "A", captured=(0, 2))
    # the game is already over at the start: 9 against at most 8
    text = f'[Variant "bell"]\n[Result "A"]\n[Score "9-8"]\n[Start "{start}"]\n'
    assert parse_record(text).tags["Score"] == "9-8"
    err = _error(text.replace("9-8", "9-7"))
    assert err.line == 3 and err.expected == "9-8"


# ------------------------------------------------------------------ Game push/pop
def test_push_pop_restores_every_position():
    game = random_full_game("adelaida", 3)
    positions = list(game.positions)
    actions = list(game.actions)
    assert len(positions) == len(actions) + 1
    while len(game):
        expected_action = actions[len(game) - 1]
        assert game.pop() == expected_action
        assert game.position == positions[len(game)]
        assert game.position.fen() == positions[len(game)].fen()
    assert game.position == Position.initial(find_variant("adelaida"))
    with pytest.raises(IllegalMove):
        game.pop()


def test_push_illegal_changes_nothing():
    game = Game("kendall")
    game.push_throw(3)
    before = (game.position, game.actions)
    with pytest.raises(IllegalMove):
        game.push("2-5")  # B's piece
    with pytest.raises(IllegalMove):
        game.push("1-3")  # onto A's own piece
    with pytest.raises(IllegalMove):
        game.push_throw(2)
    assert (game.position, game.actions) == before
    game.push("9-12")
    assert game.actions == (Throw(3), parse_move("9-12"))
    assert [str(a) for a in game.actions] == ["(3)", "9-12"]


def test_turn_markers_may_be_left_out():
    text = HEAD + "(3) 9-12 (4) 8x12 {a swap} (2) 12-14\n(2) 7-9\n"
    record = parse_record(text)
    assert [str(a) for a in record.actions] == [
        "(3)",
        "9-12",
        "(4)",
        "8-12",
        "(2)",
        "12-14",
        "(2)",
        "7-9",
    ]
    assert record.text() == HEAD + "1. A: (3) 9-12\n2. B: (4) 8x12 (2) 12-14\n3. A: (2) 7-9\n"


def test_kendall_water_choice_of_the_other_seat_stays_in_the_turn():
    start = Position.from_fen(fen("kendall", [26, 3], [29, 1], "A"))
    game = Game(start)
    for action in (3, "26-29", "risk", 2, "pass"):
        game.push_throw(action) if isinstance(action, int) else game.push(action)
    text = GameRecord.from_game(game).text()
    assert "1. A: (3) 26x29 risk\n2. B: (2) pass\n" in text
    assert parse_record(text).actions == list(game.actions)


def test_error_actions_after_the_end():
    start = fen("standard", [27], [1], "A")
    text = f'[Variant "standard"]\n[Result "A"]\n[Start "{start}"]\n\n1. A: (4) 27-off (3)\n'
    err = _error(text)
    assert (err.line, err.column) == (5, 18) and "game is over" in str(err)
    assert parse_record(text.replace(" (3)", "")).replay().outcome().winner == 0


def test_bell_draw_record():
    start = fen("bell", [30], [29], "A", captured=(1, 1))
    game = Game(Position.from_fen(start))
    for action in (1, "30-off", 2, "29-off"):
        game.push_throw(action) if isinstance(action, int) else game.push(action)
    record = GameRecord.from_game(game)
    assert record.tags["Result"] == "draw" and record.tags["Score"] == "9-9"
    assert parse_record(record.text()).actions == list(game.actions)


# ---------------------------------------------------------------- games ended by a player
@settings(max_examples=20, deadline=None)
@given(
    name=st.sampled_from(ALL_VARIANTS),
    seed=st.integers(0, 10**9),
    cut=st.integers(1, 200),
    winner=st.sampled_from([0, 1]),
    termination=st.sampled_from(["resignation", "time forfeit", "abandoned"]),
)
def test_record_of_a_game_ended_by_a_player_round_trips(name, seed, cut, winner, termination):
    """A resigned, timed-out or abandoned game: Result names the winner, Termination says why,
    a closing comment names the loser, and the record still reads back and replays."""
    game = random_full_game(name, seed, limit=cut)
    if game.is_over():
        game.pop()
    record = GameRecord.from_game(game, winner=winner, termination=termination)
    text = record.text()
    assert record.tags["Result"] == "AB"[winner] and record.tags["Termination"] == termination
    loser = "AB"[1 - winner]
    assert text.rstrip().endswith("{" + TERMINATIONS[termination].format(loser) + "}")
    back = parse_record(text)
    assert back.tags == record.tags and back.actions == list(game.actions)
    assert back.replay().position == game.position


def test_a_termination_needs_an_unfinished_game_and_a_winner():
    game = random_full_game("standard", 3)
    assert game.is_over()
    with pytest.raises(ValueError):
        GameRecord.from_game(game, winner=0, termination="resignation")
    with pytest.raises(ValueError):
        GameRecord.from_game(Game(find_variant("standard")), winner=None, termination="resignation")
    with pytest.raises(ValueError):
        GameRecord.from_game(Game(find_variant("standard")), winner=1, termination="boredom")


def test_error_termination_tag():
    body = "\n1. A: (3) 9-12\n"
    err = _error('[Variant "standard"]\n[Result "*"]\n[Termination "resignation"]\n' + body)
    assert err.line == 2 and err.expected == "the winner: A or B"
    err = _error('[Variant "standard"]\n[Result "B"]\n[Termination "boredom"]\n' + body)
    assert err.line == 3 and "time forfeit" in err.expected
    ok = parse_record('[Variant "standard"]\n[Result "B"]\n[Termination "resignation"]\n' + body)
    assert ok.tags["Result"] == "B" and len(ok.actions) == 2
    # a game the rules ended cannot also have been resigned
    over = GameRecord.from_game(random_full_game("standard", 3)).text()
    forged = over.replace("[Result", '[Termination "resignation"]\n[Result', 1)
    err = _error(forged)
    assert "rules ended the game" in str(err) and err.expected.startswith('[Termination "normal"]')
    # "normal" is the rules' own end
    assert parse_record(over.replace("[Result", '[Termination "normal"]\n[Result', 1)).tags


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(ALL_VARIANTS), seed=st.integers(0, 10**9))
def test_turn_numbers_are_the_numbers_of_the_records_lines(name, seed):
    """Every action's turn number is the number of the record line that holds it, so the site
    can name a decision by the same number as the record and the game's move list."""
    game = random_full_game(name, seed)
    numbers = turn_numbers(pos for pos, _ in game)
    by_line = []
    for line in GameRecord.from_game(game).text().split("\n\n", 1)[1].splitlines():
        number, _, body = line.partition(". ")
        tokens = re.sub(r"\{[^}]*\}", " ", body).split()
        by_line += [int(number)] * len([tok for tok in tokens if tok not in ("A:", "B:")])
    assert numbers == by_line
    assert numbers[0] == 1 and all(b - a in (0, 1) for a, b in zip(numbers, numbers[1:]))


def test_turn_numbers_count_an_extra_throw_in_its_turn_and_a_skipped_turn_out():
    """standard: a throw of 1, 4 or 5 gives another throw, within the same turn; adelaida §23,
    House of Net: the skipped turn has no number of its own."""
    game = Game(find_variant("standard"))
    for action in (4, "9-13", 2, "13-15", 3, "10-13"):
        game.push_throw(action) if isinstance(action, int) else game.push(action)
    assert turn_numbers(pos for pos, _ in game) == [1, 1, 1, 1, 2, 2]
    start = Position.from_fen(fen("adelaida", [13, 1], [20], "A"))
    game = Game(start)
    for action in (3, "13-16", 2, "20-22", 2):
        game.push_throw(action) if isinstance(action, int) else game.push(action)
    assert turn_numbers(pos for pos, _ in game) == [1, 1, 2, 2, 3]
