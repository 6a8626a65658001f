"""The review of a finished game, placed in the game: each decision's turn number (the record's
line), the seat on turn, the throw, and the replay of every position the review page draws."""

from __future__ import annotations

import json
import random

from senet.engine import Game, Position, Throw
from senet.engine.record import GameRecord
from senet.service.analysis import replay, review_game_of


def endgame(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(Position.from_fen("standard ........../........../..AAB.B... A -"))
    while not game.is_over():
        pos = game.position
        if pos.is_chance():
            game.push_throw(rng.choice([value for value, _ in pos.chance_outcomes()]))
        else:
            game.push(rng.choice(pos.legal_moves()))
    return game


def test_every_decision_has_the_turn_number_of_its_record_line_and_the_replay_its_position():
    game = endgame(7)
    review = review_game_of(game)
    decisions = [(pos, action) for pos, action in game if not isinstance(action, Throw)]
    assert len(review.decisions) == len(decisions) > 3
    lines = GameRecord.from_game(game).text().split("\n\n", 1)[1].splitlines()
    for d, (pos, move) in zip(review.decisions, decisions, strict=True):
        line = next(text for text in lines if text.startswith(f"{d.turn}. "))
        assert line.startswith(f"{d.turn}. {'AB'[d.on_turn]}: ")
        assert f"({pos.throw}) {pos.move_text(move)}" in line  # the throw, then the move
        assert d.row.position == pos.fen() and d.throw == str(pos.throw)
    assert [d.index for d in review.decisions] == list(range(len(decisions)))
    # the move list: one entry a turn, in order, every decision once
    turns = review.turns
    assert [d for t in turns for d in t.decisions] == list(review.decisions)
    assert [t.number for t in turns] == sorted({d.turn for d in review.decisions})

    payload = replay(review)
    assert payload["end"] == game.position.fen()
    for step, d in zip(payload["steps"], review.decisions, strict=True):
        turn, seat, fen, played, best, verdict, loss = step
        assert (turn, seat, fen, played, best, verdict) == (
            d.turn,
            d.row.mover,
            d.row.position,
            d.row.move,
            d.row.best,
            d.row.verdict,
        )
        assert loss == round(d.row.loss * 100, 1)
    text = json.dumps(payload, separators=(",", ":"))
    assert len(text) < 100 * len(payload["steps"]) + 100  # compact: well under 100 bytes a step
