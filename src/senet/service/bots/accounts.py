"""Bots on the site: BOT accounts, personal API tokens, and what a bot asks of its games.

* **A BOT account** (:meth:`Bots.upgrade`) is a named player made a bot for good, as on
  lichess: only a name that holds no seat of a rated game may become one (its rating then
  measures the program, never a person before it), and a bot never becomes a person again.
  A bot plays through the API only: its seats are found from its account (a seat is linked to
  it when it takes one), never from a seat secret.  Quick pairing never gives a person a bot
  unless the person has ticked *accept games against bots*
  (:func:`senet.service.lobby.rated_pairing.may_pair`).
* **Personal API tokens** (:meth:`Bots.new_token`): ``senet_`` and 192 random bits, shown once
  when made; only the SHA-256 is stored, with a short public id to revoke it, a label, and
  its scopes (:data:`SCOPES`).  A revoked or unknown token authenticates nobody.
* **Games**: a bot moves, resigns and gives its seed for the seats linked to its account,
  through the same commands as anyone (every move checked by the engine), and lists seeks
  (:meth:`Bots.seek`) through the rated pairing, rated or casual.
* **Events** (:class:`EventFeed`): which of a bot's games started or finished, read from the
  database whenever its channel (``player:ID``) wakes the stream, or the lobby's channel
  changed its games (:class:`BotGamesWatch`: one read per lobby change for every stream of the
  process), and now and then in case a message was lost; a game's end is announced on the channels of its bots by the process that
  stored it.  Challenges come from :mod:`senet.service.challenges.offers` (its events on the
  player's challenge channel), and are answered through it: no second challenge model.

This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Literal, TypedDict

from senet.service.challenges.offers import (
    Accepted,
    Challenge,
    ChallengeJson,
    ChallengeMessage,
    Challenges,
    challenge_json,
)
from senet.service.errors import GameError
from senet.service.games.clocks import requested_time_control
from senet.service.games.commands import LOBBY_CHANNEL, GameCommands
from senet.service.games.live_games import GameStore, LiveGame, hash_token
from senet.service.games.requests import parsed_move
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.lobby import Paired
from senet.service.lobby.rated_pairing import RatedPairing, one_at_a_time
from senet.service.players import Players
from senet.service.players.storage import PlayerRow

from .storage import BotStorage, GameOfPlayer, TokenRow

__all__ = [
    "Authenticated",
    "BotEvent",
    "Bots",
    "BotGamesWatch",
    "EventFeed",
    "ChallengeBotEvent",
    "GameFinishEvent",
    "GamesQuotaReached",
    "GameStartEvent",
    "SCOPES",
    "TOKEN_PREFIX",
    "player_channel",
]

log = logging.getLogger("senet.bots")

#: what a token may be used for
SCOPES: dict[str, str] = {
    "bot:play": "play as a bot: the event and game streams, moves, seeds, resigning, seeks",
    "challenge:read": "see the challenges made to the player in the event stream",
    "challenge:write": "accept and decline challenges",
}
TOKEN_PREFIX = "senet_"
#: tokens one player may hold at once
MAX_TOKENS = 20
MAX_LABEL = 40


def player_channel(player_id: str) -> str:
    """The channel on which a player's bot events are announced (any process)."""
    return f"player:{player_id}"


class GamesQuotaReached(GameError):
    """A bot has as many games going or waiting as it may (429 ``too_many_games``)."""

    def __init__(self, most: int) -> None:
        super().__init__(
            "too_many_games",
            f"a bot has at most {most} games going or waiting at once: finish one first",
            429,
        )
        self.most = most


@dataclass(frozen=True)
class Authenticated:
    """Who a request's token authenticates, and the token."""

    player: PlayerRow
    token: TokenRow

    def allows(self, scope: str) -> bool:
        return scope in self.token.scopes


# ---------------------------------------------------------------------- the event stream
class Opponent(TypedDict):
    name: str | None  # None: an anonymous player (or nobody yet)
    kind: str  # human | computer | bot | anonymous


