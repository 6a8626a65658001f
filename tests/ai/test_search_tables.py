"""The endgame tables inside the master's search: every chance position the search reaches that
a table holds (a leaf, or an inner chance node) takes the table's exact value, the same in the
plain search and in the compiled last chance node, and the large table is read only near its
material."""

from __future__ import annotations

import random

import numpy as np
import pytest

from senet.ai.compiled_network import CompiledNetEvaluator
from senet.ai.compiled_table import NO_TABLE, table_arrays, table_value
from senet.ai.network import network_for
from senet.ai.search import LEAF_TABLE_MARGIN, Searcher
from senet.ai.tables import (
    LARGE_TABLE_SPECS,
    EndgameTable,
    forget_tables,
    large_table_for,
    loaded_tables,
    resting_squares,
    table_for,
)
from senet.engine import InvalidPosition, Position, find_variant
from senet.engine.state import throw_due

#: the variants with a table, and the table the search reads near the end of the game
TABLED = [*sorted(LARGE_TABLE_SPECS), "bell"]


def _table(name: str) -> EndgameTable:
    variant = find_variant(name)
    table = large_table_for(variant) if name in LARGE_TABLE_SPECS else table_for(variant)
    assert table is not None
    return table


def _just_outside(name: str, count: int, seed: int, low: int = 16) -> list[Position]:
    """Decisions with one piece more than the table's positions (four against two or three
    against three where the large table ships, else three against two), on the resting squares
    from ``low`` on, a throw drawn, at least two legal moves: their search reaches the table
    after a piece leaves the board."""
    variant = find_variant(name)
    squares = resting_squares(variant, low)
    big = name in LARGE_TABLE_SPECS
    splits = [(4, 2), (2, 4), (3, 3)] if big else [(3, 2), (2, 3)]
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        a, b = rng.choice(splits)
        cells = rng.sample(squares, a + b)
        try:
            pos = Position.from_parts(variant, (cells[:a], cells[a:]), turn=rng.randint(0, 1))
        except InvalidPosition:
            continue
        if pos.is_over():
            continue
        outcomes = pos.chance_outcomes()
        pos = pos.apply_throw(rng.choice([n for n, _ in outcomes]))
        if not pos.is_over() and not pos.is_chance() and len(pos.legal_moves()) > 1:
            out.append(pos)
    return out


@pytest.mark.parametrize("name", TABLED)
def test_plain_and_compiled_search_read_the_same_exact_values_at_their_leaves(name: str) -> None:
    # The compiled last chance node reads the table by table_value, the plain search by
    # EndgameTable.chance_value: the same values and the same positions left to the network.
    network = network_for(find_variant(name))
    assert network is not None
    compiled = CompiledNetEvaluator(network)
    reached = 0
    for depth in (2, 3):
        for pos in _just_outside(name, 6 if depth == 2 else 3, seed=depth):
            plain = Searcher(network, depth, solve_states=6_000)
            fast = Searcher(compiled, depth, solve_states=6_000)
            plain_values, fast_values = plain.move_values(pos), fast.move_values(pos)
            assert [m for m, _ in plain_values] == [m for m, _ in fast_values]
            assert max(abs(a - b) for (_, a), (_, b) in zip(plain_values, fast_values)) < 1e-12
            assert fast.nodes == plain.nodes
            # without the table the same search evaluates more positions by the network
            bare = Searcher(network, depth)
            bare.move_values(pos)
            assert bare.nodes >= plain.nodes
            reached += bare.nodes > plain.nodes
    assert reached >= 3  # most of these searches reach the table somewhere


@pytest.mark.parametrize("name", TABLED)
def test_a_move_into_the_table_is_valued_exactly_at_every_depth(name: str) -> None:
    # A move that bears a piece off (or otherwise leaves a position the table holds) is
    # worth the table's value of the position after it, however deep the search.
    table = _table(name)
    network = network_for(find_variant(name))
    assert network is not None
    compiled = CompiledNetEvaluator(network)
    checked = 0
    for pos in _just_outside(name, 40, seed=11, low=20):
        exact = {}
        for move in pos.legal_moves():
            after = pos.apply_unchecked(move).state
            if throw_due(after) and not pos.apply_unchecked(move).is_over():
                value = table.chance_value(after)
                if value is not None:
                    exact[str(move)] = value
        if not exact or len(exact) == len(pos.legal_moves()):
            continue
        for depth in (1, 2, 3):
            for evaluator in (network, compiled):
                values = dict(
                    (str(m), v)
                    for m, v in Searcher(evaluator, depth, solve_states=6_000).move_values(pos)
                )
                for move, value in exact.items():
                    assert values[move] == pytest.approx(value, abs=1e-12), (pos.fen(), move)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_level_that_does_not_solve_reads_no_table() -> None:
    # The levels below the master (no solving) judge the same move by the network alone, and
    # so does a master told to read its tables at the root only.
    table = _table("standard")
    network = network_for(find_variant("standard"))
    assert network is not None
    for pos in _just_outside("standard", 40, seed=5, low=20):
        for move in pos.legal_moves():
            after = pos.apply_unchecked(move)
            exact = None if after.is_over() else table.chance_value(after.state)
            if exact is None:
                continue
            solving = dict(Searcher(network, 2, solve_states=6_000).move_values(pos))
            plain = dict(Searcher(network, 2).move_values(pos))
            assert solving[move] == pytest.approx(exact, abs=1e-12)
            assert abs(plain[move] - exact) > 1e-9
            # the master as it was (tables at the root only) searches as the plain search here
            at_root = Searcher(network, 2, solve_states=6_000, leaf_tables=False)
            assert dict(at_root.move_values(pos)) == plain
            return
    pytest.fail("no move into the table among the sampled positions")


def test_the_large_table_is_read_only_near_its_material() -> None:
    variant = find_variant("standard")
    network = network_for(variant)
    assert network is not None
    forget_tables()
    total = max(t for _, _, t in LARGE_TABLE_SPECS["standard"])
    far = Position.from_parts(variant, ([1, 3, 5, 7], [2, 4, 6, 8]), turn=0)  # eight on board
    assert 8 > total + LEAF_TABLE_MARGIN
    searcher = Searcher(CompiledNetEvaluator(network), 2, solve_states=6_000)
    searcher.position_value(far)
    assert ("standard", True) not in loaded_tables()
    near = _just_outside("standard", 1, seed=6)[0]
    searcher.move_values(near)
    assert ("standard", True) in loaded_tables()


def test_no_table_misses_every_lookup() -> None:
    variant = find_variant("standard")
    pos = Position.from_parts(variant, ([27], [29]), turn=0)
    state = np.array(pos.state, dtype=np.int64)
    image = np.zeros_like(state)
    assert table_value(*NO_TABLE[:3], state, image, *NO_TABLE[3:]) == -1.0
    small = table_arrays(table_for(variant))
    value = table_value(*small[:3], state, image, *small[3:])
    assert value == pytest.approx(table_for(variant).chance_value(pos.state), abs=1e-12)  # type: ignore[union-attr]
