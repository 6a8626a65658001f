"""Web Push notifications to named players' devices: "your move" in a turn-based game, a
challenge received.

The standard's parts, each done by a well-kept library or by this module in a few lines:

* **VAPID** (RFC 8292): the server signs every request to a push service with its own P-256
  key pair, made by the first process that starts and kept in the database
  (:class:`~senet.service.push.storage.PushStorage`), so that every process signs with the
  same key and the browsers' subscriptions, made against its public half, stay valid.
* **Subscriptions**: a device of a named player that turned notifications on gives its push
  service's endpoint and its public keys; they are stored with the player and the device's
  session (signing out on the device forgets them) and the language of the page.  Only
  endpoints of the push services the settings allow are accepted (the server sends requests
  to them: no other address may be made its target).
* **Sending** (``pywebpush``: the RFC 8291 ``aes128gcm`` encryption and the VAPID header):
  never on a request's path — a listener of the store starts a task.  Each notice has a key
  (``turn:GAME:PLY``, ``challenge:ID``) inserted once into the database before it is sent, so
  it is sent once whichever processes try.  A push service that answers 404 or 410 says the
  subscription is gone: it is deleted.

What a notification says is composed by the front end (:attr:`Push.compose`, in the
subscription's language): the service says what happened (a :class:`Notice`), not in which
words.  This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from senet.service.challenges.offers import ChallengeEvent, ChallengeEventKind
from senet.service.errors import GameError
from senet.service.games.clocks import SystemClock
from senet.service.games.live_games import GameStore, LiveGame, hash_token
from senet.service.games.storage import Storage
from senet.service.messages import ActionKind, SeatKind
from senet.service.players.accounts import Players
from senet.service.players.storage import PlayerRow
from senet.settings import DEFAULT_PUSH_CONTACT, DEFAULT_PUSH_SERVICES

from .storage import KeyPair, PushStorage, SubscriptionRow

__all__ = [
    "MAX_ENDPOINT",
    "Notice",
    "NoticeKind",
    "Push",
    "PushConfig",
    "PushText",
    "service_allowed",
    "turn_to_announce",
]

log = logging.getLogger("senet.push")

#: devices per player that may receive notifications (the newest are kept)
SUBSCRIPTIONS_PER_PLAYER = 10
#: how long a push service keeps a notice for a device that is offline (seconds): a turn's
#: notice until the move's deadline (within these bounds), a challenge's for a day
MIN_TTL = 60
MAX_TTL = 28 * 86400
DEFAULT_TTL = 86400
#: how long a notice's claim is kept (seconds): as long as the longest a push service keeps
#: a notice, the longest deadline of a move.  A key is claimed only when its turn comes or
#: its challenge is made, so no process asks for one this late; older rows are deleted.
NOTICES_KEPT = MAX_TTL
#: how often one process deletes the claims older than that (seconds of the server's clock)
PRUNE_EVERY = 3600
#: the longest endpoint accepted (the push services' are 150-400 characters)
MAX_ENDPOINT = 1000
#: seconds a push service may take to answer
SEND_TIMEOUT = 15.0


class NoticeKind(StrEnum):
    TURN = "turn"  # your move in a turn-based game
    CHALLENGE = "challenge"  # a named player challenges you


@dataclass(frozen=True)
class Notice:
    """What happened, for one player: the front end says it in words (:class:`PushText`)."""

    kind: NoticeKind
    url: str  # the page a click opens (a path of this site)
    variant: str
    other: str | None  # the opponent's or the challenger's name; None: an anonymous player
    other_kind: str = SeatKind.HUMAN  # human | computer (then ``other`` is the level)
    ttl: int = DEFAULT_TTL

    @property
    def tag(self) -> str:
        """Notifications with the same tag replace each other on the device (one per game)."""
        return f"senet-{self.url}"


@dataclass(frozen=True)
class PushText:
    title: str
    body: str


#: a notice in a language's words
Composer = Callable[[Notice, str], PushText]


def _plain_words(notice: Notice, lang: str) -> PushText:
    """Words without the site's catalogs (the front end replaces this)."""
    who = notice.other or "an anonymous player"
    if notice.kind == NoticeKind.CHALLENGE:
        return PushText("Senet", f"{who} challenges you to Senet ({notice.variant})")
    return PushText("Senet", f"Your move in Senet ({notice.variant}) against {who}")


