"""A game's channel read into typed messages (service/channel.py): each kind with the fields a
follower reads, anything malformed or foreign dropped."""

from __future__ import annotations

import pytest

from senet.service.chat.quick_chat import chat_message
from senet.service.messages import cancelled_message, refresh_message, update_message
from senet.service.reading.channel import read_game_message


@pytest.mark.parametrize(
    ("raw", "typed"),
    [
        (
            update_message(3, [["move", 0, "9-11", None], ["throw", 1, "2", 9]]),
            {"type": "update", "ply": 5},
        ),
        (refresh_message(4), {"type": "update", "ply": 4, "refresh": True}),
        ({"type": "resync"}, {"type": "resync"}),
        (
            {"type": "presence", "origin": "ab12", "counts": {"0": 1, "1": 0, "spectators": 2}},
            {"type": "presence", "origin": "ab12", "counts": {"0": 1, "1": 0, "spectators": 2}},
        ),
        (cancelled_message(), {"type": "cancelled"}),
        (cancelled_message("aborted"), {"type": "cancelled", "reason": "aborted"}),
        ({"type": "cancelled", "reason": "whatever"}, {"type": "cancelled"}),
        (chat_message(1, "good_game"), {"type": "chat", "seat": 1, "phrase": "good_game"}),
    ],
)
def test_each_kind_is_read_into_its_typed_message(raw: dict[str, object], typed: object) -> None:
    assert read_game_message(raw) == typed


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "update"},
        {"type": "update", "ply": "5"},
        {"type": "update", "ply": True},
        {"type": "presence", "origin": 5, "counts": {}},
        {"type": "presence", "origin": "x", "counts": {"0": "one"}},
        {"type": "chat", "seat": 2, "phrase": "hello"},
        {"type": "chat", "seat": False, "phrase": "hello"},
        {"type": "chat", "seat": 0, "phrase": None},
        {"type": "lobby"},
        {},
    ],
)
def test_a_malformed_or_foreign_message_is_dropped(raw: dict[str, object]) -> None:
    assert read_game_message(raw) is None
