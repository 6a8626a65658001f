""" "How the game plays": the simulated figures of each variant on its page, and the page that
puts the variants side by side (``/compare``).

Everything shown comes from the statistics shipped with the package (:mod:`senet.sim.dataset`),
drawn as SVG on the server (:mod:`senet.sim.charts`); the figures name their number of games
and seed, so ``senet stats`` reproduces them.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from fastapi import APIRouter, Request

from senet.engine import VARIANTS, find_variant
from senet.engine.rulebook import RULEBOOKS
from senet.sim import charts
from senet.sim.charts import Bar
from senet.sim.dataset import load

from ..common import render
from ..deps import Lang
from ..i18n import decimal, number, translator

__all__ = ["pages", "how_it_plays", "compared", "basis_of"]

pages = APIRouter(include_in_schema=False)


def _simulated() -> list[tuple[str, dict[str, Any]]]:
    """Every variant with shipped statistics, in the variants' order, with its figures."""
    return [(name, data) for name in VARIANTS if (data := load(name)) is not None]


#: Rule events shown per variant, in this order (those that never fire there are left out).
EVENT_ORDER = (
    "swap",
    "capture",
    "attack_back",
    "backward",
    "pass",
    "blocked",
    "extra_throw",
    "skipped_turn",
    "rebirth",
    "net_skip",
    "net_cancel",
    "ba",
    "fate",
    "fate_forward",
    "fate_back",
    "fate_lost",
    "drown",
    "revive",
    "send_back",
    "water",
    "water_attack",
    "water_risk",
    "water_return",
    "water_saved",
    "water_lost",
    "house_on_swap",
    "early_end",
)


def _pct(x: float, lang: str, digits: int = 1) -> str:
    return charts.percent_text(x, _decimal(lang), digits)


def _digits(fig: dict[str, Any]) -> int:
    """Decimals that show a share's interval: two where it is narrower than 0.4 points (ten
    million games give ±0.03 points, which one decimal would write as 49.2%–49.2%)."""
    lo, hi = fig["ci95"]
    return 2 if hi - lo < 0.004 else 1


def _share(fig: dict[str, Any], lang: str) -> str:
    return _pct(fig["share"], lang, _digits(fig))


def _interval(fig: dict[str, Any], lang: str) -> str:
    lo, hi = fig["ci95"]
    digits = _digits(fig)
    return f"{_pct(lo, lang, digits)}–{_pct(hi, lang, digits)}"


def _mean(fig: dict[str, Any], lang: str, digits: int = 1) -> str:
    """A mean with its interval, one decimal more where the interval would not show."""
    lo, hi = fig["ci95"]
    if hi - lo < 2 * 10.0**-digits:
        digits += 1
    mean, low, high = (decimal(x, digits, lang) for x in (fig["mean"], lo, hi))
    return f"{mean} ({low}–{high})"


def _median(length: dict[str, Any], lang: str) -> str:
    """The median length, or "≥ cap" where it falls in the histogram's last bin."""
    cap = length.get("cap")
    if cap is not None and length["median"] >= cap:
        return f"≥ {number(cap, lang)}"
    return number(length["median"], lang)


def _run_row(fig: dict[str, Any], lang: str, no_draws: str = "") -> dict[str, str]:
    """One simulated run as a table row shows it: its games, the first player's share with its
    interval, draws (``no_draws`` where there were none), turns, decisions and median."""
    return {
        "games": number(fig["games"], lang),
        "first": _share(fig["first_player"], lang),
        "first_ci": _interval(fig["first_player"], lang),
        "draws": _share(fig["draws"], lang) if fig["draws"]["count"] else no_draws,
        "turns": _mean(fig["turns"], lang),
        "decisions": _mean(fig["decisions"], lang),
        "median": _median(fig["turns"], lang),
    }


def _decimal(lang: str) -> charts.Decimal:
    """The charts' writer of numbers in the page's language."""
    return lambda value, digits: decimal(value, digits, lang)


def basis_of(data: dict[str, Any]) -> str:
    """The run a variant's charts are drawn from: "random", or "computer" where random games
    do not come to an end in useful time (see senet.sim.dataset.PLANS)."""
    return str(data.get("basis", "random"))


def _first_player_bars(lang: str, strong: str | None) -> list[Bar]:
    t = translator(lang)
    bars = []
    for name, data in _simulated():
        fig = data["random"]["first_player"]
        lo, hi = fig["ci95"]
        bars.append(
            Bar(
                find_variant(name).title(lang),
                fig["share"],
                lo,
                hi,
                strong=name == strong,
                note=t(
                    "stats.games_note",
                    n=data["random"]["games"],
                    games=number(data["random"]["games"], lang),
                ),
            )
        )
    return bars


def _first_player_chart(lang: str, strong: str | None) -> str:
    t = translator(lang)
    bars = _first_player_bars(lang, strong)
    # 40–60% shows the usual small edges; a variant whose first player wins far more often
    # (jequier's random games) widens the scale, so that no bar is cut at its end
    reach = max([0.1] + [abs(x - 0.5) for b in bars for x in (b.low, b.high)])
    half = math.ceil(round(reach * 20, 9)) / 20  # to the next 5 points
    return charts.share_chart(
        bars,
        t("stats.first_chart"),
        t("stats.first_chart_desc"),
        scale=(0.5 - half, 0.5 + half),
        reference=0.5,
        decimal=_decimal(lang),
    )


