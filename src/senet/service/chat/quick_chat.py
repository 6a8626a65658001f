"""Quick chat: the two players of a game greet each other with set phrases, never free text
(nothing to moderate).

A phrase is sent as its id from :data:`PHRASES` (the page shows it in the reader's language);
anything else is refused and nothing is sent.  Only the holder of one seat of a game between
two people may speak (not a spectator, not a game on one screen or against the computer), at
most :attr:`QuickChat.BURST` phrases at once and one every ``1 / RATE`` seconds after that,
per seat of a game in this process.  A phrase goes out on the game's broadcast channel as a
:class:`ChatMessage`; the web layer passes it to the connections that hold a seat of the game
(never a spectator's), except to a player who muted the other (see ``senet.web.live.connection``).
Nothing is stored here: a phrase is for the moment (the page keeps its own log on the device).

This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal, TypedDict

from senet.service.errors import GameError
from senet.service.games.live_games import LiveGame
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.messages import Mode

__all__ = ["PHRASES", "ChatMessage", "QuickChat", "chat_message", "checked_phrase"]

#: the phrases, by id, in the order the page shows them
PHRASES = ("hello", "good_luck", "well_played", "thanks", "oops", "good_game")


class ChatMessage(TypedDict):
    """A player said a phrase (on the game's channel, and to the players' connections)."""

    type: Literal["chat"]
    seat: int
    phrase: str


def checked_phrase(phrase: object) -> str:
    """``phrase`` if it is the id of one of the :data:`PHRASES`, else GameError ``bad_phrase``."""
    if not isinstance(phrase, str) or phrase not in PHRASES:
        raise GameError("bad_phrase", f"phrase must be one of {', '.join(PHRASES)}", 400)
    return phrase


def chat_message(seat: int, phrase: str) -> ChatMessage:
    return {"type": "chat", "seat": seat, "phrase": phrase}


class QuickChat:
    """The phrases of the games served by one process."""

    RATE = 0.25  # phrases a second, once the burst is spent
    BURST = 4.0
    MEMORY = 10_000  # seats remembered at most (the oldest are forgotten)

    def __init__(
        self, broadcast: MemoryBroadcast, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.broadcast = broadcast
        self.clock = clock
        self._buckets: dict[tuple[str, int], tuple[float, float]] = {}  # tokens, when

    def _allow(self, key: tuple[str, int]) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(key, (self.BURST, now))
        tokens = min(self.BURST, tokens + (now - then) * self.RATE)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self.MEMORY:
            del self._buckets[next(iter(self._buckets))]
        return allowed

    async def say(self, live: LiveGame, seats: tuple[int, ...], phrase: object) -> ChatMessage:
        """Send ``phrase`` (an id of :data:`PHRASES`) for the player holding ``seats``.

        Raises GameError ``bad_phrase`` (not one of the phrases), ``forbidden`` (403: a
        spectator), ``no_chat`` (a game without two people on two devices), ``rate_limited``.
        """
        phrase = checked_phrase(phrase)
        if not seats:
            raise GameError("forbidden", "only the players of a game chat in it", 403)
        if live.stored.mode != Mode.FRIEND or len(seats) != 1:
            raise GameError(
                "no_chat", "quick chat is between the two players of a game with a friend", 409
            )
        if not self._allow((live.id, seats[0])):
            raise GameError("rate_limited", "too many phrases: wait a moment", 429)
        message = chat_message(seats[0], phrase)
        await self.broadcast.publish(f"game:{live.id}", message)
        return message
