"""The games held in memory, and the only code that changes them.

A :class:`LiveGame` is a stored game replayed by the engine.  :class:`GameStore` keeps the
recently used ones (at most ``cache_size``) and changes a cached game in exactly these ways:

* **load**: replayed from the database (the first time, or after it was evicted or reloaded);
* **refresh**: brought up to date from the database — the actions stored after the cached
  ply by any process, the seats and the result;
* **absorb**: brought up to date from another process's ``update`` message, which carries the
  new actions themselves (no database read);
* **commit**: what one action changes — the action, the throws that follow it, the result
  and the clock, computed by the pure :func:`~senet.service.games.steps.step` — stored in one
  transaction, then applied to the cached game and announced;
* **claim_seat / set_seed / set_rematch**: the seat and game columns a command changes;
* **evict**: dropped (the least recently loaded game that nobody here watches or decides).

Everything that writes holds the game's lock: a command enters ``async with
store.deciding(game_id) as decision`` and changes the game only through ``decision``
(:class:`Decision`), which refuses to work once the block is left.  ``absorb`` runs without
awaiting and only while the lock is free, so no task ever sees a half-applied copy.

Several server processes may serve the same game (PostgreSQL and Redis): the database decides.
An action is inserted with its expected ply (UNIQUE (game_id, ply), and ``games.ply`` advanced
only from that ply), so of two racing commits exactly one is stored; the other raises
``GameError("stale")`` and the cached copy is read again.  With several processes
(``shared``) a cached copy is verified against the database before it is shown.

Whoever needs to react to a change (the computer's scheduler) registers with
:attr:`GameStore.on_change`; whatever must stay cached (a game whose computer is thinking)
with :attr:`GameStore.keep`.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields

from senet.engine import (
    Game,
    IllegalMove,
    Move,
    NotationError,
    Outcome,
    Position,
    find_variant,
)
from senet.engine.moves import PASS
from senet.engine.position import seat_letter
from senet.engine.record import TERMINATIONS
from senet.service.errors import GameError
from senet.service.fairness.throws import FairDice
from senet.service.infrastructure.broadcast import MemoryBroadcast, Message
from senet.service.messages import (
    ActionKind,
    ActionRow,
    ClockColumns,
    HistoryEntry,
    Holder,
    Mode,
    SeatKind,
    SeatPass,
    refresh_message,
    unannounced_message,
    update_message,
)

from .clocks import ClockState, SystemClock, parse_time_control
from .steps import GameState, finish_of, replay, step, timed_seat
from .storage import ConflictError, Listing, Storage, StoredAction, StoredGame

__all__ = ["Decision", "GameStore", "LiveGame", "hash_token", "new_token"]


def new_token() -> str:
    """A seat or invitation secret: 192 bits from :mod:`secrets`."""
    return secrets.token_urlsafe(24)


@functools.lru_cache(maxsize=16384)
def hash_token(token: str) -> str:
    """The SHA-256 a seat secret is stored as (kept for the secrets in use: every message a
    connection is sent finds its viewer's seats by it)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class LiveGame:
    """A game loaded in memory: the stored row and the engine replay of its actions.

    Read it freely; only :class:`GameStore` changes it.
    """

    stored: StoredGame
    game: Game
    history: list[StoredAction] = field(default_factory=list)
    # What is derived from the current position (its legal moves, its notation), computed
    # once per position: every viewer of every update reads them, and a Position never
    # changes (a new one replaces it).  And the throws counted so far: (actions counted, throws).
    _derived: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)
    _derived_of: Position | None = field(default=None, init=False, repr=False, compare=False)
    _throws_counted: tuple[int, int] = field(default=(0, 0), init=False, repr=False, compare=False)
    #: the history as viewers are shown it, kept by :func:`senet.service.games.views.cached_history`
    shown_history: list[HistoryEntry] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def seeding(self) -> bool:
        """Before the first throw: the players' seeds are being collected."""
        return self.ply == 0

    @property
    def throws(self) -> int:
        """The throws so far (counted on from the last count: the history only grows)."""
        counted, throws = self._throws_counted
        history = self.history
        if counted > len(history):  # never, but for a history replaced by a shorter one
            counted, throws = 0, 0
        for action in history[counted:]:
            throws += action.kind == ActionKind.THROW
        self._throws_counted = (len(history), throws)
        return throws

    def _of_position(self) -> dict[str, object]:
        """The values derived from the current position (emptied when it changes)."""
        position = self.game.position
        if self._derived_of is not position:
            self._derived = {}
            self._derived_of = position
        return self._derived

    def legal_moves(self) -> tuple[Move, ...]:
        """The current position's legal moves (see :meth:`Position.legal_moves`)."""
        derived = self._of_position()
        legal = derived.get("legal")
        if legal is None:
            legal = derived["legal"] = tuple(self.game.position.legal_moves())
        return legal  # type: ignore[return-value]

    def legal_texts(self) -> tuple[str, ...]:
        """The current position's legal moves in notation (``x`` for a capture)."""
        derived = self._of_position()
        texts = derived.get("texts")
        if texts is None:
            pos = self.game.position
            texts = derived["texts"] = tuple(pos.move_text(m) for m in self.legal_moves())
        return texts  # type: ignore[return-value]

    def fen(self) -> str:
        """The current position's notation (:meth:`Position.fen`)."""
        derived = self._of_position()
        fen = derived.get("fen")
        if fen is None:
            fen = derived["fen"] = self.game.position.fen()
        return fen  # type: ignore[return-value]

    @property
    def ending(self) -> StoredAction | None:
        """The action that ended the game before the rules did (a resignation, a loss on
        time, an abandoned game: its notation the termination, its seat the loser), if any."""
        last = self.history[-1] if self.history else None
        return last if last is not None and last.kind == ActionKind.END else None

    @property
    def over(self) -> bool:
        """Ended by the rules or by a player."""
        return self.ending is not None or self.position.is_over()

    @property
    def decider(self) -> int | None:
        """The seat that decides now: none once the game is over, also when a player ended it
        (a resignation or a loss on time leaves the position with a decider of its own)."""
        return None if self.over else self.position.decider

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, by the rules or by a player (None while it goes on)."""
        ending = self.ending
        if ending is not None and ending.seat is not None:
            pos = self.position
            reason = TERMINATIONS[ending.notation].format(seat_letter(ending.seat))
            return Outcome(1 - ending.seat, (pos.off(0), pos.off(1)), reason)
        return self.position.outcome()

    @property
    def clock(self) -> ClockState:
        """The server's clock as stored with the game (never running in an untimed game)."""
        s = self.stored
        control = parse_time_control(s.time_control)
        if not control.timed:
            return control.start()
        return ClockState(control, (s.clock_a or 0, s.clock_b or 0), s.clock_seat, s.deadline)

    @property
    def turn_based(self) -> bool:
        """Days per move: the players need not be on the page; each move's deadline decides."""
        return self.stored.days_per_move is not None

    @property
    def forced_pass(self) -> bool:
        """Is the decision due a pass, the only legal one (no piece can move, or a throw of
        fate's move is impossible)?  The server plays it for the player: nothing to choose."""
        if self.over or self.seeding or self.position.decider is None:
            return False
        legal = self.legal_moves()
        return len(legal) == 1 and legal[0].kind == PASS

    def timed_seat(self, position: Position) -> int | None:
        """The seat whose clock runs in ``position`` (see :func:`~senet.service.games.steps.timed_seat`)."""
        return timed_seat(self.clock, self.computer_seat(), position)

    @property
    def state(self) -> GameState:
        """What a step reads of the game now (:func:`~senet.service.games.steps.step`)."""
        return GameState(self.position, self.ply, self.throws, self.clock, self.computer_seat())

    def dice(self, player_seeds: str | None = None) -> FairDice:
        """The game's fair dice: derived from its secret and the players' seeds (those stored,
        or ``player_seeds`` for the first throw, which stores them)."""
        return FairDice(
            self.id,
            bytes.fromhex(self.stored.secret),
            self.stored.player_seeds if player_seeds is None else player_seeds,
            self.game.variant.instrument,
        )

    def seats_of(self, token: Holder) -> tuple[int, ...]:
        """The seats a secret controls (both in an on-this-screen game), or a signed-in
        player's pass holds (its human seats of this game), () for a spectator."""
        if isinstance(token, SeatPass):
            if token.game_id != self.id:
                return ()
            human = {s.seat for s in self.stored.seats if s.kind == SeatKind.HUMAN}
            return tuple(seat for seat in token.seats if seat in human)
        if not token:
            return ()
        digest = hash_token(token)
        return tuple(
            s.seat
            for s in self.stored.seats
            if s.token_hash and hmac.compare_digest(s.token_hash, digest)
        )

    def computer_seat(self) -> int | None:
        return next((s.seat for s in self.stored.seats if s.kind == SeatKind.COMPUTER), None)

    def free_seat(self) -> int | None:
        return next(
            (s.seat for s in self.stored.seats if s.kind == SeatKind.HUMAN and not s.claimed),
            None,
        )

    def invite_valid(self, invite: str) -> bool:
        """Does ``invite`` still open the free seat?  (Nothing is taken by asking.)"""
        seat = self.free_seat()
        if seat is None or not invite:
            return False
        free = next(s for s in self.stored.seats if s.seat == seat)
        return bool(free.invite_token) and hmac.compare_digest(free.invite_token or "", invite)

    def invite_for(self, seats: tuple[int, ...]) -> str | None:
        """The invitation secret, shown only to a seat holder while the other seat is free."""
        if not seats or self.stored.mode != Mode.FRIEND:
            return None
        free = self.free_seat()
        if free is None:
            return None
        return next(s.invite_token for s in self.stored.seats if s.seat == free)


