"""Finding an opponent without a friend: open games, quick pairing, games to watch, my games.

* An **open game** is a friend game whose creator let it be *listed*: anyone may take its free
  seat with one click (:meth:`Lobby.take`); of racing takers exactly one gets it, on every
  server process (the seat's row is taken only while unclaimed), and the listing is withdrawn
  in the same transaction.  The listing shows the games a newcomer can take, newest first:
  an open game is shown while its creator is present (connected, or seen within the
  creator's grace time) and for a limited time, and a client may have only a few shown at
  once (:mod:`senet.service.games.fair_play`).  A creator who leaves (no connection for
  :attr:`Lobby.GRACE` seconds) has the listing withdrawn.
* **Quick pairing** (:meth:`Lobby.pair`): two people who ask for the same variant and time
  control are paired into one game (a seeker who is connected first); with nobody waiting,
  the request becomes an open game that the next asker takes.  One transaction per request,
  one at a time per request kind.
* **The sweep** (:meth:`Lobby.sweep`, every few seconds on the server's clock): listings no
  longer shown are withdrawn, and games whose seeds did not come by their seeding deadline
  are called off.
* **Games to watch**: games in progress that their players let anyone find (open games and
  pairings are; friend games may opt in; computer games are), with the number watching.
* **My games**: the games a browser holds a seat in, found from its seat secrets.

Every change of the listing is announced on the ``lobby`` channel (all processes); whoever
shows the listing reads it again.  This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from senet.service.errors import GameError
from senet.service.games.clocks import SystemClock, TimeControl
from senet.service.games.commands import LOBBY_CHANNEL, GameCommands, new_game_rows, too_many_listed
from senet.service.games.live_games import GameStore, LiveGame, hash_token, new_token
from senet.service.games.storage import ListingCapReached, StoredGame
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.infrastructure.presence import Presence
from senet.service.messages import lobby_changed, refresh_message

__all__ = [
    "Lobby",
    "OpenGame",
    "WatchedGame",
    "MyGame",
    "Taken",
    "Paired",
    "Activity",
    "LOBBY_CHANNEL",
]

log = logging.getLogger("senet.service")

MyState = Literal["your_move", "their_move", "waiting", "seeding", "over"]


@dataclass(frozen=True)
class OpenGame:
    """A listed game waiting for a taker."""

    id: str
    variant: str
    time_control: str
    side: str  # the side the taker gets: "A", "B", or "random" (the creator left it to chance)
    since: datetime
    quick: bool  # a quick-pairing request rather than a game made open by hand


@dataclass(frozen=True)
class WatchedGame:
    id: str
    variant: str
    mode: str
    time_control: str
    ply: int
    spectators: int
    players_here: bool  # a person holding a seat is connected: the game may go on as one watches


@dataclass(frozen=True)
class MyGame:
    id: str
    variant: str
    mode: str
    time_control: str
    state: MyState
    result: str | None  # A, B, draw once over
    won: bool | None  # for one seat held; None with both seats or before the end
    updated: datetime


@dataclass(frozen=True)
class Activity:
    """How alive the site is now: the people at a board (seats whose holder is connected, on
    every process) and the games being played (those with a player connected, and every
    turn-based game in progress: it is played over days, its players mostly away)."""

    players_online: int
    games_playing: int


@dataclass(frozen=True)
class Taken:
    game_id: str
    token: str
    seat: int


@dataclass(frozen=True)
class Paired:
    game_id: str
    token: str
    seat: int
    waiting: bool  # nobody was waiting: this is a new open game for the next asker


def pairing_key(variant: str, time_control: str) -> str:
    return f"{variant}|{time_control}"


class Lobby:
    """Open games, quick pairing and listings over one :class:`GameStore`."""

    GRACE = 30.0  # seconds a creator may be gone before the listing is withdrawn
    SWEEP_EVERY = 5_000  # ms of the server's clock between two sweeps
    ACTIVITY_EVERY = 5.0  # seconds: the counts of players and games shown are this fresh

    def __init__(
        self,
        store: GameStore,
        commands: GameCommands,
        broadcast: MemoryBroadcast,
        people: Presence,
    ) -> None:
        self.store = store
        self.commands = commands
        self.broadcast = broadcast
        self.people = people
        self.fair_play = commands.fair_play
        self._withdrawals: dict[str, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._activity: tuple[float, Activity] | None = None

    @property
    def clock(self) -> SystemClock:
        return self.store.clock

    # ------------------------------------------------------------------ listings
    async def open_games(self, variant: str | None = None) -> list[OpenGame]:
        """The open games a newcomer can take now, newest first."""
        listing = self.fair_play.listing(self.clock.now())
        games = await self.store.storage.listed_games(variant, listing=listing)
        return [_open_game(g) for g in games if any(not s.claimed for s in g.seats)]

    async def watchable(self) -> list[WatchedGame]:
        """The games anyone may watch: those with a player here first (a game its players have
        left goes on no more while one watches), each part most recently active first."""
        watched = []
        for g in await self.store.storage.public_games():
            people = self.people.summary(g.id)
            watched.append(
                WatchedGame(
                    g.id,
                    g.variant,
                    g.mode,
                    g.time_control,
                    g.ply,
                    people["spectators"],
                    any(people["online"]),
                )
            )
        return sorted(watched, key=lambda g: not g.players_here)

    async def mine(
        self, tokens: dict[str, str], linked: dict[str, tuple[int, ...]] | None = None
    ) -> list[MyGame]:
        """The games whose seats these secrets (game id -> secret) hold, and those whose
        ``linked`` seats (game id -> seats: a signed-in name's, found by the server) are the
        device's name's, newest first."""
        linked = linked or {}
        found = []
        wanted = list(dict.fromkeys([*list(tokens)[:200], *list(linked)[:200]]))
        for stored in await self.store.storage.games_by_id(wanted):
            digest = hash_token(tokens[stored.id]) if stored.id in tokens else None
            seats = tuple(s.seat for s in stored.seats if digest and s.token_hash == digest)
            seats = seats or linked.get(stored.id, ())
            if not seats:
                continue
            live = await self.store.load(stored.id)
            found.append(_my_game(live, seats))
        return found

    async def activity(self) -> Activity:
        """The players online and the games being played now (:class:`Activity`), counted
        at most once every :attr:`ACTIVITY_EVERY` seconds per process."""
        moment = time.monotonic()
        if self._activity is not None and moment - self._activity[0] < self.ACTIVITY_EVERY:
            return self._activity[1]
        seats, games = self.people.at_boards()
        activity = Activity(seats, await self.store.storage.games_playing(sorted(games)))
        self._activity = (moment, activity)
        return activity

    async def announce(self) -> None:
        """Tell every process's lobby watchers that the listing changed."""
        await self.broadcast.publish(LOBBY_CHANNEL, lobby_changed())

    # ------------------------------------------------------------------ taking a seat
    async def take(self, game_id: str) -> Taken:
        """Take the free seat of a listed game: ``GameError("taken")`` if someone was first."""
        live = await self.store.load(game_id)
        seat = live.free_seat()
        if seat is None or not live.stored.listed:
            raise GameError("taken", "this game is no longer open: someone took the seat", 409)
        token = new_token()
        now = self.clock.now()
        async with self.store.deciding(game_id) as decision:
            if not await decision.take_listed_seat(
                seat,
                hash_token(token),
                self.fair_play.listing(now),
                self.fair_play.seeds_due(now, live.clock.control),
            ):
                raise GameError("taken", "this game is no longer open: someone took the seat", 409)
        await self.store.publish(game_id, refresh_message(live.ply))
        await self.announce()
        return Taken(game_id, token, seat)

    async def pair(
        self, variant: str, control: TimeControl, avoid: list[str], client: str | None = None
    ) -> Paired:
        """Pair with whoever waits for the same variant and time control (a seeker who is
        connected first), or wait for the next asker (``avoid``: the asker's own games, never
        paired with themselves).  A seeker connected only from another game's page (playing
        the computer while the request waits) is passed over: the asker would get a game whose
        opponent is busy elsewhere; its request stays listed, for a taker who chooses it.  A
        waiting request is an open game of ``client``'s, within its cap (GameError
        ``too_many_listed``)."""
        token = new_token()
        now = self.clock.now()
        game, mine = new_game_rows(
            variant,
            "friend",
            "random",
            None,
            hash_token(token),
            control,
            public=True,
            listed=True,
            now=now,
            listed_until=self.fair_play.listed_until(now, control),
            listed_by=client,
        )
        try:
            paired = await self.store.storage.pair(
                pairing_key(game.variant, game.time_control),
                hash_token(token),
                [g for g in avoid if isinstance(g, str)][:50] + self.people.elsewhere()[:200],
                game,
                self.fair_play.listing(now),
                self.fair_play.seeds_due(now, control),
                self.fair_play.listing_cap,
            )
        except ListingCapReached:
            raise too_many_listed(self.fair_play.listing_cap) from None
        if paired is None:
            await self.announce()
            return Paired(game.id, token, mine, waiting=True)
        game_id, seat = paired
        live = await self.store.reload(game_id)
        await self.store.publish(game_id, refresh_message(live.ply))
        await self.announce()
        return Paired(game_id, token, seat, waiting=False)

    # ------------------------------------------------------------------ creators who leave
    def creator_left(self, live: LiveGame, seats: tuple[int, ...]) -> None:
        """A seat holder's last connection closed: withdraw the listing after the grace time
        unless they are back by then.  A turn-based game's listing stays: nobody need wait on
        its page."""
        if not live.stored.listed or not seats or live.free_seat() is None:
            return
        if live.clock.control.turn_based:
            return
        task = self._withdrawals.get(live.id)
        if task is not None and not task.done():
            return
        self._withdrawals[live.id] = asyncio.create_task(self._withdraw_later(live.id, seats))

    async def _withdraw_later(self, game_id: str, seats: tuple[int, ...]) -> None:
        try:
            await asyncio.sleep(self.GRACE)
            online = self.people.summary(game_id)["online"]
            if any(online[s] for s in seats):
                return
            if await self.store.storage.set_listed(game_id, False):
                await self.store.reload(game_id)
                await self.announce()
        finally:
            if self._withdrawals.get(game_id) is asyncio.current_task():
                del self._withdrawals[game_id]

    # ------------------------------------------------------------------ the sweep
    async def sweep(self) -> None:
        """Withdraw the listings no longer shown, and call off the games whose seeds did not
        come by their deadline (on every process; each change is made once)."""
        now = self.clock.now()
        if await self.store.storage.withdraw_hidden(self.fair_play.listing(now)):
            await self.announce()
        for game_id in await self.store.storage.overdue_seeding(now):
            try:
                await self.commands.abort_unstarted(game_id)
            except GameError:  # gone meanwhile
                continue

    def start(self) -> None:
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_every(), name="lobby sweep")

    async def _sweep_every(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + self.SWEEP_EVERY)
            try:
                await self.sweep()
            except Exception:  # a database hiccup: the next sweep tries again
                log.exception("the lobby's sweep failed")

    async def settled(self) -> None:
        """Wait for every pending withdrawal (tests, and shutdown)."""
        await asyncio.gather(*self._withdrawals.values(), return_exceptions=True)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        for task in list(self._withdrawals.values()):
            task.cancel()
        await asyncio.gather(*self._withdrawals.values(), return_exceptions=True)


def _open_game(stored: StoredGame) -> OpenGame:
    free = next(s.seat for s in stored.seats if not s.claimed)
    side = "random" if stored.colour_choice == "random" else "AB"[free]
    return OpenGame(
        stored.id,
        stored.variant,
        stored.time_control,
        side,
        stored.created_at,
        stored.pairing is not None,
    )


def _my_game(live: LiveGame, seats: tuple[int, ...]) -> MyGame:
    stored = live.stored
    won = None
    if live.over:
        state: MyState = "over"
        if len(seats) == 1 and stored.result in ("A", "B"):
            won = stored.result == "AB"[seats[0]]
    elif live.free_seat() is not None:
        state = "waiting"
    elif live.seeding:
        state = "seeding"
    elif live.position.decider in seats:
        state = "your_move"
    else:
        state = "their_move"
    return MyGame(
        stored.id,
        stored.variant,
        stored.mode,
        stored.time_control,
        state,
        stored.result,
        won,
        stored.updated_at,
    )
