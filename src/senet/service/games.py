"""Games as a service: create, join, act, watch.  The one place where rules meet storage.

Every action a browser sends is checked here with the engine before it is stored: the seat's
secret must control the deciding seat, the expected ply must be the current one, and the move
must be legal.  The server throws the sticks itself (see :mod:`senet.service.fairness`): after
every move, while the next event is chance, it appends the next committed throw.  A decision
and the throws that follow it are stored in one transaction.

Several server processes may serve the same game (PostgreSQL and Redis).  The database decides:
an action is inserted with its expected ply (UNIQUE (game_id, ply), and ``games.ply`` advanced
only from that ply), so of two racing actions exactly one is stored and the other is answered
``stale`` — also when the deciding process's cached copy was behind.  A refusal is never
based on a cached copy alone: before refusing (stale ply, not your turn, illegal move) the game
is brought up to date from the database and checked again.  Only the process whose insert won
publishes ``{"type": "update", "ply": n, "from": m, "actions": [...]}`` (n is the event number:
the number of actions stored; the message carries the actions m..n-1 themselves, so the other
processes bring their cached copies up to date without reading the database — see
:meth:`GameService.absorb`; a copy that is not at ``m`` reads the database instead).  The
computer's moves go through the same path, so they too are stored exactly once whichever
process computes them.

A game is created in the *seeding* phase, without a throw: the players' own seeds come first
(issue 6; see :mod:`senet.service.seeding`, which makes the first throw through ``_commit``).

Seat secrets are never stored, only their SHA-256.  An invitation is a separate secret that
takes the free seat once.  This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import random
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field, fields
from typing import Any

from senet.engine import Game, IllegalMove, Move, NotationError, Position, find_variant, parse_move
from senet.engine.variants import UnknownVariant

from . import computer
from .broadcast import MemoryBroadcast
from .fairness import FairDice, commitment_of, new_secret
from .presence import Presence
from .storage import ConflictError, Storage, StoredAction, StoredGame
from .unstoppable import Unstoppable

__all__ = ["GameService", "GameError", "LiveGame", "Created", "MODES", "hash_token", "new_token"]

log = logging.getLogger("senet.service")

MODES = ("friend", "computer", "local")


class GameError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def new_token() -> str:
    """A seat or invitation secret: 192 bits from :mod:`secrets`."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Created:
    game_id: str
    token: str  # the creator's seat secret
    seats: tuple[int, ...]  # the seats it controls
    invite: str | None  # the invitation secret of the free seat (friend games)


@dataclass
class LiveGame:
    """A game loaded in memory: the stored row and the engine replay of its actions."""

    stored: StoredGame
    game: Game
    history: list[StoredAction] = field(default_factory=list)

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
        """Before the first throw: the players' seeds are being collected (issue 6)."""
        return self.ply == 0

    @property
    def throws(self) -> int:
        return sum(1 for a in self.history if a.kind == "throw")

    def dice(self) -> FairDice:
        return FairDice(
            self.id,
            bytes.fromhex(self.stored.secret),
            self.stored.player_seeds,
            self.game.variant.instrument,
        )

    def seats_of(self, token: str | None) -> tuple[int, ...]:
        """The seats a secret controls (both in an on-this-screen game), () for a spectator."""
        if not token:
            return ()
        digest = hash_token(token)
        return tuple(
            s.seat
            for s in self.stored.seats
            if s.token_hash and hmac.compare_digest(s.token_hash, digest)
        )

    def computer_seat(self) -> int | None:
        return next((s.seat for s in self.stored.seats if s.kind == "computer"), None)

    def free_seat(self) -> int | None:
        return next(
            (s.seat for s in self.stored.seats if s.kind == "human" and not s.claimed), None
        )


def update_message(
    start: int, new: list[StoredAction], finish: dict[str, Any] | None
) -> dict[str, Any]:
    """The message announcing actions ``start`` .. ``start + len(new) - 1`` (see :meth:`GameService.absorb`)."""
    return {
        "type": "update",
        "ply": start + len(new),
        "from": start,
        "actions": [[a.kind, a.seat, a.notation, a.pattern] for a in new],
        "finish": finish,
    }


