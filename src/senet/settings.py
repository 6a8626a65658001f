"""The site's settings: one frozen object, read from the environment once, at startup.

Every setting is an environment variable listed in :data:`VARIABLES` (the table of settings
in docs/deployment.md is checked against it by a test).  :meth:`Settings.from_env` reads them
all, checks each, and fails at once with the variable's name on a bad value; nothing else in
the package reads the environment for a setting.  ``senet serve`` reads them when it starts;
tests build a :class:`Settings` directly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["RateLimits", "Settings", "SettingError", "VARIABLES", "Variable"]

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./var/senet.sqlite3"
DEFAULT_BROADCAST_URL = "memory://"
#: Jobs (the computer's moves, hints, analyses, reviews) in worker processes of the server.
LOCAL_JOB_QUEUE = "local://"
#: The push services of the browsers people use (Chrome and its kin, Firefox, Safari, Edge):
#: origins, ``*.`` standing for any subdomain.
DEFAULT_PUSH_SERVICES = (
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://web.push.apple.com",
    "https://*.push.apple.com",
    "https://*.notify.windows.com",
)
#: the VAPID ``sub`` claim without a setting: a push service may write to it about this server
DEFAULT_PUSH_CONTACT = "mailto:senet@localhost"


def machine_cores() -> int:
    """The cores this process may run on (the default number of worker processes)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class SettingError(ValueError):
    """An environment variable with a value that cannot be used (the message names it)."""


@dataclass(frozen=True)
class RateLimits:
    """Per client address: HTTP requests and WebSocket connections a second, with the burst
    allowed; per WebSocket connection: messages a second, with the burst allowed (a player
    sends a few a minute; bots and double clicks get the burst)."""

    http_rate: float = 50.0
    http_burst: float = 300.0
    ws_rate: float = 10.0
    ws_burst: float = 100.0
    message_rate: float = 20.0
    message_burst: float = 60.0

    @classmethod
    def off(cls) -> RateLimits:
        """No limit worth the name (load tests, where every bot shares the loopback address)."""
        return cls(*(1e9,) * 6)

    @classmethod
    def parse(cls, spec: str) -> RateLimits:
        """``off``, or ``http_rate,http_burst,ws_rate,ws_burst`` (the message limits keep their
        defaults)."""
        if spec.strip() == "off":
            return cls.off()
        if not spec.isascii():
            raise ValueError("numbers in ASCII digits")
        parts = [float(part) for part in spec.split(",")]
        if len(parts) != 4 or any(p < 0 for p in parts):
            raise ValueError("four numbers, 0 or more: http_rate,http_burst,ws_rate,ws_burst")
        return cls(*parts)


@dataclass(frozen=True)
class BotLimits:
    """Per personal API token: requests a minute (the burst is the same number), streams
    open at once, and unfinished games (seeks and challenges included) of its player; and
    per player, over all its tokens: streams open at once (its event stream, one for each of
    its games, one to spare for a reconnection)."""

    requests_per_minute: int = 120
    streams: int = 4
    games: int = 8
    player_streams: int = 10

    @classmethod
    def parse(cls, spec: str) -> BotLimits:
        """``requests_per_minute,streams,games[,player_streams]``, whole numbers, 1 or more
        (``player_streams`` left out: the default)."""
        form = "requests_per_minute,streams,games[,player_streams]"
        if not spec.isascii():
            raise ValueError("numbers in ASCII digits")
        try:
            parts = [int(part) for part in spec.split(",")]
        except ValueError:
            raise ValueError(f"three or four whole numbers: {form}") from None
        if len(parts) not in (3, 4) or any(p < 1 for p in parts):
            raise ValueError(f"three or four whole numbers, 1 or more: {form}")
        return cls(*parts)


