"""``senet match``: seat-alternating pairs with shared throws, the score with its interval, a
record of every game, and every way a program can fail costing its game only."""

from __future__ import annotations

import shlex

import pytest

from senet.engine import Throw
from senet.engine.record import parse_record
from senet.protocol.cli import match_command
from senet.protocol.match import (
    MatchError,
    MatchSettings,
    elo_difference,
    play_match,
    score_interval,
)


def _throws(record) -> list[int]:
    return [a.value for a in record.actions if isinstance(a, Throw)]


def test_a_match_between_two_levels_from_the_command_line(tmp_path, level) -> None:
    from click.testing import CliRunner

    records = tmp_path / "records"
    result = CliRunner().invoke(
        match_command,
        [
            shlex.join(level("expert")),
            shlex.join(level("beginner")),
            "--variant",
            "kendall-1978",
            "--games",
            "4",
            "--time",
            "5",
            "--records",
            str(records),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    games = [line for line in lines if line.startswith("game ")]
    assert len(games) == 4
    # the seats alternate within each pair
    assert "senet-expert (A) - senet-beginner (B)" in games[0]
    assert "senet-beginner (A) - senet-expert (B)" in games[1]
    assert any("95% interval" in line and "Elo difference" in line for line in lines)
    assert sum(line.startswith("time per move of senet-") for line in lines) == 2
    files = sorted(records.glob("game-*.senet"))
    assert len(files) == 4
    parsed = [parse_record(f.read_text(encoding="utf-8")) for f in files]
    for record in parsed:
        game = record.replay()
        assert game.outcome() is not None  # played to the end by the rules
        assert record.tags["Result"] == game.outcome().result
        assert "Termination" not in record.tags
    # both games of a pair are thrown from the same sequence: one's throws begin the other's
    for first, second in (parsed[0:2], parsed[2:4]):
        a, b = _throws(first), _throws(second)
        n = min(len(a), len(b))
        assert a[:n] == b[:n] and first.tags["Seed"] == second.tags["Seed"]
    assert parsed[0].tags["Seed"] != parsed[2].tags["Seed"]


@pytest.mark.parametrize(
    ("mode", "termination", "reason"),
    [
        ("illegal", "rules infraction", "legal:"),
        ("malformed", "rules infraction", "'bestmove banana'"),
        ("refuse", "rules infraction", "I will not move"),
        ("crash", "abandoned", "deliberate crash"),
    ],
)
def test_a_broken_program_loses_the_game_and_the_match_goes_on(
    mode, termination, reason, level, broken
) -> None:
    settings = MatchSettings("standard", 4, time=5.0, grace=1.0)
    result = play_match((broken(mode, at=2), level("beginner")), settings)
    assert len(result.games) == 4
    for game in result.games:
        loser_seat = game.first_seat  # the broken program
        assert game.winner == 1 - loser_seat
        assert game.termination == termination
        assert reason in game.reason and result.names[0] in game.reason
        assert game.forfeiter == 0
        record = game.record
        assert record.tags["Termination"] == termination
        assert record.tags["Reason"] == " ".join(game.reason.split())
        assert record.tags["Result"] == "AB"[1 - loser_seat]
        # the record reads back, the moves before the forfeit replay, and the game is unfinished
        again = parse_record(record.text())
        assert again.replay().outcome() is None
        assert any(not isinstance(a, Throw) for a in again.actions)  # it moved once first
    mean, low, high = score_interval(result.pair_scores())
    assert mean == 0.0 and low == 0.0


@pytest.mark.slow  # waits out a program's time: more than a few seconds
def test_a_program_that_runs_out_of_time_loses_on_time(level, broken) -> None:
    # generous for the level (it answers in milliseconds), never enough for the silent program
    settings = MatchSettings("bell", 2, time=2.0, grace=2.0)
    result = play_match((level("beginner"), broken("timeout")), settings)
    assert [g.termination for g in result.games] == ["time forfeit", "time forfeit"]
    assert [g.first_score for g in result.games] == [1.0, 1.0]
    assert all("did not answer go in time" in g.reason for g in result.games)


def test_a_program_that_does_not_start_or_play_the_variant_stops_the_match(
    tmp_path, level, broken
) -> None:
    settings = MatchSettings("standard", 2, startup=1.0)
    with pytest.raises(MatchError, match="cannot be started"):
        play_match(([str(tmp_path / "no-such-program")], level("beginner")), settings)
    with pytest.raises(MatchError, match="did not answer senet in time"):
        play_match((broken("silent"), level("beginner")), settings)
    with pytest.raises(MatchError, match="does not play bell; it plays: standard, piccione"):
        play_match(
            (broken("illegal", variants=("standard", "piccione")), level("beginner")),
            MatchSettings("bell", 2),
        )
    with pytest.raises(MatchError, match="even number"):
        play_match((broken("illegal"), level("beginner")), MatchSettings("standard", 3))


def test_the_score_interval_and_elo() -> None:
    assert score_interval([1.0, 0.5, 0.5, 1.0]) == pytest.approx(
        (0.75, 0.75 - 0.283, 1.0), abs=1e-3
    )
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(1.0) == float("inf") and elo_difference(0.0) == float("-inf")


def test_the_example_engine_plays_a_match(level) -> None:
    """examples/random_engine.py, the page's engine in 40 lines, plays whole games."""
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "random_engine.py"
    settings = MatchSettings("piccione", 2, time=5.0)
    result = play_match(([sys.executable, str(example)], level("beginner")), settings)
    assert result.names == ("random-example", "senet-beginner")
    assert [g.termination for g in result.games] == ["normal", "normal"]


def test_the_command_refuses_bad_options_with_one_line(tmp_path, broken) -> None:
    from click.testing import CliRunner

    program = shlex.join(broken("illegal"))
    runner = CliRunner()
    odd = runner.invoke(
        match_command, [program, program, "--games", "3", "--records", str(tmp_path)]
    )
    assert odd.exit_code != 0 and "give an even number" in odd.output
    chess = runner.invoke(match_command, [program, program, "--variant", "chess"])
    assert chess.exit_code != 0 and "standard" in chess.output