@cache
def how_it_plays(name: str, lang: str) -> dict[str, Any] | None:
    """Everything the variant page's section shows, or None when no figures are shipped."""
    data = load(name)
    if data is None:
        return None
    t = translator(lang)
    v = find_variant(name)
    rnd, ai = data["random"], data["computer"]
    basis = basis_of(data)
    base = data[basis]
    # texts that name the games the charts come from have a "_computer" form
    by = "" if basis == "random" else "_computer"
    out: dict[str, Any] = {"random": rnd, "computer": ai, "basis": basis}
    out["captions"] = {
        key: t(f"stats.{key}{by}")
        for key in ("turns_chart_caption", "decisions_chart_caption", "effect_caption")
    }
    # the command is notation: the page shows it as code after the words
    players = "" if basis == "random" else " --players expert"
    out["reproduce"] = t("stats.reproduce")
    out["reproduce_command"] = (
        f"senet stats {name}{players} --games {base['games']} --seed {base['seed']}"
    )
    out["basis_note"] = (
        t("stats.basis_computer", decisions=_mean(rnd["decisions"], lang, 0)) if by else ""
    )
    out["first"] = [
        {
            "who": t(f"stats.players_{key}"),
            "games_n": fig["games"],
            "seed": fig["seed"],
            **_run_row(fig, lang),
        }
        for key, fig in (("random", rnd), ("computer", ai))
    ]
    out["ours"] = out["first"][0 if basis == "random" else 1]
    out["has_draws"] = any(row["draws"] for row in out["first"])
    out["turns_chart"] = charts.length_chart(
        base["turns"],
        t("stats.turns_chart"),
        t("stats.turns_axis"),
        t("stats.of_games"),
        t(f"stats.turns_chart_desc{by}", median=number(base["turns"]["median"], lang)),
        decimal=_decimal(lang),
    )
    out["decisions_length_chart"] = charts.length_chart(
        base["decisions"],
        t("stats.decisions_chart"),
        t("stats.decisions_axis"),
        t("stats.of_games"),
        t(f"stats.decisions_chart_desc{by}", median=number(base["decisions"]["median"], lang)),
        decimal=_decimal(lang),
    )
    out["first_chart"] = _first_player_chart(lang, name)
    events = rnd["events"]
    out["events"] = [
        {
            "name": t(f"stats.event.{key}"),
            "random": _mean(events[key], lang, 2),
            "computer": _mean(ai["events"][key], lang, 2) if key in ai["events"] else "0",
        }
        for key in EVENT_ORDER
        if key in events
    ]
    houses = [
        Bar(
            f"{sq} {v.houses[int(sq)].name(lang)}",
            fig["share"],
            fig["ci95"][0],
            fig["ci95"][1],
        )
        for sq, fig in base["last_piece_houses"].items()
    ]
    out["houses_chart"] = charts.share_chart(
        houses,
        t("stats.houses_chart"),
        t(f"stats.houses_chart_desc{by}"),
        decimal=_decimal(lang),
    )
    questions = {d.key: d.question(lang) for d in RULEBOOKS[name].decisions}
    decisions = []
    paired = []
    for key, alt in data["alternatives"].items():
        fig = alt["figures"]
        decisions.append(
            {
                "key": key,
                "question": questions.get(key, key),
                "other": alt[lang] if lang in alt else alt["en"],
                "games": number(fig["games"], lang),
                "games_n": fig["games"],
                "first": _share(fig["first_player"], lang),
                "first_ci": _interval(fig["first_player"], lang),
                "turns": _mean(fig["turns"], lang),
            }
        )
        paired.append(
            (
                alt[lang] if lang in alt else alt["en"],
                Bar(t("stats.ours"), base["turns"]["mean"], *base["turns"]["ci95"]),
                Bar(t("stats.other"), fig["turns"]["mean"], *fig["turns"]["ci95"]),
            )
        )
    out["decisions"] = decisions
    out["effect_chart"] = (
        charts.paired_chart(
            paired,
            t("stats.effect_chart"),
            t("stats.effect_chart_desc"),
            t("stats.ours"),
            t("stats.other"),
            decimal=_decimal(lang),
        )
        if paired
        else ""
    )
    return out


def compared(lang: str) -> dict[str, Any]:
    """The variants side by side."""
    t = translator(lang)
    rows = []
    for name, data in _simulated():
        rnd, ai = data["random"], data["computer"]
        rows.append(
            {
                "name": name,
                "title": find_variant(name).title(lang),
                **_run_row(rnd, lang, no_draws="—"),
                "first_ai": _share(ai["first_player"], lang),
                "first_ai_ci": _interval(ai["first_player"], lang),
                "ai_turns": _mean(ai["turns"], lang),
            }
        )
    # a variant whose random games do not end in useful time stays off the length chart (its
    # mean would dwarf the others); the table above gives its figure
    length = [
        Bar(
            find_variant(name).title(lang),
            data["random"]["turns"]["mean"],
            *data["random"]["turns"]["ci95"],
        )
        for name, data in _simulated()
        if basis_of(data) == "random"
    ]
    left_out = [
        find_variant(name).title(lang) for name, data in _simulated() if basis_of(data) != "random"
    ]
    top = math.ceil(max((bar.high for bar in length), default=1.0) * 1.15 / 50) * 50
    return {
        "rows": rows,
        "first_chart": _first_player_chart(lang, None),
        "length_chart": charts.share_chart(
            length,
            t("stats.length_compare_chart"),
            t("stats.length_compare_desc"),
            scale=(0.0, top),
            percent=False,
            decimal=_decimal(lang),
        ),
        "left_out": t("stats.length_left_out", variants=", ".join(left_out)) if left_out else "",
    }


@pages.get("/compare")
async def compared_page(request: Request, lang: Lang) -> Any:
    return render(request, "compared.html", compared=compared(lang))
