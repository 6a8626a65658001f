"""What a game's channel carries, typed: a message published by this process or another (from
Redis, as JSON) read once into the typed message of its kind, or None for anything else, so
that a front end that follows a game (a WebSocket, a bot's stream) reads typed fields only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from senet.service.chat.quick_chat import ChatMessage, chat_message
from senet.service.infrastructure.presence import PresenceCounts
from senet.service.messages import CancelledMessage, ResyncMessage, UpdateMessage, cancelled_message

__all__ = ["GameChannelMessage", "read_game_message"]

#: A message on a game's channel: the game changed (``update``), messages may have been lost
#: (``resync``), one process's connections changed (``presence``), the game is gone
#: (``cancelled``), a player said a phrase (``chat``).
GameChannelMessage = UpdateMessage | ResyncMessage | PresenceCounts | CancelledMessage | ChatMessage


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_game_message(message: Mapping[str, Any]) -> GameChannelMessage | None:
    """``message`` as its typed kind, with the fields a follower reads (an update without the
    actions it carries: the store has absorbed them); None if it is none of the kinds or a
    field is not of its type."""
    kind = message.get("type")
    if kind == "update":
        ply = message.get("ply")
        if not isinstance(ply, int) or isinstance(ply, bool):
            return None
        update: UpdateMessage = {"type": "update", "ply": ply}
        if message.get("refresh"):
            update["refresh"] = True
        return update
    if kind == "resync":
        return {"type": "resync"}
    if kind == "presence":
        origin, counts = message.get("origin"), message.get("counts")
        if not isinstance(origin, str) or not isinstance(counts, dict):
            return None
        if not all(isinstance(k, str) and _whole(v) for k, v in counts.items()):
            return None
        return {"type": "presence", "origin": origin, "counts": dict(counts)}
    if kind == "cancelled":
        return cancelled_message("aborted" if message.get("reason") == "aborted" else None)
    if kind == "chat":
        seat, phrase = message.get("seat"), message.get("phrase")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
            return None
        if not isinstance(phrase, str):
            return None
        return chat_message(seat, phrase)
    return None
