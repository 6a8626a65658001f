"""The games waiting for a player's move, wherever they are: what "your turn" lists.

A game is found through either of the ways a player holds a seat: a named player's seats
linked to the name (every device), or the seat secrets a browser keeps (anonymous play, as
"my games" finds them).  A game is listed while its decision due is one of these seats' — not
on one screen (both seats are the viewer's), not while seeding or while a seat is free — with
its deadline (a timed game's, e.g. a turn-based game's days per move), most urgent first.
This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from senet.service.errors import GameError
from senet.service.games.live_games import GameStore, LiveGame, hash_token
from senet.service.games.storage import Storage
from senet.service.messages import Mode
from senet.service.players.storage import PlayerRow, PlayerStorage, SeatHolder

__all__ = ["WaitingGame", "YourTurn"]

log = logging.getLogger("senet.service")

#: at most this many games are looked at per request (the most recently active first)
LOOKED_AT = 100


@dataclass(frozen=True)
class WaitingGame:
    """A game whose decision due is the player's."""

    id: str
    variant: str
    mode: str
    time_control: str
    seat: int
    deadline: int | None  # ms since the epoch; None: no clock runs (an untimed game)
    opponent: str | None  # the opponent's name or computer level; None: anonymous
    updated: datetime
    opponent_bot: bool = False  # the opponent is a BOT account


class YourTurn:
    def __init__(self, store: GameStore, players_db: PlayerStorage) -> None:
        self.store = store
        self.players_db = players_db

    @property
    def storage(self) -> Storage:
        return self.store.storage

    async def waiting(
        self, tokens: dict[str, str], player: PlayerRow | None = None
    ) -> list[WaitingGame]:
        """The games where it is the move of a seat that ``player`` (named) or one of
        ``tokens`` (game id -> seat secret) holds: those with a deadline first, the nearest
        first, then the others, the most recently active first."""
        held: dict[str, set[int]] = {}
        if player is not None and player.kind == "human":
            for game_id, seat in await self.players_db.unfinished_of(player.id, LOOKED_AT):
                held.setdefault(game_id, set()).add(seat)
        by_token = list(tokens)[:LOOKED_AT]
        if by_token:
            for stored in await self.storage.games_by_id(by_token):
                digest = hash_token(tokens[stored.id])
                for s in stored.seats:
                    if s.token_hash == digest:
                        held.setdefault(stored.id, set()).add(s.seat)
        found: list[tuple[LiveGame, int]] = []
        for game_id, seats in held.items():
            try:
                live = self.store.cached(game_id) or await self.store.load(game_id)
            except GameError:  # gone (a game nobody joined, cancelled)
                continue
            deciding = _deciding(live, seats)
            if deciding is not None:
                found.append((live, deciding))
        names = await self.players_db.seat_names([live.id for live, _ in found])
        waiting = [
            WaitingGame(
                live.id,
                live.stored.variant,
                str(live.stored.mode),
                live.stored.time_control,
                seat,
                live.clock.deadline if live.clock.running == seat else None,
                live.stored.level
                if live.stored.mode == Mode.COMPUTER
                else _name(names.get((live.id, 1 - seat))),
                live.stored.updated_at,
                opponent_bot=_is_bot(names.get((live.id, 1 - seat))),
            )
            for live, seat in found
        ]
        timed = sorted(
            (w for w in waiting if w.deadline is not None), key=lambda w: w.deadline or 0
        )
        untimed = sorted(
            (w for w in waiting if w.deadline is None), key=lambda w: w.updated, reverse=True
        )
        return timed + untimed


def _name(holder: SeatHolder | None) -> str | None:
    return holder.name if holder is not None else None


def _is_bot(holder: SeatHolder | None) -> bool:
    return holder is not None and holder.bot


def _deciding(live: LiveGame, seats: set[int]) -> int | None:
    """The seat of ``seats`` whose decision is due, or None (over, seeding, a seat still
    free, on one screen, or the other seat's move)."""
    if live.stored.mode == Mode.LOCAL or live.over or live.seeding:
        return None
    if live.free_seat() is not None or len(seats) != 1:
        return None
    decider = live.decider
    return decider if decider in seats else None
