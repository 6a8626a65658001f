"""A move as one pure step (service/step.py): scenarios from positions, no storage anywhere."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.engine import Game, IllegalMove, Position, find_variant, parse_move
from senet.service.fairness.throws import FairDice
from senet.service.games.clocks import ClockState, parse_time_control
from senet.service.games.steps import GameState, StepResult, step
from senet.service.games.storage import StoredAction
from senet.service.messages import ActionKind

UNTIMED = parse_time_control("untimed").start()
NOW = 1_800_000_000_000


class Scripted:
    """Dice that show the given values in order (each as the first pattern showing it)."""

    def __init__(self, variant: str, values: list[int]) -> None:
        self.instrument = find_variant(variant).instrument
        self.values = values
        self.asked: list[int] = []

    def throw(self, n: int) -> tuple[int, int]:
        self.asked.append(n)
        value = self.values[len(self.asked) - 1]
        pattern = next(
            p for p in range(self.instrument.patterns) if self.instrument.value_of(p) == value
        )
        return pattern, value


def move(ply: int, seat: int, notation: str) -> StoredAction:
    return StoredAction(ply, ActionKind.MOVE, seat, notation)


def end(ply: int, loser: int, termination: str) -> StoredAction:
    return StoredAction(ply, ActionKind.END, loser, termination)


def kinds(result: StepResult) -> list[tuple[str, int | None, str]]:
    return [(a.kind.value, a.seat, a.notation) for a in result.actions]


def test_a_move_then_the_throw_that_follows_it() -> None:
    # standard: A threw a 2 (no extra throw) and moves 9-11; B throws next
    position = Position.initial(find_variant("standard")).apply_throw(2)
    state = GameState(position, ply=1, throws=1, clock=UNTIMED)
    dice = Scripted("standard", [3])
    result = step(state, move(1, 0, "9-11"), dice, NOW)
    assert kinds(result) == [("move", 0, "9-11"), ("throw", 1, "3")]
    assert [a.ply for a in result.actions] == [1, 2]
    assert dice.asked == [1]  # throw numbers go on from the state's count
    assert result.position == position.apply(parse_move("9-11")).apply_throw(3)
    assert result.position.decider == 1 and result.finish is None and result.clock is None
    assert result.continuation.start == position  # ready for the cached game's Game.extend


def test_a_throw_that_gives_another_throw_keeps_the_turn() -> None:
    # standard: a 1 gives another throw (a §-free rule of every sticks variant here)
    position = Position.initial(find_variant("standard")).apply_throw(1)
    result = step(
        GameState(position, 1, 1, UNTIMED), move(1, 0, "9-10"), Scripted("standard", [4]), NOW
    )
    assert kinds(result) == [("move", 0, "9-10"), ("throw", 0, "4")]
    assert result.position.decider == 0


def test_several_throws_follow_a_move_while_the_throws_are_banked() -> None:
    # kendall-1978: 1, 4 and 5 are thrown again and banked, the turn's moves come after them
    variant = find_variant("kendall-1978")
    position = Position.initial(variant).apply_throw(2)
    a_move = position.legal_moves()[0]
    dice = Scripted("kendall-1978", [4, 5, 1, 3])
    result = step(GameState(position, 1, 1, UNTIMED), move(1, 0, a_move.text()), dice, NOW)
    assert kinds(result)[1:] == [
        ("throw", 1, "4"),
        ("throw", 1, "5"),
        ("throw", 1, "1"),
        ("throw", 1, "3"),
    ]
    assert [a.ply for a in result.actions] == [1, 2, 3, 4, 5]
    assert dice.asked == [1, 2, 3, 4]
    assert result.position.decider == 1 and sorted(result.position.throws) == [1, 3, 4, 5]


def test_the_first_throw_is_a_step_without_an_action() -> None:
    position = Position.initial(find_variant("standard"))
    result = step(GameState(position, 0, 0, UNTIMED), None, Scripted("standard", [2]), NOW)
    assert kinds(result) == [("throw", 0, "2")] and result.actions[0].ply == 0
    assert result.actions[0].pattern is not None
    assert find_variant("standard").instrument.value_of(result.actions[0].pattern) == 2


def test_a_move_that_ends_the_game_is_followed_by_no_throw() -> None:
    # kendall: A's last piece, on 27, bears off with the 4 it threw
    position = Position.from_fen("kendall .B......../........../......A... A 4")
    dice = Scripted("kendall", [])
    result = step(GameState(position, 40, 21, UNTIMED), move(40, 0, "27-off"), dice, NOW)
    assert kinds(result) == [("move", 0, "27-off")] and dice.asked == []
    assert result.finish is not None and result.finish.result == "A"
    assert result.finish.termination is None  # the rules ended it
    assert (result.finish.score_a, result.finish.score_b) == position.apply(
        parse_move("27-off")
    ).outcome().score  # type: ignore[union-attr]


def test_a_forced_pass_hands_the_turn_over() -> None:
    # kendall: A's only piece, on 27, leaves the board with a 4 only: with a 2, A passes
    position = Position.from_fen("kendall .B......../........../......A... A 2")
    result = step(
        GameState(position, 9, 5, UNTIMED), move(9, 0, "pass"), Scripted("kendall", [3]), NOW
    )
    assert kinds(result) == [("move", 0, "pass"), ("throw", 1, "3")]
    assert result.position.decider == 1


@pytest.mark.parametrize(
    ("termination", "loser", "reason"),
    [
        ("resignation", 0, "A resigns"),
        ("time forfeit", 1, "B loses on time"),
        ("abandoned", 1, "B left the game"),
    ],
)
def test_an_end_action_ends_the_game_without_a_throw(
    termination: str, loser: int, reason: str
) -> None:
    position = Position.initial(find_variant("standard")).apply_throw(3)
    dice = Scripted("standard", [])
    result = step(GameState(position, 1, 1, UNTIMED), end(1, loser, termination), dice, NOW)
    assert kinds(result) == [("end", loser, termination)] and dice.asked == []
    assert result.position == position  # an ending moves no piece
    assert result.finish is not None
    assert result.finish.result == "AB"[1 - loser] and result.finish.reason == reason
    assert result.finish.termination == termination


def test_an_ending_of_a_game_already_over_is_refused() -> None:
    over = Position.from_fen("kendall .B......../........../......A... A 4").apply(
        parse_move("27-off")
    )
    with pytest.raises(ValueError, match="not an ending"):
        step(
            GameState(over, 41, 21, UNTIMED),
            end(41, 1, "resignation"),
            Scripted("kendall", []),
            NOW,
        )


def test_an_illegal_or_misnumbered_action_is_refused_and_changes_nothing() -> None:
    position = Position.initial(find_variant("standard")).apply_throw(2)
    state = GameState(position, 1, 1, UNTIMED)
    with pytest.raises(IllegalMove):
        step(state, move(1, 0, "9-12"), Scripted("standard", [1]), NOW)
    with pytest.raises(ValueError, match="expected ply 1"):
        step(state, move(2, 0, "9-11"), Scripted("standard", [1]), NOW)
    with pytest.raises(ValueError, match="server's to draw"):
        step(state, StoredAction(1, ActionKind.THROW, 0, "3", 3), Scripted("standard", []), NOW)
    assert state == GameState(position, 1, 1, UNTIMED)
    with pytest.raises(FrozenInstanceError):
        state.ply = 2  # type: ignore[misc]


# ---------------------------------------------------------------------------- the clocks
def running(control: str, seat: int, remaining: tuple[int, int], deadline: int) -> ClockState:
    return ClockState(parse_time_control(control), remaining, seat, deadline)


def test_a_move_spends_the_movers_time_adds_the_increment_and_starts_the_next_clock() -> None:
    position = Position.initial(find_variant("standard")).apply_throw(2)
    clock = running("clock:300+5", 0, (300_000, 300_000), NOW + 300_000)
    result = step(
        GameState(position, 1, 1, clock),
        move(1, 0, "9-11"),
        Scripted("standard", [3]),
        NOW + 40_000,
    )
    assert result.clock == ClockState(clock.control, (265_000, 300_000), 1, NOW + 340_000)
    assert result.clock_columns == {
        "clock_a": 265_000,
        "clock_b": 300_000,
        "clock_seat": 1,
        "deadline": NOW + 340_000,
    }


def test_no_clock_runs_while_the_computer_decides() -> None:
    position = Position.initial(find_variant("standard")).apply_throw(2)
    clock = running("move:30", 0, (0, 0), NOW + 30_000)
    state = GameState(position, 1, 1, clock, computer_seat=1)
    result = step(state, move(1, 0, "9-11"), Scripted("standard", [3]), NOW + 1_000)
    assert (
        result.clock is not None and result.clock.running is None and result.clock.deadline is None
    )


def test_a_forced_pass_is_free_of_clock_time_and_no_clock_runs_before_it() -> None:
    # A's forced pass is due: the server plays it, A's clock did not run and spends nothing
    forced = Position.from_fen("kendall .B......../........../......A... A 2")
    before = Position.from_fen("kendall .B......../........../......A... B 3")
    clock = running("clock:60+2", 1, (50_000, 40_000), NOW + 40_000)
    # B moves 2-5, then A throws the 2 that leaves A only a pass: A's clock does not start
    after_b = step(
        GameState(before, 8, 4, clock), move(8, 1, "2-5"), Scripted("kendall", [2]), NOW + 10_000
    )
    assert after_b.position.legal_moves() == [parse_move("pass")]
    assert after_b.clock == ClockState(clock.control, (50_000, 32_000), None, None)
    # the forced pass (free): A keeps its 50 s, no increment; B's clock starts after B's throw
    result = step(
        GameState(forced, 10, 5, after_b.clock),  # type: ignore[arg-type]
        move(10, 0, "pass"),
        Scripted("kendall", [3]),
        NOW + 15_000,
        free=True,
    )
    assert result.clock == ClockState(clock.control, (50_000, 32_000), 1, NOW + 15_000 + 32_000)


def test_a_clock_that_ran_out_ends_the_game_with_no_time_left() -> None:
    position = Position.initial(find_variant("standard")).apply_throw(2)
    clock = running("clock:300+5", 0, (300_000, 120_000), NOW + 300_000)
    late = NOW + 301_000
    assert clock.expired(late)
    result = step(
        GameState(position, 1, 1, clock), end(1, 0, "time forfeit"), Scripted("standard", []), late
    )
    assert result.clock == ClockState(clock.control, (0, 120_000), None, None)
    assert result.finish is not None and result.finish.result == "B"


def test_a_resignation_stops_the_clocks_keeping_the_time_left() -> None:
    position = Position.initial(find_variant("standard")).apply_throw(2)
    clock = running("clock:300+5", 0, (300_000, 120_000), NOW + 300_000)
    result = step(
        GameState(position, 1, 1, clock),
        end(1, 1, "resignation"),
        Scripted("standard", []),
        NOW + 100_000,
    )
    assert result.clock == ClockState(clock.control, (200_000, 120_000), None, None)


# ---------------------------------------------------------------------------- random play
#: variants whose games end in useful time under random play (jequier's do not)
ENDING = ["standard", "bell", "kendall", "adelaida", "adelaida-long", "kendall-1978", "piccione"]
#: variants where no piece ever leaves the game but borne off
CONSERVING = {"standard", "kendall", "kendall-1978", "piccione"}


def pieces(position: Position) -> tuple[int, int]:
    return (
        len(position.pieces(0)) + position.off(0) + position.hand(0),
        len(position.pieces(1)) + position.off(1) + position.hand(1),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(ENDING),
    secret=st.binary(min_size=32, max_size=32),
    choices=st.integers(0, 2**32),
)
def test_steps_over_random_legal_play_agree_with_the_engine(
    name: str, secret: bytes, choices: int
) -> None:
    variant = find_variant(name)
    dice = FairDice("g", secret, "a:b", variant.instrument)
    rng = random.Random(choices)
    reference = Game(variant)  # the engine alone: the same moves and the dice's throws
    state = GameState(reference.position, 0, 0, UNTIMED)
    result = step(state, None, dice, NOW)
    start_pieces = pieces(reference.position)
    n = 0  # the throws drawn so far
    for _ in range(5_000):
        for action in result.actions:
            if action.kind == ActionKind.THROW:  # the move was pushed on the reference already
                assert (action.pattern, int(action.notation)) == dice.throw(n)
                reference.push_throw(int(action.notation))
                n += 1
        assert result.position == reference.position
        assert [a.ply for a in result.actions] == list(
            range(state.ply, state.ply + len(result.actions))
        )
        if name in CONSERVING:
            assert pieces(result.position) == start_pieces
        if result.finish is not None:
            outcome = reference.outcome()
            assert outcome is not None and result.position.is_over()
            assert (result.finish.result, result.finish.score_a, result.finish.score_b) == (
                outcome.result,
                *outcome.score,
            )
            return
        assert not result.position.is_over() and result.position.decider is not None
        state = GameState(
            result.position,
            state.ply + len(result.actions),
            n,
            UNTIMED,
        )
        chosen = rng.choice(result.position.legal_moves())
        decider = result.position.decider
        reference.push(chosen)
        result = step(state, move(state.ply, decider, chosen.text()), dice, NOW)
        assert result.actions[0] == move(state.ply, decider, chosen.text())
    pytest.fail("a random game did not end in 5,000 decisions")
