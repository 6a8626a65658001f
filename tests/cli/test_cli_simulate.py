"""``senet simulate``: counts add up, the interval holds the rate, results are reproducible."""

from __future__ import annotations

import json

import pytest

from senet.sim.intervals import wilson as wilson_interval


def _sim(run, *args: str) -> dict:
    result = run("simulate", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.output)


@pytest.mark.parametrize("variant", ["standard", "bell", "kendall", "adelaida"])
def test_numbers_are_sane(run, variant):
    data = _sim(run, "--variant", variant, "--games", "12", "--seed", "1")
    assert data["games"] == 12
    assert data["wins"]["A"] + data["wins"]["B"] + data["draws"] + data["unfinished"] == 12
    assert data["unfinished"] == 0
    lo, hi = data["a_win_rate_ci95"]
    assert 0 <= lo <= data["a_win_rate"] <= hi <= 1
    assert data["a_win_rate"] == data["wins"]["A"] / 12
    assert data["turns"]["mean"] <= data["throws"]["mean"]  # every turn starts with a throw
    assert data["turns"]["mean"] > 10
    if variant != "bell":
        assert data["draws"] == 0


def test_reproducible_and_seed_sensitive(run):
    args = ("--variant", "standard", "--games", "8", "--players", "random,greedy")
    assert _sim(run, *args, "--seed", "5") == _sim(run, *args, "--seed", "5")
    assert _sim(run, *args, "--seed", "5") != _sim(run, *args, "--seed", "6")


def test_greedy_beats_random(run):
    data = _sim(
        run, "--variant", "kendall", "--games", "60", "--seed", "2", "--players", "random,greedy"
    )
    assert data["players"] == {"A": "random", "B": "greedy"}
    assert data["wins"]["B"] > data["wins"]["A"]


def test_text_output(run):
    result = run("simulate", "--variant", "bell", "--games", "10", "--seed", "3")
    assert result.exit_code == 0
    assert "95% CI" in result.output and "Wilson" in result.output
    assert "draws: " in result.output and "length in turns: mean" in result.output
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


def test_progress_on_request(run):
    result = run("simulate", "--games", "10", "--seed", "3", "--progress")
    assert "games: 10/10" in result.stderr


def test_bad_arguments(run):
    assert "unknown player" in run("simulate", "--players", "random,oracle").stderr
    assert run("simulate", "--players", "a,b,c").exit_code != 0
    assert run("simulate", "--games", "0").exit_code != 0
    assert "unknown variant" in run("simulate", "--variant", "ur").stderr


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0 and wilson_interval(10, 10)[1] == pytest.approx(1)


def test_turns_are_counted_as_the_record_counts_them():
    """play_game's turn count equals the number of turn lines of the same game's record."""
    import random

    from senet.cli_engine.players import random_player
    from senet.cli_engine.simulate import play_game
    from senet.engine import Game, Position, draw_throw, find_variant
    from senet.engine.record import turn_lines

    for name in ("standard", "kendall", "adelaida"):
        v = find_variant(name)
        stats = play_game(Position.initial(v), (random_player, random_player), random.Random(9))
        rng = random.Random(9)  # the same draws in the same order
        game = Game(v)
        while not game.is_over():
            position = game.position
            if position.is_chance():
                game.push_throw(draw_throw(rng, v.instrument))
            else:
                game.push(random_player(position, rng))
        assert game.outcome() == stats.outcome
        assert len(turn_lines(game.start, list(game.actions))) == stats.turns
        assert sum(1 for a in game.actions if hasattr(a, "value")) == stats.throws
