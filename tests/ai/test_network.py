"""The trained network evaluation: its shipped weights load and are used by the master, its
fast numpy path computes exactly the network on its documented inputs, the compiled trainer
sees the same inputs, and training is reproducible from its seed."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from senet.ai import find_level, searcher_for
from senet.ai.compiled_network import CompiledNetEvaluator, compiled_network_for
from senet.ai.network import (
    FIRST_INPUTS,
    INPUTS,
    N_INPUTS,
    NetEvaluator,
    features_of_states,
    network_for,
)
from senet.ai.search import CompiledLastChance, Searcher
from senet.engine import Position, find_variant
from senet.engine.notation import parse_position
from senet.engine.rules import tables_for
from senet.engine.state import PENDING, SIZE

TRAINED = ["standard", "kendall", "bell", "adelaida", "adelaida-long", "kendall-1978", "jequier"]


def _states(name: str, count: int, seed: int) -> list[tuple[int, ...]]:
    """Open states of random games, decisions and throws due alike (every phase of play)."""
    variant = find_variant(name)
    rng = random.Random(seed)
    states: list[tuple[int, ...]] = []
    pos = Position.initial(variant)
    while len(states) < count:
        if pos.is_over():
            pos = Position.initial(variant)
        if pos.is_chance():
            outcomes = pos.chance_outcomes()
            pos = pos.apply_throw(
                rng.choices([n for n, _ in outcomes], [float(p) for _, p in outcomes])[0]
            )
        else:
            pos = pos.apply_unchecked(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            states.append(pos.state)
    return states


def _random_network(name: str, seed: int = 0) -> NetEvaluator:
    r = np.random.default_rng(seed)
    return NetEvaluator(
        find_variant(name),
        r.normal(scale=0.3, size=(12, N_INPUTS)),
        r.normal(size=12),
        r.normal(scale=0.3, size=12),
        0.1,
    )


@pytest.mark.parametrize("name", TRAINED)
def test_the_shipped_network_loads_with_how_it_was_trained(name: str) -> None:
    network = network_for(find_variant(name))
    assert network is not None
    assert network.w1.shape == (network.hidden, N_INPUTS)
    assert int(network.info["games"]) >= 1_000
    curve = json.loads(network.info["curve"])
    if network.info["trainer"].startswith("senet.ai.fitted"):
        # each round measured against the expert, and against the network it started from
        # (where it started from random weights, the first round fits the linear model)
        assert network.info["command"].startswith(f"python -m senet.ai.fitted --variant {name}")
        assert runs_as_senet_train(network.info["command"]) == "fitted"
        assert [p["round"] for p in curve] == list(range(1, len(curve) + 1))
        assert curve[-1]["vs_expert"] - curve[-1]["vs_expert_half"] > 0.5
        if network.info["start"] == "random":
            assert network.info["rounds"].startswith("linear:")
        else:
            assert curve[-1]["vs_start"] - curve[-1]["vs_start_half"] > 0.5
        return
    assert network.info["seed"].isdigit()
    assert curve[0]["games"] == 0 and curve[-1]["games"] == int(network.info["games"])
    # trained, not random: the last point of the curve beats the untrained start
    assert curve[-1]["score"] > curve[0]["score"]


def runs_as_senet_train(command: str) -> str:
    """The trainer of a command kept in a weight file, checked to parse as that trainer's
    ``senet train`` command with the same options (files trained before the trainers shared
    one command keep ``python -m senet.ai.<trainer>``); raises if it does not parse."""
    from senet.ai.cli import train

    words = command.split()
    if words[:2] == ["python", "-m"]:
        trainer, args = words[2].removeprefix("senet.ai."), words[3:]
    else:
        assert words[:2] == ["senet", "train"], command
        trainer, args = words[2], words[3:]
    train.commands[trainer].make_context(trainer, args)
    return trainer


def _refined_by_self_play(name: str, start_file: str, seed: int) -> tuple:
    """The shipped network of ``name`` and the kept file its self-play command started from
    (kept in the repository, so that the command repeats it): refined, not retrained —
    changed, yet still close to the start hidden unit by hidden unit (a network trained
    afresh would not line its units up with them)."""
    variant = find_variant(name)
    shipped = network_for(variant)
    assert shipped is not None and shipped.info["trainer"].startswith("senet.ai.selfplay")
    assert shipped.info["start"] == f"bench/reference_weights/{start_file}"
    command = shipped.info["command"]
    assert command.startswith(f"python -m senet.ai.selfplay --variant {name} ")
    assert runs_as_senet_train(command) == "selfplay"
    assert f"--start {shipped.info['start']}" in command and f"--seed {seed}" in command
    root = Path(__file__).resolve().parents[2]
    start = NetEvaluator.load(variant, root / shipped.info["start"])
    assert start.hidden == shipped.hidden
    assert not np.array_equal(shipped.w1, start.w1)
    assert np.corrcoef(shipped.w1.ravel(), start.w1.ravel())[0, 1] > 0.6
    return shipped, start


def test_adelaidas_network_is_refined_by_self_play_from_the_kept_fitted_one() -> None:
    _, start = _refined_by_self_play("adelaida", "adelaida.fitted.npz", 11)
    assert start.info["trainer"].startswith("senet.ai.fitted")


def test_kendall_1978s_network_carries_on_the_self_play_of_the_one_it_replaced() -> None:
    """Kendall-1978's first network learned from random weights; the shipped one goes on
    from it at a lower learning rate, and ends above where it began against the expert."""
    shipped, start = _refined_by_self_play("kendall-1978", "kendall-1978.td-selfplay.npz", 2)
    assert start.info["trainer"].startswith("senet.ai.selfplay")
    assert "--start" not in start.info["command"]
    curve = json.loads(shipped.info["curve"])
    assert curve[-1]["score"] - curve[-1]["half"] > curve[0]["score"] - curve[0]["half"]


@pytest.mark.parametrize("name", TRAINED)
def test_the_master_searches_with_the_trained_network(name: str) -> None:
    variant = find_variant(name)
    pos = Position.initial(variant).apply_throw(3)
    evaluator = searcher_for(pos, find_level("master")).evaluator
    # by the compiled code: every variant with a network is one the compiled simulator plays
    assert isinstance(evaluator, CompiledNetEvaluator)
    assert evaluator.network is network_for(variant)


def test_the_kendall_1978_network_weighs_the_throws_still_banked() -> None:
    # kendall-1978's network was trained with the banked-throw inputs: they carry weight, and
    # the same board with two 5s still to play is worth more to the seat that will play them.
    network = network_for(find_variant("kendall-1978"))
    assert network is not None
    banks = [INPUTS.index(f"bank{v}") for v in range(1, 6)]
    assert np.abs(network.w1[:, banks]).max() > 0.1
    board = "kendall-1978 BABABABABA/BAB.A...../.......... A 1"
    more, fewer = (parse_position(f"{board} bank={b}").state for b in ("1,3,5,5", "1,3"))
    assert network.values_of_states([more])[0] > network.values_of_states([fewer])[0]


def test_a_variant_without_a_network_falls_back_to_the_net_model() -> None:
    variant = dataclasses.replace(find_variant("kendall"), name="kendall-untrained")
    assert network_for(variant) is None
    pos = Position.initial(variant).apply_throw(3)
    assert not isinstance(searcher_for(pos, find_level("master")).evaluator, NetEvaluator)


#: every variant the compiled simulator plays (piccione's pieces in hand are not simulated)
SIMULATED = ["standard", "kendall", "bell", "adelaida", "adelaida-long", "kendall-1978", "jequier"]


@pytest.mark.parametrize("name", SIMULATED)
def test_the_compiled_evaluation_is_the_network(name: str) -> None:
    network = _random_network(name)
    states = _states(name, 1500, seed=7)
    compiled = CompiledNetEvaluator(network).values_of_states(states)
    assert np.abs(compiled - network.values_of_states(states)).max() < 1e-12


@pytest.mark.parametrize("name", TRAINED)
def test_the_search_finds_the_same_values_with_the_compiled_evaluation(name: str) -> None:
    # The compiled evaluator also searches each last chance node whole (every throw, every
    # move after it): the values must be the plain search's, House decisions, banked throws
    # (kendall-1978) and the end of the game included, from the same positions evaluated.
    network = _random_network(name, seed=3)
    compiled = CompiledNetEvaluator(network)
    assert isinstance(compiled, CompiledLastChance)  # the searcher hands it those nodes
    positions = [Position(network.variant, s) for s in _states(name, 600, seed=17)]
    decisions = [p for p in positions if not p.is_chance() and len(p.legal_moves()) > 1][:12]
    assert len(decisions) == 12
    for depth in (2, 3):
        for pos in decisions[: 12 if depth == 2 else 4]:
            plain, fast = Searcher(network, depth), Searcher(compiled, depth)
            plain_values, fast_values = plain.move_values(pos), fast.move_values(pos)
            assert [m for m, _ in plain_values] == [m for m, _ in fast_values]
            assert max(abs(a - b) for (_, a), (_, b) in zip(plain_values, fast_values)) < 1e-12
            assert fast.nodes == plain.nodes


def test_rules_the_compiled_code_does_not_play_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="piccione"):
        CompiledNetEvaluator(_random_network("piccione"))
    assert compiled_network_for(find_variant("piccione")) is None


@pytest.mark.parametrize("name", SIMULATED)
def test_fast_path_is_the_network_on_its_inputs(name: str) -> None:
    network = _random_network(name)
    states = _states(name, 1500, seed=5)
    fast = network.values_of_states(states)
    plain = network.reference_values(states)
    assert np.abs(fast - plain).max() < 1e-12
    assert ((fast > 0) & (fast < 1)).all()


def test_values_are_antisymmetric_between_the_seats() -> None:
    # Seat A's value of a position is 1 - seat B's value of the same position with the seats
    # exchanged: one network serves both seats.
    network = _random_network("standard", seed=3)
    swap = [1, 0, 2, 3, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, *range(PENDING, SIZE)]  # no seat's after
    states = _states("standard", 400, seed=8)
    mirrored = [tuple(s[i] for i in swap) for s in states]
    mirrored = [s[:2] + (1 - s[2],) + s[3:] for s in mirrored]
    v = network.values_of_states(states)
    w = network.values_of_states(mirrored)
    assert np.abs(v + w - 1.0).max() < 1e-12


def test_inputs_of_a_hand_made_position() -> None:
    # B to throw: B is the mover.  B's pieces 20, 21, 22 (a block of three, all protected),
    # A's lone 18 is two squares behind B's 20: B's 20 is protected, so no attack counts.
    pos = Position.from_parts(
        find_variant("standard"), ([18, 30], [20, 21, 22]), turn=1, off=(3, 2)
    )
    t = tables_for(pos.variant)
    x, mover = features_of_states(np.array([pos.state]), t.pieces, t.water_bit, t.fate_bit)
    named = dict(zip(INPUTS, x[0]))
    assert mover[0] == 1
    assert named["me.sq20"] == named["me.sq21"] == named["me.sq22"] == 1.0
    assert named["opp.sq18"] == named["opp.sq30"] == 1.0
    assert named["me.off"] == pytest.approx(2 / 5) and named["opp.off"] == pytest.approx(3 / 5)
    assert named["me.pips"] == pytest.approx((11 + 10 + 9) / 150)
    assert named["me.block3"] == pytest.approx(3 / 5)
    assert named["me.protected"] == pytest.approx(3 / 5)
    assert named["opp.att2"] == 0.0  # A's 18 has no B piece behind it
    assert named["me.rear"] == pytest.approx(20 / 30) and named["opp.front"] == 1.0
    assert named["contact"] == 1.0  # A's 18 is behind B's 22


def test_inputs_of_banked_throws_and_pieces_back_from_the_water() -> None:
    # kendall-1978: every throw of a turn is made before moving.  A plays its 1 now; the 3 and
    # both 5s stay banked for the same turn, and the network must see them (an afterstate
    # with two 5s still to play is worth more than one with none).  A's 15 and B's 13 came
    # back from the House of Water and have not moved since.
    pos = parse_position(
        "kendall-1978 BABABABABA/BAB.A...../.......... A 1 bank=1,3,5,5 returned=13,15"
    )
    t = tables_for(pos.variant)
    x, mover = features_of_states(np.array([pos.state]), t.pieces, t.water_bit, t.fate_bit)
    named = dict(zip(INPUTS, x[0]))
    assert mover[0] == 0
    assert named["throw"] == pytest.approx(1 / 5)
    assert [named[f"bank{v}"] for v in range(1, 6)] == pytest.approx([1 / 3, 0, 1 / 3, 0, 2 / 3])
    assert named["returned.me"] == pytest.approx(1 / 7)  # A's 15
    assert named["returned.opp"] == pytest.approx(1 / 7)  # B's 13
    fewer = parse_position("kendall-1978 BABABABABA/BAB.A...../.......... A 1 bank=1,3")
    y, _ = features_of_states(np.array([fewer.state]), t.pieces, t.water_bit, t.fate_bit)
    assert dict(zip(INPUTS, y[0]))["bank5"] == 0.0
    network = _random_network("kendall-1978", seed=2)
    both = network.values_of_states([pos.state, fewer.state])
    assert both[0] != both[1]


def test_weights_of_the_first_inputs_load_with_zero_weight_on_the_later_ones() -> None:
    # Weight files written before the banked-throw and returned-piece inputs were added hold
    # the first FIRST_INPUTS inputs; they load with zero weight on the rest, which are zero
    # in their variants anyway, so their values are unchanged.
    network = _random_network("standard", seed=6)
    network.w1[:, FIRST_INPUTS:] = 0.0
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        format=np.int64(1),
        layout=np.int64(1),
        variant=np.str_("standard"),
        inputs=np.array(INPUTS[:FIRST_INPUTS]),
        w1=network.w1[:, :FIRST_INPUTS].astype(np.float32),
        b1=network.b1.astype(np.float32),
        w2=network.w2.astype(np.float32),
        b2=np.float32(network.b2),
        info_keys=np.array([], dtype=np.str_),
        info_values=np.array([], dtype=np.str_),
    )
    buffer.seek(0)
    loaded = NetEvaluator.load(find_variant("standard"), buffer)
    assert loaded.w1.shape == (12, N_INPUTS)
    assert not loaded.w1[:, FIRST_INPUTS:].any()
    states = _states("standard", 200, seed=4)
    assert np.abs(loaded.values_of_states(states) - network.values_of_states(states)).max() < 1e-5
    buffer.seek(0)
    data = dict(np.load(buffer))
    data["inputs"] = np.array(INPUTS[: FIRST_INPUTS - 1])
    data["w1"] = data["w1"][:, : FIRST_INPUTS - 1]
    shorter = io.BytesIO()
    np.savez_compressed(shorter, **data)
    shorter.seek(0)
    with pytest.raises(ValueError, match="different input set"):
        NetEvaluator.load(find_variant("standard"), shorter)


def test_weights_of_another_variant_or_input_set_are_refused() -> None:
    network = _random_network("kendall")
    buffer = io.BytesIO()
    network.save(buffer)  # type: ignore[arg-type]
    buffer.seek(0)
    loaded = NetEvaluator.load(find_variant("kendall"), buffer)
    assert np.allclose(loaded.w1, network.w1, atol=1e-6)
    buffer.seek(0)
    with pytest.raises(ValueError, match="of kendall, not bell"):
        NetEvaluator.load(find_variant("bell"), buffer)


# ---------------------------------------------------------------- the compiled trainer
# (slow: Numba compiles the trainer on a fresh machine, about half a minute)
@pytest.mark.slow
@pytest.mark.parametrize("name", SIMULATED)
def test_the_trainer_sees_the_same_inputs_as_the_search(name: str) -> None:
    from senet.ai.selfplay import state_features

    variant = find_variant(name)
    t = tables_for(variant)
    states = _states(name, 300, seed=11)
    x, _ = features_of_states(np.array(states), t.pieces, t.water_bit, t.fate_bit)
    compiled = state_features(variant, states)
    assert np.array_equal(x, compiled)


@pytest.mark.slow
def test_training_is_reproducible_from_its_seed() -> None:
    from senet.ai.selfplay import train

    variant = find_variant("kendall")
    runs = [
        train(variant, 40, seed=4, hidden=8, chunk=20, eval_every=20, eval_pairs=10, log=False)
        for _ in range(2)
    ]
    (a, curve_a), (b, curve_b) = runs
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert curve_a == [dict(p, seconds=q["seconds"]) for p, q in zip(curve_b, curve_a)]
    other, _ = train(
        variant, 40, seed=5, hidden=8, chunk=20, eval_every=20, eval_pairs=10, log=False
    )
    assert not np.array_equal(a.w1, other.w1)


@pytest.mark.slow
def test_training_can_start_from_a_network() -> None:
    # self-play refines a network fitted by other means: it starts from its weights (and
    # size), leaves the start itself alone, and the command that repeats the run names it
    from senet.ai.selfplay import train

    variant = find_variant("kendall")
    settings = dict(seed=4, chunk=20, eval_every=20, eval_pairs=10, log=False)
    start, _ = train(variant, 20, hidden=8, **settings)  # type: ignore[arg-type]
    before = start.w1.copy()
    unchanged, _ = train(variant, 0, hidden=40, start=start, start_name="s.npz", **settings)  # type: ignore[arg-type]
    assert unchanged.w1.shape == (8, before.shape[1])
    assert np.array_equal(unchanged.w1, start.w1) and np.array_equal(unchanged.w2, start.w2)
    assert unchanged.b2 == start.b2
    refined, _ = train(variant, 20, start=start, start_name="s.npz", **settings)  # type: ignore[arg-type]
    assert not np.array_equal(refined.w1, start.w1)
    assert np.array_equal(start.w1, before)
    assert refined.info["command"].endswith(" --start s.npz")
    assert refined.info["start"] == "s.npz"
    fresh, _ = train(variant, 20, hidden=8, **settings)  # type: ignore[arg-type]
    assert not np.array_equal(refined.w1, fresh.w1)


@pytest.mark.slow
def test_a_discounted_run_learns_otherwise_and_its_command_repeats_it(tmp_path: Path) -> None:
    # with a discount γ < 1 every decision pulls the estimate learnt from towards a draw, so
    # the weights differ from the undiscounted run's on the same games; the command kept in
    # the weights, run again, gives exactly the same network
    from click.testing import CliRunner

    from senet.ai.cli import train as train_command
    from senet.ai.selfplay import train

    variant = find_variant("kendall")
    settings = dict(seed=4, hidden=8, chunk=20, eval_every=20, eval_pairs=10, log=False)
    plain, _ = train(variant, 20, **settings)  # type: ignore[arg-type]
    discounted, _ = train(variant, 20, gamma=0.9, **settings)  # type: ignore[arg-type]
    assert not np.array_equal(plain.w1, discounted.w1)
    assert discounted.info["discount"] == "0.9" and plain.info["discount"] == "1.0"
    command = discounted.info["command"].split()
    assert command[:3] == ["senet", "train", "selfplay"] and "--discount" in command
    assert "--discount" not in plain.info["command"].split()
    extra = ["--eval-every", "20", "--eval-pairs", "10", "--out", str(tmp_path)]
    ran = CliRunner().invoke(train_command, [*command[2:], *extra])
    assert ran.exit_code == 0, ran.output
    again = NetEvaluator.load(variant, tmp_path / "kendall.td.npz")
    discounted.save(tmp_path / "first.npz")  # the same rounding to the file's precision
    first = NetEvaluator.load(variant, tmp_path / "first.npz")
    assert np.array_equal(again.w1, first.w1) and np.array_equal(again.w2, first.w2)


@pytest.mark.slow
def test_guided_games_bring_results_where_the_untrained_network_shuffles() -> None:
    # jequier: a piece that cannot go forward goes back, so the untrained network's greedy
    # self-play shuffles pieces without end and never sees a result to learn from; games
    # played by the expert for both seats finish, and the network learns from them.
    from senet.ai.selfplay import train

    variant = find_variant("jequier")
    settings = dict(seed=1, hidden=8, chunk=10, eval_every=10, eval_pairs=2, max_decisions=2000)
    _, own = train(variant, 10, log=False, **settings)  # type: ignore[arg-type]
    _, guided = train(variant, 10, guided=10, log=False, **settings)  # type: ignore[arg-type]
    assert own[-1]["unfinished"] >= 5
    assert guided[-1]["unfinished"] == 0
    assert guided[-1]["td_error"] > 0
    assert guided[-1]["decisions_per_game"] < 2000


def test_warming_up_loads_every_compiled_function_the_search_calls() -> None:
    # A search with a network calls both; a move of the variant's own may not reach the last
    # chance node (kendall-1978's first decisions have throws still banked), and loading it
    # in a timed move cost a kendall-1978 master move 4.2 s of CPU.  A fresh interpreter, so
    # that no earlier test has loaded them already.
    code = (
        "from senet.ai import compiled_network, warm_up\n"
        "warm_up()\n"
        "print(len(compiled_network.values_a.signatures),"
        " len(compiled_network.last_chance.signatures))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert out.stdout.split() == ["1", "1"]
