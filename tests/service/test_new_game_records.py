"""A new game is one typed record (:class:`NewGame` with its :class:`NewSeat` rows), built by
``new_game_rows`` and stored by ``Storage.create_game``: what is read back is what was built."""

from __future__ import annotations

from pathlib import Path

import pytest

from senet.service.errors import GameError
from senet.service.games.clocks import parse_time_control
from senet.service.games.commands import new_game_rows
from senet.service.games.storage import NewGame, NewSeat, Storage, StoredGame
from senet.service.messages import Mode, SeatKind
from senet_testkit.loops import run as run_coroutine


def stored(tmp_path: Path, game: NewGame) -> StoredGame:
    async def main() -> StoredGame:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}")
        await storage.init()
        try:
            await storage.create_game(game)
            found = await storage.get_game(game.id)
            assert found is not None
            return found
        finally:
            await storage.close()

    return run_coroutine(main())


@pytest.mark.parametrize("mode", ["friend", "computer", "local"])
def test_a_created_game_reads_back_as_it_was_built(tmp_path: Path, mode: str) -> None:
    game, mine = new_game_rows(
        "kendall",
        mode,
        "B",
        None,
        "h" * 64,
        parse_time_control("clock:180+2"),
        rematch_of="old",
        listed=True,
    )
    assert mine == 1
    back = stored(tmp_path, game)
    for name in NewGame.__dataclass_fields__:
        if name != "seats":
            assert getattr(back, name) == getattr(game, name), name
    assert back.ply == 0 and back.result is None and back.pairing is None
    assert back.clock_a == back.clock_b == 180_000  # clock:180+2: three minutes each
    assert [(s.seat, s.kind, s.token_hash, s.invite_token, s.claimed) for s in back.seats] == [
        (s.seat, s.kind, s.token_hash, s.invite_token, s.claimed) for s in game.seats
    ]
    mine_seat = game.seats[1]
    assert mine_seat == NewSeat(1, SeatKind.HUMAN, "h" * 64)
    other = game.seats[0]
    if mode == "friend":  # listed, so public; the other seat waits for its invitation
        assert game.listed and game.public and game.mode == Mode.FRIEND
        assert not other.claimed and other.invite_token and other.token_hash is None
    elif mode == "computer":  # never listed; always public
        assert not game.listed and game.public and game.level
        assert other == NewSeat(0, SeatKind.COMPUTER)
    else:  # one screen: both seats are the creator's; never listed, public only if asked
        assert not game.listed and not game.public and game.level is None
        assert other == NewSeat(0, SeatKind.HUMAN, "h" * 64)


def test_a_bad_request_builds_no_game() -> None:
    for args, code in [
        (("nosuch", "friend", "A", None, "h"), "unknown_variant"),
        (("standard", "alone", "A", None, "h"), "bad_mode"),
        (("standard", "friend", "C", None, "h"), "bad_colour"),
        (("standard", "computer", "A", "godlike", "h"), "bad_level"),
    ]:
        with pytest.raises(GameError) as refused:
            new_game_rows(*args)
        assert refused.value.code == code
