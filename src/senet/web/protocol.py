"""The WebSocket protocol of ``/ws/games/{id}``: every message type, typed once.

docs/protocol.md describes it for people; a test checks that page against these definitions
(every type listed both ways, every example's fields those of its type).  The state, delta and
events messages are built by :mod:`senet.service.views` (their types are in
:mod:`senet.service.messages`; :func:`state_for` gives the state of a game served here); the
rest here, by the constructors below.  The error message is also the body of every refused
HTTP request (``common.error_json``, the security middleware): one shape, one constructor,
:func:`error_message`.
"""

from typing import Literal, NotRequired, TypedDict

from senet.service.errors import GameError
from senet.service.games import GameService
from senet.service.live_games import LiveGame
from senet.service.messages import (
    CancelledMessage,
    DeltaMessage,
    EventsMessage,
    PresenceSummary,
    StateMessage,
)
from senet.service.quick_chat import ChatMessage
from senet.service.views import state_message

__all__ = [
    "CLIENT_MESSAGES",
    "ChatRequest",
    "MuteRequest",
    "SERVER_MESSAGES",
    "ErrorMessage",
    "MoveRequest",
    "PingRequest",
    "PongMessage",
    "PresenceMessage",
    "SeedRequest",
    "StateRequest",
    "SyncRequest",
    "error_message",
    "pong_message",
    "presence_message",
    "state_for",
    "unknown_type_message",
]


# ---------------------------------------------------------------------- client to server
class MoveRequest(TypedDict):
    """Play ``move`` (notation) at ``ply`` (the number of actions the client has seen)."""

    type: Literal["move"]
    ply: int
    move: str


class SeedRequest(TypedDict):
    """The seat's own seed, once, before the first throw (``seat`` only on one screen)."""

    type: Literal["seed"]
    seed: str
    seat: NotRequired[int]


class StateRequest(TypedDict):
    """Send me the state again."""

    type: Literal["state"]


class SyncRequest(TypedDict):
    """Send me the events from number ``since`` on."""

    type: Literal["sync"]
    since: int


class PingRequest(TypedDict):
    type: Literal["ping"]


class ChatRequest(TypedDict):
    """Say a set phrase, by its id (players only)."""

    type: Literal["chat"]
    phrase: str


class MuteRequest(TypedDict):
    """Stop (or start again) passing the opponent's phrases to this connection."""

    type: Literal["mute"]
    muted: bool


#: Every message a client may send, by type, in the order the error message names them.
CLIENT_MESSAGES: dict[str, type] = {
    "move": MoveRequest,
    "seed": SeedRequest,
    "state": StateRequest,
    "sync": SyncRequest,
    "ping": PingRequest,
    "chat": ChatRequest,
    "mute": MuteRequest,
}


# ---------------------------------------------------------------------- server to client
class PresenceMessage(PresenceSummary):
    type: Literal["presence"]


class PongMessage(TypedDict):
    type: Literal["pong"]


class ErrorMessage(TypedDict):
    """A refused message or HTTP request: nothing changed; a WebSocket stays open (unless the
    message was too large).  ``code`` is for programs, ``message`` for people."""

    type: Literal["error"]
    code: str
    message: str
    line: NotRequired[int]  # where refused text (a position, a move, a record) went wrong
    column: NotRequired[int]
    # why a well-written position is impossible: the engine's code and its message's parameters
    reason: NotRequired[str]
    params: NotRequired[dict[str, str | int]]


#: Every message the server sends, by type.
SERVER_MESSAGES: dict[str, type] = {
    "state": StateMessage,
    "delta": DeltaMessage,
    "events": EventsMessage,
    "presence": PresenceMessage,
    "pong": PongMessage,
    "cancelled": CancelledMessage,
    "chat": ChatMessage,
    "error": ErrorMessage,
}


def error_message(
    code: str, message: str, *, line: int | None = None, column: int | None = None
) -> ErrorMessage:
    """The error message (WebSocket) and error body (HTTP) of a refusal; ``line`` and
    ``column`` where refused text went wrong, when it did."""
    answer: ErrorMessage = {"type": "error", "code": code, "message": message}
    if line is not None and column is not None:
        answer["line"] = line
        answer["column"] = column
    return answer


def game_error_message(exc: GameError) -> ErrorMessage:
    """The error message of a refused request."""
    answer = error_message(exc.code, exc.message, line=exc.line, column=exc.column)
    if exc.reason is not None:
        answer["reason"] = exc.reason
        answer["params"] = exc.params
    return answer


def unknown_type_message(kind: object) -> ErrorMessage:
    names = list(CLIENT_MESSAGES)
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    return error_message("unknown_type", f"unknown message type {kind!r}: use {listed}")


def pong_message() -> PongMessage:
    return {"type": "pong"}


def presence_message(summary: PresenceSummary) -> PresenceMessage:
    return {"type": "presence", "online": summary["online"], "spectators": summary["spectators"]}


def state_for(service: GameService, live: LiveGame, seats: tuple[int, ...]) -> StateMessage:
    """The state of ``live`` for the holder of ``seats``, with the presence summed over every
    server process, the server's clock and whether it plays forced passes."""
    return state_message(
        live,
        seats,
        service.presence(live.id),
        service.store.clock.now(),
        service.turns.plays_forced_passes,
    )
