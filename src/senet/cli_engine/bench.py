"""``senet bench``: how fast the rules engine plays and how long the computer thinks.

``senet bench engine`` measures random playouts, decisions and legal-move generation per CPU
second (:mod:`senet.sim.speed`); ``senet bench moves`` times a level's moves on positions from
every phase of the game and says whether the master's targets (median under 300 ms, none over
1 s) are met (:mod:`senet.ai.timing`).  The longer benchmarks (strength ladders, accuracy
against exact solutions, the server under load) are scripts under ``bench/`` in a checkout.

:mod:`senet.cli` collects :data:`COMMANDS` from here.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import click

from senet.ai import LEVELS, Level, find_level, search, timing, warm_up
from senet.ai.timing import crowded, sample, summarise, time_move
from senet.engine import VARIANTS, UnknownVariant, find_variant
from senet.sim.speed import COMPILED_TARGETS, NO_RANDOM_PLAYOUTS, measure

from .common import format_table

__all__ = ["COMMANDS", "bench"]


def _variants(names: Sequence[str]) -> list[str]:
    """The variants named (by name or alias; an unknown one is a one-line error), or all."""
    try:
        return [find_variant(name).name for name in names] or list(VARIANTS)
    except UnknownVariant as exc:
        raise click.ClickException(str(exc)) from None


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _ratio(ours: float | None, theirs: float | None) -> str:
    return f"{ours / theirs:.1f}x" if ours and theirs else "—"


def _load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""


@click.group()
def bench() -> None:
    """Measure the engine's speed and the computer's time per move on this machine."""


@bench.command()
@click.option(
    "--variant",
    "-v",
    "variants",
    multiple=True,
    help="Repeatable; default: every variant whose random games end (the others are named).",
)
@click.option(
    "--seconds", type=click.FloatRange(min=0.01), default=2.0, show_default=True,
    help="CPU seconds per variant.",
)  # fmt: skip
@click.option("--seed", type=int, default=2026, show_default=True, help="Throws, moves, sample.")
@click.option("--no-compiled", is_flag=True, help="Leave out the compiled simulator.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def engine(
    variants: tuple[str, ...], seconds: float, seed: int, no_compiled: bool, as_json: bool
) -> None:
    """Random playouts, decisions and legal-move generation per CPU second, per variant:
    through the Position API, on the raw state, and on the compiled simulator."""
    names = _variants(variants)
    if not variants:
        for name, why in NO_RANDOM_PLAYOUTS.items():
            click.echo(f"{name}: not measured unless named: {why}", err=True)
        names = [n for n in names if n not in NO_RANDOM_PLAYOUTS]
    sample_size = max(50, min(2000, int(seconds * 1000)))
    rows: list[dict[str, Any]] = []
    for name in names:
        rows.append(
            measure(
                name,
                seconds,
                seed,
                sample=sample_size,
                compiled=not no_compiled,
                on_skip=lambda why: click.echo(why, err=True),
            )
        )
    if as_json:
        click.echo(json.dumps({"seconds": seconds, "rows": rows}, indent=2))
        return
    head: tuple[str, ...] = (
        "variant", "playouts/s", "moves/s", "moves/game", "µs/legal", "raw po/s", "raw/API",
        "compiled po/s", "compiled/raw", "target",
    )  # fmt: skip
    table: list[tuple[str, ...]] = [head]
    for r in rows:
        compiled = r.get("compiled_playouts_per_s")
        target = COMPILED_TARGETS.get(r["variant"])
        verdict = (
            "—"
            if target is None or compiled is None
            else ("met" if compiled >= target else "NOT MET")
        )
        table.append(
            (
                r["variant"],
                _rate(r["playouts_per_s"]),
                _rate(r["moves_per_s"]),
                f"{r['moves_per_playout']:.0f}",
                f"{r['us_per_generation']:.2f}",
                _rate(r.get("raw_playouts_per_s")),
                _ratio(r.get("raw_playouts_per_s"), r["playouts_per_s"]),
                _rate(compiled),
                _ratio(compiled, r.get("raw_playouts_per_s")),
                f"{verdict} ({target:,.0f})" if target else verdict,
            )
        )
    click.echo(f"{seconds:g} CPU seconds per variant, {_load()}")
    click.echo(format_table(table))
    click.echo(
        "Per CPU second of this process; moves are decisions (passes included), not throws.\n"
        "playouts/s: through the Position API; raw: the same rules on the flat integer state;\n"
        "compiled: the Numba simulator on one core (with its statistics); ratios from this run.\n"
        "µs/legal: one legal-move generation, the median over a fixed sample of positions."
    )


@bench.command()
@click.option("--variant", "-v", "variants", multiple=True, help="Repeatable; default: all.")
@click.option(
    "--level",
    type=click.Choice([level.key for level in LEVELS]),
    default="master",
    show_default=True,
    help="The level timed.",
)
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
              help="Sampling games per variant.")  # fmt: skip
@click.option("--phases", type=click.IntRange(min=1), default=5, show_default=True,
              help="Decisions timed from each game, spread over its course.")  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--cpu-clock",
    is_flag=True,
    help="The search's budget counts this process's CPU time, leaving the machine's load out.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def moves(
    variants: tuple[str, ...],
    level: str,
    games: int,
    phases: int,
    seed: int,
    cpu_clock: bool,
    as_json: bool,
) -> None:
    """A level's time per move on positions from every phase of seeded games, each timed from
    empty searchers (the most work a move can cost); exits with 1 when a target is missed."""
    chosen = find_level(level)
    wall_clock = search.now
    if cpu_clock:
        search.now = time.process_time
    try:
        out, missed = _time_variants(
            _variants(variants), chosen, games, phases, seed, cpu_clock, as_json
        )
    finally:
        search.now = wall_clock
    if as_json:
        click.echo(json.dumps({"level": chosen.key, "cpu_clock": cpu_clock, "rows": out}, indent=2))
    if missed:
        sys.exit(1)


def _time_variants(
    names: list[str], chosen: Level, games: int, phases: int, seed: int, cpu_clock: bool,
    as_json: bool,
) -> tuple[list[dict[str, Any]], bool]:  # fmt: skip
    """Time ``chosen`` on each variant's sample, printing each variant's lines unless
    ``as_json``; the rows and whether any target was missed."""
    warm_up()  # compiled code loaded once, not counted as a move's time
    out: list[dict[str, Any]] = []
    missed = False
    for name in names:
        samples = sample(name, games, phases, seed)
        if not samples:
            continue
        rng = random.Random(seed)
        time_move(samples[0].position, chosen, rng)  # loads the variant's tables and evaluation
        rows = [(s, *time_move(s.position, chosen, rng)) for s in samples]
        whole, busy = summarise(rows), summarise(crowded(rows))
        median_ok, max_ok = whole.met(cpu=cpu_clock)
        missed |= not (median_ok and max_ok)
        out.append(
            {"variant": name, "all": asdict(whole), "crowded": asdict(busy),
             "median_met": median_ok, "max_met": max_ok}
        )  # fmt: skip
        if not as_json:
            click.echo(f"{name}: {chosen.key}, {len(rows)} positions")
            click.echo(whole.line("all"))
            click.echo(busy.line("crowded 1/4"))
            click.echo(
                f"  median under {timing.MEDIAN_TARGET * 1000:.0f} ms: {'met' if median_ok else 'NOT MET'};"
                f" none over {timing.MAX_TARGET:g} s: {'met' if max_ok else 'NOT MET'}"
                f" ({'CPU' if cpu_clock else 'wall'} clock, {_load()})"
            )
    return out, missed


COMMANDS = [bench]
