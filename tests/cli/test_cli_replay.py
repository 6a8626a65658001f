"""``senet replay``: a valid record replays to its end; a corrupted one fails at LINE:COLUMN."""

from __future__ import annotations

import random
import subprocess

import pytest

from senet.engine import Game, find_variant
from senet.engine.record import GameRecord, write_record


def _random_record(variant: str, seed: int) -> str:
    rng = random.Random(seed)
    game = Game(find_variant(variant))
    while not game.is_over():
        position = game.position
        if position.is_chance():
            game.push_throw(rng.choice([v for v, _ in position.chance_outcomes()]))
        else:
            game.push(rng.choice(position.legal_moves()))
    return write_record(GameRecord.from_game(game, PlayerA="Nefertari", PlayerB="Ramesses"))


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "game.senet"
    path.write_text(_random_record("kendall", 3), encoding="utf-8")
    return path


def test_valid_record(run, record_file):
    result = run("replay", str(record_file))
    assert result.exit_code == 0, result.stderr
    assert '[PlayerA "Nefertari"]' in result.output
    assert "outcome: " in result.output and "wins" in result.output
    assert "position: kendall " in result.output


def test_step_shows_every_action(run, record_file):
    out = run("replay", "--step", str(record_file)).output
    text = record_file.read_text()
    turns = [line for line in text.splitlines() if line[:1].isdigit()]
    assert out.count("=== turn ") == len(turns)
    actions = sum(len(line.split()) - 2 for line in turns)
    assert (
        out.count("  A (dark stones): ") == actions + 1
    )  # a board after each action, and the final one


def test_corrupted_record_names_line_and_column(run, record_file):
    lines = record_file.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    column = lines[index].index("(") + 1
    lines[index] = lines[index][: column - 1] + "(7)" + lines[index][column + 2 :]
    record_file.write_text("\n".join(lines) + "\n")
    result = run("replay", str(record_file))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{record_file}:{index + 1}:{column}: ")
    assert "7 is not a possible throw" in result.stderr and "expected a throw" in result.stderr


def test_illegal_move_lists_what_was_expected(run, tmp_path):
    path = tmp_path / "bad.senet"
    path.write_text('[Variant "standard"]\n\n1. A: (3) 2-5\n', encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:3:11: ") and "one of 1x4" in result.stderr


def test_result_tag_must_agree(run, tmp_path):
    path = tmp_path / "r.senet"
    path.write_text('[Variant "standard"]\n[Result "A"]\n\n1. A: (3) 1x4\n', encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1 and ":2:1: " in result.stderr


def test_unfinished_record_from_stdin(run):
    result = run("replay", "-", input='[Variant "bell"]\n\n1. A: (2) 19-21\n')
    assert result.exit_code == 0 and "unfinished (*)" in result.output


def test_missing_file(run, tmp_path):
    result = run("replay", str(tmp_path / "nope.senet"))
    assert result.exit_code != 0 and "Traceback" not in (result.stderr + result.output)


def test_real_subprocess(senet_exe, record_file, tmp_path):
    ok = subprocess.run(
        [senet_exe, "replay", record_file], capture_output=True, text=True, timeout=60
    )
    assert ok.returncode == 0 and "outcome: " in ok.stdout
    bad = tmp_path / "bad.senet"
    bad.write_text(record_file.read_text().replace('[Variant "kendall"]', '[Variant "kendal"]'))
    fail = subprocess.run([senet_exe, "replay", bad], capture_output=True, text=True, timeout=60)
    assert fail.returncode == 1 and f"{bad}:1:1: unknown variant 'kendal'" in fail.stderr
