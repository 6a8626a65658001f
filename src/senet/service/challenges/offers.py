"""Challenges: one player asks a named player for a game on set terms (variant, time control,
the challenger's colour, rated or casual); the challenged player accepts or declines.

* **Who may challenge whom.**  A named player challenges any other named person (not a
  computer level: the start form plays those).  An anonymous player may challenge only the
  named opponent of a finished game they played in (proved by their seat's secret in it), so
  that nobody can be flooded by strangers; an anonymous challenge is always casual.  A player
  takes challenges from everyone (the default), from named players only, or from nobody
  (:class:`Acceptance`, set on their name's page); a refused challenge is never stored.
* **A day.**  A challenge is open for :data:`CHALLENGE_LIFETIME_MS` of the server's clock; then
  it expires: it can no longer be accepted (checked when answered, whatever the sweep did) and
  the sweep (:meth:`Challenges.expire`, every minute of the server's clock) marks it so and
  tells both players.
* **Accepting** makes the game (a friend game with the challenge's terms) and seats the
  accepting player in it at once (:class:`Accepted` carries their seat secret); the
  challenger's seat waits for them, taken once with :meth:`Challenges.take_seat` (a named
  challenger on any device, an anonymous one with the challenge's secret).  Of two racing
  answers exactly one counts (the status changes from ``open`` in one statement).
* **Events.**  Every change — a challenge received, accepted, declined, cancelled, expired —
  is a :class:`ChallengeEvent`, given (1) to the listeners registered with
  :meth:`Challenges.on_event`, once, in the process that made the change (a push
  notification is sent from there), and (2) as a :data:`ChallengeMessage` on the broadcast
  channels :func:`player_channel` of each named player concerned and :func:`challenge_channel`
  of the challenge, which every process's subscribers get (the home page's live list, a
  bot's event stream, the challenger's waiting page).

This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, TypedDict

from senet.service.errors import GameError, requested_variant
from senet.service.games.clocks import SystemClock, parse_time_control
from senet.service.games.commands import GameCommands
from senet.service.games.live_games import hash_token, new_token
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.players.accounts import Players
from senet.service.players.storage import PlayerRow

from .storage import ChallengeRow, ChallengeStorage

__all__ = [
    "CHALLENGE_LIFETIME_MS",
    "MAX_OPEN_CHALLENGES",
    "SWEEP_EVERY",
    "Acceptance",
    "Accepted",
    "Challenge",
    "ChallengeEvent",
    "ChallengeEventKind",
    "ChallengeJson",
    "ChallengeListener",
    "ChallengeMessage",
    "ChallengeStatus",
    "ChallengeTerms",
    "Challenges",
    "Sent",
    "challenge_channel",
    "challenge_json",
    "challenge_message",
    "player_channel",
]

log = logging.getLogger("senet.challenges")

#: how long a challenge waits for its answer (ms of the server's clock): a day
CHALLENGE_LIFETIME_MS = 24 * 3600 * 1000
#: open challenges a named player may have sent at once (an anonymous one: one per game)
MAX_OPEN_CHALLENGES = 10
#: how often the sweep looks for challenges whose day is over (ms of the server's clock)
SWEEP_EVERY = 60_000


class ChallengeStatus(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class ChallengeEventKind(StrEnum):
    RECEIVED = "received"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class Acceptance(StrEnum):
    """Whom a player takes challenges from."""

    EVERYONE = "everyone"
    NAMED = "named"  # named players only: no anonymous challenge
    NOBODY = "nobody"


@dataclass(frozen=True)
class ChallengeTerms:
    """The game a challenge asks for, checked (:meth:`checked`)."""

    variant: str
    time_control: str  # as parse_time_control reads it
    colour: str  # the challenger's: A | B | random
    rated: bool

    @classmethod
    def checked(
        cls,
        variant: object,
        time_control: object = "untimed",
        colour: object = "random",
        rated: object = False,
    ) -> ChallengeTerms:
        """The terms, normalised; GameError ``unknown_variant``, ``bad_time_control``,
        ``bad_colour`` or ``bad_request``."""
        if not isinstance(variant, str):
            raise GameError("bad_request", "variant must be a variant's name")
        v = requested_variant(variant)
        if not isinstance(time_control, str):
            raise GameError("bad_time_control", "time_control must be text such as untimed")
        try:
            control = parse_time_control(time_control)
        except ValueError as exc:
            raise GameError("bad_time_control", str(exc)) from None
        if colour not in ("A", "B", "random"):
            raise GameError("bad_colour", "colour must be A, B or random")
        if not isinstance(rated, bool):
            raise GameError("bad_request", "rated must be true or false")
        return cls(v.name, control.text(), str(colour), rated)


@dataclass(frozen=True)
class Challenge:
    """A challenge as its players see it (never its secret)."""

    id: str
    challenger: str | None  # the challenger's name; None: anonymous
    challenger_id: str | None
    challenged: str  # the challenged player's name
    challenged_id: str
    terms: ChallengeTerms
    from_game: str | None  # the finished game it was sent from, if any
    status: ChallengeStatus  # EXPIRED also for an open one whose day is over
    created_at: int  # ms since the epoch, the server's clock
    expires_at: int
    game_id: str | None  # the game an accepted challenge made
    challenger_bot: bool  # a bot account (its pages mark its name)
    challenged_bot: bool


@dataclass(frozen=True)
class Sent:
    """A challenge just made, and its secret: what proves the challenger later (an anonymous
    one has nothing else; a named one may also use their name)."""

    challenge: Challenge
    secret: str


@dataclass(frozen=True)
class Accepted:
    """An accepted challenge: the game made, and the accepting player's seat in it."""

    challenge: Challenge
    game_id: str
    seat: int
    token: str  # the accepting player's seat secret


