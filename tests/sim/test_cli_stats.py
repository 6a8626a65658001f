"""``senet stats``: the figures of a run with their intervals, reproducible from the seed; the
shipped figures are reproduced from theirs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from senet.engine import find_variant
from senet.sim import dataset
from senet.sim.cli import stats
from senet.sim.dataset import MAX_DECISIONS, SEED, load
from senet.sim.runner import run


def invoke(*args: str):
    return CliRunner().invoke(stats, list(args))


@pytest.mark.parametrize(
    ("name", "part", "games"),
    [
        ("kendall", "random", 10_000),
        ("bell", "random", 10_000),
        ("jequier", "computer", 1_000),
        ("kendall-1978", "random", 10_000),
        ("kendall-1978", "computer", 1_000),
    ],
)
def test_stats_reproduces_a_shipped_figure_from_its_seed(name: str, part: str, games: int) -> None:
    shipped = load(name)
    assert shipped is not None
    shipped_run = shipped[part]
    assert shipped_run["seed"] == SEED
    expected = shipped_run["checkpoints"][str(games)]  # A's wins in the first games of the run
    players = shipped_run["players"]
    result = invoke(
        name,
        "--games",
        str(games),
        "--seed",
        str(SEED),
        "--players",
        f"{players['A']},{players['B']}",
        "--json",
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == games and figures["seed"] == SEED
    # runs written before the cap was recorded used the default one
    assert figures["max_decisions"] == shipped_run.get("max_decisions", MAX_DECISIONS)
    assert figures["first_player"]["count"] == expected
    lo, hi = figures["first_player"]["ci95"]
    assert lo < figures["first_player"]["share"] < hi
    # and the shipped full-run share lies in a plausible band around it
    assert abs(shipped_run["first_player"]["share"] - figures["first_player"]["share"]) < 0.06


def test_stats_table_names_every_figure_with_its_interval(tmp_path) -> None:
    plot = tmp_path / "turns.svg"
    result = invoke("adelaida", "--games", "2000", "--seed", "7", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "variant: adelaida   games: 2,000   seed: 7" in out
    assert "first player (A) wins" in out and "95%" in out
    for rule in ("swap", "ba", "fate", "drown", "revive", "rebirth"):
        assert f"  {rule} " in out, rule
    assert "House of Ba" in out
    svg = plot.read_text()
    assert svg.startswith("<?xml") and "<svg" in svg and "chart-bar" in svg


def test_stats_runs_the_expert_and_refuses_players_it_cannot_run() -> None:
    ok = invoke("standard", "--games", "40", "--players", "expert,random", "--json")
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["players"] == {"A": "expert", "B": "random"}
    bad = invoke("standard", "--games", "10", "--players", "master")
    assert bad.exit_code != 0 and "does not run in the compiled simulator" in bad.output
    unknown = invoke("nonesuch", "--games", "10")
    assert unknown.exit_code != 0 and "unknown variant" in unknown.output


@pytest.mark.slow  # starts worker processes
def test_totals_do_not_depend_on_the_number_of_processes() -> None:
    v = find_variant("kendall")
    one = run(v, 3000, 11, jobs=1, chunk=500)
    two = run(v, 3000, 11, jobs=2, chunk=500)
    assert one.games == two.games == 3000
    for name in ("results", "ev_sum", "ev_sq", "hist_turns", "hist_decisions", "visits"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_regenerating_one_alternative_keeps_the_other_readings(tmp_path) -> None:
    """A long regeneration can go one alternative reading at a time: the reading named is
    computed anew, the others and the other parts stay as they were, in the rulebook's order."""
    shipped = dataset.load("bell")
    assert shipped is not None
    (tmp_path / "bell.json").write_text(json.dumps(shipped))
    keys = list(shipped["alternatives"])
    chosen = keys[1]
    argv = ["--variant", "bell", "--part", "alternatives", "--alternative", chosen]
    assert dataset.main([*argv, "--alt-games", "300", "--data", str(tmp_path)]) == 0
    written = json.loads((tmp_path / "bell.json").read_text())
    assert list(written["alternatives"]) == keys
    assert written["alternatives"][chosen]["figures"]["games"] == 300
    for key in keys:
        if key != chosen:
            assert written["alternatives"][key] == shipped["alternatives"][key]
    assert written["random"] == shipped["random"]
    with pytest.raises(ValueError, match="no alternative reading nonsense"):
        dataset.main([*argv[:4], "--alternative", "nonsense", "--data", str(tmp_path)])
