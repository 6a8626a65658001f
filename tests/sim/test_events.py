"""The simulator's counters agree with what the engine's states say happened: on every legal
move of positions reached by random play, each counted event is checked against the states
before and after the move on the pure engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

from senet.compiled import kernel as K
from senet.compiled.tables import compile_rules, encode_move
from senet.engine import Capture, Position, find_variant
from senet.engine.flow import legal_moves, play, thrown, winner
from senet.engine.rules import tables_for
from senet.engine.state import (
    BORNE_OFF,
    CAPTURED,
    DROWNED,
    MASK,
    PENDING,
    PENDING_FATE,
    PENDING_WATER,
    TURN,
    throw_due,
)

from .simulated import SIMULATED


def counted(rules, s: list[int], move) -> dict[str, int]:
    state = np.zeros(K.MAX_MOVES, dtype=np.int64)
    state[: len(s)] = s
    trk = np.zeros((2, K.TR_WIDTH), dtype=np.int64)
    K.track_start(state, trk)
    ev = np.zeros(K.N_EVENTS, dtype=np.int64)
    K.play(rules.table, rules.path, state, encode_move(move), ev, trk, 0)
    return {name: int(ev[i]) for i, name in enumerate(K.EVENTS)}


@pytest.mark.parametrize("name", SIMULATED)
def test_counted_events_match_the_engine_states(name: str) -> None:
    v = find_variant(name)
    rules = compile_rules(v)
    t = tables_for(v)
    rng = random.Random(3)
    values = list(v.instrument.values)
    s = list(v.start_position().state)
    seen: dict[str, int] = {}
    for _ in range(1500):
        if winner(t, s) is not None:
            s = list(v.start_position().state)
        while throw_due(s):  # one throw, or a turn's whole run of them (kendall-1978)
            s = list(thrown(t, s, rng.choice(values)))
        for move in legal_moves(t, s):
            before = Position(v, tuple(s))
            after = list(s)
            play(t, after, move)
            ev = counted(rules, s, move)
            mover = before.decider
            assert mover is not None
            lands_on = before.is_capture(move)
            fate = s[PENDING] == PENDING_FATE
            regular = s[PENDING] == 0
            assert ev["bear_off"] == after[BORNE_OFF + mover] - s[BORNE_OFF + mover]
            assert ev["capture"] == sum(after[CAPTURED + i] - s[CAPTURED + i] for i in (0, 1))
            assert ev["drown"] == max(0, after[DROWNED + mover] - s[DROWNED + mover])
            assert ev["revive"] == int(move.kind == "revive")
            assert ev["pass"] == int(move.kind == "pass" and regular)
            assert ev["fate_lost"] == int(move.kind == "pass" and fate)
            assert ev["backward"] == int(move.is_step and move.target < move.origin)
            assert ev["water_risk"] == int(move.kind == "risk")
            assert ev["water_return"] == int(move.kind == "return")
            water_attack = (
                lands_on and after[PENDING] == PENDING_WATER and v.houses.get(move.target) is None
            )
            sent_back = lands_on and v.capture is Capture.SEND_BACK
            assert ev["attack_back"] == int(sent_back)
            assert ev["swap"] == int(
                lands_on and not ev["capture"] and not ev["water_attack"] and not sent_back
            )
            assert ev["water_attack"] <= int(lands_on)
            if ev["water_attack"]:
                if t.wait_bit:  # kendall-1978: the attacked piece now waits in the House of Water
                    assert after[MASK + 1 - mover] & ~s[MASK + 1 - mover] == t.wait_bit
                else:
                    assert water_attack or after[PENDING] == PENDING_WATER
            assert ev["fate"] == int(after[PENDING] == PENDING_FATE and not fate)
            if sent_back:
                # jequier: the attacked piece now stands on the lowest free square
                assert after[MASK + 1 - mover] & ~s[MASK + 1 - mover] & ((1 << 30) - 1)
            if ev["swap"]:
                # the attacked piece now stands where the attacker came from
                assert after[MASK + 1 - mover] >> (move.origin - 1) & 1
            for key, value in ev.items():
                seen[key] = seen.get(key, 0) + value
        play(t, s, rng.choice(legal_moves(t, s)))
    # uniformly random jequier games reach the home stretch far beyond these positions
    assert seen["bear_off"] > 0 or v.bear_off_home
    assert seen["swap"] or seen["capture"] or seen["attack_back"]
    assert s[TURN] in (0, 1)