@dataclass(frozen=True)
class PushConfig:
    """What the settings say: the push services a subscription may name (origins, ``*.`` for
    any subdomain) and the contact sent in the VAPID claims."""

    services: tuple[str, ...] = DEFAULT_PUSH_SERVICES
    contact: str = DEFAULT_PUSH_CONTACT


def service_allowed(endpoint: str, services: tuple[str, ...]) -> bool:
    """Is ``endpoint`` a URL of one of the allowed push services (scheme, host and port)?"""
    try:
        url = urlsplit(endpoint)
        port = url.port
    except ValueError:
        return False
    if url.scheme not in ("https", "http") or not url.hostname or url.username or url.password:
        return False
    host = url.hostname.lower()
    for allowed in services:
        pattern = urlsplit(allowed)
        if pattern.scheme != url.scheme or not pattern.hostname:
            continue
        allowed_port = pattern.port or (443 if pattern.scheme == "https" else 80)
        if (port or (443 if url.scheme == "https" else 80)) != allowed_port:
            continue
        name = pattern.hostname.lower()
        if name.startswith("*."):
            if host.endswith(name[1:]) and len(host) > len(name) - 1:
                return True
        elif host == name:
            return True
    return False


def _moment(ms: int) -> datetime:
    """A time of the server's clock (ms since the epoch) as the database stores it."""
    return datetime.fromtimestamp(ms / 1000, UTC)


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_key_pair() -> KeyPair:
    """A fresh VAPID key pair (P-256)."""
    private = ec.generate_private_key(ec.SECP256R1())
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return KeyPair(_b64encode(scalar), _b64encode(point))


def _device_keys(p256dh: object, auth: object) -> tuple[str, str]:
    """A subscription's keys checked: a P-256 point and a 16-byte secret, base64url."""
    refused = GameError("bad_subscription", "keys: p256dh (a P-256 point) and auth (16 bytes)")
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 100:
        raise refused
    try:
        point, secret = _b64decode(p256dh), _b64decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error):
        raise refused from None
    if len(point) != 65 or len(secret) != 16:
        raise refused
    return _b64encode(point), _b64encode(secret)


def turn_to_announce(live: LiveGame) -> int | None:
    """The seat to tell "your move" now, if the turn has just come to a person: the game
    goes on, the decider is a person with a choice (not a forced pass, which the server
    plays), and the last move was the other seat's (or nobody has moved yet)."""
    if live.over or live.seeding or live.forced_pass:
        return None
    seat = live.decider
    if seat is None or live.stored.seats[seat].kind != SeatKind.HUMAN:
        return None
    last_move = next((a for a in reversed(live.history) if a.kind == ActionKind.MOVE), None)
    if last_move is not None and last_move.seat == seat:
        return None
    return seat


