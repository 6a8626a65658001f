"""docs/protocol.md against the code: the message types listed both ways, every example's fields
those its type allows, every error code the code raises listed, the state and events messages
built with exactly their typed fields."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from senet.service.challenges.offers import ChallengeJson, ChallengeMessage
from senet.service.chat.quick_chat import ChatMessage
from senet.service.games.views import apply_delta
from senet.service.infrastructure.presence import PresenceCounts
from senet.service.messages import (
    CancelledMessage,
    DeltaMessage,
    EventsMessage,
    HistoryEntry,
    LobbyMessage,
    ResyncMessage,
    StateMessage,
    UpdateMessage,
)
from senet.web.protocol import CLIENT_MESSAGES, SERVER_MESSAGES, unknown_type_message

from .helpers import friend_game
from .test_api import recv_type, ws_for

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()

#: What a process publishes on a game's channel (or the lobby's) for the others.
BETWEEN_PROCESSES: dict[str, type] = {
    "update": UpdateMessage,
    "lobby": LobbyMessage,
    "cancelled": CancelledMessage,
    "resync": ResyncMessage,
    "presence": PresenceCounts,
    "chat": ChatMessage,
    "challenge": ChallengeMessage,
}


def sections() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{section: {message type: [examples]}}`` from the page's ``##`` and ``###`` headings."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for part in re.split(r"^## ", DOC, flags=re.M)[1:]:
        title, _, body = part.partition("\n")
        messages: dict[str, list[dict[str, Any]]] = {}
        for sub in re.split(r"^### ", body, flags=re.M)[1:]:
            heading, _, text = sub.partition("\n")
            name = re.fullmatch(r"`(\w+)`", heading.strip())
            assert name, f"a message heading is a type in backquotes: {heading!r}"
            blocks = re.findall(r"```json\n(.*?)```", text, flags=re.S)
            messages[name.group(1)] = [json.loads(b) for b in blocks]
        out[title.strip()] = messages
    return out


SECTIONS = sections()
CASES = [
    ("Client to server", CLIENT_MESSAGES),
    ("Server to client", SERVER_MESSAGES),
    ("Between server processes", BETWEEN_PROCESSES),
]


def assert_fields(example: dict[str, Any], typed: Any, where: str) -> None:
    keys = set(example)
    required, optional = set(typed.__required_keys__), set(typed.__optional_keys__)
    assert required <= keys, f"{where}: missing {sorted(required - keys)}"
    assert keys <= required | optional, f"{where}: unknown {sorted(keys - required - optional)}"


@pytest.mark.parametrize(("section", "types"), CASES, ids=[c[0] for c in CASES])
def test_every_message_type_is_documented_with_examples_of_its_typed_fields(
    section: str, types: dict[str, type]
) -> None:
    documented = SECTIONS[section]
    assert list(documented) == list(types), f"{section}: the page and the code differ"
    for name, examples in documented.items():
        assert examples, f"{section}: `{name}` has no example"
        for example in examples:
            assert example["type"] == name
            assert_fields(example, types[name], f"{section} `{name}`")


def test_the_history_entries_of_the_examples_are_typed_too() -> None:
    state = SECTIONS["Server to client"]["state"][0]
    events = SECTIONS["Server to client"]["events"][0]
    delta = SECTIONS["Server to client"]["delta"][0]
    for entry in [
        *state["history"],
        state["last_move"],
        state["last_throw"],
        *events["events"],
        *delta["history"],
        delta["changed"]["last_move"],
        delta["changed"]["last_throw"],
    ]:
        assert_fields(entry, HistoryEntry, f"history entry {entry}")


def test_the_challenge_example_carries_a_whole_challenge() -> None:
    (example,) = SECTIONS["Between server processes"]["challenge"]
    assert_fields(example["challenge"], ChallengeJson, "challenge")


def test_the_delta_example_changes_fields_of_the_state_and_applies_to_the_state_example() -> None:
    state = SECTIONS["Server to client"]["state"][0]
    delta = SECTIONS["Server to client"]["delta"][0]
    fields = set(StateMessage.__required_keys__) - {"type", "game", "ply", "history"}
    assert set(delta["changed"]) <= fields
    rebuilt = apply_delta(state, delta)
    assert rebuilt is not None and rebuilt["ply"] == 5 and len(rebuilt["history"]) == 5
    assert rebuilt["fairness"]["throws"] == [11, 12, 7]


def test_the_unknown_type_error_names_every_client_message() -> None:
    text = unknown_type_message("hello")["message"]
    for name in CLIENT_MESSAGES:
        assert name in text
    assert "sync" in text


def test_every_error_code_the_code_raises_is_in_the_table_and_no_other() -> None:
    table = set(re.findall(r"^\| `(\w+)` \|", DOC, flags=re.M))
    raised: set[str] = set()
    for path in (ROOT / "src" / "senet").rglob("*.py"):
        text = path.read_text()
        raised |= set(re.findall(r'(?:GameError|error_message|error_json)\(\s*"(\w+)"', text))
        raised |= set(re.findall(r"GameError\.(\w+)\(", text))
        # a subclass of GameError names its code in its constructor: super().__init__("busy", ...)
        raised |= set(re.findall(r'super\(\)\.__init__\(\s*"(\w+)"', text))
    assert raised == table


def test_the_state_delta_and_events_messages_have_exactly_their_typed_fields(site) -> None:
    game = friend_game(site.url)
    token = game.tokens[0]
    with ws_for(site, game.game_id, token) as ws:
        state = recv_type(ws, "state")
        assert set(state) == set(StateMessage.__required_keys__)
        for entry in state["history"]:
            assert_fields(entry, HistoryEntry, "state history")
        assert set(recv_type(ws, "presence")) == set(SERVER_MESSAGES["presence"].__required_keys__)
        ws.send(json.dumps({"type": "move", "ply": state["ply"], "move": state["legal"][0]}))
        delta = recv_type(ws, "delta")
        assert set(delta) == set(DeltaMessage.__required_keys__)
        assert set(delta["changed"]) <= set(StateMessage.__required_keys__)
        for entry in delta["history"]:
            assert_fields(entry, HistoryEntry, "delta history")
    events_url = f"{site.ws_url}/ws/games/{game.game_id}?since=0"
    with connect(
        events_url, additional_headers={"Cookie": f"senet_seat_{game.game_id}={token}"}
    ) as ws:
        events = recv_type(ws, "events")
        assert set(events) == set(EventsMessage.__required_keys__) and events["events"]
