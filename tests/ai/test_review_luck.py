"""Luck and skill in a review: the luck of a throw is the thrower's chance after it minus the
average over every throw that could have come, and luck plus decisions add up to the change in
winning chance over the game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from senet.ai.review import account, review_game
from senet.ai.solver import for_seat, solve_many
from senet.engine import Game, Position, Throw, draw_throw

# Endgames small enough for the judge to value exactly (the shipped tables, or a solve).
ENDGAMES = (
    "standard ........../........../.A.B..A.B. A -",
    # (Kendall's endgames take the solver half a minute: in the slow set)
    pytest.param("kendall ........../........../A.B..A..B. A -", marks=pytest.mark.slow),
    "bell ........../........../.B.A..B.A. A -",
)


def _played(fen: str, seed: int, careless: float) -> Game:
    """A game from ``fen`` played to its end: random throws, moves by a player who takes a
    random move with probability ``careless`` and otherwise the first legal one."""
    rng = random.Random(seed)
    game = Game(Position.from_fen(fen))
    while not game.is_over():
        pos = game.position
        if pos.is_chance():
            game.push_throw(draw_throw(rng, pos.variant.instrument))
        else:
            legal = pos.legal_moves()
            game.push(rng.choice(legal) if rng.random() < careless else legal[0])
    return game


@pytest.mark.parametrize("fen", ENDGAMES)
@pytest.mark.parametrize("seed", [1])
def test_luck_of_every_throw_is_the_exact_value_after_it_minus_before_it(
    fen: str, seed: int
) -> None:
    game = _played(fen, seed, careless=0.5)
    start = Position.from_fen(fen)
    exact = solve_many([start])
    rows = review_game(game)
    assert all(r.exact for r in rows)
    throws_before: list[Position] = []  # the chance position before each decision's throws
    first: Position | None = None
    for pos, action in game:
        if isinstance(action, Throw):
            first = first or pos
        else:
            throws_before.append(first)  # type: ignore[arg-type]
            first = None
    decisions = [pos for pos, action in game if not isinstance(action, Throw)]
    assert len(rows) == len(decisions) == len(throws_before)
    for row, decided, thrown_from in zip(rows, decisions, throws_before, strict=True):
        if thrown_from is None:
            assert row.luck == 0.0 and row.thrower is None
            continue
        seat = thrown_from.turn
        # The chance before the throw: the average over every possible throw, by hand.
        expected = sum(
            float(p) * exact.value(thrown_from.apply_throw(n))
            for n, p in thrown_from.chance_outcomes()
        )
        assert exact.value(thrown_from) == pytest.approx(expected, abs=1e-9)
        luck = for_seat(exact.value(decided), seat) - for_seat(expected, seat)
        assert row.thrower == seat
        assert row.luck == pytest.approx(luck, abs=1e-9)


@pytest.mark.parametrize("fen", ENDGAMES)
@pytest.mark.parametrize("seed", [3, 4])
def test_luck_plus_decisions_equals_the_change_in_winning_chance(fen: str, seed: int) -> None:
    game = _played(fen, seed, careless=0.7)
    rows = review_game(game)
    summary = account(rows)
    assert summary is not None
    start = solve_many([Position.from_fen(fen)]).value(Position.from_fen(fen))
    outcome = game.outcome()
    assert outcome is not None
    result_a = 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)
    assert summary.start == pytest.approx(start, abs=1e-9)
    assert summary.end == pytest.approx(result_a, abs=1e-9)
    a, b = summary.seats
    assert a.luck is not None and b.luck is not None
    # From seat A's side: A's throws, minus B's, minus what A's decisions lost, plus B's.
    assert a.luck - b.luck - a.loss + b.loss == pytest.approx(result_a - start, abs=1e-9)
    assert summary.remainder == pytest.approx(0.0, abs=1e-9)
    for seat in (a, b):
        own = [r for r in rows if r.mover == seat.seat and r.choices > 1]
        assert seat.decisions == len(own)
        assert seat.loss == pytest.approx(sum(r.loss for r in own))
        assert seat.mistakes == sum(r.verdict == "mistake" for r in own)
        assert seat.blunders == sum(r.verdict == "blunder" for r in own)


@pytest.mark.slow  # a Kendall endgame solved
def test_perfect_play_has_no_error_and_the_whole_change_is_luck() -> None:
    fen = "kendall ........../........../A.B..A..B. A -"
    start = Position.from_fen(fen)
    exact = solve_many([start])
    rng = random.Random(8)
    game = Game(start)
    while not game.is_over():
        pos = game.position
        if pos.is_chance():
            game.push_throw(draw_throw(rng, pos.variant.instrument))
        else:
            seat = pos.decider
            assert seat is not None
            game.push(max(exact.move_values(pos), key=lambda mv: for_seat(mv[1], seat))[0])
    summary = account(review_game(game))
    assert summary is not None
    a, b = summary.seats
    assert a.loss == b.loss == a.error_rate == b.error_rate == 0.0
    assert a.luck is not None and b.luck is not None
    assert a.luck - b.luck == pytest.approx(summary.end - summary.start, abs=1e-9)
    assert abs(a.luck - b.luck) > 0.05  # the throws decided this game, one way or the other


def test_an_old_review_without_luck_has_no_luck_sums() -> None:
    rows = review_game(_played(ENDGAMES[0], 1, careless=0.5))
    summary = account([replace(r, luck=None, thrower=None) for r in rows])
    assert summary is not None
    assert summary.seats[0].luck is None and summary.seats[1].luck is None
    assert summary.remainder == 0.0
