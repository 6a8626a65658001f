"""``senet stats``: many games on the compiled simulator, every figure with its 95 % interval.

With the shipped seed and number of games it prints the figures the site shows (the data files
of :mod:`senet.sim.dataset`); game *i* of a run always gets the same throws, so the result does
not depend on ``--jobs``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from senet.compiled.events import EVENTS
from senet.engine import find_variant
from senet.engine.variants import UnknownVariant

from .dataset import SEED, plan_for
from .runner import PLAYERS, player_code, run
from .stats import summarize

__all__ = ["stats", "COMMANDS"]


def _players(text: str) -> tuple[str, str]:
    names = [name.strip().lower() for name in text.split(",")]
    if len(names) == 1:
        names *= 2
    if len(names) != 2 or not all(names):
        raise click.BadParameter(f"one player or two separated by a comma, not {text!r}")
    for name in names:
        try:
            player_code(name)
        except ValueError:
            raise click.BadParameter(
                f"{name!r} does not run in the compiled simulator; it runs: "
                f"{', '.join(PLAYERS)} (the expert is senet.ai's 'expert' level)"
            ) from None
    return names[0], names[1]


def _pct(fig: dict[str, Any]) -> str:
    lo, hi = fig["ci95"]
    return f"{100 * fig['share']:.2f}%  (95% {100 * lo:.2f}–{100 * hi:.2f}%)  [{fig['count']:,}]"


def _mean(fig: dict[str, Any]) -> str:
    lo, hi = fig["ci95"]
    return f"{fig['mean']:.3f}  (95% {lo:.3f}–{hi:.3f})"


def print_table(figures: dict[str, Any]) -> None:
    """The figures as text, one per line."""
    v = find_variant(figures["variant"])
    echo = click.echo
    echo(
        f"variant: {v.name}   games: {figures['games']:,}   seed: {figures['seed']}   "
        f"players: A {figures['players']['A']}, B {figures['players']['B']}"
    )
    echo(f"first player (A) wins   {_pct(figures['first_player'])}")
    echo(f"second player (B) wins  {_pct(figures['second_player'])}")
    if figures["draws"]["count"] or v.scoring == "points":
        echo(f"draws                   {_pct(figures['draws'])}")
    if figures["stopped"]:
        echo(f"stopped (too long)      {figures['stopped']:,}")
    for key, label in (("turns", "turns"), ("decisions", "decisions")):
        fig = figures[key]
        echo(
            f"length in {label:<10}   mean {_mean(fig)}   median {fig['median']}   "
            f"10%-90% {fig['p10']}-{fig['p90']}"
        )
    echo("rules fired per game (mean, 95% interval):")
    for name in EVENTS:
        if name in figures["events"]:
            echo(f"  {name:<14} {_mean(figures['events'][name])}")
    echo(
        f"Houses visited by the loser's last piece (share of {figures['decided']:,} decided games):"
    )
    for sq, fig in figures["last_piece_houses"].items():
        echo(f"  {sq:>2} {v.houses[int(sq)].name('en'):<28} {_pct(fig)}")


@click.command("stats", short_help="Simulate many games: first-player share, length, rules fired.")
@click.argument("variant")
@click.option(
    "--games", type=click.IntRange(min=1), default=100_000, show_default=True, help="Games."
)
@click.option(
    "--players",
    default="random",
    show_default=True,
    help="random, greedy or expert (senet.ai's expert level); one for both seats or A,B.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Processes (0: every core).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=(1 << 63) - 1),
    default=SEED,
    show_default=True,
    help="Seed of the run (the shipped figures use the default).",
)
@click.option(
    "--max-decisions",
    type=click.IntRange(min=1),
    default=None,
    help="Stop a game after this many decisions (counted as stopped); default: as the shipped "
    "figures of the variant.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the length distribution (turns) as an SVG chart to this file.",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
def stats(
    variant: str,
    games: int,
    players: str,
    jobs: int,
    seed: int,
    max_decisions: int | None,
    as_json: bool,
    plot: str | None,
    progress: bool | None,
) -> None:
    """Play GAMES games of VARIANT on the compiled simulator and print every figure with its
    95 % interval: the first player's share of wins (and draws), game length in turns and in
    decisions, how often each rule fires, and the Houses visited by the loser's last piece."""
    try:
        v = find_variant(variant)
    except UnknownVariant as exc:
        raise click.BadParameter(str(exc), param_hint="VARIANT") from None
    names = _players(players)
    codes = (player_code(names[0]), player_code(names[1]))
    cap = max_decisions or plan_for(v.name).max_decisions
    show = sys.stderr.isatty() if progress is None else progress
    if show:
        with click.progressbar(length=games, label="games", file=sys.stderr) as bar:
            tally = run(v, games, seed, codes, jobs, progress=bar.update, max_decisions=cap)
    else:
        tally = run(v, games, seed, codes, jobs, max_decisions=cap)
    figures = summarize(v, tally, seed, names)
    figures["max_decisions"] = cap
    if plot:
        from .charts import length_chart, standalone

        svg = length_chart(
            figures["turns"],
            f"{v.title('en')}: game length in turns ({games:,} games, seed {seed})",
            "turns",
            "of games",
            f"Histogram of turns per game; median {figures['turns']['median']}.",
        )
        with open(plot, "w", encoding="utf-8") as handle:
            handle.write(standalone(svg))
    if as_json:
        click.echo(json.dumps(figures, indent=1))
    else:
        print_table(figures)


COMMANDS = [stats]
