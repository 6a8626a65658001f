"""The PettingZoo environment: PettingZoo's own API and seed tests in every variant, the action
numbers and the observation tensor against the engine, and chance inside from the seed."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from senet.engine import VARIANTS, Position, draw_throw, find_variant, parse_move
from senet.env import senet_v0
from senet.env.encoding import (
    ACTIONS,
    OBSERVATION_SIZE,
    action_mask,
    action_of,
    move_of,
    observation,
)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_pettingzoo_api_test_and_seed_test_pass(variant: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation (with its action mask) is not an array, as
        # it does for its own classic games
        warnings.simplefilter("ignore")
        api_test(senet_v0.env(variant=variant), num_cycles=300)
        seed_test(lambda: senet_v0.env(variant=variant), num_cycles=300)


def _random_positions(variant: str, seed: int, count: int) -> list[Position]:
    """Decision positions of a random game of ``variant``."""
    rng = random.Random(seed)
    position = Position.initial(find_variant(variant))
    seen: list[Position] = []
    while len(seen) < count and not position.is_over():
        if position.is_chance():
            position = position.apply_throw(draw_throw(rng, position.variant.instrument))
            continue
        seen.append(position)
        position = position.apply(rng.choice(position.legal_moves()))
    return seen


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(VARIANTS)), st.integers(0, 10**6))
def test_every_legal_move_has_its_own_action_and_back(variant: str, seed: int) -> None:
    for position in _random_positions(variant, seed, 60):
        legal = position.legal_moves()
        actions = [action_of(m) for m in legal]
        assert len(set(actions)) == len(legal)
        assert all(0 <= a < ACTIONS for a in actions)
        assert [move_of(a) for a in actions] == legal
        mask = action_mask(position)
        assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(actions)
        for seat in (0, 1):
            obs = observation(position, seat)
            assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            assert obs[:30].sum() == len(position.pieces(seat))
            assert obs[30:60].sum() == len(position.pieces(1 - seat))
            assert obs[79] == float(position.decider == seat)


def test_kendall_1978_banked_throws_are_played_in_any_order() -> None:
    """kendall-1978: all throws of a turn come first; each banked throw is its own action."""
    position = Position.from_fen("kendall-1978 ........../........A./..B......B A 1 bank=4")
    moves = {m.text() for m in position.legal_moves()}
    assert {"19-20", "19-23"} <= moves  # the 1 or the 4 first
    mask = action_mask(position)
    assert mask[action_of(parse_move("19-20"))] == 1 and mask[action_of(parse_move("19-23"))] == 1
    assert int(mask.sum()) == len(moves)
    obs = observation(position, 0)
    assert obs[72] == 0.25 and obs[75] == 0.25  # one 1 and one 4 to play


def test_bearing_off_names_its_throw_where_several_could() -> None:
    two, three = parse_move("30-off/2"), parse_move("30-off/3")
    assert move_of(action_of(two)) == two and move_of(action_of(three)) == three
    assert action_of(two) != action_of(three) != action_of(parse_move("30-off"))


def test_the_same_seed_throws_the_same_game_and_another_seed_another() -> None:
    def play(seed: int) -> list[str]:
        game = senet_v0.raw_env(variant="standard")
        game.reset(seed=seed)
        fens = []
        for _ in range(40):
            if game.position.is_over():
                break
            legal = game.position.legal_moves()
            game.step(action_of(legal[0]))
            fens.append(game.position.fen())
        return fens

    assert play(3) == play(3)
    assert play(3) != play(4)


def test_an_illegal_action_is_refused_by_the_raw_env_and_loses_in_the_wrapped_one() -> None:
    raw = senet_v0.raw_env(variant="bell")
    raw.reset(seed=1)
    before = raw.position
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        raw.step(illegal)
    assert raw.position == before
    wrapped = senet_v0.env(variant="bell")
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns of the illegal move
        wrapped.step(illegal)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_a_whole_game_ends_with_opposite_rewards_and_renders_as_text() -> None:
    game = senet_v0.env(variant="standard", render_mode="ansi")
    game.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        obs, reward, termination, truncation, _ = game.last()
        totals[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) == [-1.0, 1.0]
    text = game.render()
    assert text.splitlines()[-1].startswith("standard ")
