"""The trained network inside the compiled rollouts held to other paths: its policy
(:func:`senet.ai.rollout.network_move`) to the same choice made in plain Python from positions
(the numpy network's values, the two-a-side table's exact values, the throws averaged by their
chances), and the luck of a throw (:func:`senet.ai.rollout.after_throw_value`) to the master's
last searched chance node."""

from __future__ import annotations

import random

import numpy as np
import pytest

from senet.ai.compiled_network import compiled_network_for
from senet.ai.compiled_table import table_arrays
from senet.ai.network import NetEvaluator, network_for
from senet.ai.rollout import after_throw_value, network_move
from senet.ai.tables import EndgameTable, resting_squares, table_for
from senet.compiled.kernel import MAX_MOVES, N_EVENTS, TR_WIDTH, legal, play
from senet.compiled.tables import compile_rules
from senet.engine import InvalidPosition, Position, find_variant


def _decisions(name: str, count: int, seed: int) -> list[Position]:
    """Decisions one piece more than the two-a-side table holds (three against two) anywhere
    on the board, and as many near its end (squares 20 on), where a move or the reply after
    the next throw often enters the table; a throw drawn, at least two legal moves."""
    variant = find_variant(name)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        squares = resting_squares(variant, 20 if len(out) % 2 else 1)
        a = rng.choice((3, 2))
        cells = rng.sample(squares, 5)
        try:
            pos = Position.from_parts(variant, (cells[:a], cells[a:]), turn=rng.randint(0, 1))
        except InvalidPosition:
            continue
        if pos.is_over():
            continue
        pos = pos.apply_throw(rng.choice([n for n, _ in pos.chance_outcomes()]))
        if not pos.is_over() and not pos.is_chance() and len(pos.legal_moves()) > 1:
            out.append(pos)
    return out


def _result(pos: Position) -> float:
    outcome = pos.outcome
    assert outcome is not None
    return 0.5 if outcome.winner is None else float(outcome.winner == 0)


def _net(net: NetEvaluator, table: EndgameTable, pos: Position) -> float:
    """Seat A's value of a position the policy stops looking at: its result, the table's exact
    value of a chance position the table holds, else the network's."""
    if pos.is_over():
        return _result(pos)
    if pos.is_chance():
        exact = table.value_of_state(pos.state)
        if exact is not None:
            return exact
    return float(net.values_of_states([pos.state])[0])


def _through_the_throw(net: NetEvaluator, table: EndgameTable, pos: Position) -> float:
    """Seat A's value of the chance position ``pos`` looked at through its throw: each throw by
    its chance, then the next decider's best move by :func:`_net`."""
    exact = table.value_of_state(pos.state)
    if exact is not None:
        return exact
    total = 0.0
    for throw, chance in pos.chance_outcomes():
        after = pos.apply_throw(throw)
        if after.is_over() or after.is_chance():
            total += float(chance) * _net(net, table, after)
            continue
        values = [_net(net, table, after.apply(move)) for move in after.legal_moves()]
        total += float(chance) * (max(values) if after.decider == 0 else min(values))
    return total


def _reference(pos: Position, lookahead: int, net: NetEvaluator, table: EndgameTable) -> dict:
    """The decider's value of the position after each legal move, by state, as the policy
    values it."""
    seat = pos.decider
    out = {}
    for move in pos.legal_moves():
        child = pos.apply(move)
        if lookahead == 2 and child.is_chance() and not child.is_over():
            value = _through_the_throw(net, table, child)
        elif child.is_over():
            value = _result(child)
        else:
            value = float(net.values_of_states([child.state])[0])
        out[tuple(child.state)] = value if seat == 0 else 1.0 - value
    return out


def _compiled_choice(
    pos: Position, lookahead: int, net: NetEvaluator, table: EndgameTable
) -> tuple:
    """The state after the move :func:`network_move` takes in ``pos``."""
    rules = compile_rules(pos.variant)
    T, path = rules.table, rules.path
    s = np.array(pos.state, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    k = legal(T, path, s, moves)
    outcomes = pos.variant.instrument.outcomes
    throws = np.array([n for n, _ in outcomes], dtype=np.int64)
    probs = np.array([float(p) for _, p in outcomes])
    arrays = table_arrays(table)
    i = network_move(
        T, path, s, trk, moves, k, lookahead, net.w1, net.b1, net.w2, np.array([net.b2]),
        throws, probs, *arrays, np.zeros_like(s), np.zeros_like(trk),
        np.zeros(N_EVENTS, dtype=np.int64), np.zeros_like(s), np.zeros(net.w1.shape[1]),
        np.zeros(net.w1.shape[0]), np.zeros(2),
    )  # fmt: skip
    child = s.copy()
    play(T, path, child, moves[i], np.zeros(N_EVENTS, dtype=np.int64), trk, 0)
    return tuple(int(v) for v in child)


@pytest.mark.parametrize("name", ["standard", "kendall"])
def test_the_compiled_network_policy_takes_the_move_plain_python_values_best(name: str) -> None:
    variant = find_variant(name)
    net, table = network_for(variant), table_for(variant)
    assert net is not None and table is not None
    differ = 0
    for pos in _decisions(name, 24, seed=3):
        chosen = {}
        for lookahead in (1, 2):
            values = _reference(pos, lookahead, net, table)
            choice = _compiled_choice(pos, lookahead, net, table)
            assert choice in values, (pos.fen(), lookahead)
            assert values[choice] == pytest.approx(max(values.values()), abs=1e-9), (
                pos.fen(),
                lookahead,
            )
            chosen[lookahead] = choice
        differ += chosen[1] != chosen[2]
    # looking through the throw changes the move in some of these positions
    assert differ > 0


@pytest.mark.parametrize("name", ["standard", "kendall"])
def test_the_luck_of_a_throw_is_measured_by_the_masters_last_chance_values(name: str) -> None:
    # after_throw_value (the rollouts' luck) and last_chance (the master's last searched
    # chance node) value a chance position one decision deep alike: averaged by the throws'
    # chances, the one's values are the other's.
    variant = find_variant(name)
    net, table = network_for(variant), table_for(variant)
    evaluator = compiled_network_for(variant)
    assert net is not None and table is not None and evaluator is not None
    rules = compile_rules(variant)
    outcomes = variant.instrument.outcomes
    arrays = table_arrays(table)
    compared = 0
    for pos in _decisions(name, 24, seed=5):
        for move in pos.legal_moves():
            child = pos.apply(move)
            if child.is_over() or not child.is_chance():
                continue
            s = np.array(child.state, dtype=np.int64)
            width = len(s)
            values = [
                after_throw_value(
                    rules.table,
                    rules.path,
                    s,
                    throw,
                    net.w1,
                    net.b1,
                    net.w2,
                    np.array([net.b2]),
                    *arrays,
                    np.zeros(width, dtype=np.int64),
                    np.zeros(width, dtype=np.int64),
                    np.zeros(width, dtype=np.int64),
                    np.zeros(MAX_MOVES, dtype=np.int64),
                    np.zeros(N_EVENTS, dtype=np.int64),
                    np.zeros((2, TR_WIDTH), dtype=np.int64),
                    np.zeros(net.w1.shape[1]),
                    np.zeros(net.w1.shape[0]),
                )  # fmt: skip
                for throw, _ in outcomes
            ]
            expected, _ = evaluator.last_chance(child.state, arrays)
            average = sum(float(p) * v for (_, p), v in zip(outcomes, values, strict=True))
            assert average == pytest.approx(expected, abs=1e-12), child.fen()
            compared += 1
    assert compared >= 24
