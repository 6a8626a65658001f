"""Provably fair throws: a finished record verifies; one altered throw is caught and named."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from senet.engine import Game, find_variant
from senet.engine.record import GameRecord
from senet.service.fairness.throws import FairDice, commitment_of, new_secret
from senet.service.fairness.verify import verify_text


def fair_game(variant: str, seed: int) -> GameRecord:
    """A whole game whose throws come from the fair dice, moves chosen at random."""
    secret = new_secret()
    dice = FairDice(
        "g" + str(seed), secret, "alice-seed|bob-seed", find_variant(variant).instrument
    )
    game = Game(variant)
    rng = random.Random(seed)
    number = 0
    while not game.is_over():
        if game.position.is_chance():
            game.push_throw(dice.throw(number)[1])
            number += 1
        else:
            game.push(rng.choice(game.position.legal_moves()))
    return GameRecord.from_game(
        game,
        GameId=dice.game_id,
        Commitment=commitment_of(secret),
        Seed=secret.hex(),
        PlayerSeeds=dice.player_seeds,
    )


@pytest.mark.parametrize("variant", ["standard", "bell", "adelaida"])
def test_a_fair_record_verifies(variant: str) -> None:
    result = verify_text(fair_game(variant, 7).text())
    assert result.ok and result.throws_checked > 20


def test_one_altered_throw_fails_and_is_named() -> None:
    text = fair_game("kendall", 3).text()
    lines = text.splitlines()
    body = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    original = re.search(r"\((\d)\)", lines[body]).group(1)
    lines[body] = lines[body].replace(f"({original})", f"({'2' if original != '2' else '3'})", 1)
    result = verify_text("\n".join(lines) + "\n")
    assert not result.ok
    assert len(result.mismatches) == 1
    mismatch = result.mismatches[0]
    assert (mismatch.turn, mismatch.line, mismatch.recorded) == (
        3,
        body + 1,
        int(lines[body][lines[body].index("(") + 1]),
    )
    assert f"turn 3, line {body + 1}" in str(mismatch)
    assert verify_text(text).ok  # the unaltered record still verifies


def test_a_wrong_seed_does_not_match_the_commitment() -> None:
    record = fair_game("standard", 11)
    record.tags["Seed"] = new_secret().hex()
    result = verify_text(record.text())
    assert not result.commitment_ok and not result.ok
    assert "does not match the Commitment" in result.problem


def test_a_record_without_the_proof_cannot_be_verified() -> None:
    record = fair_game("standard", 12)
    del record.tags["Seed"]
    result = verify_text(record.text())
    assert not result.ok and "Seed" in result.problem


def test_verify_command(tmp_path: Path) -> None:
    good = tmp_path / "good.senet"
    good.write_text(fair_game("bell", 5).text(), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", str(good)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("verified:")
    record = fair_game("bell", 5)
    record.tags["Commitment"] = "0" * 64
    bad = tmp_path / "bad.senet"
    bad.write_text(record.text(), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 1 and "NOT VERIFIED" in run.stdout