@dataclass(frozen=True)
class ChallengeEvent:
    kind: ChallengeEventKind
    challenge: Challenge
    #: whether the challenged player's devices are to be notified: a challenge from someone
    #: who challenged them within the notification interval is shown, not notified again
    notify: bool = True


#: a listener of :meth:`Challenges.on_event`: awaited once per event, in a task of its own
ChallengeListener = Callable[[ChallengeEvent], Awaitable[None]]


class ChallengeJson(TypedDict):
    """A challenge as the API and the broadcast messages carry it."""

    id: str
    challenger: str | None
    challenged: str
    variant: str
    time_control: str
    colour: str  # the challenger's
    rated: bool
    status: str
    created_at: int
    expires_at: int
    game: str | None


class ChallengeMessage(TypedDict):
    """On :func:`player_channel` and :func:`challenge_channel`: a challenge changed."""

    type: Literal["challenge"]
    event: str  # a ChallengeEventKind
    challenge: ChallengeJson


def challenge_json(challenge: Challenge) -> ChallengeJson:
    t = challenge.terms
    return {
        "id": challenge.id,
        "challenger": challenge.challenger,
        "challenged": challenge.challenged,
        "variant": t.variant,
        "time_control": t.time_control,
        "colour": t.colour,
        "rated": t.rated,
        "status": challenge.status.value,
        "created_at": challenge.created_at,
        "expires_at": challenge.expires_at,
        "game": challenge.game_id,
    }


def challenge_message(event: ChallengeEvent) -> ChallengeMessage:
    return {
        "type": "challenge",
        "event": event.kind.value,
        "challenge": challenge_json(event.challenge),
    }


def player_channel(player_id: str) -> str:
    """The broadcast channel of a named player's challenges (sent and received)."""
    return f"challenges:{player_id}"


def challenge_channel(challenge_id: str) -> str:
    """The broadcast channel of one challenge (its challenger's waiting page)."""
    return f"challenge:{challenge_id}"


def _challenge(row: ChallengeRow, now: int) -> Challenge:
    status = ChallengeStatus(row.status)
    if status == ChallengeStatus.OPEN and row.expires_at <= now:
        status = ChallengeStatus.EXPIRED
    return Challenge(
        row.id,
        row.challenger_name if row.challenger_id else None,
        row.challenger_id,
        row.challenged_name,
        row.challenged_id,
        ChallengeTerms(row.variant, row.time_control, row.colour, row.rated),
        row.from_game,
        status,
        row.created_at,
        row.expires_at,
        row.game_id,
        row.challenger_kind == "bot",
        row.challenged_kind == "bot",
    )