class _NoRedirects:
    """An ``aiohttp.ClientSession`` whose posts never follow a redirect: the server sends
    requests to the allowed push services only, and a service answering 3xx (its ``Location``
    anywhere, 127.0.0.1 included) gets its answer taken as a refusal, not followed.
    ``pywebpush`` posts through the session it is given with aiohttp's default, which follows
    redirects."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def post(self, url: str, **params: Any) -> Any:
        params["allow_redirects"] = False
        return self.session.post(url, **params)

    async def close(self) -> None:
        await self.session.close()


class Push:
    """Web Push of one server process (see the module doc).  ``await start()`` before use."""

    def __init__(
        self,
        storage: Storage,
        store: GameStore,
        players: Players,
        config: PushConfig | None = None,
        clock: SystemClock | None = None,
    ) -> None:
        self.db = PushStorage(storage)
        self.sent = 0  # notices a push service accepted, and those it did not (metrics)
        self.failed = 0
        self.store = store
        self.players = players
        self.config = config or PushConfig()
        self.clock = clock or store.clock
        self.compose: Composer = _plain_words
        self._keys: KeyPair | None = None
        self._vapid: Any = None
        self._session: Any = None  # an aiohttp.ClientSession, made on the first send
        self._tasks: set[asyncio.Task[None]] = set()
        self._pruned: int | None = None  # when this process last deleted old claims (ms)
        store.on_change.append(self._changed)

    async def start(self) -> None:
        """Read the server's key pair (the first process ever makes and stores it)."""
        from py_vapid import Vapid02

        self._keys = await self.db.key_pair(new_key_pair)
        self._vapid = Vapid02.from_raw(self._keys.private_key.encode())

    async def settle(self) -> None:
        """Wait for the notices on their way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        await self.settle()
        if self._session is not None:
            await self._session.close()
            self._session = None

    @property
    def public_key(self) -> str:
        """The server's public key (base64url of the uncompressed point): the browsers'
        ``applicationServerKey``."""
        if self._keys is None:
            raise RuntimeError("Push.start() has not been awaited")
        return self._keys.public_key

    # ------------------------------------------------------------------ subscriptions
    async def subscribe(
        self,
        player: PlayerRow | None,
        session_secret: str | None,
        endpoint: object,
        p256dh: object,
        auth: object,
        lang: str,
    ) -> None:
        """Store this device's subscription for ``player`` (signed in with ``session_secret``).

        An endpoint is one browser's: stored for another player, it moves to this one only
        with the same keys (``p256dh`` and ``auth``, which only that browser has), as when a
        browser that kept its subscription is signed in with another name.

        Raises :class:`GameError`: ``no_name`` (no player on this device), ``bad_subscription``
        (the endpoint or the keys malformed), ``push_service`` (not an allowed push service),
        ``push_endpoint_taken`` (another player's endpoint with other keys)."""
        if player is None or not session_secret:
            raise GameError("no_name", "notifications are for players with a name", 403)
        if (
            not isinstance(endpoint, str)
            or not 1 <= len(endpoint) <= MAX_ENDPOINT
            or not endpoint.isascii()
            or not endpoint.isprintable()
            or " " in endpoint
        ):
            raise GameError(
                "bad_subscription", f"endpoint: a URL of at most {MAX_ENDPOINT} characters"
            )
        if not service_allowed(endpoint, self.config.services):
            raise GameError("push_service", "the endpoint is not one of the push services allowed")
        key, secret = _device_keys(p256dh, auth)
        stored = await self.db.subscribe(
            endpoint,
            key,
            secret,
            player.id,
            hash_token(session_secret),
            lang,
            SUBSCRIPTIONS_PER_PLAYER,
        )
        if not stored:
            raise GameError(
                "push_endpoint_taken",
                "this endpoint is another player's subscription, with other keys",
                409,
            )

    async def unsubscribe(self, player: PlayerRow | None, endpoint: object) -> bool:
        """Forget the subscription of ``endpoint`` if it is ``player``'s (the device turned
        notifications off); whether there was one.  Another player's, or a request without a
        name, forgets nothing (and says only ``False``, as for an unknown endpoint)."""
        if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT:
            raise GameError("bad_subscription", "endpoint: the subscription's URL")
        if player is None:
            return False
        return await self.db.unsubscribe(endpoint, player.id)

    # ------------------------------------------------------------------ sending
    async def notify(self, player_id: str, notice: Notice, key: str) -> int:
        """Send ``notice`` to every device of the player, once for ``key`` whichever
        processes try; how many push services accepted it."""
        devices = await self.db.subscriptions_of(player_id)
        now = self.clock.now()
        await self._prune(now)
        if not devices or not await self.db.claim_notice(key, _moment(now)):
            return 0
        results = await asyncio.gather(*(self._send(d, notice) for d in devices))
        self.sent += sum(results)
        self.failed += len(results) - sum(results)
        return sum(results)

    async def _prune(self, now: int) -> None:
        """Delete the claims older than :data:`NOTICES_KEPT`, once every :data:`PRUNE_EVERY`
        (the table grows only by claims, so pruning at a claim keeps it small)."""
        if self._pruned is not None and now - self._pruned < PRUNE_EVERY * 1000:
            return
        self._pruned = now
        await self.db.prune_notices(_moment(now - NOTICES_KEPT * 1000))

    async def _send(self, device: SubscriptionRow, notice: Notice) -> bool:
        from pywebpush import WebPushException, webpush_async

        if not service_allowed(device.endpoint, self.config.services):
            return False  # the settings no longer allow its push service
        words = self.compose(notice, device.lang)
        payload = json.dumps(
            {
                "title": words.title,
                "body": words.body,
                "url": notice.url,
                "tag": notice.tag,
                "lang": device.lang,
            },
            ensure_ascii=False,
        )
        try:
            await webpush_async(
                subscription_info={
                    "endpoint": device.endpoint,
                    "keys": {"p256dh": device.p256dh, "auth": device.auth},
                },
                data=payload,
                vapid_private_key=self._vapid,
                vapid_claims={"sub": self.config.contact},
                ttl=max(MIN_TTL, min(MAX_TTL, notice.ttl)),
                timeout=SEND_TIMEOUT,
                headers={"Urgency": "normal"},
                aiohttp_session=self._http(),
            )
        except WebPushException as exc:
            status = exc.status_code
            if status in (404, 410):  # the subscription expired or was revoked
                await self.db.unsubscribe(device.endpoint)
                log.info("a push subscription is gone (%s): forgotten", status)
            else:
                log.warning("a push service refused a notice: %s", status)
            return False
        except Exception as exc:  # the push service unreachable, a timeout
            log.warning("a notice could not be sent: %r", exc)
            return False
        return True

    def _http(self) -> Any:
        if self._session is None:
            import aiohttp

            self._session = _NoRedirects(aiohttp.ClientSession())
        return self._session

    def spawn(self, work: Any) -> None:
        """Run ``work`` (a coroutine) off the caller's path; its failure is logged."""
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _logged(self, work: Any) -> None:
        try:
            await work
        except Exception:
            log.exception("a notice failed")

    # ------------------------------------------------------------------ your move
    def _changed(self, live: LiveGame, here: bool) -> None:
        """A game changed: if this process stored the change and the turn of a turn-based
        game has come to a person, tell them (off this path)."""
        if not here or self._keys is None or not live.turn_based:
            return
        seat = turn_to_announce(live)
        if seat is None:
            return
        deadline = live.clock.deadline
        ttl = (deadline - self.clock.now()) // 1000 if deadline is not None else DEFAULT_TTL
        other_seat = live.stored.seats[1 - seat]
        computer = live.stored.level if other_seat.kind == SeatKind.COMPUTER else None
        # what the task needs, read now: the cached game moves on meanwhile
        self.spawn(self._your_move(live.id, live.stored.variant, seat, live.ply, ttl, computer))

    async def _your_move(
        self, game_id: str, variant: str, seat: int, ply: int, ttl: int, computer: str | None
    ) -> None:
        held = await self.players.db.game_players(game_id)
        player = held.get(seat)
        if player is None or player.kind != SeatKind.HUMAN:
            return  # an anonymous seat: no device to tell
        other = held.get(1 - seat)
        if other is not None:
            name: str | None = other.level or other.name
            kind = other.kind
        elif computer is not None:
            name, kind = computer, SeatKind.COMPUTER
        else:
            name, kind = None, SeatKind.HUMAN  # an anonymous player
        notice = Notice(NoticeKind.TURN, f"/g/{game_id}", variant, name, kind, ttl)
        await self.notify(player.id, notice, f"turn:{game_id}:{ply}")

    # ------------------------------------------------------------------ a challenge
    async def challenged(self, event: ChallengeEvent) -> None:
        """A listener of :meth:`Challenges.on_event` (called in the process that stored the
        challenge, off the request's path): tell the challenged player."""
        if event.kind != ChallengeEventKind.RECEIVED or not event.notify:
            return  # a challenger heard from within the interval is not notified again
        c = event.challenge
        notice = Notice(
            NoticeKind.CHALLENGE,
            f"/challenges/{c.id}",
            c.terms.variant,
            c.challenger,
            SeatKind.HUMAN,
            (c.expires_at - self.clock.now()) // 1000,
        )
        await self.notify(c.challenged_id, notice, f"challenge:{c.id}")
