"""The review of a finished game, placed in the game: each decision's turn number (the record's
line), the seat on turn, the throw, and the replay of every position the review page draws."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from senet.engine import OFF, Game, Position, Throw, find_variant, parse_move
from senet.engine.record import GameRecord
from senet.service.errors import GameError
from senet.service.reviews.analyses import replay, review_game_of


def endgame(seed: int) -> Game:
    return played_out(
        Game(Position.from_fen("standard ........../........../..AAB.B... A -")), seed
    )


def played_out(game: Game, seed: int) -> Game:
    """``game`` played to its end by random throws and random legal moves."""
    rng = random.Random(seed)
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
        turn, seat, fen, played, best, verdict, loss, thrown, best_thrown = step
        assert thrown == best_thrown == fen.split(" ")[3]  # one throw at a time in standard
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


def test_where_a_turns_throws_are_banked_each_decision_shows_the_throw_its_move_played():
    """kendall-1978 makes every throw of a turn before moving, and a move may play any of them:
    the review names the one each move used (its length, or the throw a bearing off names),
    not the lowest of the turn's throws that the position notation writes first."""
    review = review_game_of(played_out(Game(find_variant("kendall-1978")), 5))
    differs = best_differs = 0
    for d, step in zip(review.decisions, replay(review)["steps"], strict=True):
        position = Position.from_fen(d.row.position)
        for text, thrown in ((d.row.move, d.throw), (d.row.best, d.best_throw)):
            move = parse_move(text)
            if move.is_step:
                length = abs(move.target - move.origin) if move.target != OFF else None
                used = int(thrown)
                assert used in position.throws and (length is None or used == length)
        differs += parse_move(d.row.move).is_step and d.throw != str(position.throw)
        best_differs += d.best_throw != d.throw  # the best move would have used another
        assert step[7:] == (d.throw, d.best_throw)
    assert differs > 0  # the game had moves that played a throw other than the lowest
    assert best_differs > 0  # ... and decisions where the best move used another throw


def test_no_review_is_started_for_a_game_that_goes_on() -> None:
    from senet.service.reviews import analyses as analysis

    live = SimpleNamespace(id="review-early", over=False, game=Game(find_variant("standard")))
    reviews = analysis.Reviews(storage=None, jobs=None)  # type: ignore[arg-type]  # never reached
    with pytest.raises(GameError) as refused:
        with ThreadPoolExecutor(1) as pool:  # a fresh loop: Playwright may own this thread's
            pool.submit(asyncio.run, reviews.ready(live)).result()  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.status) == ("not_over", 409)
