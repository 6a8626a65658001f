"""The history entries viewers are shown: a move onto an opponent says where that piece went,
by the variant's rule, so the page's line of events names the right square."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from senet.engine import Game, Position
from senet.service.games.storage import StoredAction
from senet.service.games.views import history_entries
from senet.service.messages import ActionKind


def last_entry(fen: str, move: str) -> dict:
    game = Game(Position.from_fen(fen))
    game.push(move)
    action = StoredAction(ply=0, kind=ActionKind.MOVE, seat=0, notation=move)
    live = SimpleNamespace(game=game, history=[action])
    (entry,) = history_entries(live)  # type: ignore[arg-type]
    return dict(entry)


@pytest.mark.parametrize(
    ("fen", "move", "text", "sent"),
    [
        # jequier: capture: the piece goes back to the free square furthest from the end (1 and
        # 2 are taken, so 3), not to the capturer's old square 12
        ("jequier BB......../.A..B...../.......... A 3", "12-15", "12x15", 3),
        # standard: the two pieces swap places
        ("standard ...A.B..../.........B/.......... A 2", "4-6", "4x6", 4),
        # kendall rule 3: attacked on 28-30, the piece drowns in the House of Water (27)
        ("kendall B........./........../.....A.B.. A 2", "26-28", "26x28", 27),
        # bell: a captured piece leaves the game
        ("bell B...A.B.../........../.......... A 2", "5-7", "5x7", None),
    ],
)
def test_a_capture_says_where_the_attacked_piece_went(fen, move, text, sent) -> None:
    entry = last_entry(fen, move)
    assert entry["text"] == text and entry["sent"] == sent


def test_a_move_onto_an_empty_square_has_no_sent_square() -> None:
    entry = last_entry("standard ...A.B..../.........B/.......... A 1", "4-5")
    assert "sent" not in entry
