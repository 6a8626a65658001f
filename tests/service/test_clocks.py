"""Time controls as pure state: parsing, what each decision costs, deadlines."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from senet.service.games.clocks import PRESETS, UNTIMED, ClockState, TimeControl, parse_time_control


@pytest.mark.parametrize("control", PRESETS)
def test_presets_round_trip(control):
    assert parse_time_control(control.text()) == control


@pytest.mark.parametrize(
    "text",
    ["", "none", "move:", "move:3", "move:99999", "clock:300", "clock:10+5", "clock:300+999", "x"],
)
def test_malformed_time_controls_are_refused_with_the_expected_form(text):
    if text == "":
        assert parse_time_control(text) == UNTIMED  # nothing said: untimed
        return
    with pytest.raises(ValueError) as info:
        parse_time_control(text)
    assert "move" in str(info.value) or "clock" in str(info.value)


def test_untimed_never_runs():
    state = UNTIMED.start().after(1000, 0, 1)
    assert state.running is None and state.deadline is None and not state.expired(10**12)


def test_limit_per_decision_restarts_every_decision():
    state = parse_time_control("move:30").start()
    state = state.after(now=1_000, decided=None, next_decider=0)  # the first throw is made
    assert (state.running, state.deadline) == (0, 31_000)
    assert state.left(0, 11_000) == 20_000 and not state.expired(30_999) and state.expired(31_000)
    state = state.after(now=29_000, decided=0, next_decider=1)
    assert (state.running, state.deadline) == (1, 59_000)  # a full 30 s, nothing carried over
    state = state.after(now=30_000, decided=1, next_decider=1)  # an extra throw: B again
    assert state.deadline == 60_000


def test_game_clock_spends_time_and_adds_the_increment():
    state = parse_time_control("clock:300+5").start()
    assert state.remaining == (300_000, 300_000) and state.running is None
    state = state.after(now=0, decided=None, next_decider=0)
    assert state.deadline == 300_000
    state = state.after(now=40_000, decided=0, next_decider=1)  # A thought 40 s
    assert state.remaining[0] == 265_000 and (state.running, state.deadline) == (1, 340_000)
    assert state.left(0, 100_000) == 265_000  # A's clock is stopped
    state = state.after(now=41_000, decided=1, next_decider=None)  # the computer or the end
    assert state.remaining == (265_000, 304_000) and state.deadline is None


def test_a_decision_played_for_the_player_costs_nothing():
    state = parse_time_control("clock:60+2").start().after(now=0, decided=None, next_decider=0)
    state = state.after(now=3_000, decided=0, next_decider=1, free=True)
    assert state.remaining[0] == 60_000  # no time spent, no increment


def test_the_end_of_the_game_stops_the_clocks_where_they_stood():
    """A resignation, a loss on time or an abandoned game stops the running clock: on a game
    clock its seat keeps what it had left (no increment); a limit per move keeps nothing."""
    state = parse_time_control("clock:300+5").start().after(now=0, decided=None, next_decider=0)
    state = state.after(now=40_000, decided=0, next_decider=1)  # B's clock runs: 300 s left
    assert state.stopped(now=100_000) == ClockState(state.control, (265_000, 240_000), None, None)
    assert state.stopped(now=400_000).remaining == (265_000, 0)  # on time: nothing left
    assert state.stopped(now=100_000).stopped(now=200_000).remaining == (265_000, 240_000)
    per_move = parse_time_control("move:30").start().after(now=0, decided=None, next_decider=1)
    over = per_move.stopped(now=31_000)
    assert (over.running, over.deadline) == (None, None) and over.remaining == per_move.remaining
    assert over.left(1, 31_000) == 30_000  # a limit per move: a stopped clock shows the limit


@given(
    seconds=st.integers(30, 600),
    increment=st.integers(0, 30),
    thinks=st.lists(st.integers(0, 100_000), min_size=1, max_size=40),
)
def test_game_clock_accounts_every_millisecond(seconds, increment, thinks):
    """Remaining time = allowance + increments - time spent, never below zero per decision."""
    control = TimeControl("clock", seconds, increment)
    state = control.start().after(now=0, decided=None, next_decider=0)
    now, spent, decisions = 0, [0, 0], [0, 0]
    for i, think in enumerate(thinks):
        seat = i % 2
        assert state.running == seat
        think = min(think, state.left(seat, now))
        now += think
        spent[seat] += think
        decisions[seat] += 1
        state = state.after(now=now, decided=seat, next_decider=1 - seat)
    for seat in (0, 1):
        expected = seconds * 1000 + decisions[seat] * increment * 1000 - spent[seat]
        assert state.remaining[seat] == expected