class BotGame(TypedDict):
    """A game as the event stream names it."""

    id: str
    variant: str
    time_control: str
    rated: bool
    seat: Literal["A", "B"]  # the bot's
    opponent: Opponent


class GameStartEvent(TypedDict):
    """Both seats of a game of the bot's are taken: stream it and give a seed."""

    type: Literal["gameStart"]
    game: BotGame


class FinishedGame(TypedDict):
    id: str
    result: str | None  # A | B | draw; None: called off (no seeds by the deadline)
    termination: str | None  # resignation | time forfeit | abandoned | aborted; None: the rules


class GameFinishEvent(TypedDict):
    type: Literal["gameFinish"]
    game: FinishedGame


class ChallengeBotEvent(TypedDict):
    """A challenge made to the bot (``challenge``: accept or decline it), withdrawn or expired
    (``challengeCanceled``), or declined (``challengeDeclined``)."""

    type: Literal["challenge", "challengeCanceled", "challengeDeclined"]
    challenge: ChallengeJson


BotEvent = GameStartEvent | GameFinishEvent | ChallengeBotEvent

#: a challenge's event (senet.service.challenges.offers) as the bot's event stream names it
_CHALLENGE_EVENTS: dict[str, Literal["challenge", "challengeCanceled", "challengeDeclined"]] = {
    "received": "challenge",
    "cancelled": "challengeCanceled",
    "expired": "challengeCanceled",
    "declined": "challengeDeclined",
}


class EventFeed:
    """What changed among one bot's games since the feed last looked: a game started (both
    seats taken) or finished (over, or called off).  The first look reports every game going
    on, so a bot that reconnects finds its games again."""

    def __init__(self, bots: Bots, player: PlayerRow, challenges: bool = False) -> None:
        self.bots = bots
        self.player = player
        self.challenges = challenges  # the token may read the player's challenges
        self.started: set[str] = set()
        #: games made by accepted challenges: started for the bot at once (the challenger
        #: takes the other seat when they come)
        self.accepted: set[str] = set()

    async def opening(self) -> list[BotEvent]:
        """The first lines of a stream: the challenges waiting for the bot's answer, then
        every game it has going."""
        events: list[BotEvent] = []
        if self.challenges:
            for challenge in await self.bots.challenges.incoming(self.player):
                events.append({"type": "challenge", "challenge": challenge_json(challenge)})
        return events + await self.changes()

    def challenge(self, message: ChallengeMessage) -> BotEvent | None:
        """A message of the player's challenge channel as a bot event (None: not one a bot is
        told of, or the token may not read challenges)."""
        challenge = message["challenge"]
        if message["event"] == "accepted" and challenge["game"] is not None:
            self.accepted.add(challenge["game"])  # a gameStart follows
            return None
        kind = _CHALLENGE_EVENTS.get(message["event"])
        if kind is None or not self.challenges:
            return None
        if kind == "challenge" and challenge["challenged"] != self.player.name:
            return None  # the bot's own challenge, made elsewhere: nothing to answer
        return {"type": kind, "challenge": challenge}

    async def changes(self) -> list[BotEvent]:
        games = await self.bots.db.unfinished_games(self.player.id)
        going = {g.id: g for g in games if g.started or g.id in self.accepted}
        events: list[BotEvent] = []
        for game_id in sorted(self.started - going.keys()):
            found = await self.bots.db.result_of(game_id)
            result, termination = found if found is not None else (None, "aborted")
            if found is not None and result is None:
                continue  # not over after all (read between two writes): look again later
            events.append(
                {
                    "type": "gameFinish",
                    "game": {"id": game_id, "result": result, "termination": termination},
                }
            )
            self.started.discard(game_id)
        for game_id, game in going.items():
            if game_id not in self.started:
                events.append({"type": "gameStart", "game": await self.bots.game_of(game)})
                self.started.add(game_id)
        return events

    async def keep_seeks(self, every: int = 0) -> None:
        """The bot is here (its stream is open): its listed seeks stay shown in the lobby
        (``every`` ms at most once for the player, over all its streams)."""
        await self.bots.keep_seeks(self.player, every)


