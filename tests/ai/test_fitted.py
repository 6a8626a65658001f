"""Training the network by supervised fits: the rows are the afterstates of sampled decisions
valued by rollouts or by the network's own search, the fit learns what it is shown (and the
order of a decision's moves from their differences), the one-decision-ahead duel is fair
between the seats, and a run is reproducible from its seed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from senet.ai.fitted import (
    DECISION_KEY,
    Round,
    collect,
    collect_searched,
    duel,
    errors,
    fit,
    train,
)
from senet.ai.network import N_INPUTS, NetEvaluator, network_for
from senet.engine import find_variant

STANDARD = find_variant("standard")


def test_rows_are_sampled_afterstates_valued_by_their_rollouts() -> None:
    x, y, g = collect(STANDARD, None, 6, seed=3, rate=0.2, rollouts=4, luck=False)
    assert len(y) > 20 and x.shape == (len(y), N_INPUTS)
    # a mean of four results (a win 1, a loss 0; standard has no draws)
    assert np.all((y >= 0) & (y <= 1))
    assert np.allclose(y * 4, np.round(y * 4))
    # rows come decision by decision, game by game; every decision offered two moves or more
    games = g // DECISION_KEY
    assert set(games) <= set(range(6)) and np.all(np.diff(g) >= 0)
    _, siblings = np.unique(g, return_counts=True)
    assert siblings.max() >= 2
    # the mover of an afterstate is seen first: its pieces and the opponent's on the board
    assert np.all(x[:, :30].sum(axis=1) <= 5) and np.all(x[:, 45:75].sum(axis=1) <= 5)
    # the same seed gives the same rows, another seed other games
    x2, y2, g2 = collect(STANDARD, None, 6, seed=3, rate=0.2, rollouts=4, luck=False)
    assert np.array_equal(x, x2) and np.array_equal(y, y2) and np.array_equal(g, g2)
    x3, _, _ = collect(STANDARD, None, 6, seed=4, rate=0.2, rollouts=4, luck=False)
    assert x3.shape != x.shape or not np.array_equal(x, x3)


def test_rollouts_see_who_is_ahead_in_the_race() -> None:
    # the mover's pips to run against the opponent's: behind in the race, worse results
    x, y, _ = collect(STANDARD, None, 40, seed=5, rate=0.2, rollouts=4, luck=False)
    lead = x[:, 45 + 35] - x[:, 35]  # opponent's pips minus the mover's (fractions)
    low, high = np.quantile(lead, [0.25, 0.75])
    # the quarter furthest ahead wins clearly more often than the quarter furthest behind
    # (each mean's standard error about 0.01 on these 3,466 positions)
    assert y[lead >= high].mean() > y[lead <= low].mean() + 0.05
    assert np.corrcoef(lead, y)[0, 1] > 0.05


@pytest.mark.slow  # rollouts of many positions, twice: more than a few seconds
def test_taking_out_the_throws_luck_keeps_the_rollouts_mean() -> None:
    # the same rollouts with and without the luck terms: a mean-zero correction per throw,
    # so the means agree within the noise while the spread shrinks
    _, plain, _ = collect(STANDARD, None, 30, seed=6, rate=0.2, rollouts=2, luck=False)
    _, lucky, _ = collect(STANDARD, None, 30, seed=6, rate=0.2, rollouts=2, luck=True)
    assert len(plain) == len(lucky) > 100
    assert not np.array_equal(plain, lucky)
    assert abs(plain.mean() - lucky.mean()) < 3 * np.sqrt(np.var(plain - lucky) / len(plain))
    assert np.var(lucky) < np.var(plain)


def test_search_targets_are_the_networks_expectation_over_the_throws() -> None:
    network = network_for(STANDARD)
    assert network is not None
    x, y, g = collect_searched(STANDARD, network, 4, seed=7, depth=1, rate=0.2)
    assert len(y) > 10 and np.all((y >= 0) & (y <= 1))
    # the network is close to its own one-step expectation, not equal to it
    own = network.mover_values(x)
    assert 0 < np.mean(np.abs(own - y)) < 0.05
    # deeper search: other targets for the same positions
    x2, y2, g2 = collect_searched(STANDARD, network, 4, seed=7, depth=2, rate=0.2)
    assert np.array_equal(x, x2) and np.array_equal(g, g2) and not np.array_equal(y, y2)


def test_linear_targets_are_the_linear_models_values_searched() -> None:
    # depth 0: the linear evaluation of each afterstate, whatever network is passed
    adelaida = find_variant("adelaida")
    rng = np.random.default_rng(2)
    one = NetEvaluator(adelaida, rng.normal(size=(3, N_INPUTS)), np.zeros(3), np.ones(3), 0.0)
    two = NetEvaluator(adelaida, rng.normal(size=(3, N_INPUTS)), np.zeros(3), -np.ones(3), 1.0)
    x, y, g = collect_searched(adelaida, one, 4, seed=9, depth=0, rate=0.2, linear=True)
    x2, y2, g2 = collect_searched(adelaida, two, 4, seed=9, depth=0, rate=0.2, linear=True)
    assert len(y) > 10 and np.all((y > 0) & (y < 1))
    assert np.array_equal(x, x2) and np.array_equal(y, y2) and np.array_equal(g, g2)
    # the network's own targets for the same rows are other values
    _, own, _ = collect_searched(adelaida, one, 4, seed=9, depth=0, rate=0.2)
    assert not np.allclose(own, y)
    # one decision deeper: the linear model's expectation over the throws, near its own value
    _, deeper, _ = collect_searched(adelaida, one, 4, seed=9, depth=1, rate=0.2, linear=True)
    assert not np.array_equal(deeper, y) and np.mean(np.abs(deeper - y)) < 0.1
    # whoever is ahead in the race is valued higher (the mover's pips against the opponent's)
    lead = x[:, 45 + 35] - x[:, 35]
    assert np.corrcoef(lead, y)[0, 1] > 0.3


def test_the_fit_learns_a_network_it_is_shown() -> None:
    rng = np.random.default_rng(0)
    teacher = (
        rng.normal(scale=0.3, size=(6, N_INPUTS)),
        rng.normal(size=6),
        2 * rng.normal(size=6),
        0.2,
    )
    x = rng.random((6000, N_INPUTS))
    y = 1 / (1 + np.exp(-(np.tanh(x @ teacher[0].T + teacher[1]) @ teacher[2] + teacher[3])))
    start = (rng.normal(scale=0.1, size=(6, N_INPUTS)), np.zeros(6), np.zeros(6), 0.0)
    groups = np.arange(len(y)) // 3  # decisions of three moves each
    held = groups % 10 == 0
    weights, curve = fit(x, y, groups, start, epochs=15, batch=63, lr=0.01, valid=held, log=False)
    assert curve[-1][0] < 0.2 * float(np.var(y[held]))
    assert curve[-1][0] < curve[0][0] and curve[-1][1] < curve[0][1]
    assert errors(weights, x[held], y[held], groups[held]) == curve[-1]


def test_the_fit_ranks_the_moves_of_a_decision_by_their_differences() -> None:
    # targets of one decision share a large common offset (noise common to siblings): the
    # pairwise term still learns which sibling is better
    rng = np.random.default_rng(1)
    x = rng.random((6000, N_INPUTS))
    groups = np.arange(len(x)) // 3
    common = rng.normal(scale=0.3, size=len(x) // 3)[groups]
    truth = 0.1 * (x[:, 0] - x[:, 1])
    y = np.clip(0.5 + truth + common, 0, 1)
    start = (rng.normal(scale=0.1, size=(4, N_INPUTS)), np.zeros(4), np.zeros(4), 0.0)
    weights, _ = fit(x, y, groups, start, epochs=10, batch=63, lr=0.01, log=False)
    w1, b1, w2, b2 = weights
    out = np.tanh(x @ w1.T + b1) @ w2
    within = lambda v: v - np.repeat(v.reshape(-1, 3).mean(axis=1), 3)  # noqa: E731
    assert np.corrcoef(within(out), within(truth))[0, 1] > 0.8


def test_a_player_against_itself_scores_exactly_half() -> None:
    # both games of a pair share their throws, so the same player on both seats wins one each
    network = network_for(STANDARD)
    assert duel(STANDARD, network, network, 6) == (0.5, 0.0)
    assert duel(STANDARD, None, None, 6) == (0.5, 0.0)
    score, half = duel(STANDARD, network, None, 20)
    assert 0 <= score <= 1 and half > 0


def test_training_is_reproducible_from_its_seed_and_records_its_curve() -> None:
    rounds = [Round("search", 1, 4, 2, 2), Round("rollouts", 2, 3, 1, 5)]
    a, curve_a = train(STANDARD, rounds, hidden=6, eval_pairs=4, log=False)
    b, curve_b = train(STANDARD, rounds, hidden=6, eval_pairs=4, log=False)
    assert a.hidden == 6
    assert np.array_equal(a.w1, b.w1) and a.b2 == b.b2
    assert [dict(p, seconds=0) for p in curve_a] == [dict(p, seconds=0) for p in curve_b]
    assert [p["round"] for p in curve_a] == [1, 2] and curve_a[0]["rows"] > 0
    assert a.info["command"] == (
        "senet train fitted --variant standard --hidden 6"
        " --round search:1:4:2:2 --round rollouts:2:3:1:5"
    )
    assert json.loads(a.info["curve"]) == curve_a and a.info["start"] == "random"
    c, _ = train(STANDARD, [Round("search", 1, 4, 2, 3)], hidden=6, eval_pairs=4, log=False)
    assert not np.array_equal(a.w1, c.w1)
    assert Round.parse("search:2:3500:10:21") == Round("search", 2, 3500, 10, 21)
    assert Round.parse("linear:0:500:4:3") == Round("linear", 0, 500, 4, 3)
    assert str(Round("search", 2, 3500, 10, 21)) == "search:2:3500:10:21"


def test_a_malformed_round_is_refused() -> None:
    for text in ("search:2:3500:10", "play:1:10:1:1", "search:a:1:1:1"):
        with pytest.raises(ValueError):
            Round.parse(text)


def test_training_starts_from_given_weights() -> None:
    start = network_for(STANDARD)
    assert start is not None
    net, _ = train(
        STANDARD, [Round("search", 1, 3, 1, 1)], start=start, start_name="x.npz",
        eval_pairs=2, log=False,
    )  # fmt: skip
    assert net.hidden == start.hidden and net.info["start"] == "x.npz"
    assert "--start x.npz --round search:1:3:1:1" in net.info["command"]
    # a small step from the start, not a fresh network
    assert 0 < np.abs(net.w1 - start.w1).max() < 0.05
    assert isinstance(net, NetEvaluator)


@pytest.mark.parametrize("name", ["standard", "kendall"])
def test_the_shipped_network_is_fitted_from_the_kept_self_play_one(name: str) -> None:
    # the file its command starts from is kept in the repository (the bench's reference)
    variant = find_variant(name)
    shipped = network_for(variant)
    assert shipped is not None
    assert shipped.info["start"] == f"bench/reference_weights/{name}.td-selfplay.npz"
    assert f"--variant {name} --start {shipped.info['start']}" in shipped.info["command"]
    root = Path(__file__).resolve().parents[2]
    start = NetEvaluator.load(variant, root / shipped.info["start"])
    assert start.info["trainer"].startswith("senet.ai.selfplay")
    assert start.hidden == shipped.hidden
    assert not np.array_equal(start.w1, shipped.w1)
    rounds = [Round.parse(r) for r in shipped.info["rounds"].split()]
    assert rounds[-1].kind == "search" and rounds[-1].depth == 2
