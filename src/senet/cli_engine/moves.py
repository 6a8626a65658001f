"""``senet moves``: the legal moves of a position, as text for people and JSON for scripts.

A position in notation either carries a throw (the decision is due) or not (chance is next).
``--throw`` applies a throw to a position that has none, so one command answers "what can I do
with a 3 here?".  At a chance node without ``--throw`` it lists the throws with exact odds.
"""

from __future__ import annotations

import argparse
import json

from senet.engine import IllegalMove, Position
from senet.engine.position import seat_letter

from .common import (
    CommandError,
    EngineCommand,
    echo,
    get_position,
    next_text,
    outcome_text,
    render_board,
)

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


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--position",
        dest="position_text",
        metavar="POSITION",
        required=True,
        help='A position in notation, e.g. "standard ABABABABAB/........../.......... A 3".',
    )
    parser.add_argument(
        "--throw",
        type=int,
        default=None,
        help="Apply this throw first (the position must have none).",
    )
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="Print JSON instead of text."
    )
    parser.add_argument(
        "--board",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="Draw the board (text output only; default: draw it).",
    )


def _moves(args: argparse.Namespace) -> None:
    """List the legal moves of a position (after --throw, if given), or the throws with their
    odds when a throw is due."""
    throw: int | None = args.throw
    position = get_position(args.position_text)
    if throw is not None:
        if position.throw and not position.is_chance():
            if throw != position.throw:
                raise CommandError(
                    f"the position already has the throw {position.throw}; drop --throw or the throw in the position"
                )
        else:
            try:
                position = position.apply_throw(throw)
            except IllegalMove as exc:
                raise CommandError(f"cannot apply --throw {throw}: {exc}") from None
    report = moves_report(position)
    if args.as_json:
        echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    if args.board:
        echo(render_board(position))
        echo()
    echo(f"position: {report['position']}")
    if "outcome" in report:
        outcome = position.outcome()
        if outcome is None:
            raise RuntimeError("the report has an outcome, the position none")
        echo(f"game over: {outcome_text(outcome, position.variant)}")
    elif "chance" in report:
        echo(f"chance: {next_text(position)}")
        for item in report["chance"]:
            echo(f"  ({item['throw']})  {item['probability']:>5}  {item['p']:.4f}")
    else:
        echo(f"decider: {report['decider']}  ({next_text(position)})")
        for index, (move, item) in enumerate(zip(position.legal_moves(), report["moves"]), 1):
            echo(f"  {index:>2}. {position.move_text(move):<8} -> {item['result']}")


moves_command = EngineCommand(
    "moves", "Legal moves of a position, or the odds of the next throw.", _arguments, _moves
)
