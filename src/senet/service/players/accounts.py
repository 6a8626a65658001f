"""Players with a name: no password, no e-mail; a name lives on the devices that hold one of
its session secrets.  Ratings (Glicko-2, per variant), profiles and every game of a player.

* **A name** (:meth:`Players.take_name`): checked by :mod:`senet.service.players.names`, unique by its
  look-alike key; the device gets a session secret (192 bits) of which only the SHA-256 is
  stored.  Another device signs in with a one-time transfer code (:meth:`Players.new_transfer`,
  valid :data:`TRANSFER_TTL_MS`, spent by its first use) or a passkey (the web layer verifies
  it; the challenge is spent here, once).  Signing out forgets one session; signing out
  everywhere forgets them all; deleting a name forgets the player, whose games stay, anonymous.
* **Seats**: the seats a named player holds are linked to the player (:meth:`Players.link`),
  so the player's games are found from any device.  Games on one screen are not linked (one
  person holds both seats).
* **Ratings**: a *rated* game between two different players (a named person, or a computer
  level, which is a player of its own) updates both players' ratings in its variant once it
  is over, exactly once (:meth:`PlayerStorage.rate_game`); every process that sees the game
  end tries, and one succeeds.

This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from senet.service import computer
from senet.service.games.fair_play import FairPlay
from senet.service.games.live_games import GameStore, LiveGame, hash_token, new_token
from senet.service.games.storage import Storage
from senet.service.messages import Holder, Mode, SeatPass

from . import glicko2
from . import levels as level_ratings
from .names import NameRefused, check_name, look_alike_keys, name_key, probe_keys
from .storage import (
    PlayedGame,
    PlayerRow,
    PlayerStorage,
    RatingChange,
    RatingRow,
)

__all__ = [
    "Players",
    "Profile",
    "RatingView",
    "SeatRating",
    "NameRefused",
    "TRANSFER_TTL_MS",
    "CHALLENGE_TTL_MS",
    "rating_text",
]

log = logging.getLogger("senet.players")

#: how long a transfer code signs another device in (ms)
TRANSFER_TTL_MS = 10 * 60 * 1000
#: how long a passkey challenge may be answered (ms)
CHALLENGE_TTL_MS = 5 * 60 * 1000
#: how often every process looks for finished rated games not yet rated (ms of the server's
#: clock); the first look is at start-up
RATING_SWEEP_MS = 5 * 60 * 1000
#: a transfer code's alphabet: no 0/O, 1/I/L to misread when typed from another screen
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_CODE_LENGTH = 12  # 59 bits; guesses are rate-limited and a code lives ten minutes


#: a newcomer's rating (and an anonymous player's, for choosing a level)
NEW_RATING = 1500.0
#: rating points between two neighbouring computer levels not yet rated
NOMINAL = 300.0


def rating_text(rating: float, rd: float) -> str:
    """A rating as shown: rounded, with ``?`` while provisional (``1500?``, ``1623``)."""
    return f"{round(rating)}{'?' if rd > glicko2.PROVISIONAL_RD else ''}"


@dataclass(frozen=True)
class RatingView:
    """A player's rating in one variant, with its history (oldest first) for the chart."""

    variant: str
    rating: int
    rd: int
    provisional: bool
    games: int
    history: tuple[tuple[str, int], ...]  # (ISO time, rating after the game)

    @property
    def text(self) -> str:
        return f"{self.rating}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class Profile:
    player: PlayerRow
    ratings: tuple[RatingView, ...]
    games: int
    wins: int
    losses: int
    draws: int
    recent: tuple[PlayedGame, ...]
    rating_changes: dict[str, int]  # game id -> the player's rating change in it


@dataclass(frozen=True)
class SeatRating:
    """One seat of a game as its page shows it: who holds it and their rating."""

    seat: int
    name: str
    kind: str  # human | computer | bot
    rating: str | None  # "1500?" in the game's variant, None before any rated game
    change: int | None  # the rating change this game made, once it is rated


def new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))