def _int_or_none(value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("not an integer")
    return value


def _apply(
    live: LiveGame,
    continuation: Game,
    new: list[StoredAction] | tuple[StoredAction, ...],
    clock: ClockColumns | None = None,
) -> None:
    """Extend the cached game by ``new`` (already replayed on ``continuation``), without
    awaiting: no reader sees a position ahead of the history, or a result ahead of either."""
    finish = finish_of(continuation, new)
    live.game.extend(continuation)
    live.history.extend(new)
    live.stored.ply = live.ply
    if clock is not None:
        s = live.stored
        s.clock_a, s.clock_b = clock["clock_a"], clock["clock_b"]
        s.clock_seat, s.deadline = clock["clock_seat"], clock["deadline"]
    if finish is not None:
        live.stored.result, live.stored.reason = finish.result, finish.reason
        live.stored.score_a, live.stored.score_b = finish.score_a, finish.score_b
        live.stored.termination = finish.termination
        if finish.termination is not None:
            live.stored.listed = False


#: Called with the game and whether this process stored the change (False: it was read from
#: the database or absorbed from another process's message).
ChangeListener = Callable[[LiveGame, bool], None]


class GameStore:
    """The games in memory over :class:`~senet.service.games.storage.Storage` (see the module doc)."""

    def __init__(
        self,
        storage: Storage,
        broadcast: MemoryBroadcast,
        *,
        cache_size: int = 5000,
        clock: SystemClock | None = None,
    ) -> None:
        self.storage = storage
        self.broadcast = broadcast
        self.clock = clock or SystemClock()
        self.cache_size = cache_size
        # Several processes share the games: a cached copy is verified against the database
        # before it is shown (load), not only before a decision.
        self.shared = bool(getattr(broadcast, "shared", False)) or not storage.url.startswith(
            "sqlite"
        )
        self.on_change: list[ChangeListener] = []
        self.keep: list[Callable[[str], bool]] = []  # games that must stay cached
        # Least recently loaded first.
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self.actions_stored = 0  # by this process, since it started (the operator's metrics)

    # ------------------------------------------------------------------ reading
    def cached(self, game_id: str) -> LiveGame | None:
        """The cached copy as it is (possibly behind the database), None if not cached."""
        return self._cache.get(game_id)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._cache

    def __len__(self) -> int:
        return len(self._cache)

    async def load(self, game_id: str, min_ply: int | None = None) -> LiveGame:
        """The game, from the cache or replayed from storage; GameError ``unknown_game`` if none.

        With several processes (``shared``) the cached copy is first brought up to date from
        the database, unless it already has ``min_ply`` actions (the event number of an update
        message: then it is current enough).
        """
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            if min_ply is not None and live.ply >= min_ply:
                return live
            if self.shared or (min_ply is not None and live.ply < min_ply):
                return await self.refresh(game_id, min_ply)
            return live
        return await self._load_stored(game_id)

    async def refresh(
        self, game_id: str, min_ply: int | None = None, *, seats: bool = False
    ) -> LiveGame:
        """The game as stored now (see :meth:`Decision.current`), waiting for a decision in
        progress.  ``seats``: the seats changed (read them even if no action was stored)."""
        async with self._lock(game_id):
            return await self._refresh(game_id, min_ply, seats)

    async def note_seen(self, game_id: str, seat: int, now: int) -> None:
        """A seat's holder acted at ``now`` without a connection: when it was last seen moves
        on (a connected seat stays connected)."""
        await self.storage.set_seen(game_id, seat, now)
        live = self._cache.get(game_id)
        held = next((s for s in live.stored.seats if s.seat == seat), None) if live else None
        if held is not None and held.left_at is not None and held.left_at < now:
            held.left_at = now

    async def note_presence(self, game_id: str, seat: int, left_at: int | None) -> LiveGame:
        """Note when a seat's holder left (ms since the epoch), or None: connected again; the
        other processes and every viewer are told to read the seats again."""
        async with self._lock(game_id):
            live = await self._refresh(game_id)
            held = next((s for s in live.stored.seats if s.seat == seat), None)
            if held is None or (held.left_at is None and left_at is None):
                return live  # connected again before anyone noted the absence: nothing to say
            await self.storage.set_left(game_id, seat, left_at)
            held.left_at = left_at
        if not live.seeding:  # before the first throw nobody is shown who left (or claims)
            await self.publish(game_id, refresh_message(live.ply))
        return live

    async def reload(self, game_id: str) -> LiveGame:
        """Drop the cached copy and replay the game from the database."""
        self._cache.pop(game_id, None)
        return await self._load_stored(game_id)

    def forget(self, game_id: str) -> None:
        """Drop the cached copy of a game that no longer exists (cancelled before anyone
        joined, here or by another process)."""
        self._cache.pop(game_id, None)

    # ------------------------------------------------------------------ writing
    @asynccontextmanager
    async def deciding(self, game_id: str) -> AsyncIterator[Decision]:
        """Hold the game's lock: the one way to change a cached game (see :class:`Decision`)."""
        async with self._lock(game_id):
            decision = Decision(self, game_id)
            try:
                yield decision
            finally:
                decision.open = False

    def absorb(self, game_id: str, message: Message) -> bool:
        """Bring the cached copy up to date from an update message that carries its actions.

        Applied only when the copy is exactly at the message's ``from`` and no decision is in
        progress here (the game's lock is free); anything else — a gap, a malformed or foreign
        message, an action the engine refuses, a throw that is not the committed one — returns
        False and the caller reads the database.  Runs without awaiting, so no other task sees
        a half-applied copy.  True when the copy is now at least at the message's ``ply``.
        """
        live = self._cache.get(game_id)
        ply = message.get("ply")
        if live is None or not isinstance(ply, int):
            return False
        if live.ply >= ply:
            return True
        if live.seeding:
            # The first throw: the seats' seeds and player_seeds come from the database.
            return False
        start, rows = message.get("from"), message.get("actions")
        lock = self._locks.get(game_id)
        if (
            start != live.ply
            or not isinstance(rows, list)
            or start + len(rows) != ply
            or (lock and lock.locked())
        ):
            return False
        clock = message.get("clock")
        if live.clock.control.timed and not isinstance(clock, dict):
            return False  # the clock it set is not in the message: read it from the database
        try:
            new = [
                StoredAction(live.ply + i, ActionKind(kind), seat, str(notation), pattern)
                for i, (kind, seat, notation, pattern) in enumerate(rows)
            ]
            game = Game(live.game.position)
            dice, n = live.dice(), live.throws
            for action in new:
                if action.kind == ActionKind.THROW:  # the throws must be the committed ones
                    if dice.throw(n) != (action.pattern, int(action.notation)):
                        return False
                    n += 1
                replay(game, action)
            columns: ClockColumns | None = None
            if isinstance(clock, dict):
                columns = {
                    "clock_a": _int_or_none(clock["clock_a"]),
                    "clock_b": _int_or_none(clock["clock_b"]),
                    "clock_seat": _int_or_none(clock["clock_seat"]),
                    "deadline": _int_or_none(clock["deadline"]),
                }
        except (TypeError, ValueError, KeyError, IllegalMove, NotationError):
            return False
        _apply(live, game, new, columns)
        self._changed(live, here=False)
        return True

    async def publish(self, game_id: str, message: Message) -> None:
        """Announce ``message`` to everyone watching the game, on every process."""
        await self.broadcast.publish(f"game:{game_id}", message)

    # ------------------------------------------------------------------ inside the module
    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def _changed(self, live: LiveGame, here: bool) -> None:
        for listener in self.on_change:
            listener(live, here)

    async def _load_stored(self, game_id: str) -> LiveGame:
        stored = await self.storage.get_game(game_id)
        if stored is None:
            raise GameError.unknown_game(game_id)
        game = Game(find_variant(stored.variant))
        for action in stored.actions:
            replay(game, action)
        live = LiveGame(stored, game, list(stored.actions))
        current = self._cache.get(game_id)
        if current is not None and current.ply >= live.ply:
            # A concurrent first load finished first (and may have committed since): keep it.
            return current
        self._cache[game_id] = live
        self._evict()
        self._changed(live, here=False)
        return live

    def _evict(self) -> None:
        """Keep at most ``cache_size`` games: drop the least recently loaded ones that nobody
        here is connected to and no task here is deciding (their lock is free)."""
        excess = len(self._cache) - self.cache_size
        if excess <= 0:
            return
        for game_id in list(self._cache):
            lock = self._locks.get(game_id)
            busy = (lock is not None and lock.locked()) or any(keep(game_id) for keep in self.keep)
            if busy or self.broadcast.subscribers(f"game:{game_id}"):
                continue
            del self._cache[game_id]
            self._locks.pop(game_id, None)
            excess -= 1
            if excess <= 0:
                return

    async def _refresh(
        self, game_id: str, min_ply: int | None = None, seats: bool = False
    ) -> LiveGame:
        """Bring the cached game up to date from the database.  Call with the game's lock held."""
        live = self._cache.get(game_id)
        if live is None:
            return await self._load_stored(game_id)
        if min_ply is not None and live.ply >= min_ply:
            return live
        if live.free_seat() is None and not live.seeding and not seats:
            # One cheap query verifies the cached copy; seats and seeds cannot change once
            # given (only when their holders come and go, which the caller says).
            head = await self.storage.head(game_id)
            if head is None:
                self.forget(game_id)
                raise GameError.unknown_game(game_id)
            if head == (live.ply, live.stored.rematch_id):
                return live
        stored = await self.storage.get_game(game_id, since_ply=live.ply)
        if stored is None:
            self.forget(game_id)
            raise GameError.unknown_game(game_id)
        plies = [a.ply for a in stored.actions]
        if stored.ply < live.ply or plies != list(range(live.ply, live.ply + len(plies))):
            return await self.reload(game_id)  # not a continuation of what we hold: start over
        for action in stored.actions:
            replay(live.game, action)
            live.history.append(action)
        for f in fields(stored):
            if f.name not in ("actions", "seats"):
                setattr(live.stored, f.name, getattr(stored, f.name))
        live.stored.seats = stored.seats
        live.stored.ply = live.ply  # the row may have been read just before more actions
        if stored.actions:
            self._changed(live, here=False)
        if stored.actions and min_ply is None:
            # Actions nobody announced here (their process may have died between storing and
            # publishing): tell this process's connections.
            await self.broadcast.publish_local(f"game:{game_id}", unannounced_message(live.ply))
        return live

    async def _commit(
        self,
        live: LiveGame,
        new: list[StoredAction],
        player_seeds: str | None,
        free: bool = False,
    ) -> None:
        if len(new) > 1:
            raise ValueError("one action at a time: the throws that follow are the step's")
        # The step works on a scratch game, so readers never see a position ahead of the
        # stored history; the store only stores, adopts and announces what it returns.
        result = step(
            live.state,
            new[0] if new else None,
            live.dice(player_seeds),
            self.clock.now(),
            free=free,
        )
        clock = result.clock_columns
        try:
            if result.actions:
                await self.storage.append(
                    live.id, live.ply, list(result.actions), result.finish, player_seeds, clock
                )
                self.actions_stored += len(result.actions)
        except ConflictError:
            await self.reload(live.id)
            raise GameError.stale() from None
        if player_seeds is not None:
            live.stored.player_seeds = player_seeds
        _apply(live, result.continuation, result.actions, clock)
        if result.actions:
            rows: list[ActionRow] = [
                [a.kind, a.seat, a.notation, a.pattern] for a in result.actions
            ]
            await self.publish(live.id, update_message(live.ply - len(result.actions), rows, clock))
        self._changed(live, here=True)


class Decision:
    """What a command holds while it decides: the game's lock, and the only ways to change it.

    Made by :meth:`GameStore.deciding`; closed when that block is left.
    """

    def __init__(self, store: GameStore, game_id: str) -> None:
        self._store = store
        self.game_id = game_id
        self.open = True

    def _check_open(self) -> GameStore:
        if not self.open:
            raise RuntimeError("a Decision is used only inside its `async with store.deciding()`")
        return self._store

    def cached(self) -> LiveGame | None:
        return self._check_open().cached(self.game_id)

    async def current(self, min_ply: int | None = None, *, seats: bool = False) -> LiveGame:
        """The cached game brought up to date from the database: the actions stored after the
        cached ply (by any process), the seats and the result.  Read only what is needed:
        one cheap query when nothing can have changed but the ply (``seats``: read them too)."""
        return await self._check_open()._refresh(self.game_id, min_ply, seats)

    async def reload(self) -> LiveGame:
        return await self._check_open().reload(self.game_id)

    async def commit(
        self,
        live: LiveGame,
        new: list[StoredAction],
        player_seeds: str | None = None,
        *,
        free: bool = False,
    ) -> None:
        """Take the action ``new`` (one move or ``end``, or none: the first throw) as one pure
        step (:func:`~senet.service.games.steps.step`: the throws that follow it, drawn from the
        game's fair dice, the result and the server's clock), store what the step returned in
        one transaction, apply it to ``live`` and publish it.  An ``end`` action (a
        resignation, a loss on time, an abandoned game) ends the game there: no throw follows.

        ``player_seeds`` (with the first throw) are the encoded seeds that throw and every
        later one derive from, stored with it.  ``free``: the move was played for its player
        by the server (a forced pass) and costs them no time.  Raises GameError ``stale``
        (nothing stored, the cached copy read again) if another action was stored at that ply
        first.
        """
        await self._check_open()._commit(live, new, player_seeds, free)

    async def take_listed_seat(
        self,
        seat: int,
        token_hash: str,
        listing: Listing | None = None,
        seeding_deadline: int | None = None,
    ) -> bool:
        """Give the free seat of an open game to this taker, once, and withdraw the listing;
        False (and the game read again) if someone took it first, or (``listing``) the lobby
        no longer shows it.  The seeds are due by ``seeding_deadline``."""
        store = self._check_open()
        if not await store.storage.take_listed_seat(
            self.game_id, seat, token_hash, listing, seeding_deadline
        ):
            await store.reload(self.game_id)
            return False
        await store.reload(self.game_id)
        return True

    async def claim_seat(
        self,
        seat: int,
        invite: str,
        token_hash: str,
        now: int | None = None,
        seeding_deadline: int | None = None,
    ) -> bool:
        """Give the free seat to whoever holds ``invite``, once (seen ``now``; the seeds due
        by ``seeding_deadline``); False (and the game read again) if it is taken already."""
        store = self._check_open()
        if not await store.storage.claim_seat(
            self.game_id, seat, invite, token_hash, now, seeding_deadline
        ):
            await store.reload(self.game_id)
            return False
        live = store.cached(self.game_id)
        if live is not None:
            taken = next(s for s in live.stored.seats if s.seat == seat)
            taken.claimed = True
            taken.token_hash = token_hash
            taken.left_at = now
            if live.seeding and seeding_deadline is not None:
                live.stored.seeding_deadline = seeding_deadline
        return True

    async def set_seed(self, seat: int, seed: str) -> bool:
        """Store a seat's own seed, once, before the first throw (read it with
        :meth:`current`); False if it had one or the game has started."""
        return await self._check_open().storage.set_seed(self.game_id, seat, seed)

    async def delete_unjoined(self) -> bool:
        """Delete the game while its free seat is still free (and unlink it from the game it
        is a rematch of); False (and the game read again) if someone took the seat first."""
        store = self._check_open()
        if not await store.storage.delete_unjoined(self.game_id):
            await store.reload(self.game_id)
            return False
        store.forget(self.game_id)
        return True

    async def delete_unstarted(self, now: int) -> bool:
        """Delete the game if it is still before its first throw past its seeding deadline;
        False (and the game read again) if it started first, or is not due."""
        store = self._check_open()
        if not await store.storage.delete_unstarted(self.game_id, now):
            await store.reload(self.game_id)
            return False
        store.forget(self.game_id)
        return True

    async def set_rematch(self, rematch_id: str) -> bool:
        """Link the rematch to this game, once; False (and the game read again) if another
        was linked first."""
        store = self._check_open()
        if not await store.storage.set_rematch(self.game_id, rematch_id):
            await store.reload(self.game_id)
            return False
        live = store.cached(self.game_id)
        if live is not None:
            live.stored.rematch_id = rematch_id
        return True
