"""The WebSocket protocol of ``/ws/games/{id}``: every message type, typed once.

docs/protocol.md describes it for people; a test checks that page against these definitions
(every type listed both ways, every example's fields those of its type).  The state, delta and
events messages are built by :mod:`senet.service.games.views` (their types are in
:mod:`senet.service.messages`; :meth:`GameQueries.state` gives the state of a game served
here); the rest here, by the constructors below.  The error message is also the body of every refused
HTTP request (``common.error_json``, the security middleware): one shape, one constructor,
:func:`error_message`.
"""

from typing import Literal, NotRequired, TypedDict

from senet.service.chat import ChatMessage, checked_phrase
from senet.service.errors import GameError
from senet.service.games import checked_move, checked_ply, checked_seat, checked_seed
from senet.service.messages import (
    CancelledMessage,
    DeltaMessage,
    EventsMessage,
    PresenceSummary,
    StateMessage,
)

__all__ = [
    "CLIENT_MESSAGES",
    "ChatRequest",
    "MuteRequest",
    "SERVER_MESSAGES",
    "ClientMessage",
    "ServerMessage",
    "ErrorMessage",
    "MoveRequest",
    "PingRequest",
    "PongMessage",
    "PresenceMessage",
    "SeedRequest",
    "StateRequest",
    "SyncRequest",
    "error_message",
    "parse_client_message",
    "pong_message",
    "presence_message",
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


#: A message from a client, parsed and checked (:func:`parse_client_message`): the type says
#: which, and its fields are of their types.
ClientMessage = (
    MoveRequest | SeedRequest | StateRequest | SyncRequest | PingRequest | ChatRequest | MuteRequest
)

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


def parse_client_message(data: object) -> ClientMessage:
    """A client's message (its JSON decoded) as the typed message of its type, with only its
    own fields; GameError otherwise, and nothing is done: ``bad_request`` (not an object, or a
    field of the wrong type or range: the one the HTTP API gives for the same field),
    ``bad_seed``, ``bad_phrase`` (not one of the set phrases), ``unknown_type``.  A ``sync`` whose ``since`` is no event number asks for
    the whole state (``since`` -1): it is never refused."""
    if not isinstance(data, dict):
        raise GameError("bad_request", "a message is a JSON object with a type")
    kind = data.get("type")
    if kind == "move":
        return {
            "type": "move",
            "ply": checked_ply(data.get("ply")),
            "move": checked_move(data.get("move")),
        }
    if kind == "seed":
        seed: SeedRequest = {"type": "seed", "seed": checked_seed(data.get("seed"))}
        seat = checked_seat(data.get("seat"))
        if seat is not None:
            seed["seat"] = seat
        return seed
    if kind == "state":
        return {"type": "state"}
    if kind == "sync":
        since = data.get("since")
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            since = -1
        return {"type": "sync", "since": since}
    if kind == "ping":
        return {"type": "ping"}
    if kind == "chat":
        return {"type": "chat", "phrase": checked_phrase(data.get("phrase"))}
    if kind == "mute":
        muted = data.get("muted")
        if not isinstance(muted, bool):
            raise GameError("bad_request", "muted must be true or false")
        return {"type": "mute", "muted": muted}
    raise GameError("unknown_type", _unknown_type(kind))


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


#: A message the server sends to a client.
ServerMessage = (
    StateMessage
    | DeltaMessage
    | EventsMessage
    | PresenceMessage
    | PongMessage
    | CancelledMessage
    | ChatMessage
    | ErrorMessage
)

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


def _unknown_type(kind: object) -> str:
    names = list(CLIENT_MESSAGES)
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    return f"unknown message type {kind!r}: use {listed}"


def unknown_type_message(kind: object) -> ErrorMessage:
    return error_message("unknown_type", _unknown_type(kind))


def pong_message() -> PongMessage:
    return {"type": "pong"}


def presence_message(summary: PresenceSummary) -> PresenceMessage:
    return {"type": "presence", "online": summary["online"], "spectators": summary["spectators"]}
