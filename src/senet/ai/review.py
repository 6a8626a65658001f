"""Review of a game: for every decision, the winning chance before and after, the best move and
the loss.

The judge is the master level (:mod:`senet.ai`): exact values from the endgame solver where the
rest of the game is small enough, its expectiminimax search elsewhere.  Chances are the
*mover's* expected result (P(win), plus ½·P(draw) in Bell); ``chance_a_*`` give the same
numbers from seat A's side, for the site's winning-chance graph.  "Before" is the value of the
position with the throw known, i.e. the value of the best move; the loss is best minus played,
never negative.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from senet.engine import Game, Move, Position, Throw
from senet.engine.record import GameRecord, parse_record

from . import Level, find_level, searcher_for
from .solver import for_seat

__all__ = ["ReviewRow", "review_game", "classify", "THRESHOLDS"]

#: Loss in winning chance from which a move is an inaccuracy, a mistake, a blunder.
THRESHOLDS = (("blunder", 0.10), ("mistake", 0.04), ("inaccuracy", 0.015))


def classify(loss: float) -> str:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``""`` for a loss in winning chance."""
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return ""


@dataclass(frozen=True)
class ReviewRow:
    """One decision of the game, judged."""

    ply: int  # decisions counted from 1 (throws are not plies)
    mover: int  # the seat that decided (may differ from the seat on turn)
    position: str  # the position notation before the decision
    move: str
    best: str
    before: float  # mover's chance with best play from here
    after: float  # mover's chance after the move played
    loss: float
    choices: int  # number of legal moves
    exact: bool  # values come from the endgame solver
    verdict: str  # see :func:`classify`

    @property
    def chance_a_before(self) -> float:
        return for_seat(self.before, self.mover)

    @property
    def chance_a_after(self) -> float:
        return for_seat(self.after, self.mover)

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["chance_a_before"] = self.chance_a_before
        data["chance_a_after"] = self.chance_a_after
        return data


Source = GameRecord | Game | str | Iterable[tuple[Position, object]]


def _pairs(source: Source) -> list[tuple[Position, Move]]:
    """The decisions of a game: (position, move) for every move, throws left out."""
    if isinstance(source, str):
        source = parse_record(source)
    if isinstance(source, GameRecord):
        source = source.replay()
    return [
        (pos, action)
        for pos, action in source
        if isinstance(action, Move) and not isinstance(action, Throw)
    ]


def review_game(source: Source, level: Level | str = "master") -> list[ReviewRow]:
    """Judge every decision of a game (a record, its text, a :class:`Game`, or (position,
    action) pairs as a Game iterates them)."""
    judge = find_level(level)
    rows: list[ReviewRow] = []
    for ply, (pos, move) in enumerate(_pairs(source), start=1):
        mover = pos.decider
        if mover is None:
            raise ValueError(f"ply {ply}: {move} was played where no decision is due")
        legal = pos.legal_moves()
        searcher = searcher_for(pos, judge)
        exact_values = searcher.exact_move_values(pos)
        exact = exact_values is not None
        values = exact_values if exact_values is not None else searcher.move_values(pos)
        scored = [(m, for_seat(v, mover)) for m, v in values]
        best_move, best = max(scored, key=lambda mv: mv[1])
        played = next((v for m, v in scored if m == move), None)
        if played is None:
            raise ValueError(f"ply {ply}: {move} is not legal in {pos.fen()}")
        loss = max(0.0, best - played)
        rows.append(
            ReviewRow(
                ply,
                mover,
                pos.fen(),
                pos.move_text(move),
                pos.move_text(best_move),
                best,
                played,
                loss,
                len(legal),
                exact,
                classify(loss),
            )
        )
    return rows


def format_review(rows: list[ReviewRow]) -> str:
    """A plain-text table of the review, one decision a line, mistakes marked."""
    lines = [
        f"{'ply':>4} {'seat':4} {'move':>9} {'best':>9} {'before':>7} {'after':>7} {'loss':>7}  verdict"
    ]
    for r in rows:
        mark = r.verdict + (" (exact)" if r.exact else "")
        lines.append(
            f"{r.ply:>4} {'AB'[r.mover]:4} {r.move:>9} {r.best:>9} {r.before:7.1%} {r.after:7.1%} "
            f"{r.loss:7.3f}  {mark}"
        )
    total = {seat: sum(r.loss for r in rows if r.mover == seat) for seat in (0, 1)}
    lines.append(f"total loss: A {total[0]:.3f}, B {total[1]:.3f}")
    return "\n".join(lines)
