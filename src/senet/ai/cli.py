"""Command-line tools of the computer opponent: ``senet solve`` and ``senet review``.

:mod:`senet.cli` collects :data:`COMMANDS` from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from senet.engine import NotationError, Scoring, find_variant, parse_position
from senet.engine.record import parse_record

from .review import format_review, review_game
from .solver import DEFAULT_MAX_STATES, TooLarge, for_seat, solve_many

__all__ = ["COMMANDS", "solve", "review"]


def _read_position(variant: str | None, text: str):  # -> Position
    text = " ".join(text.split())
    first = text.split(" ", 1)[0]
    try:
        find_variant(first)
        has_variant = True
    except KeyError:
        has_variant = False
    if not has_variant:
        if not variant:
            raise click.BadParameter("give --variant or start the position with the variant's name")
        text = f"{find_variant(variant).name} {text}"
    try:
        position = parse_position(text)
    except NotationError as exc:
        raise click.BadParameter(str(exc), param_hint="--position") from None
    if variant and find_variant(variant).name != position.variant.name:
        raise click.BadParameter(f"the position is of {position.variant.name}, not {variant}")
    return position


@click.command()
@click.option("--variant", "-v", help="Variant name (optional when the position starts with it).")
@click.option(
    "--position", "-p", "position_text", required=True, help="Position in one-line notation."
)
@click.option(
    "--max-states",
    default=DEFAULT_MAX_STATES,
    show_default=True,
    help="Give up beyond this many positions.",
)
def solve(variant: str | None, position_text: str, max_states: int) -> None:
    """Exact value of an endgame position and of every legal move (optimal play on both sides)."""
    position = _read_position(variant, position_text)
    if position.is_over():
        raise click.ClickException("the game is over in this position")
    try:
        solution = solve_many([position], max_states=max_states)
    except TooLarge as exc:
        raise click.ClickException(
            f"not a solvable endgame: {exc} (raise --max-states to try harder)"
        ) from None
    v = position.variant
    unit = "expected result (win 1, draw 1/2)" if v.scoring is Scoring.POINTS else "winning chance"
    click.echo(f"{len(solution.index)} positions solved in {solution.iterations} sweeps")
    value_a = solution.value(position)
    if position.is_chance():
        click.echo(f"a throw is due; {unit} of A: {value_a:.6f}, of B: {1 - value_a:.6f}")
        for n, p in position.chance_outcomes():
            click.echo(f"  throw {n} (p={p}): A {solution.value(position.apply_throw(n)):.6f}")
        return
    seat = position.decider
    assert seat is not None
    click.echo(
        f"{'AB'[seat]} to decide; {unit} of {'AB'[seat]} with best play: {for_seat(value_a, seat):.6f}"
    )
    best = set(solution.best_moves(position))
    for move, va in sorted(solution.move_values(position), key=lambda mv: -for_seat(mv[1], seat)):
        mark = "  best" if move in best else ""
        click.echo(f"  {position.move_text(move):>9}  {for_seat(va, seat):.6f}{mark}")


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--level", default="master", show_default=True, help="The level that judges the moves."
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per decision.")
def review(file: Path, level: str, as_json: bool) -> None:
    """Judge every move of a game record: chances before and after, best move, loss."""
    try:
        record = parse_record(file.read_text(encoding="utf-8"))
    except NotationError as exc:
        raise click.ClickException(str(exc)) from None
    rows = review_game(record, level)
    if as_json:
        click.echo(json.dumps([row.as_dict() for row in rows], indent=1))
    else:
        click.echo(format_review(rows))


COMMANDS = [solve, review]
