"""The live connection answers every message by its type's method: each table names every type
of its side, and no other (a type without a method would be dropped without a word)."""

from __future__ import annotations

from typing import get_args, get_type_hints

from senet.service.reading.channel import GameChannelMessage
from senet.web.live.connection import CHANNEL_ANSWERS, CLIENT_ANSWERS
from senet.web.protocol import CLIENT_MESSAGES


def test_every_client_message_type_has_its_answer() -> None:
    assert list(CLIENT_ANSWERS) == list(CLIENT_MESSAGES)


def test_every_kind_the_game_channel_carries_has_its_answer() -> None:
    kinds = {get_args(get_type_hints(t)["type"])[0] for t in get_args(GameChannelMessage)}
    assert set(CHANNEL_ANSWERS) == kinds
