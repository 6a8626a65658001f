"""The service layer of one server process, put together: where rules meet storage.

:class:`GameService` owns and wires the parts, each in a module of its own:

* :attr:`GameService.store` (:mod:`senet.service.games.live_games`): the games held in memory, and the
  only code that changes them (load, refresh, absorb, evict, commit, under the game's lock);
* :attr:`GameService.commands` (:mod:`senet.service.games.commands`): what players ask of a game
  (create, act, seed, claim a seat, resign, cancel, rematch), each checked with the engine
  before anything is stored;
* :attr:`GameService.turns` (:mod:`senet.service.games.scheduler`): plays the server's own turns,
  the computer's moves and the forced passes;
* :attr:`GameService.people` (:mod:`senet.service.infrastructure.presence`): who is connected, over every
  process;
* :attr:`GameService.deadlines` (:mod:`senet.service.games.deadlines`): ends a timed game whose
  decision was not made in time;
* :attr:`GameService.lobby` (:mod:`senet.service.lobby.opponents`): open games, quick pairing, the
  games to watch and a browser's games;
* :attr:`GameService.jobs` (:mod:`senet.service.infrastructure.jobs`): the worker processes that search
  (the computer's moves, hints, analyses, reviews);
* :attr:`GameService.players` (:mod:`senet.service.players.accounts`): players with a name, their
  ratings (updated as rated games end) and profiles;
* :attr:`GameService.your_turn` (:mod:`senet.service.reading.your_turn`): the games waiting for a
  player's move, by name or by a browser's seat secrets;
* :attr:`GameService.push` (:mod:`senet.service.push.notifications`): Web Push notifications to named
  players' devices (the server's VAPID keys, the subscriptions, sending);
* :attr:`GameService.challenges` (:mod:`senet.service.challenges.offers`): challenges between
  players, answered within a day;
* :attr:`GameService.chat` (:mod:`senet.service.chat.quick_chat`): the players' set phrases;
* :attr:`GameService.bots` (:mod:`senet.service.bots.accounts`): BOT accounts, personal API tokens and
  what a bot asks of its games;
* :attr:`GameService.queries` (:mod:`senet.service.reading.queries`): what the front ends read of a
  game by its id and a seat secret (a viewer's state, the events a client missed, a page's
  facts, the record, the ratings, the review): they never handle the store's games.

Messages from other processes arrive through the broadcast's observers: an ``update`` goes to
the store (:meth:`GameStore.absorb`), a ``cancelled`` game leaves it, a ``presence`` count goes
to the people.  This module must not
import :mod:`senet.web`.
"""

from __future__ import annotations

from typing import Any

from senet.service.bots.accounts import Bots
from senet.service.challenges.offers import Challenges
from senet.service.chat.quick_chat import ChatMessage, QuickChat
from senet.service.games.clocks import SystemClock
from senet.service.games.commands import GameCommands
from senet.service.games.deadlines import DeadlineWatcher
from senet.service.games.fair_play import FairPlay
from senet.service.games.live_games import GameStore
from senet.service.games.scheduler import ServerTurns
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast, Message
from senet.service.infrastructure.jobs import JobQueue, LocalJobQueue
from senet.service.infrastructure.presence import Presence
from senet.service.lobby.opponents import Lobby
from senet.service.lobby.rated_pairing import RatedPairing
from senet.service.players.accounts import Players
from senet.service.push.notifications import Push, PushConfig
from senet.service.reading.queries import GameQueries
from senet.service.reading.your_turn import YourTurn
from senet.service.reviews.analyses import Analyses, Reviews

from . import computer
from .errors import GameError
from .messages import Holder, Mode, PresenceSummary, StateMessage

__all__ = ["GameService"]


