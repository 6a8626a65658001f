"""Client messages parsed at the edge (web/protocol.parse_client_message): each kind into its
typed message with only its own fields, each broken form refused with the HTTP API's error for
the same field.  (Sent on a real WebSocket: tests/web/test_api.py.)"""

from __future__ import annotations

import pytest

from senet.service.errors import GameError
from senet.web.protocol import CLIENT_MESSAGES, parse_client_message

from .test_api import BROKEN_FRAMES


@pytest.mark.parametrize(
    ("data", "parsed"),
    [
        (
            {"type": "move", "ply": 3, "move": "12-15", "x": 1},
            {"type": "move", "ply": 3, "move": "12-15"},
        ),
        ({"type": "move", "ply": 0, "move": "pass"}, {"type": "move", "ply": 0, "move": "pass"}),
        ({"type": "seed", "seed": "my words"}, {"type": "seed", "seed": "my words"}),
        ({"type": "seed", "seed": "s", "seat": 1}, {"type": "seed", "seed": "s", "seat": 1}),
        ({"type": "seed", "seed": "s", "seat": None}, {"type": "seed", "seed": "s"}),
        ({"type": "state", "since": 4}, {"type": "state"}),
        ({"type": "sync", "since": 7}, {"type": "sync", "since": 7}),
        ({"type": "sync", "since": -3}, {"type": "sync", "since": -1}),
        ({"type": "sync", "since": True}, {"type": "sync", "since": -1}),
        ({"type": "sync"}, {"type": "sync", "since": -1}),
        ({"type": "ping"}, {"type": "ping"}),
        ({"type": "chat", "phrase": "good_game"}, {"type": "chat", "phrase": "good_game"}),
        ({"type": "mute", "muted": False}, {"type": "mute", "muted": False}),
    ],
)
def test_each_kind_is_parsed_into_its_typed_message(
    data: object, parsed: dict[str, object]
) -> None:
    message = parse_client_message(data)
    assert message == parsed
    typed = CLIENT_MESSAGES[message["type"]]
    assert set(message) <= typed.__required_keys__ | typed.__optional_keys__  # type: ignore[attr-defined]


@pytest.mark.parametrize(("data", "code"), BROKEN_FRAMES, ids=lambda v: str(v)[:40])
def test_each_broken_form_is_refused_with_its_code(data: object, code: str) -> None:
    with pytest.raises(GameError) as refused:
        parse_client_message(data)
    assert refused.value.code == code and refused.value.message


def test_an_unknown_type_names_every_type() -> None:
    with pytest.raises(GameError) as refused:
        parse_client_message({"type": "teleport"})
    assert all(kind in refused.value.message for kind in CLIENT_MESSAGES)