def normal_code(text: str) -> str:
    """A transfer code as typed: case, spaces and dashes do not count."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


class Players:
    """The players of one server process's database.  Listens to the store: every game that
    ends here has its ratings updated (once, over every process)."""

    def __init__(self, storage: Storage, store: GameStore, limits: FairPlay | None = None) -> None:
        self.db = PlayerStorage(storage)
        self.store = store
        self.clock = store.clock
        self.limits = limits or FairPlay()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: called with a player's id before the player is deleted (their challenges go too)
        self.on_delete: list[Callable[[str], Awaitable[None]]] = []
        store.on_change.append(self._changed)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task

    # ------------------------------------------------------------------ names and sessions
    async def take_name(self, raw: object) -> tuple[PlayerRow, str]:
        """A new player named ``raw`` and the session secret of this device.

        Raises :class:`NameRefused` (``length``, ``characters``, ``mixed``, ``start``,
        ``separators``, ``reserved``, ``taken``, ``busy``: the site's names of the last
        :attr:`FairPlay.name_window` are as many as it takes)."""
        name = check_name(raw)
        key = name_key(name)
        taken = NameRefused("taken", "this name, or one that looks the same, is taken")
        now = self._moment()
        window = timedelta(milliseconds=self.limits.name_window)
        if await self.db.names_since(now - window) >= self.limits.names_per_window:
            raise NameRefused("busy", "very many names are being taken: try again later")
        if await self.db.by_key(key) is not None:
            raise taken
        # a name stored under another key that still reads as this one («Тот» and "Tom")
        mine = look_alike_keys(name)
        for probe in probe_keys(name) - {key}:
            other = await self.db.by_key(probe)
            if other is not None and look_alike_keys(other.name) & mine:
                raise taken
        secret = new_token()
        player_id = secrets.token_urlsafe(12)
        if not await self.db.create_player(
            player_id, name, key, hash_token(secret), created_at=now
        ):
            raise taken
        player = await self.db.by_id(player_id)
        if player is None:
            raise RuntimeError(f"player {player_id} was created and is not found")
        return player, secret

    def _moment(self) -> datetime:
        """The server's clock as a time to store."""
        return datetime.fromtimestamp(self.clock.now() / 1000, UTC)

    async def free_unused_names(self) -> int:
        """Free the names that have never held a seat in a game (nor a passkey, nor an API
        token) :attr:`FairPlay.unused_name_lifetime` after they were taken: a name squatted
        and never played goes back to everyone.  How many were freed."""
        before = self._moment() - timedelta(milliseconds=self.limits.unused_name_lifetime)
        freed = 0
        for player in await self.db.unused_names(before):
            await self.delete(player)
            freed += 1
        return freed

    async def session(self, secret: str | None) -> PlayerRow | None:
        """The player whose session ``secret`` is (None: no name on this device)."""
        if not secret or len(secret) > 100:
            return None
        return await self.db.by_session(hash_token(secret))

    async def sign_out(self, secret: str) -> None:
        await self.db.end_session(hash_token(secret))

    async def sign_out_everywhere(self, player: PlayerRow) -> int:
        return await self.db.end_sessions(player.id)

    async def delete(self, player: PlayerRow) -> None:
        """Forget the player (and, through :attr:`on_delete`, what other parts keep of them)."""
        for forget in list(self.on_delete):
            await forget(player.id)
        await self.db.delete_player(player.id)

    async def new_session(self, player: PlayerRow) -> str:
        """A session secret for one more device of ``player``."""
        secret = new_token()
        await self.db.add_session(player.id, hash_token(secret))
        return secret

    async def by_name(self, name: str) -> PlayerRow | None:
        if not 1 <= len(name) <= 40:
            return None
        found = await self.db.by_key(name_key(name))
        if found is not None and found.name.casefold() != name.casefold():
            # a name taken before the key folded more (see migration 0007) keeps its old key
            exact = await self.db.by_exact_name(name)
            if exact is not None:
                return exact
        return found

    # ------------------------------------------------------------------ other devices
    async def new_transfer(self, player: PlayerRow) -> str:
        """A one-time code that signs another device in as ``player`` within ten minutes."""
        code = new_code()
        await self.db.add_transfer(hash_token(code), player.id, self.clock.now() + TRANSFER_TTL_MS)
        return code

    async def spend_transfer(self, code: str) -> tuple[PlayerRow, str] | None:
        """Sign a device in with a transfer code: the player and the device's new session
        secret, or None (unknown, used already, or expired)."""
        code = normal_code(code)
        if len(code) != _CODE_LENGTH:
            return None
        player_id = await self.db.spend_transfer(hash_token(code), self.clock.now())
        if player_id is None:
            return None
        player = await self.db.by_id(player_id)
        if player is None:
            return None
        return player, await self.new_session(player)

    async def transfer_owner(self, code: str) -> PlayerRow | None:
        """The player a transfer code would sign in, without spending it (None: unknown,
        used already or expired): the device is told whose name it is about to take."""
        code = normal_code(code)
        if len(code) != _CODE_LENGTH:
            return None
        player_id = await self.db.transfer_owner(hash_token(code), self.clock.now())
        return await self.db.by_id(player_id) if player_id is not None else None

    async def new_challenge(self, purpose: str, player: PlayerRow | None) -> bytes:
        """A passkey challenge (32 random bytes) for ``purpose`` (``register``: by ``player``;
        ``login``: by anyone), good once for five minutes."""
        challenge = secrets.token_bytes(32)
        await self.db.add_challenge(
            challenge.hex(),
            purpose,
            player.id if player else None,
            self.clock.now() + CHALLENGE_TTL_MS,
        )
        return challenge

    async def spend_challenge(self, challenge: bytes, purpose: str) -> tuple[bool, str | None]:
        return await self.db.spend_challenge(challenge.hex(), purpose, self.clock.now())

    # ------------------------------------------------------------------ seats and games
    async def holder(self, game_id: str, token: str | None, player: PlayerRow | None) -> Holder:
        """Who a device is in a game: its seat secret when that holds a seat; otherwise, for a
        device signed in with a name, a :class:`SeatPass` of the seats linked to that name (so
        a name plays its games on every device it is signed in on, a bot account's person
        too); otherwise the secret as given (None, or one the commands look up again).
        GameError ``unknown_game`` if there is no such game."""
        live = await self.store.load(game_id)
        if token and live.seats_of(token):
            return token
        if player is not None and player.kind != "computer" and live.stored.mode != Mode.LOCAL:
            linked = await self.db.linked_seats(game_id, player.id)
            if linked:
                return SeatPass(game_id, linked)
        return token

    async def unfinished_seats(self, player: PlayerRow) -> dict[str, tuple[int, ...]]:
        """The seats of ``player``'s games not over yet, by game (most recently active
        first): "my games" on any device the player is signed in on."""
        found: dict[str, tuple[int, ...]] = {}
        for game_id, seat in await self.db.unfinished_of(player.id):
            found[game_id] = (*found.get(game_id, ()), seat)
        return found

    async def link(
        self, live: LiveGame, seats: tuple[int, ...], player: PlayerRow, *, as_bot: bool = False
    ) -> None:
        """Link the seats ``player`` holds in a game to the player (not on one screen).  A bot
        account's seats are linked only by the bot API (``as_bot``): a browser signed in with
        a bot's name plays as an anonymous player."""
        if not seats or live.stored.mode == Mode.LOCAL:
            return
        if player.kind != ("bot" if as_bot else "human"):
            return
        if await self.db.link_seats(live.id, seats, player.id):
            await self._link_computer(live)

    async def link_game(
        self, game_id: str, seats: tuple[int, ...], player: PlayerRow, *, rated: bool = False
    ) -> None:
        """A game was just made on ``player``'s device: link the seats it holds to the player,
        and make the game rated if asked (and possible: see :meth:`start_rated`)."""
        live = await self.store.load(game_id)
        if rated:
            await self.start_rated(live)
        await self.link(live, seats, player)

    async def game_seats(
        self, game_id: str, seats: tuple[int, ...], player: PlayerRow | None
    ) -> tuple[bool, list[SeatRating]]:
        """A game page's players: the ``seats`` a device holds linked to its ``player`` first
        (if they are not yet: a read, no write, when they are); then ``(rated, the named
        seats)`` (see :meth:`seat_ratings`)."""
        live = await self.store.load(game_id)
        rated, seated = await self.seat_ratings(live)
        if player is not None and seats and not {s.seat for s in seated} >= set(seats):
            await self.link(live, seats, player)
            rated, seated = await self.seat_ratings(live)
        return rated, seated

    async def start_rated(self, live: LiveGame) -> bool:
        """Make a new game rated (before its first throw); the computer's seat is its level's
        player.  False if the game had started (it stays casual)."""
        if live.stored.mode == Mode.LOCAL:
            return False
        rated = await self.db.mark_rated(live.id)
        await self._link_computer(live)
        return rated

    async def _link_computer(self, live: LiveGame) -> None:
        if live.stored.mode != Mode.COMPUTER or not live.stored.level:
            return
        seat = next(s.seat for s in live.stored.seats if s.kind == "computer")
        level = await self.computer_player(live.stored.level)
        await self.db.link_computer(live.id, seat, level.id)

    async def computer_player(self, level: str) -> PlayerRow:
        """The player a computer level is in the rating pool (made on first use)."""
        key = name_key(level)
        found = await self.db.by_key(key)
        if found is None:
            await self.db.create_player(
                f"computer-{level}", level, key, None, kind="computer", level=level
            )
            found = await self.db.by_key(key)
        if found is None:
            raise RuntimeError(f"the computer player of level {level} was created and is not found")
        return found

    async def level_near(self, player: PlayerRow | None, variant: str) -> str:
        """The computer's level nearest in strength to ``player`` in ``variant``: the level
        whose fixed rating there (:mod:`senet.service.players.levels`) is closest to the
        player's; a level the ladder has not measured stands at its place in :data:`NOMINAL`
        steps around 1500.  An anonymous player, or a newcomer, counts as 1500: a middle
        level."""
        levels = computer.levels()
        mine = NEW_RATING
        if player is not None and player.kind == "human":
            found = await self.db.ratings_for([player.id], variant)
            if player.id in found:
                mine = found[player.id].rating
        by_level = {}
        for i, level in enumerate(levels):
            fixed = level_ratings.level_rating(level, variant)
            nominal = NEW_RATING + NOMINAL * (i - (len(levels) - 1) / 2)
            by_level[level] = fixed if fixed is not None else nominal
        return min(levels, key=lambda level: (abs(by_level[level] - mine), levels.index(level)))

    def level_rating(self, level: str, variant: str) -> RatingRow | None:
        """A computer level's fixed rating in ``variant`` (None: not measured)."""
        fixed = level_ratings.level_rating(level, variant)
        if fixed is None:
            return None
        return RatingRow(variant, fixed, level_ratings.LEVEL_RD, glicko2.NEW.volatility, 0)

    # ------------------------------------------------------------------ ratings
    def _changed(self, live: LiveGame, here: bool) -> None:
        if not (here and live.over):
            return
        task = asyncio.get_running_loop().create_task(self._rate_logged(live.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _rate_logged(self, game_id: str) -> None:
        try:
            await self.rate(game_id)
        except Exception:
            log.exception("rating game %s failed (the next look at it tries again)", game_id)

    async def rate_unrated(self) -> int:
        """Apply the ratings of every finished rated game not yet rated (the process that
        ended it died first); how many games were rated now.  Each is rated exactly once
        whichever processes sweep at the same time (:meth:`PlayerStorage.rate_game`)."""
        rated = 0
        for game_id in await self.db.unrated_games():
            try:
                if await self.rate(game_id):
                    rated += 1
            except Exception:
                log.exception("rating game %s failed (the next sweep tries again)", game_id)
        return rated

    async def start(self) -> None:
        """Apply the ratings of the finished rated games not yet rated now (before the
        process serves anyone), then every :data:`RATING_SWEEP_MS` of the server's clock
        (when the unused names are freed too: :meth:`free_unused_names`).
        The computer's levels are players from the start (their profiles exist)."""
        for level in computer.levels():
            await self.computer_player(level)
        try:
            await self.rate_unrated()
        except Exception:  # a database hiccup: the next sweep tries again
            log.exception("the ratings' sweep failed")
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_every(), name="rating sweep")

    async def _sweep_every(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + RATING_SWEEP_MS)
            try:
                await self.rate_unrated()
                await self.free_unused_names()
            except Exception:  # a database hiccup: the next sweep tries again
                log.exception("the players' sweep failed")

    async def rate(self, game_id: str) -> list[RatingChange]:
        """Update the ratings of a finished rated game, if nobody has yet; its changes."""
        return await self.db.rate_game(game_id, _rate_two)

    async def seat_ratings(self, live: LiveGame) -> tuple[bool, list[SeatRating]]:
        """``(rated, the named seats)`` of a game; a finished rated game not yet rated is rated
        now (a process that ended it may have died first)."""
        flags = await self.db.game_flags(live.id)
        rated = bool(flags and flags[0])
        if rated and live.over and flags and not flags[1]:
            await self.rate(live.id)
        held = await self.db.game_players(live.id)
        if not held:
            return rated, []
        changes = {c.player_id: c for c in await self.db.changes_of_game(live.id)}
        current = await self.db.ratings_for([p.id for p in held.values()], live.stored.variant)
        out = []
        for seat, player in sorted(held.items()):
            change = changes.get(player.id)
            if change is not None:
                shown: str | None = rating_text(change.after, change.rd)
                delta: int | None = round(change.after) - round(change.before)
            else:
                have = current.get(player.id)
                shown = rating_text(have.rating, have.rd) if have else None
                delta = None
            out.append(SeatRating(seat, player.name, player.kind, shown, delta))
        return rated, out

    # ------------------------------------------------------------------ profiles
    async def profile(self, player: PlayerRow, recent: int = 30) -> Profile:
        rows = await self.db.ratings_of(player.id)
        history = await self.db.history_of(player.id)
        if player.kind == "computer" and player.level:
            # a level's ratings are fixed: one per variant measured, played or not
            played = {r.variant: r.games for r in rows}
            rows = []
            for variant in level_ratings.LADDER_SCORES:
                fixed = self.level_rating(player.level, variant)
                if fixed is not None:
                    rows.append(replace(fixed, games=played.get(variant, 0)))
            rows.sort(key=lambda r: -r.games)
        views = []
        for row in rows:
            changes = [h for h in history if h.variant == row.variant]
            # the line starts where the first rated game started (1500 for a newcomer)
            start = (
                [(changes[0].created_at.isoformat(), round(changes[0].before))] if changes else []
            )
            points = tuple(start + [(h.created_at.isoformat(), round(h.after)) for h in changes])
            views.append(
                RatingView(
                    row.variant,
                    round(row.rating),
                    round(row.rd),
                    row.rd > glicko2.PROVISIONAL_RD,
                    row.games,
                    points,
                )
            )
        total, wins, losses, draws = await self.db.tally(player.id)
        games = await self.db.games_of(player.id, recent)
        deltas = {h.game_id: round(h.after) - round(h.before) for h in history}
        return Profile(player, tuple(views), total, wins, losses, draws, tuple(games), deltas)

    async def games_of(self, player: PlayerRow, limit: int = 200) -> list[PlayedGame]:
        return await self.db.games_of(player.id, limit)


def _rate_two(
    variant: str, result: str, current: dict[int, tuple[str, RatingRow | None, str | None]]
) -> dict[int, tuple[float, RatingRow]]:
    """Both seats' ratings before and after one game (one Glicko-2 period each, against the
    other's rating before the game).  A computer level's rating is its fixed, measured one
    (:mod:`senet.service.players.levels`): it is the opponent's reference and does not move."""
    before = {}
    for seat, (_, row, level) in current.items():
        fixed = level_ratings.level_rating(level, variant) if level else None
        if fixed is not None:
            before[seat] = glicko2.Rating(fixed, level_ratings.LEVEL_RD, glicko2.NEW.volatility)
        elif row is not None:
            before[seat] = glicko2.Rating(row.rating, row.rd, row.volatility)
        else:
            before[seat] = glicko2.NEW
    score_a = {"A": 1.0, "B": 0.0}.get(result, 0.5)
    out = {}
    for seat in (0, 1):
        row, level = current[seat][1], current[seat][2]
        games = (row.games if row else 0) + 1
        mine = before[seat]
        if level and level_ratings.level_rating(level, variant) is not None:
            out[seat] = (
                mine.rating,
                RatingRow(variant, mine.rating, mine.rd, mine.volatility, games),
            )
            continue
        score = score_a if seat == 0 else 1.0 - score_a
        after = glicko2.rate(mine, [(before[1 - seat], score)], min_rd=glicko2.MIN_RD)
        out[seat] = (
            mine.rating,
            RatingRow(variant, after.rating, after.rd, after.volatility, games),
        )
    return out