@dataclass(frozen=True)
class Settings:
    """What an operator may set (see :data:`VARIABLES` for the variables and their meaning)."""

    database_url: str = DEFAULT_DATABASE_URL
    broadcast_url: str = DEFAULT_BROADCAST_URL
    computer_delay: float = 0.7
    game_cache: int = 5000
    db_pool: int = 10
    rate_limits: RateLimits = field(default_factory=RateLimits)
    commit: str | None = None
    manual_clock: bool = False
    #: ``senet serve``'s guards at the connection (see :mod:`senet.web.connections`)
    request_timeout: float = 10.0
    idle_timeout: float = 5.0
    connections_per_address: int = 64
    forwarded_allow_ips: str = "127.0.0.1,::1"
    forced_pass_delay: float = 1.5
    #: where search runs: worker processes of ``senet serve`` (``local://``) or a Redis job
    #: queue served by ``senet worker`` processes (a Redis URL)
    job_queue_url: str = LOCAL_JOB_QUEUE
    #: worker processes ``senet serve`` starts with the local job queue
    workers: int = field(default_factory=machine_cores)
    #: fair play (see :mod:`senet.service.games.fair_play`), seconds and a count
    abandon_grace: float = 120.0
    listing_lifetime: float = 600.0
    listing_cap: int = 3
    seeding_deadline: float = 120.0
    #: challenges and names (see :mod:`senet.service.games.fair_play`)
    challenges_per_pair: int = 3
    challenges_received: int = 10
    challenge_notify_interval: float = 3600.0
    names_per_hour: int = 200
    unused_name_days: float = 30.0
    #: Web Push (see :mod:`senet.service.push.notifications`): the push services a subscription may name
    #: (origins, ``*.`` for any subdomain) and the contact in the VAPID claims
    push_services: tuple[str, ...] = DEFAULT_PUSH_SERVICES
    push_contact: str = DEFAULT_PUSH_CONTACT
    #: the bot API's limits per token (see :mod:`senet.web.routes.bots`)
    bot_limits: BotLimits = field(default_factory=BotLimits)
    gc_sweep: float = 3600.0
    #: the bearer token that GET /metrics asks for; None: no /metrics (see senet.web.routes.metrics)
    metrics_token: str | None = None
    #: the server's log: text lines, or JSON lines (see senet.web.logs)
    log_format: str = "text"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Every variable of :data:`VARIABLES` that is set, checked; the defaults for the rest."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for variable in VARIABLES:
            text = env.get(variable.name)
            if text is None or text == "":
                continue
            try:
                values[variable.field] = variable.parse(text)
            except ValueError as exc:
                raise SettingError(f"{variable.name}={text!r}: {exc}") from None
        return cls(**values)

    def but(self, **changes: Any) -> Settings:
        """These settings with some changed (the command line's options, a test's)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _ascii(text: str) -> str:
    """A number's text, refused unless ASCII (float() and int() also read "１２" and "٣")."""
    if not text.isascii():
        raise ValueError("a number in ASCII digits")
    return text


def _positive_float(text: str) -> float:
    value = float(_ascii(text))
    if value < 0:
        raise ValueError("a number of seconds, 0 or more")
    return value


def _sweep_interval(text: str) -> float:
    value = _positive_float(text)
    if value < 10:
        raise ValueError("a number of seconds, 10 or more")
    return value


def _pace(text: str) -> float:
    value = _positive_float(text)
    if value > 30:
        raise ValueError("a number of seconds from 0 to 30")
    return value


def _positive_int(text: str) -> int:
    value = int(_ascii(text))
    if value < 0:
        raise ValueError("a whole number, 0 or more")
    return value


