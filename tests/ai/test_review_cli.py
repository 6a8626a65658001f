"""Game review and the ``senet solve`` / ``senet review`` commands."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from senet.ai.cli import review as review_cmd
from senet.ai.cli import solve as solve_cmd
from senet.ai.review import classify, review_game
from senet.ai.solver import for_seat, solve_many
from senet.engine import Game, Position, draw_throw
from senet.engine.record import GameRecord, write_record

ENDGAME = "kendall ........../.........A/........BA A 1"  # 20-21 is best, 30-off loses 0.054


def _endgame_game(move: str) -> Game:
    game = Game(Position.from_fen(ENDGAME))
    game.push(move)
    return game


def test_review_finds_the_exact_loss_of_a_mistake() -> None:
    pos = Position.from_fen(ENDGAME)
    values = {m.text(): v for m, v in solve_many([pos]).move_values(pos)}
    (row,) = review_game(_endgame_game("30-off"))
    assert row.exact and row.mover == 0 and row.choices == 2
    assert row.best == "20-21" and row.move == "30-off"
    assert row.before == pytest.approx(values["20-21"])
    assert row.after == pytest.approx(values["30-off"])
    assert row.loss == pytest.approx(values["20-21"] - values["30-off"])
    assert row.verdict == classify(row.loss) == "mistake"
    (good,) = review_game(_endgame_game("20-21"))
    assert good.loss == 0.0 and good.verdict == ""


def test_review_of_a_whole_record_has_a_row_per_move() -> None:
    game = Game("standard")
    rng = random.Random(3)
    while len([a for a in game.actions if not hasattr(a, "value")]) < 12:
        pos = game.position
        if pos.is_chance():
            game.push_throw(draw_throw(rng, pos.variant.instrument))
        else:
            game.push(rng.choice(pos.legal_moves()))
    text = write_record(GameRecord.from_game(game))
    rows = review_game(text, level="expert")
    assert [r.ply for r in rows] == list(range(1, 13))
    for r in rows:
        assert 0.0 <= r.after <= r.before + 1e-12 <= 1.0 + 1e-12
        assert r.loss == pytest.approx(r.before - r.after)
        assert r.chance_a_before == pytest.approx(for_seat(r.before, r.mover))
    # Forced moves cost nothing.
    assert all(r.loss == 0.0 for r in rows if r.choices == 1)


def test_solve_command_prints_every_move() -> None:
    result = CliRunner().invoke(
        solve_cmd, ["--variant", "kendall", "--position", ENDGAME.split(" ", 1)[1]]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("20-21" in ln and "best" in ln for ln in lines)
    assert any("30-off" in ln and "best" not in ln for ln in lines)


def test_solve_command_refuses_a_position_too_large() -> None:
    result = CliRunner().invoke(
        solve_cmd, ["-p", "standard ABABABABAB/........../.......... A 1", "--max-states", "500"]
    )
    assert result.exit_code != 0 and "not a solvable endgame" in result.output


def test_review_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "game.txt"
    record.write_text(write_record(GameRecord.from_game(_endgame_game("30-off"))))
    result = CliRunner().invoke(review_cmd, [str(record)])
    assert result.exit_code == 0, result.output
    assert "30-off" in result.output and "mistake" in result.output
