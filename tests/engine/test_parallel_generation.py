"""The bit-parallel forward generator agrees with the square-by-square one on reachable positions.

Standard, Bell and Kendall generate forward moves for all pieces at once
(:func:`senet.engine.rules.forward_origins`); :func:`senet.engine.rules.step` is the
square-by-square statement of the same rules.  Both must give the same moves everywhere.
"""

from __future__ import annotations

import random

import pytest

from senet.engine import OFF, Position, find_variant
from senet.engine.rules import forward_origins, iter_squares, step, tables_for


def reachable(variant: str, games: int, seed: int):
    rng = random.Random(seed)
    v = find_variant(variant)
    for _ in range(games):
        p = Position.initial(v)
        while not p.is_over():
            if p.is_chance():
                values = [value for value, _ in p.chance_outcomes()]
                p = p.apply_throw(rng.choice(values))
            else:
                yield p
                p = p.apply_unchecked(rng.choice(p.legal_moves()))


@pytest.mark.parametrize("variant", ["standard", "bell", "kendall"])
def test_parallel_forward_moves_equal_step_by_step(variant: str) -> None:
    t = tables_for(find_variant(variant))
    assert t.parallel
    checked = 0
    for p in reachable(variant, 25, seed=len(variant)):
        me, opp = p.mask(p.turn), p.mask(1 - p.turn)
        for n in range(1, 6):
            board, off = forward_origins(t, me, opp, me, n)
            expected_board = expected_off = 0
            for sq in iter_squares(me):
                r = step(t, me, opp, sq, n, True)
                if r and (r & 63) == OFF:
                    expected_off |= 1 << (sq - 1)
                elif r:
                    assert (r & 63) == sq + n
                    expected_board |= 1 << (sq - 1)
            assert (board, off) == (expected_board, expected_off), (p.fen(), n)
            checked += 1
    assert checked > 1000


def test_adelaida_keeps_the_square_by_square_generator() -> None:
    assert not tables_for(find_variant("adelaida")).parallel  # jumping, triples and Ba need it