class GameService:
    """Create and drive games.  One instance per process; ``await start()`` before use."""

    def __init__(
        self,
        storage: Storage,
        broadcast: MemoryBroadcast,
        *,
        computer_delay: float = 0.7,
        forced_pass_delay: float | None = None,
        cache_size: int = 5000,
        clock: SystemClock | None = None,
        jobs: JobQueue | None = None,
        fair_play: FairPlay | None = None,
        push: PushConfig | None = None,
    ) -> None:
        self.storage = storage
        # Search runs in worker processes; without a queue given, one worker started when the
        # first job comes (tests, programs that build a service of their own).
        self.jobs = jobs or LocalJobQueue(1, warm=False, eager=False)
        self.broadcast = broadcast
        self.clock = clock or SystemClock()
        self.store = GameStore(storage, broadcast, cache_size=cache_size, clock=self.clock)
        self.commands = GameCommands(self.store, fair_play)
        self._seen: dict[tuple[str, int], int] = {}  # (game, seat) -> last read noted here
        # forced_pass_delay None: the players send their forced passes themselves.
        self.turns = ServerTurns(
            self.store,
            self.commands,
            self.jobs,
            computer_delay=computer_delay,
            pass_delay=forced_pass_delay,
        )
        self.people = Presence(broadcast)
        self.reviews = Reviews(storage, self.jobs)
        self.analyses = Analyses(self.jobs)
        self.deadlines = DeadlineWatcher(self.store, self.commands.time_out, self.clock)
        self.lobby = Lobby(self.store, self.commands, broadcast, self.people)
        self.players = Players(storage, self.store, self.commands.fair_play)
        self.rated_pairing = RatedPairing(self.store, self.commands, self.lobby, self.players)
        self.chat = QuickChat(broadcast)
        self.your_turn = YourTurn(self.store, self.players.db)
        self.challenges = Challenges(storage, self.commands, self.players, broadcast, self.clock)
        self.push = Push(storage, self.store, self.players, push, self.clock)
        self.bots = Bots(
            self.store,
            self.commands,
            self.players,
            self.rated_pairing,
            self.challenges,
            broadcast,
        )
        self.challenges.on_event(self.push.challenged)
        self.queries = GameQueries(
            self.store, self.people, self.clock, self.turns, self.players, self.reviews
        )
        broadcast.observers.append(self._observe)

    async def start(self) -> None:
        """Start counting presence over processes; resume the computer's unfinished turns.

        Raises :class:`~senet.service.computer.players.AIUnavailable` if the computer's levels cannot
        be played: a site without its computer opponent does not start."""
        computer.require_ai()
        await self.jobs.start()  # the workers load the compiled search, not this process
        await self.push.start()
        if self.store.shared:
            self.people.start()
        await self.turns.resume()
        await self.deadlines.resume()
        self.lobby.start()
        self.challenges.start()
        await self.players.start()  # applies the ratings of games that ended just before a crash

    async def close(self) -> None:
        await self.commands.drain()
        await self.turns.close()
        await self.deadlines.close()
        await self.lobby.close()
        await self.challenges.close()
        await self.commands.drain()  # a command started while the server's turns stopped
        await self.players.close()  # the ratings of the games that ended last
        await self.push.close()  # the notices on their way
        await self.bots.close()
        await self.people.close()
        await self.jobs.close()

    def subscribe(self, game_id: str) -> Any:
        """An async context manager yielding a :class:`Subscription` to the game's messages."""
        return self.broadcast.subscribe(f"game:{game_id}")

    async def connected(
        self, game_id: str, seats: tuple[int, ...], delta: int, *, away: bool = False
    ) -> None:
        """Count a connection (delta +1) or a disconnection (-1) and tell everyone watching
        (``away``: a seat holder's connection from another game's page, see
        :meth:`Presence.count`).

        A seat holder's first connection and last disconnection (over every process) are
        noted with the game: an opponent gone long enough may lose an untimed game by claim,
        and an open game whose creator has gone is withdrawn from the lobby."""
        before = self.people.summary(game_id)["online"]
        await self.store.publish(game_id, self.people.count(game_id, seats, delta, away))
        after = self.people.summary(game_id)["online"]
        for seat in seats:
            if before[seat] != after[seat]:
                left_at = None if after[seat] else self.clock.now()
                try:
                    live = await self.store.note_presence(game_id, seat, left_at)
                except GameError as exc:
                    if exc.code == "unknown_game":  # cancelled: nobody to tell
                        return
                    raise
                if left_at is not None:
                    self.lobby.creator_left(live, (seat,))

    async def seen(self, game_id: str, seats: tuple[int, ...], read: bool = False) -> None:
        """The holder of ``seats`` acted through the API (a move, a seed, or — ``read`` — a
        read of the state with the seat's secret): they are present, whatever channel they
        use (see :mod:`senet.service.games.fair_play`).  A seat connected somewhere is present
        already; a read is noted at most once per :attr:`FairPlay.seen_resolution`."""
        live = self.store.cached(game_id)
        if not seats or live is None or live.stored.mode != Mode.FRIEND or live.over:
            return
        online = self.people.summary(game_id)["online"]
        now = self.clock.now()
        resolution = self.commands.fair_play.seen_resolution
        for seat in seats:
            if online[seat]:
                continue
            if read and now - self._seen.get((game_id, seat), -resolution) < resolution:
                continue
            if len(self._seen) > 10_000:
                self._seen.clear()
            self._seen[(game_id, seat)] = now
            await self.store.note_seen(game_id, seat, now)

    async def view(self, game_id: str, token: Holder, *, read: bool = False) -> StateMessage:
        """The state the holder of ``token`` sees (:meth:`GameQueries.state`), once noted that
        they acted through the API: a move or a seed, or (``read``) this read (see
        :meth:`seen`)."""
        await self.seen(game_id, await self.queries.seats(game_id, token), read=read)
        return await self.queries.state(game_id, token)

    async def say(self, game_id: str, seats: tuple[int, ...], phrase: object) -> ChatMessage:
        """The holder of ``seats`` says a set phrase in the game (see :meth:`QuickChat.say`)."""
        live = self.store.cached(game_id) or await self.store.load(game_id)
        return await self.chat.say(live, seats, phrase)

    def presence(self, game_id: str) -> PresenceSummary:
        """Seats online and spectators, over every process."""
        return self.people.summary(game_id)

    def _observe(self, channel: str, message: Message) -> None:
        """Every message from another process, as it arrives: its actions go into the cached
        game, its presence counts into the sum."""
        if not channel.startswith("game:"):
            return
        game_id = channel[5:]
        if message.get("type") == "update":
            self.store.absorb(game_id, message)
        elif message.get("type") == "cancelled":
            self.store.forget(game_id)
        elif message.get("type") == "presence":
            self.people.absorb(game_id, message)
