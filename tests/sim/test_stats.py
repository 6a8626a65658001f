"""Figures and intervals of a run, and the alternative readings they are compared with."""

from __future__ import annotations

import math

import pytest

from senet.engine import find_variant
from senet.engine.rulebook import RULEBOOKS
from senet.engine.rules import tables_for
from senet.sim.alternatives import ALTERNATIVES
from senet.sim.runner import run
from senet.sim.stats import mean_interval, summarize, wilson


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and 0 < wilson(0, 20)[1] < 0.2
    assert wilson(20, 20)[1] == 1.0


def test_mean_interval_from_sums() -> None:
    values = [3, 5, 7, 9]
    fig = mean_interval(sum(values), sum(v * v for v in values), len(values))
    sd = math.sqrt(sum((v - 6) ** 2 for v in values) / 3)
    assert fig["mean"] == 6
    assert fig["ci95"][1] - 6 == pytest.approx(1.959963984540054 * sd / 2)
    constant = mean_interval(40, 400, 4)
    assert constant["ci95"] == [10.0, 10.0]


@pytest.mark.parametrize("name", ["bell", "adelaida"])
def test_summary_is_consistent(name: str) -> None:
    v = find_variant(name)
    tally = run(v, 3000, 4)
    fig = summarize(v, tally, 4, ("random", "random"))
    shares = fig["first_player"]["count"] + fig["second_player"]["count"] + fig["draws"]["count"]
    assert shares + fig["stopped"] == 3000
    assert sum(fig["turns"]["hist"]["counts"]) == 3000
    assert fig["turns"]["p10"] <= fig["turns"]["median"] <= fig["turns"]["p90"]
    lo, hi = fig["turns"]["ci95"]
    assert lo < fig["turns"]["mean"] < hi
    assert fig["decisions"]["mean"] >= fig["turns"]["mean"]
    assert set(fig["last_piece_houses"]) == {str(sq) for sq in v.houses}
    if name == "bell":
        assert fig["draws"]["count"] > 0 and "capture" in fig["events"]
        assert fig["decisions"]["mean"] == fig["turns"]["mean"]  # no extra throws in Bell
    else:
        assert {"ba", "fate", "drown", "revive", "net_skip"} <= set(fig["events"])


@pytest.mark.parametrize("alt", ALTERNATIVES, ids=lambda a: f"{a.variant}~{a.key}")
def test_each_alternative_is_a_decision_of_the_rulebook_and_changes_the_rules(alt) -> None:
    assert alt.key in {d.key for d in RULEBOOKS[alt.variant].decisions}
    base, other = tables_for(find_variant(alt.variant)), tables_for(alt.build())
    fields = [f for f in base.__slots__ if f not in ("variant", "moves")]
    assert any(getattr(base, f) != getattr(other, f) for f in fields), alt.key