class BotGamesWatch:
    """The lobby's changes for the event streams of one process, read once per change.

    A game of a bot starts or ends through the lobby as well as through its own channel: a
    person takes its seek, the sweep withdraws or calls one off.  Each stream following the
    lobby channel and reading its bot's games on every message made one lobby change cost as
    many database reads as there were streams open; here one task follows the channel, reads
    the unfinished games of every bot with a stream open in one query per change (a burst of
    changes: one read), and wakes only the streams of the bots whose games changed."""

    def __init__(self, bots: Bots) -> None:
        self.bots = bots
        self._followers: dict[str, set[asyncio.Event]] = {}
        self._seen: dict[str, frozenset[tuple[str, bool, bool]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    @contextlib.asynccontextmanager
    async def follow(self, player_id: str, wake: asyncio.Event) -> AsyncIterator[None]:
        """Set ``wake`` whenever the lobby changes the player's games, for the block."""
        if self._task is None or self._task.done():
            self._subscribed.clear()
            self._task = asyncio.create_task(self._run(), name="bot games watch")
        await self._subscribed.wait()
        self._followers.setdefault(player_id, set()).add(wake)
        try:
            yield
        finally:
            followers = self._followers.get(player_id)
            if followers is not None:
                followers.discard(wake)
                if not followers:
                    del self._followers[player_id]
                    self._seen.pop(player_id, None)

    async def _run(self) -> None:
        async with self.bots.broadcast.subscribe(LOBBY_CHANNEL) as sub:
            self._subscribed.set()
            while True:
                await sub.get()
                while not sub.queue.empty():  # changes that came together: one read
                    sub.queue.get_nowait()
                try:
                    await self._read()
                except Exception:
                    log.exception("reading the bots' games after a lobby change failed")

    async def _read(self) -> None:
        players = list(self._followers)
        if not players:
            return
        found = await self.bots.db.unfinished_games_of(players)
        for player_id in players:
            now = frozenset((g.id, g.started, g.listed) for g in found.get(player_id, ()))
            if self._seen.get(player_id) == now:
                continue
            self._seen[player_id] = now
            for wake in self._followers.get(player_id, ()):
                wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None


# ---------------------------------------------------------------------- the bots
class Bots:
    """BOT accounts, tokens and a bot's actions over one process's service parts."""

    def __init__(
        self,
        store: GameStore,
        commands: GameCommands,
        players: Players,
        rated_pairing: RatedPairing,
        challenges: Challenges,
        broadcast: MemoryBroadcast,
    ) -> None:
        self.db = BotStorage(players.db)
        self.challenges = challenges
        self.store = store
        self.commands = commands
        self.players = players
        self.rated_pairing = rated_pairing
        self.broadcast = broadcast
        self._tasks: set[asyncio.Task[None]] = set()
        self._quota_locks: dict[str, asyncio.Lock] = {}
        #: when each player's listed seeks were last kept shown (the store's clock, ms)
        self._kept: dict[str, int] = {}
        self.games_watch = BotGamesWatch(self)
        store.on_change.append(self._changed)

    async def close(self) -> None:
        await self.games_watch.close()
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task

    # ------------------------------------------------------------------ accounts
    async def upgrade(self, player: PlayerRow) -> None:
        """Make ``player`` a BOT account, for good.  GameError ``already_bot``,
        ``not_a_person`` (a computer level), ``rated_games`` (the name has played rated)."""
        if player.bot:
            raise GameError("already_bot", "this name is a bot account already", 409)
        if player.kind != "human":
            raise GameError("not_a_person", "only a person's name can become a bot", 403)
        refused = GameError(
            "rated_games",
            "a name that has played a rated game cannot become a bot: take a new name",
            409,
        )
        if await self.db.rated_games(player.id):
            raise refused
        if not await self.db.make_bot(player.id):
            raise refused  # a rated game was linked meanwhile

    async def accept_bots(self, player: PlayerRow, accepts: bool) -> None:
        """A person lets quick pairing give them a bot (or no longer does)."""
        await self.db.set_accepts_bots(player.id, accepts)

    # ------------------------------------------------------------------ tokens
    async def new_token(
        self, player: PlayerRow, label: object, scopes: list[str]
    ) -> tuple[str, TokenRow]:
        """A new token of ``player``: the token (shown once, never stored) and its row.
        GameError ``bad_label``, ``bad_scopes``, ``too_many_tokens``."""
        if not isinstance(label, str) or not 1 <= len(label.strip()) <= MAX_LABEL:
            raise GameError("bad_label", f"a token's label has 1 to {MAX_LABEL} characters")
        label = label.strip()
        if not label.isprintable():
            raise GameError("bad_label", "a token's label is printable text")
        chosen = sorted(set(scopes))
        if not chosen or any(s not in SCOPES for s in chosen):
            raise GameError("bad_scopes", f"scopes: one or more of {', '.join(SCOPES)}")
        if len(await self.db.tokens_of(player.id)) >= MAX_TOKENS:
            raise GameError(
                "too_many_tokens", f"a player holds at most {MAX_TOKENS} tokens: revoke one", 409
            )
        token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        token_id = secrets.token_hex(4)
        await self.db.add_token(hash_token(token), token_id, player.id, label, chosen)
        rows = await self.db.tokens_of(player.id)
        return token, next(r for r in rows if r.id == token_id)

    async def tokens(self, player: PlayerRow) -> list[TokenRow]:
        return await self.db.tokens_of(player.id)

    async def revoke(self, player: PlayerRow, token_id: str) -> bool:
        return await self.db.revoke(player.id, token_id)

    async def authenticate(self, token: str | None) -> Authenticated | None:
        """Who ``token`` authenticates (None: none, malformed, unknown or revoked)."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        found = await self.db.by_token(hash_token(token))
        return Authenticated(*found) if found is not None else None

    # ------------------------------------------------------------------ games
    async def seats(self, game_id: str, player: PlayerRow) -> tuple[LiveGame, tuple[int, ...]]:
        """The game and the seats the bot holds in it: GameError ``unknown_game`` (404),
        ``forbidden`` (403: none)."""
        live = await self.store.load(game_id)
        seats = await self.db.seat_of(game_id, player.id)
        if not seats:
            raise GameError("forbidden", "your account holds no seat in this game", 403)
        return live, seats

    async def move(
        self, game_id: str, player: PlayerRow, text: str, ply: int | None = None
    ) -> LiveGame:
        """Play ``text`` (the game's notation) for the bot's seat at ``ply`` (default: the
        current one).  Checked by the engine like anyone's move; an illegal move is GameError
        ``illegal`` with the engine's reason, 400, and changes nothing."""
        if not text.strip() or len(text) > 16:
            raise GameError("bad_move", "a move in notation such as 12-15, 28-off or pass")
        live, seats = await self.seats(game_id, player)
        try:
            move = parsed_move(text)
            return await self.commands.play(game_id, seats, live.ply if ply is None else ply, move)
        except GameError as exc:
            if exc.code == "illegal":
                raise GameError("illegal", exc.message, 400) from None
            raise

    async def resign(self, game_id: str, player: PlayerRow) -> LiveGame:
        _, seats = await self.seats(game_id, player)
        return await self.commands.resign_seats(game_id, seats)

    async def seed(self, game_id: str, player: PlayerRow, seed: object) -> LiveGame:
        _, seats = await self.seats(game_id, player)
        return await self.commands.seed_seats(game_id, seats, seed)  # type: ignore[arg-type]

    async def seek(
        self,
        player: PlayerRow,
        variant: str,
        time_control: str,
        rated: bool,
        most: int | None = None,
    ) -> Paired:
        """Take a waiting seek that accepts bots, or list the bot's own (rated or casual).

        ``most``: the bot's games quota (:class:`GamesQuotaReached` at it), counted and the
        game added one request at a time per bot (:meth:`one_game_more`); and a bot lists at
        most as many seeks at once as the lobby's cap lets anyone (``too_many_listed``)."""
        control = requested_time_control(time_control)
        async with self.one_game_more(player, most) as games:
            waiting = sum(1 for g in games if g.listed and not g.started)
            may_list = waiting < self.commands.fair_play.listing_cap
            return await self.rated_pairing.pair(
                player, variant, control, [], rated=rated, may_list=may_list
            )

    async def accept(
        self, challenge_id: str, player: PlayerRow, most: int | None = None
    ) -> Accepted:
        """Accept a challenge made to ``player``: the game is made with the challenge's terms,
        the player seated (a bot's seat linked to its account).  GameError as
        :meth:`senet.service.challenges.offers.Challenges.accept`; ``most``: a bot's games quota,
        as for :meth:`seek`."""
        if most is None:
            return await self.challenges.accept(challenge_id, player)
        async with self.one_game_more(player, most):
            return await self.challenges.accept(challenge_id, player)

    @contextlib.asynccontextmanager
    async def one_game_more(
        self, player: PlayerRow, most: int | None
    ) -> AsyncIterator[list[GameOfPlayer]]:
        """Hold the player's games quota for the block that may add one game: one block at a
        time per player, over every process (:func:`~senet.service.lobby.rated_pairing.one_at_a_time`:
        an advisory lock on PostgreSQL), so the count read here and the game the block adds
        are one step that no concurrent request of the same bot can split.  Yields the
        player's active games; :class:`GamesQuotaReached` if there are ``most`` already
        (``None``: no quota)."""
        if most is None:
            yield await self.active_games(player)
            return
        async with one_at_a_time(
            self.store.storage.engine, self._quota_locks, f"bot-games:{player.id}"
        ):
            games = await self.active_games(player)
            if len(games) >= most:
                raise GamesQuotaReached(most)
            yield games

    async def decline(self, challenge_id: str, player: PlayerRow) -> Challenge:
        return await self.challenges.decline(challenge_id, player)

    async def active_games(self, player: PlayerRow) -> list[GameOfPlayer]:
        """The games a bot has going or waiting for a taker (what its games quota counts)."""
        return [g for g in await self.db.unfinished_games(player.id) if g.started or g.listed]

    async def keep_seeks(self, player: PlayerRow, every: int = 0) -> None:
        """The bot is here: its listed seeks stay shown.  ``every`` (ms): not again within
        that time of the last time for this player, whichever of its streams asks."""
        now = self.store.clock.now()
        last = self._kept.get(player.id)
        if last is not None and 0 <= now - last < every:
            return
        self._kept[player.id] = now
        if len(self._kept) > 10_000:
            self._kept.pop(next(iter(self._kept)))
        for game in await self.db.unfinished_games(player.id):
            if game.listed and not game.started:
                await self.store.note_seen(game.id, game.seat, now)

    async def game_of(self, game: GameOfPlayer) -> BotGame:
        held = await self.players.db.game_players(game.id)
        other = held.get(1 - game.seat)
        opponent: Opponent = (
            {"name": other.name, "kind": other.kind}
            if other is not None
            else {"name": None, "kind": "anonymous"}
        )
        return {
            "id": game.id,
            "variant": game.variant,
            "time_control": game.time_control,
            "rated": game.rated,
            "seat": "A" if game.seat == 0 else "B",
            "opponent": opponent,
        }

    # ------------------------------------------------------------------ announcing
    async def notify(self, player_id: str) -> None:
        """Wake the player's event streams on every process (they read what changed)."""
        await self.broadcast.publish(player_channel(player_id), {"type": "player"})

    def _changed(self, live: LiveGame, here: bool) -> None:
        if not (here and live.over):
            return
        task = asyncio.get_running_loop().create_task(self._announce_end(live.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _announce_end(self, game_id: str) -> None:
        try:
            for player in (await self.players.db.game_players(game_id)).values():
                if player.bot:
                    await self.notify(player.id)
        except Exception:
            log.exception("announcing the end of game %s to its bots failed", game_id)
