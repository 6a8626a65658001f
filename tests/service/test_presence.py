"""Presence counts summed over processes (senet.service.infrastructure.presence), without a network."""

from __future__ import annotations

from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.infrastructure.presence import Presence


def test_counts_of_every_origin_are_summed_and_own_messages_ignored() -> None:
    here, there, third = (
        Presence(MemoryBroadcast()),
        Presence(MemoryBroadcast()),
        Presence(MemoryBroadcast()),
    )
    here.count("g", (0,), +1)
    assert here.summary("g") == {"online": [True, False], "spectators": 0}
    here.absorb("g", there.count("g", (1,), +1))
    here.absorb("g", third.count("g", (), +1))
    here.absorb("g", third.count("g", (), +1))
    assert here.summary("g") == {"online": [True, True], "spectators": 2}
    here.absorb("g", here.count("g", (0,), +1))  # its own message coming back changes nothing
    assert here.local["g"] == {"0": 2}
    here.absorb("g", there.count("g", (1,), -1))
    assert here.summary("g") == {"online": [True, False], "spectators": 2}
    here.count("g", (0,), -1)
    here.count("g", (0,), -1)
    assert "g" not in here.local and here.summary("g")["online"] == [False, False]


def test_malformed_presence_messages_are_ignored() -> None:
    here = Presence(MemoryBroadcast())
    for message in (
        {},
        {"origin": 5, "counts": {"0": 1}},
        {"origin": "x", "counts": "many"},
        {"origin": "x", "counts": {"0": "1", "9": 4, "spectators": -3}},
    ):
        here.absorb("g", message)
    assert here.summary("g") == {"online": [False, False], "spectators": 0}
    assert here.remote == {}


def test_counts_a_dead_process_stopped_repeating_expire() -> None:
    here, there = Presence(MemoryBroadcast()), Presence(MemoryBroadcast())
    there.count("g", (1,), +1)
    there.count("h", (), +1)
    here.absorb_all({"origin": there.origin, "games": there.local}, now=100.0)
    assert here.summary("g", now=100.0)["online"] == [False, True]
    assert here.summary("h", now=100.0 + Presence.TTL)["spectators"] == 1
    assert here.summary("h", now=101.0 + Presence.TTL)["spectators"] == 0  # not shown once stale
    here.expire(now=101.0 + Presence.TTL)
    assert here.remote == {}


def test_a_repeat_that_no_longer_lists_a_game_drops_it() -> None:
    here, there = Presence(MemoryBroadcast()), Presence(MemoryBroadcast())
    there.count("g", (0,), +1)
    there.count("h", (1,), +1)
    here.absorb_all({"origin": there.origin, "games": there.local})
    there.count("g", (0,), -1)  # a disconnection whose message was lost
    here.absorb_all({"origin": there.origin, "games": there.local})
    assert here.summary("g")["online"] == [False, False]
    assert here.summary("h")["online"] == [False, True]