class Challenges:
    """The challenges of one server process's database."""

    def __init__(
        self,
        storage: Storage,
        commands: GameCommands,
        players: Players,
        broadcast: MemoryBroadcast,
        clock: SystemClock,
    ) -> None:
        self.db = ChallengeStorage(storage)
        self.commands = commands
        self.store = commands.store
        self.players = players
        self.broadcast = broadcast
        self.clock = clock
        self.limits = commands.fair_play
        self._listeners: list[ChallengeListener] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        players.on_delete.append(self.db.forget_player)

    # ------------------------------------------------------------------ the hook
    def on_event(self, listener: ChallengeListener) -> None:
        """Call ``listener`` with every :class:`ChallengeEvent` made in this process (once per
        event, after it is stored, in a task of its own; a failure is logged)."""
        self._listeners.append(listener)

    def subscribe(self, player_id: str) -> Any:
        """An async context manager yielding a subscription to the :data:`ChallengeMessage`
        of a named player's challenges, from every process."""
        return self.broadcast.subscribe(player_channel(player_id))

    async def _announce(
        self, kind: ChallengeEventKind, challenge: Challenge, *, notify: bool = True
    ) -> None:
        event = ChallengeEvent(kind, challenge, notify)
        message = challenge_message(event)
        seats = (challenge.challenged_id, challenge.challenger_id)
        for player_id in {player_id for player_id in seats if player_id is not None}:
            await self.broadcast.publish(player_channel(player_id), message)
        await self.broadcast.publish(challenge_channel(challenge.id), message)
        for listener in list(self._listeners):
            task = asyncio.get_running_loop().create_task(self._tell(listener, event))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _tell(self, listener: ChallengeListener, event: ChallengeEvent) -> None:
        try:
            await listener(event)
        except Exception:
            log.exception("a listener of challenge %s failed", event.challenge.id)

    async def settle(self) -> None:
        """Wait for the listeners called so far (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ------------------------------------------------------------------ making one
    async def create(
        self,
        challenged: str,
        terms: ChallengeTerms,
        *,
        challenger: PlayerRow | None = None,
        from_game: str | None = None,
        seat_token: str | None = None,
    ) -> Sent:
        """Challenge the player named ``challenged``.  A named ``challenger`` may challenge
        from anywhere; without one (anonymous), only from ``from_game``, a finished game in
        which ``seat_token`` holds one seat and ``challenged`` the other.

        Raises GameError ``unknown_player`` (404), ``not_challengeable`` (a computer level,
        or oneself), ``refuses_challenges``, ``refuses_anonymous`` (403),
        ``anonymous_needs_game`` (403), ``rated_needs_name``, ``already_challenged`` (409:
        an open challenge to this player, or from this game, waits already),
        ``too_many_challenges``, ``challenged_recently`` (429: this challenger challenged this
        player :attr:`FairPlay.challenges_per_pair` times within the window, withdrawn
        challenges counting), ``challenged_enough`` (429: the player has as many open
        challenges as they may receive)."""
        target = await self.players.by_name(challenged) if isinstance(challenged, str) else None
        if target is None:
            raise GameError("unknown_player", f"no player is named {challenged!r}", 404)
        if target.kind == "computer":
            raise GameError(
                "not_challengeable", "a computer level is played from the start form", 400
            )
        if challenger is not None and challenger.id == target.id:
            raise GameError("not_challengeable", "you cannot challenge yourself", 400)
        if challenger is None:
            await self._check_anonymous(target, from_game, seat_token)
            if terms.rated:
                raise GameError("rated_needs_name", "a rated challenge needs a player name", 400)
        accept = Acceptance(await self.db.accepting(target.id) or Acceptance.EVERYONE)
        if accept == Acceptance.NOBODY:
            raise GameError("refuses_challenges", f"{target.name} takes no challenges", 403)
        if accept == Acceptance.NAMED and challenger is None:
            raise GameError(
                "refuses_anonymous",
                f"{target.name} takes challenges only from players with a name",
                403,
            )
        now = self.clock.now()
        limits = self.limits
        notify = True
        if challenger is not None:
            sent = await self.db.open_for(challenger.id, now, incoming=False)
            if any(s.challenged_id == target.id for s in sent):
                raise GameError(
                    "already_challenged", f"your challenge to {target.name} waits already", 409
                )
            if len(sent) >= MAX_OPEN_CHALLENGES:
                raise GameError(
                    "too_many_challenges",
                    f"you have {MAX_OPEN_CHALLENGES} challenges waiting: wait for answers",
                    429,
                )
            earlier = await self.db.sent_since(
                challenger.id,
                target.id,
                now - max(limits.challenge_window, limits.challenge_notify_interval),
            )
            recent = [t for t in earlier if t > now - limits.challenge_window]
            if len(recent) >= limits.challenges_per_pair:
                raise GameError(
                    "challenged_recently",
                    f"you have challenged {target.name} {len(recent)} times within "
                    f"{limits.challenge_window // 60_000} minutes: wait before the next",
                    429,
                )
            notify = not any(t > now - limits.challenge_notify_interval for t in earlier)
        elif from_game is not None and await self.db.count_open(now, from_game=from_game):
            raise GameError("already_challenged", "a challenge from this game waits already", 409)
        if await self.db.count_received(target.id, now) >= limits.challenges_received:
            raise GameError(
                "challenged_enough",
                f"{target.name} has {limits.challenges_received} challenges waiting: "
                "try again once they have answered some",
                429,
            )
        secret = new_token()
        row = ChallengeRow(
            id=secrets.token_urlsafe(9),
            challenger_id=challenger.id if challenger else None,
            challenger_name=challenger.name if challenger else None,
            secret_hash=hash_token(secret),
            challenged_id=target.id,
            challenged_name=target.name,
            variant=terms.variant,
            time_control=terms.time_control,
            colour=terms.colour,
            rated=terms.rated,
            from_game=from_game,
            status=ChallengeStatus.OPEN.value,
            created_at=now,
            expires_at=now + CHALLENGE_LIFETIME_MS,
            game_id=None,
            challenger_kind=challenger.kind if challenger else None,
            challenged_kind=target.kind,
        )
        await self.db.add(row)
        made = _challenge(row, now)
        await self._announce(ChallengeEventKind.RECEIVED, made, notify=notify)
        return Sent(made, secret)

    async def _check_anonymous(
        self, target: PlayerRow, from_game: str | None, seat_token: str | None
    ) -> None:
        refused = GameError(
            "anonymous_needs_game",
            "without a name you may challenge only the named opponent of a game you finished",
            403,
        )
        if not from_game or not seat_token:
            raise refused
        try:
            live = await self.store.load(from_game)
        except GameError:
            raise refused from None
        mine = live.seats_of(seat_token)
        if len(mine) != 1 or not live.over:
            raise refused
        held = await self.players.db.game_players(from_game)
        opponent = held.get(1 - mine[0])
        if opponent is None or opponent.id != target.id:
            raise refused

    # ------------------------------------------------------------------ reading
    async def get(self, challenge_id: str) -> Challenge:
        """Raises GameError ``unknown_challenge`` (404)."""
        row = await self.db.get(challenge_id) if isinstance(challenge_id, str) else None
        if row is None:
            raise GameError("unknown_challenge", f"there is no challenge {challenge_id!r}", 404)
        return _challenge(row, self.clock.now())

    async def incoming(self, player: PlayerRow) -> list[Challenge]:
        """The open challenges ``player`` may answer now, oldest first."""
        now = self.clock.now()
        return [_challenge(r, now) for r in await self.db.open_for(player.id, now, incoming=True)]

    async def outgoing(self, player: PlayerRow) -> list[Challenge]:
        """The open challenges ``player`` sent that wait for an answer, oldest first."""
        now = self.clock.now()
        return [_challenge(r, now) for r in await self.db.open_for(player.id, now, incoming=False)]

    async def is_challenger(
        self, challenge_id: str, player: PlayerRow | None, secret: str | None
    ) -> bool:
        """Whether the asker (a named player, or the holder of the challenge's secret) made
        the challenge."""
        row = await self.db.get(challenge_id) if isinstance(challenge_id, str) else None
        return row is not None and _made_by(row, player, secret)

    # ------------------------------------------------------------------ answering
    async def _open(self, challenge_id: str) -> ChallengeRow:
        row = await self.db.get(challenge_id) if isinstance(challenge_id, str) else None
        if row is None:
            raise GameError("unknown_challenge", f"there is no challenge {challenge_id!r}", 404)
        self._check_open(_challenge(row, self.clock.now()))
        return row

    @staticmethod
    def _check_open(challenge: Challenge) -> None:
        if challenge.status == ChallengeStatus.EXPIRED:
            raise GameError("challenge_expired", "the challenge has expired (a day passed)", 409)
        if challenge.status != ChallengeStatus.OPEN:
            raise GameError(
                "challenge_closed", f"the challenge was {challenge.status.value} already", 409
            )

    async def _closed_now(self, challenge_id: str) -> GameError:
        """Why a status change found the challenge no longer open."""
        challenge = await self.get(challenge_id)
        try:
            self._check_open(challenge)
        except GameError as exc:
            return exc
        return GameError("challenge_closed", "the challenge was answered already", 409)

    async def accept(self, challenge_id: str, player: PlayerRow) -> Accepted:
        """Accept a challenge made to ``player``: the game is made with its terms and
        ``player`` seated in it.

        Raises GameError ``unknown_challenge`` (404), ``not_yours`` (403),
        ``challenge_expired``, ``challenge_closed`` (409)."""
        row = await self._open(challenge_id)
        if row.challenged_id != player.id:
            raise GameError("not_yours", "only the challenged player can accept", 403)
        theirs = row.colour if row.colour in ("A", "B") else "AB"[secrets.randbelow(2)]
        created = await self.commands.create(
            row.variant,
            "friend",
            "B" if theirs == "A" else "A",
            time_control=parse_time_control(row.time_control),  # checked when it was stored
        )
        if not await self.db.close(
            row.id, ChallengeStatus.ACCEPTED, self.clock.now(), game_id=created.game_id
        ):
            # declined, cancelled, expired or accepted elsewhere meanwhile: no game
            await self.commands.cancel(created.game_id, created.token)
            raise await self._closed_now(row.id)
        live = await self.store.load(created.game_id)
        if row.rated:
            await self.players.start_rated(live)
        await self.players.link(live, created.seats, player, as_bot=player.bot)
        challenge = await self.get(row.id)
        await self._announce(ChallengeEventKind.ACCEPTED, challenge)
        return Accepted(challenge, created.game_id, created.seats[0], created.token)

    async def decline(self, challenge_id: str, player: PlayerRow) -> Challenge:
        """Decline a challenge made to ``player``.  Raises as :meth:`accept`."""
        row = await self._open(challenge_id)
        if row.challenged_id != player.id:
            raise GameError("not_yours", "only the challenged player can decline", 403)
        if not await self.db.close(row.id, ChallengeStatus.DECLINED, self.clock.now()):
            raise await self._closed_now(row.id)
        challenge = await self.get(row.id)
        await self._announce(ChallengeEventKind.DECLINED, challenge)
        return challenge

    async def cancel(
        self, challenge_id: str, *, player: PlayerRow | None = None, secret: str | None = None
    ) -> Challenge:
        """Withdraw one's own open challenge (a named challenger by ``player``, anyone by the
        challenge's ``secret``).  Raises GameError ``unknown_challenge``, ``not_yours``,
        ``challenge_expired``, ``challenge_closed``."""
        row = await self._open(challenge_id)
        if not _made_by(row, player, secret):
            raise GameError("not_yours", "only the challenger can cancel a challenge", 403)
        if not await self.db.close(row.id, ChallengeStatus.CANCELLED, self.clock.now()):
            raise await self._closed_now(row.id)
        challenge = await self.get(row.id)
        await self._announce(ChallengeEventKind.CANCELLED, challenge)
        return challenge

    async def take_seat(
        self, challenge_id: str, *, player: PlayerRow | None = None, secret: str | None = None
    ) -> tuple[str, str | None]:
        """The challenger takes their seat in the game their accepted challenge made:
        ``(game id, seat secret)``, the secret None if the seat was taken already (on another
        device: this one watches, or holds it already).

        Raises GameError ``unknown_challenge``, ``not_yours`` (403), ``challenge_open`` (409:
        not answered yet), ``challenge_closed`` / ``challenge_expired`` (409: no game)."""
        challenge = await self.get(challenge_id)
        row = await self.db.get(challenge_id)
        if row is None:
            raise RuntimeError(f"challenge {challenge_id} was found, then its row was not")
        if not _made_by(row, player, secret):
            raise GameError("not_yours", "only the challenger takes this seat", 403)
        if challenge.status == ChallengeStatus.OPEN:
            raise GameError("challenge_open", "the challenge waits for its answer", 409)
        if challenge.status != ChallengeStatus.ACCEPTED or challenge.game_id is None:
            self._check_open(challenge)  # raises: expired or closed
        game_id = challenge.game_id
        if game_id is None:
            raise RuntimeError(f"accepted challenge {challenge_id} has no game")
        live = await self.store.load(game_id)
        seat = live.free_seat()
        invite = next(
            (s.invite_token for s in live.stored.seats if s.seat == seat and s.invite_token), None
        )
        if seat is None or invite is None:
            return game_id, None
        claimed = await self.commands.claim(game_id, invite)
        if claimed is None:
            return game_id, None
        if player is not None and player.id == challenge.challenger_id:
            live = await self.store.load(game_id)
            await self.players.link(live, (claimed[1],), player, as_bot=player.bot)
        return game_id, claimed[0]

    # ------------------------------------------------------------------ settings
    async def acceptance(self, player: PlayerRow) -> Acceptance:
        """Whom ``player`` takes challenges from."""
        return Acceptance(await self.db.accepting(player.id) or Acceptance.EVERYONE)

    async def set_acceptance(self, player: PlayerRow, accept: object) -> Acceptance:
        """Set whom ``player`` takes challenges from; GameError ``bad_request`` otherwise.
        Challenges already open stay open."""
        try:
            value = Acceptance(str(accept) if isinstance(accept, str) else "")
        except ValueError:
            raise GameError("bad_request", "accept must be everyone, named or nobody") from None
        await self.db.set_accepting(player.id, value.value)
        return value

    # ------------------------------------------------------------------ expiry
    async def expire(self) -> list[Challenge]:
        """Mark the open challenges whose day is over as expired and tell their players
        (each once, whichever processes sweep); the ones expired by this call."""
        now = self.clock.now()
        done = []
        for challenge_id in await self.db.due(now):
            if await self.db.close(challenge_id, ChallengeStatus.EXPIRED, now):
                challenge = await self.get(challenge_id)
                await self._announce(ChallengeEventKind.EXPIRED, challenge)
                done.append(challenge)
        return done

    def start(self) -> None:
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_every(), name="challenge sweep")

    async def _sweep_every(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + SWEEP_EVERY)
            try:
                await self.expire()
            except Exception:  # a database hiccup: the next sweep tries again
                log.exception("the challenges' sweep failed")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        with contextlib.suppress(Exception):
            await self.settle()


def _made_by(row: ChallengeRow, player: PlayerRow | None, secret: str | None) -> bool:
    """Whether the asker made the challenge: its named challenger, or whoever holds its
    secret."""
    if player is not None and row.challenger_id is not None and row.challenger_id == player.id:
        return True
    return bool(secret) and secrets.compare_digest(row.secret_hash, hash_token(secret or ""))
