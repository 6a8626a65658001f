"""``senet moves``: the legal moves of a position, as text for people and JSON for scripts.

A position in notation either carries a throw (the decision is due) or not (chance is next).
``--throw`` applies a throw to a position that has none, so one command answers "what can I do
with a 3 here?".  At a chance node without ``--throw`` it lists the throws with exact odds.
"""

from __future__ import annotations

import json

import click

from senet.engine import IllegalMove, Position
from senet.engine.position import seat_letter

from .common import get_position, next_text, outcome_text, render_board

__all__ = ["moves_command", "moves_report"]


def moves_report(position: Position) -> dict:
    """The JSON-able answer for ``position``: its moves with the position after each, or the
    chance outcomes, or the outcome of a finished game."""
    decider = position.decider
    report: dict = {
        "position": position.fen(),
        "decider": None if decider is None else seat_letter(decider),
    }
    outcome = position.outcome()
    if outcome is not None:
        report["moves"] = []
        report["outcome"] = {
            "result": outcome.result,
            "score": list(outcome.score),
            "reason": outcome.reason,
        }
        return report
    if position.is_chance():
        report["chance"] = [
            {"throw": value, "probability": f"{p.numerator}/{p.denominator}", "p": float(p)}
            for value, p in position.chance_outcomes()
        ]
        return report
    report["moves"] = [
        {
            "move": move.text(),
            "capture": position.is_capture(move),
            "result": position.apply_unchecked(move).fen(),
        }
        for move in position.legal_moves()
    ]
    return report


@click.command("moves", short_help="Legal moves of a position, or the odds of the next throw.")
@click.option(
    "--position",
    "position_text",
    required=True,
    help='A position in notation, e.g. "standard ABABABABAB/........../.......... A 3".',
)
@click.option(
    "--throw",
    "throw",
    type=int,
    default=None,
    help="Apply this throw first (the position must have none).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option(
    "--board/--no-board", default=True, show_default=True, help="Draw the board (text output only)."
)
def moves_command(position_text: str, throw: int | None, as_json: bool, board: bool) -> None:
    """List the legal moves of a position (after --throw, if given), or the throws with their
    odds when a throw is due."""
    position = get_position(position_text)
    if throw is not None:
        if position.throw and not position.is_chance():
            if throw != position.throw:
                raise click.ClickException(
                    f"the position already has the throw {position.throw}; drop --throw or the throw in the position"
                )
        else:
            try:
                position = position.apply_throw(throw)
            except IllegalMove as exc:
                raise click.ClickException(f"cannot apply --throw {throw}: {exc}") from None
    report = moves_report(position)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    if board:
        click.echo(render_board(position))
        click.echo()
    click.echo(f"position: {report['position']}")
    if "outcome" in report:
        outcome = position.outcome()
        assert outcome is not None
        click.echo(f"game over: {outcome_text(outcome, position.variant)}")
    elif "chance" in report:
        click.echo(f"chance: {next_text(position)}")
        for item in report["chance"]:
            click.echo(f"  ({item['throw']})  {item['probability']:>5}  {item['p']:.4f}")
    else:
        click.echo(f"decider: {report['decider']}  ({next_text(position)})")
        for index, (move, item) in enumerate(zip(position.legal_moves(), report["moves"]), 1):
            click.echo(f"  {index:>2}. {position.move_text(move):<8} -> {item['result']}")