def _replay(game: Game, action: StoredAction) -> None:
    if action.kind == "throw":
        game.push_throw(int(action.notation))
    else:
        game.push(parse_move(action.notation))


class GameService:
    """Create and drive games.  One instance per process; ``await start()`` before use."""

    def __init__(
        self, storage: Storage, broadcast: MemoryBroadcast, *, computer_delay: float = 0.7
    ) -> None:
        self.storage = storage
        self.broadcast = broadcast
        self.computer_delay = computer_delay
        # Games in memory, least recently loaded first; at most cache_size of them are kept
        # (a game nobody here watches is dropped first; the database has everything).
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self.cache_size = int(os.environ.get("SENET_GAME_CACHE", "5000"))
        self._locks: dict[str, asyncio.Lock] = {}
        self._computer_tasks: dict[str, asyncio.Task[None]] = {}
        self._backup_tasks: set[str] = set()  # games whose computer task is only a stand-by
        # Several processes share the games: a cached copy is verified against the database
        # before it is shown (load), not only before a decision.
        self.shared = bool(getattr(broadcast, "shared", False)) or not storage.url.startswith(
            "sqlite"
        )
        self.backup_delay = 3.0  # a stand-by computer acts if the game did not move meanwhile
        self.people = Presence(broadcast)  # who is connected, over every process
        broadcast.observers.append(self._observe)
        self._closing = False
        # An action, once started, is decided, stored and published even if whoever asked for
        # it goes away meanwhile (a closed WebSocket cancels its reader): see unstoppable.py.
        self.actions = Unstoppable("an action")

    async def start(self) -> None:
        """Resume the computer's turn in every unfinished computer game (after a restart)."""
        if self.shared:
            self.people.start()
        for game_id in await self.storage.unfinished_computer_games():
            try:
                live = await self.load(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            self._schedule_computer(live, backup=self.shared)

    async def close(self) -> None:
        self._closing = True
        await self.actions.drain()
        await self.people.close()
        for task in list(self._computer_tasks.values()):
            task.cancel()
        for task in list(self._computer_tasks.values()):
            try:
                await task
            except BaseException:
                pass
        await self.actions.drain()  # a computer's move that was being stored when it stopped

    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # ------------------------------------------------------------------ creating and loading
    async def create(
        self,
        variant: str,
        mode: str = "friend",
        colour: str = "random",
        level: str | None = None,
        seed: str | None = None,
        rematch_of: str | None = None,
    ) -> Created:
        """A new game, seeding: no throw yet.  ``seed`` (bots) is given for the creator's seats at once."""
        from .seeding import checked_seed, give_seed

        try:
            v = find_variant(variant)
        except UnknownVariant as exc:
            raise GameError("unknown_variant", str(exc), 400) from None
        if mode not in MODES:
            raise GameError(
                "bad_mode", f"mode must be one of {', '.join(MODES)}, not {mode!r}", 400
            )
        colour = (colour or "random").strip()
        if colour in ("A", "a", "0"):
            mine = 0
        elif colour in ("B", "b", "1"):
            mine = 1
        elif colour == "random":
            mine = secrets.randbelow(2)
        else:
            raise GameError("bad_colour", "colour must be A, B or random", 400)
        if mode == "computer":
            level = level or computer.default_level()
            if level not in computer.levels():
                raise GameError(
                    "bad_level", f"level must be one of {', '.join(computer.levels())}", 400
                )
        else:
            level = None
        if seed is not None:
            checked_seed(seed)
        game_id = secrets.token_urlsafe(9)
        token = new_token()
        invite = new_token() if mode == "friend" else None
        secret = new_secret()
        seat_rows: list[dict[str, Any]] = []
        for seat in (0, 1):
            if seat == mine or mode == "local":
                seat_rows.append(
                    {
                        "seat": seat,
                        "kind": "human",
                        "token_hash": hash_token(token),
                        "claimed": True,
                    }
                )
            elif mode == "computer":
                seat_rows.append(
                    {"seat": seat, "kind": "computer", "token_hash": None, "claimed": True}
                )
            else:
                seat_rows.append(
                    {
                        "seat": seat,
                        "kind": "human",
                        "token_hash": None,
                        "invite_token": invite,
                        "claimed": False,
                    }
                )
        await self.storage.create_game(
            {
                "id": game_id,
                "variant": v.name,
                "mode": mode,
                "level": level,
                "secret": secret.hex(),
                "commitment": commitment_of(secret),
                "player_seeds": "",
                "rematch_of": rematch_of,
            },
            seat_rows,
        )
        seats = (0, 1) if mode == "local" else (mine,)
        if seed is not None:
            for seat in seats:
                await give_seed(self, game_id, token, seed, seat)
        return Created(game_id, token, seats, invite)

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

    async def _load_stored(self, game_id: str) -> LiveGame:
        stored = await self.storage.get_game(game_id)
        if stored is None:
            raise GameError("unknown_game", f"there is no game {game_id!r}", 404)
        game = Game(find_variant(stored.variant))
        for action in stored.actions:
            _replay(game, action)
        live = LiveGame(stored, game, list(stored.actions))
        current = self._cache.get(game_id)
        if current is not None and current.ply >= live.ply:
            return current  # a concurrent first load finished first (and may have committed since): keep it
        self._cache[game_id] = live
        self._evict()
        if self.shared:
            self._schedule_computer(live, backup=True)
        return live

    def _evict(self) -> None:
        """Keep at most ``cache_size`` games: drop the least recently loaded ones that nobody
        here is connected to and no task here is deciding (their lock is free)."""
        excess = len(self._cache) - self.cache_size
        if excess <= 0:
            return
        for game_id in list(self._cache):
            lock = self._locks.get(game_id)
            busy = (lock is not None and lock.locked()) or game_id in self._computer_tasks
            if busy or self.broadcast.subscribers(f"game:{game_id}"):
                continue
            del self._cache[game_id]
            self._locks.pop(game_id, None)
            excess -= 1
            if excess <= 0:
                return

    async def reload(self, game_id: str) -> LiveGame:
        self._cache.pop(game_id, None)
        return await self._load_stored(game_id)

    async def refresh(self, game_id: str, min_ply: int | None = None) -> LiveGame:
        """The game as stored now (see :meth:`_refresh`), waiting for a decision in progress."""
        async with self._lock(game_id):
            return await self._refresh(game_id, min_ply)

    async def _refresh(self, game_id: str, min_ply: int | None = None) -> LiveGame:
        """Bring the cached game up to date from the database: the actions stored after the
        cached ply (by any process), the seats and the result.  Call with the game's lock held."""
        live = self._cache.get(game_id)
        if live is None:
            return await self._load_stored(game_id)
        if min_ply is not None and live.ply >= min_ply:
            return live
        if live.free_seat() is None and not live.seeding:
            # One cheap query verifies the cached copy; seats and seeds cannot change once given.
            head = await self.storage.head(game_id)
            if head is None:
                raise GameError("unknown_game", f"there is no game {game_id!r}", 404)
            if head == (live.ply, live.stored.rematch_id):
                return live
        stored = await self.storage.get_game(game_id, since_ply=live.ply)
        if stored is None:
            raise GameError("unknown_game", f"there is no game {game_id!r}", 404)
        plies = [a.ply for a in stored.actions]
        if stored.ply < live.ply or plies != list(range(live.ply, live.ply + len(plies))):
            return await self.reload(game_id)  # not a continuation of what we hold: start over
        for action in stored.actions:
            _replay(live.game, action)
            live.history.append(action)
        for f in fields(stored):
            if f.name not in ("actions", "seats"):
                setattr(live.stored, f.name, getattr(stored, f.name))
        live.stored.seats = stored.seats
        live.stored.ply = live.ply  # the row may have been read just before more actions
        if stored.actions and self.shared:
            self._schedule_computer(live, backup=True)
        if stored.actions and min_ply is None:
            # Actions nobody announced here (their process may have died between storing and
            # publishing): tell this process's connections.
            await self.broadcast.publish_local(
                f"game:{game_id}", {"type": "update", "ply": live.ply}
            )
        return live

    # ------------------------------------------------------------------ seats
    async def claim(self, game_id: str, invite: str) -> tuple[str, int] | None:
        """Take the free seat with an invitation: ``(seat secret, seat)``, or None if it is taken
        already or the invitation is wrong (the visitor then watches)."""
        return await self.actions.run(self._claim(game_id, invite))

    async def _claim(self, game_id: str, invite: str) -> tuple[str, int] | None:
        live = await self.load(game_id)
        seat = live.free_seat()
        if seat is None or not invite:
            return None
        free = next(s for s in live.stored.seats if s.seat == seat)
        if not free.invite_token or not hmac.compare_digest(free.invite_token, invite):
            return None
        token = new_token()
        async with self._lock(game_id):
            if not await self.storage.claim_seat(game_id, seat, invite, hash_token(token)):
                await self.reload(game_id)
                return None
            free.claimed = True
            free.token_hash = hash_token(token)
        await self._publish(game_id, {"type": "update", "ply": live.ply, "refresh": True})
        return token, seat

    def invite_valid(self, live: LiveGame, invite: str) -> bool:
        """Does ``invite`` still open the free seat?  (Nothing is taken by asking.)"""
        seat = live.free_seat()
        if seat is None or not invite:
            return False
        free = next(s for s in live.stored.seats if s.seat == seat)
        return free.invite_token is not None and hmac.compare_digest(free.invite_token, invite)

    def invite_for(self, live: LiveGame, seats: tuple[int, ...]) -> str | None:
        """The invitation secret, shown only to a seat holder while the other seat is free."""
        if not seats or live.stored.mode != "friend":
            return None
        free = live.free_seat()
        if free is None:
            return None
        return next(s.invite_token for s in live.stored.seats if s.seat == free)

    # ------------------------------------------------------------------ playing
    async def act(self, game_id: str, token: str | None, ply: Any, move: Any) -> LiveGame:
        """Play ``move`` (notation) for the seat that ``token`` controls, if ``ply`` is current.

        Raises GameError: ``unknown_game``, ``bad_request``, ``forbidden`` (no seat),
        ``not_your_turn``, ``stale`` (an old ply: a double click or an outdated page),
        ``game_over``, ``bad_move`` (not notation), ``illegal`` (the engine refuses it).
        Nothing is stored or changed when it raises.
        """
        if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
            raise GameError(
                "bad_request", "ply must be a non-negative integer (the number of actions so far)"
            )
        if not isinstance(move, str) or not move.strip() or len(move) > 16:
            raise GameError("bad_request", "move must be a move in notation such as 12-15 or pass")
        # The cached copy is enough to find the seats: _decide verifies it against the database.
        live = self._cache.get(game_id) or await self.load(game_id)
        seats = live.seats_of(token)
        if not seats and token:
            seats = (await self.refresh(game_id)).seats_of(
                token
            )  # claimed through another process?
        if not seats:
            raise GameError(
                "forbidden", "you hold no seat in this game (a missing or wrong seat secret)", 403
            )
        return await self.actions.run(self._decide(live, seats, ply, move))

    async def _decide(
        self, live: LiveGame, seats: tuple[int, ...], ply: int, text: str
    ) -> LiveGame:
        try:
            move = parse_move(text)
        except NotationError as exc:
            raise GameError("bad_move", str(exc), 400) from None
        async with self._lock(live.id):
            live = self._cache.get(live.id) or await self._refresh(live.id)
            try:
                decider = self._check(live, seats, ply, move)
            except GameError:
                if not self.shared:
                    raise
                # The cached copy may be behind another process: refuse only what the
                # database refuses too.  (An accepted action needs no such read: the insert
                # with its expected ply fails if the copy was behind, and the answer is stale.)
                live = await self._refresh(live.id)
                decider = self._check(live, seats, ply, move)
            action = StoredAction(live.ply, "move", decider, move.text())
            await self._commit(live, [action])
        self._schedule_computer(live)
        return live

    @staticmethod
    def _check(live: LiveGame, seats: tuple[int, ...], ply: int, move: Move) -> int:
        """The deciding seat if ``move`` may be played now by one of ``seats``; GameError if not."""
        pos = live.position
        if pos.is_over():
            raise GameError("game_over", "the game is over", 409)
        if live.seeding:
            raise GameError(
                "seeding", "the game starts when every player has given a seed: no move yet", 409
            )
        if ply != live.ply:
            raise GameError(
                "stale", f"the game is at ply {live.ply}, not {ply}: reload the state", 409
            )
        decider = pos.decider
        if decider not in seats:
            raise GameError("not_your_turn", "it is not your decision now", 409)
        try:
            pos.apply(move)
        except IllegalMove as exc:
            raise GameError("illegal", str(exc), 422) from None
        assert decider is not None
        return decider

    async def _commit(self, live: LiveGame, new: list[StoredAction]) -> None:
        """Append ``new`` and the throws that follow it, store them in one transaction, publish."""
        # Work on a scratch game so that readers never see a position ahead of the stored history.
        game = Game(live.game.position)
        try:
            for action in new:
                game.push(parse_move(action.notation))
            dice = live.dice()
            player_seeds = (
                live.stored.player_seeds if live.seeding else None
            )  # stored with the first throw
            n = live.throws + sum(1 for a in new if a.kind == "throw")
            while game.position.is_chance():
                pattern, value = dice.throw(n)
                new.append(
                    StoredAction(
                        live.ply + len(new), "throw", game.position.turn, str(value), pattern
                    )
                )
                game.push_throw(value)
                n += 1
            outcome = game.outcome()
            finish: dict[str, Any] | None = None
            if outcome is not None:
                finish = {
                    "result": outcome.result,
                    "reason": outcome.reason,
                    "score_a": outcome.score[0],
                    "score_b": outcome.score[1],
                }
            if new:
                await self.storage.append(live.id, live.ply, new, finish, player_seeds)
        except ConflictError:
            await self.reload(live.id)
            raise GameError(
                "stale", "another action was stored first: reload the state", 409
            ) from None
        live.game.extend(game)
        live.history.extend(new)
        live.stored.ply = live.ply
        if finish:
            live.stored.result = finish["result"]
            live.stored.reason = finish["reason"]
            live.stored.score_a, live.stored.score_b = finish["score_a"], finish["score_b"]
        if new:
            await self._publish(live.id, update_message(live.ply - len(new), new, finish))

    def absorb(self, game_id: str, message: dict[str, Any]) -> bool:
        """Bring the cached copy up to date from an update message that carries its actions.

        Applied only when the copy is exactly at the message's ``from`` and no decision is in
        progress here (the game's lock is free); anything else — a gap, a malformed or foreign
        message, an action the engine refuses — returns False and the caller reads the
        database.  Runs without awaiting, so no other task sees a half-applied copy.
        True when the copy is now at least at the message's ``ply``.
        """
        live = self._cache.get(game_id)
        ply = message.get("ply")
        if live is None or not isinstance(ply, int):
            return False
        if live.ply >= ply:
            return True
        if live.seeding:
            return (
                False  # the first throw: the seats' seeds and player_seeds come from the database
            )
        start, rows = message.get("from"), message.get("actions")
        lock = self._locks.get(game_id)
        if (
            start != live.ply
            or not isinstance(rows, list)
            or start + len(rows) != ply
            or (lock and lock.locked())
        ):
            return False
        try:
            new = [
                StoredAction(live.ply + i, str(kind), seat, str(notation), pattern)
                for i, (kind, seat, notation, pattern) in enumerate(rows)
            ]
            game = Game(live.game.position)
            dice, n = live.dice(), live.throws
            for action in new:
                if action.kind == "throw":  # the throws must be the committed ones, too
                    if dice.throw(n) != (action.pattern, int(action.notation)):
                        return False
                    n += 1
                _replay(game, action)
        except (TypeError, ValueError, IllegalMove, NotationError):
            return False
        live.game.extend(game)
        live.history.extend(new)
        live.stored.ply = live.ply
        finish = message.get("finish")
        if isinstance(finish, dict):
            live.stored.result = finish.get("result")
            live.stored.reason = finish.get("reason")
            live.stored.score_a, live.stored.score_b = finish.get("score_a"), finish.get("score_b")
        if self.shared:
            self._schedule_computer(live, backup=True)
        return True

    # ------------------------------------------------------------------ the computer
    def _schedule_computer(self, live: LiveGame, backup: bool = False) -> None:
        """Let the computer play its turn from here.  The process that stored the human's action
        schedules it at once; any other process that sees the game (``backup``) stands by and
        plays only if nobody has after ``backup_delay`` (its process died): the insert decides."""
        seat = live.computer_seat()
        if self._closing or seat is None or live.position.decider != seat:
            return
        task = self._computer_tasks.get(live.id)
        if task is not None and not task.done():
            if backup or live.id not in self._backup_tasks:
                return
            task.cancel()  # a stand-by gives way to the real one
        if backup:
            self._backup_tasks.add(live.id)
        else:
            self._backup_tasks.discard(live.id)
        delay = self.computer_delay + (self.backup_delay if backup else 0.0)
        self._computer_tasks[live.id] = asyncio.create_task(
            self._computer_turns(live.id, seat, delay)
        )

    async def _computer_turns(
        self, game_id: str, seat: int, first_delay: float | None = None
    ) -> None:
        rng = random.Random(secrets.randbits(64))
        delay = self.computer_delay if first_delay is None else first_delay
        try:
            while True:
                await asyncio.sleep(delay)
                delay = self.computer_delay
                live = await self.refresh(game_id)
                self._backup_tasks.discard(game_id)
                pos = live.position
                if pos.decider != seat:
                    return
                move = await asyncio.to_thread(
                    computer.choose_move, pos, live.stored.level or "", rng
                )
                try:
                    await self._decide(live, (seat,), live.ply, move.text())
                except GameError as exc:  # the position moved on meanwhile: look again
                    log.info("computer move in %s refused: %s", game_id, exc.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer failed in game %s", game_id)
        finally:
            if self._computer_tasks.get(game_id) is asyncio.current_task():
                del self._computer_tasks[game_id]
                self._backup_tasks.discard(game_id)

    # ------------------------------------------------------------------ rematch
    async def rematch(self, game_id: str, token: str | None) -> tuple[str, str | None]:
        """Ask for (or accept) a rematch: ``(new game id, new seat secret or None if already seated)``.

        Colours swap: whoever held A now holds B.  The first request creates the game; the other
        player's request takes their seat in it; further requests return the same game.
        """
        return await self.actions.run(self._rematch(game_id, token))

    async def _rematch(self, game_id: str, token: str | None) -> tuple[str, str | None]:
        live = await self.refresh(game_id)
        seats = live.seats_of(token)
        if not seats:
            raise GameError("forbidden", "only the players can ask for a rematch", 403)
        if not live.position.is_over():
            raise GameError("not_over", "the game is not over yet", 409)
        mine = seats[0]
        if live.stored.rematch_id is None:
            s = live.stored
            created = await self.create(s.variant, s.mode, "AB"[1 - mine], s.level, rematch_of=s.id)
            if await self.storage.set_rematch(game_id, created.game_id):
                s.rematch_id = created.game_id
                await self._publish(game_id, {"type": "update", "ply": live.ply, "refresh": True})
                return created.game_id, created.token
            live = await self.reload(game_id)
        new_id = live.stored.rematch_id
        assert new_id is not None
        new = await self.load(new_id)
        seat = 1 - mine
        free = next(s for s in new.stored.seats if s.seat == seat)
        if free.claimed or not free.invite_token:
            return new_id, None  # already seated there (the creator) or taken
        claimed = await self.claim(new_id, free.invite_token)
        return new_id, claimed[0] if claimed else None

    # ------------------------------------------------------------------ presence and broadcast
    async def _publish(self, game_id: str, message: dict[str, Any]) -> None:
        await self.broadcast.publish(f"game:{game_id}", message)

    def subscribe(self, game_id: str) -> Any:
        return self.broadcast.subscribe(f"game:{game_id}")

    async def connected(self, game_id: str, seats: tuple[int, ...], delta: int) -> None:
        """Count a connection (delta +1) or a disconnection (-1) and tell everyone watching."""
        await self._publish(game_id, self.people.count(game_id, seats, delta))

    def _observe(self, channel: str, message: dict[str, Any]) -> None:
        """Every message from another process, as it arrives (see MemoryBroadcast.observers):
        its actions go into the cached game, its presence counts into the sum."""
        if not channel.startswith("game:"):
            return
        game_id = channel[5:]
        if message.get("type") == "update":
            self.absorb(game_id, message)
        elif message.get("type") == "presence":
            self.people.absorb(game_id, message)

    def presence(self, game_id: str) -> dict[str, Any]:
        """Seats online and spectators, over every process."""
        return self.people.summary(game_id)