def _workers(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError("a whole number, 1 or more")
    return value


def _flag(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError("0 or 1")
    return text == "1"


def _address_list(text: str) -> str:
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise ValueError("addresses or networks separated by commas, or *")
    return ",".join(parts)


def _origins(text: str) -> tuple[str, ...]:
    parts = tuple(part.strip().rstrip("/") for part in text.split(","))
    for part in parts:
        scheme, sep, host = part.partition("://")
        if scheme not in ("https", "http") or not sep or not host or "/" in host:
            raise ValueError(
                "origins separated by commas: https://HOST[:PORT] (*.HOST for any subdomain)"
            )
    return parts


def _contact(text: str) -> str:
    if not (text.startswith("mailto:") and "@" in text) and not text.startswith("https://"):
        raise ValueError("mailto:ADDRESS or an https:// URL")
    return text


def _choice(*allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"one of {', '.join(allowed)}")
        return text

    return parse


def _metrics_token(text: str) -> str:
    if len(text) < 16 or not text.isascii() or not text.isprintable() or " " in text:
        raise ValueError("16 or more printable ASCII characters, no spaces")
    return text


def _url(*schemes: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if not text.startswith(schemes):
            raise ValueError(f"a URL starting with {' or '.join(schemes)}")
        return text

    return parse


@dataclass(frozen=True)
class Variable:
    name: str
    field: str
    parse: Callable[[str], Any]
    meaning: str


#: Every environment variable the site reads, in the order of the table in docs/deployment.md.
VARIABLES: tuple[Variable, ...] = (
    Variable(
        "DATABASE_URL",
        "database_url",
        _url("sqlite+aiosqlite:", "postgresql+asyncpg:"),
        "the database (SQLAlchemy URL)",
    ),
    Variable(
        "BROADCAST_URL",
        "broadcast_url",
        _url("memory://", "redis://", "rediss://", "unix://"),
        "messages between server processes",
    ),
    Variable(
        "SENET_COMPUTER_DELAY",
        "computer_delay",
        _positive_float,
        "seconds the computer waits before it moves",
    ),
    Variable(
        "SENET_FORCED_PASS_DELAY",
        "forced_pass_delay",
        _pace,
        "seconds a forced pass stays shown before the server plays it",
    ),
    Variable(
        "JOB_QUEUE_URL",
        "job_queue_url",
        _url("local://", "redis://", "rediss://", "unix://"),
        "where search runs: local:// (serve's own workers) or Redis for senet worker",
    ),
    Variable(
        "SENET_WORKERS",
        "workers",
        _workers,
        "worker processes serve starts for local:// (default: the machine's cores)",
    ),
    Variable(
        "SENET_ABANDON_GRACE",
        "abandon_grace",
        _positive_float,
        "seconds an opponent must go unseen (no connection, move or read) before a win by claim",
    ),
    Variable(
        "SENET_LISTING_LIFETIME",
        "listing_lifetime",
        _positive_float,
        "seconds an open game stays shown in the lobby",
    ),
    Variable(
        "SENET_LISTING_CAP",
        "listing_cap",
        _positive_int,
        "open games one client (address) may have shown in the lobby at once",
    ),
    Variable(
        "SENET_SEEDING_DEADLINE",
        "seeding_deadline",
        _positive_float,
        "seconds the players have, once both seats are taken, to give their seeds",
    ),
    Variable(
        "SENET_CHALLENGES_PER_PAIR",
        "challenges_per_pair",
        _positive_int,
        "challenges one player may send another within an hour, withdrawn ones too",
    ),
    Variable(
        "SENET_CHALLENGES_RECEIVED",
        "challenges_received",
        _positive_int,
        "open challenges a player may have received at once",
    ),
    Variable(
        "SENET_CHALLENGE_NOTIFY_INTERVAL",
        "challenge_notify_interval",
        _positive_float,
        "seconds: a player's devices are notified of one challenger's challenges once in this",
    ),
    Variable(
        "SENET_NAMES_PER_HOUR",
        "names_per_hour",
        _positive_int,
        "new names an hour over the whole site, every address together",
    ),
    Variable(
        "SENET_UNUSED_NAME_DAYS",
        "unused_name_days",
        _positive_float,
        "days after which a name that never held a seat in a game is freed",
    ),
    Variable(
        "SENET_PUSH_SERVICES",
        "push_services",
        _origins,
        "the push services (origins) a device's subscription may name",
    ),
    Variable(
        "SENET_PUSH_CONTACT",
        "push_contact",
        _contact,
        "mailto: or https: contact of the server's operator, sent to the push services",
    ),
    Variable(
        "SENET_BOT_LIMITS",
        "bot_limits",
        BotLimits.parse,
        "per API token: requests_per_minute,streams,games; then per player: streams",
    ),
    Variable("SENET_GAME_CACHE", "game_cache", _positive_int, "games each process keeps in memory"),
    Variable(
        "SENET_GC_SWEEP",
        "gc_sweep",
        _sweep_interval,
        "seconds between the collector's sweeps of every object a server process holds",
    ),
    Variable(
        "SENET_METRICS_TOKEN",
        "metrics_token",
        _metrics_token,
        "the bearer token GET /metrics asks for (16 or more characters); unset: no /metrics",
    ),
    Variable(
        "SENET_LOG_FORMAT",
        "log_format",
        _choice("text", "json"),
        "the server's log: text or json (one JSON object a line)",
    ),
    Variable(
        "SENET_DB_POOL",
        "db_pool",
        _positive_int,
        "PostgreSQL connections per process (0: none kept open)",
    ),
    Variable(
        "SENET_RATE_LIMITS",
        "rate_limits",
        RateLimits.parse,
        "per address: http_rate,http_burst,ws_rate,ws_burst, or off",
    ),
    Variable("SENET_COMMIT", "commit", str, "the commit shown in the footer (else git's)"),
    Variable(
        "SENET_MANUAL_CLOCK",
        "manual_clock",
        _flag,
        "1 for tests only: the server's clock moves only by POST /api/testing/clock",
    ),
    Variable(
        "SENET_REQUEST_TIMEOUT",
        "request_timeout",
        _positive_float,
        "serve --request-timeout: seconds for a request's head and body",
    ),
    Variable(
        "SENET_IDLE_TIMEOUT",
        "idle_timeout",
        _positive_float,
        "serve --idle-timeout: seconds an idle keep-alive connection stays",
    ),
    Variable(
        "SENET_CONNECTIONS_PER_ADDRESS",
        "connections_per_address",
        _positive_int,
        "serve --connections-per-address (0: no cap)",
    ),
    Variable(
        "FORWARDED_ALLOW_IPS",
        "forwarded_allow_ips",
        _address_list,
        "serve --forwarded-allow-ips: trusted proxies",
    ),
)
