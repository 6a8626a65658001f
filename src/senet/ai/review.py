"""Review of a game: for every decision, the winning chance before and after, the best move and
the loss.

The judge is the master's knowledge (:mod:`senet.ai`): exact values from the shipped endgame
tables or the solver where the rest of the game is small enough, elsewhere an expectiminimax
search of the master's evaluation to a fixed depth (:data:`REVIEW_DEPTH` decisions), not the
master's time budget: a review costs about a second of CPU for a long game instead of tens, and
gives the same figures on any machine under any load.  Against the master's own deeper search
its best move loses a few ten-thousandths of a winning chance on average and its verdicts agree
on nine decisions in ten or more (``bench/review_cost.py`` prints both for every variant).
A level can still be named to judge with its own search (``senet review --level``).  Chances are the
*mover's* expected result (P(win), plus ½·P(draw) in Bell); ``chance_a_*`` give the same
numbers from seat A's side, for the site's winning-chance graph.  "Before" is the value of the
position with the throw known, i.e. the value of the best move; the loss is best minus played,
never negative.

Luck is judged with the same values, as backgammon programs do: the luck of a throw is the
thrower's chance after it minus their chance before it (the average over every throw that could
have come).  The chance before a throw is the value of the move before it, which the review
computes anyway, so luck costs one more valuation a game (the start).  Where a seat throws
several times before it decides (Kendall's 1978 game throws all of a turn first) the throws are
judged together.  Summed over the game (:func:`account`), the luck of both seats plus the
chance their decisions lost equals the change in winning chance from the start to the last
decision — exactly where every value is exact; elsewhere a remainder shows how much the judge
revised its values as it looked again from nearer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from senet.engine import Game, Move, Position, Throw
from senet.engine.record import GameRecord, parse_record

from . import LEVELS, Level, evaluation_for, find_level, searcher_for
from .search import Searcher
from .solver import for_seat

__all__ = [
    "ReviewRow",
    "SeatAccount",
    "Account",
    "account",
    "review_game",
    "classify",
    "THRESHOLDS",
    "REVIEW_DEPTH",
    "review_searcher",
    "deeper_searcher",
    "review_move_values",
    "DEEPER_WHERE_SMALL",
]

#: Decisions searched by the review where no exact value reaches: every throw of both players
#: between them.  One more level costs 10 to 20 times as much (30 to 140 ms a decision).
REVIEW_DEPTH = 3

#: Variants whose decisions are small steps, searched one decision deeper (``REVIEW_DEPTH`` + 1)
#: wherever the review's search of the decision evaluated at most this many positions.  In
#: Piccione a throw is divided between pieces, so a turn is often two or three decisions, and
#: three decisions deep the review often sees little beyond the mover's own turn: on four expert
#: games its best move lost 0.0014 on average by the master's values (the master reaches four
#: to seven decisions there) and its verdicts agreed on 91% of decisions.  One decision deeper
#: everywhere gives 0.0006 and 95%, at 11 times the CPU (Piccione's evaluation is not
#: compiled); where the first search was small (about half the decisions), 0.0008 and 94% at
#: twice the CPU, about 3 s per 150 decisions.
DEEPER_WHERE_SMALL: dict[str, int] = {"piccione": 800}

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
    #: the luck of the throws since the decision before (from the thrower's side): the
    #: thrower's chance after them minus before them; 0.0 with no throw between; None in a
    #: review made before luck was judged
    luck: float | None = None
    thrower: int | None = None  # the seat that threw them (None: no throw)

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


def _decisions(source: Source) -> list[tuple[Position, Move, Position | None]]:
    """The decisions of a game: (position, move, the position before the first of the throws
    since the decision before, None when there was none) for every move."""
    if isinstance(source, str):
        source = parse_record(source)
    if isinstance(source, GameRecord):
        source = source.replay()
    out: list[tuple[Position, Move, Position | None]] = []
    first_throw: Position | None = None
    for pos, action in source:
        if isinstance(action, Throw):
            first_throw = first_throw or pos
        elif isinstance(action, Move):
            out.append((pos, action, first_throw))
            first_throw = None
    return out


def review_searcher(position: Position, depth: int = REVIEW_DEPTH) -> Searcher:
    """A fresh searcher of the review for the position's variant: the master's evaluation and
    exact play (tables, solving), searched ``depth`` decisions deep with no time budget."""
    master = LEVELS[-1]
    variant = position.variant
    return Searcher(
        evaluation_for(variant, master.model),
        depth,
        master.solve_states,
        whole_turns=variant.name in master.whole_turn_variants,
    )


def deeper_searcher(position: Position) -> Searcher | None:
    """The review's searcher one decision deeper, for a variant of :data:`DEEPER_WHERE_SMALL`
    (None elsewhere)."""
    if position.variant.name not in DEEPER_WHERE_SMALL:
        return None
    return review_searcher(position, REVIEW_DEPTH + 1)


def review_move_values(
    position: Position, searcher: Searcher, deeper: Searcher | None
) -> list[tuple[Move, float]]:
    """Every legal move with seat A's value after it by the review's search (where no exact
    value reaches): ``searcher``'s, or ``deeper``'s where ``searcher`` evaluated at most the
    variant's :data:`DEEPER_WHERE_SMALL` positions for it (a count, not a clock: the review
    stays the same on any machine)."""
    start = searcher.nodes
    values = searcher.move_values(position)
    if deeper is not None and searcher.nodes - start <= DEEPER_WHERE_SMALL[position.variant.name]:
        return deeper.move_values(position)
    return values


def review_game(source: Source, level: Level | str | None = None) -> list[ReviewRow]:
    """Judge every decision of a game (a record, its text, a :class:`Game`, or (position,
    action) pairs as a Game iterates them): by the review's own search
    (:func:`review_searcher`), or by ``level``'s search when one is named."""
    judge = None if level is None else find_level(level)
    rows: list[ReviewRow] = []
    last_after: float | None = None  # seat A's chance after the decision before
    own: Searcher | None = None
    deeper: Searcher | None = None
    for ply, (pos, move, thrown_from) in enumerate(_decisions(source), start=1):
        mover = pos.decider
        if mover is None:
            raise ValueError(f"ply {ply}: {move} was played where no decision is due")
        legal = pos.legal_moves()
        if judge is not None:
            searcher = searcher_for(pos, judge)
        elif own is None:
            searcher = own = review_searcher(pos)
            deeper = deeper_searcher(pos)
        else:
            searcher = own
        exact_values = searcher.exact_move_values(pos)
        exact = exact_values is not None
        if exact_values is not None:
            values = exact_values
        elif judge is not None:
            values = searcher.move_values(pos)
        else:
            values = review_move_values(pos, searcher, deeper)
        scored = [(m, for_seat(v, mover)) for m, v in values]
        best_move, best = max(scored, key=lambda mv: mv[1])
        played = next((v for m, v in scored if m == move), None)
        if played is None:
            raise ValueError(f"ply {ply}: {move} is not legal in {pos.fen()}")
        loss = max(0.0, best - played)
        luck, thrower = 0.0, None
        if thrown_from is not None:
            thrower = thrown_from.turn
            if last_after is None:  # the game's first throw: the start is valued once
                last_after = searcher.position_value(thrown_from)
            luck = for_seat(for_seat(best, mover), thrower) - for_seat(last_after, thrower)
        last_after = for_seat(played, mover)
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
                luck,
                thrower,
            )
        )
    return rows


@dataclass(frozen=True)
class SeatAccount:
    """One player's game in sums: decisions and their errors, and luck, all from the player's
    own side."""

    seat: int
    decisions: int  # decisions with a choice (forced moves and passes are not counted)
    loss: float  # winning chance lost by the player's decisions, summed
    inaccuracies: int
    mistakes: int
    blunders: int
    luck: float | None  # winning chance the player's throws gave (negative: took), summed

    @property
    def error_rate(self) -> float:
        """Mean winning chance lost per decision with a choice."""
        return self.loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Account:
    """Where a game's result came from, in winning chance: the start, the end, and what each
    player's throws and decisions did between them."""

    start: float  # seat A's chance before the first throw
    end: float  # seat A's chance after the last decision (the result, if it ended the game)
    seats: tuple[SeatAccount, SeatAccount]

    @property
    def remainder(self) -> float:
        """Seat A's change of chance that neither luck nor decisions explain: the judge's
        revisions of its values from one decision to the next (0 where all are exact)."""
        a, b = self.seats
        if a.luck is None or b.luck is None:
            return 0.0
        return (self.end - self.start) - (a.luck - b.luck) - (b.loss - a.loss)

    def as_dict(self) -> dict[str, object]:
        return {
            "start": self.start,
            "end": self.end,
            "remainder": self.remainder,
            "seats": [{**asdict(s), "error_rate": s.error_rate} for s in self.seats],
        }


def account(rows: Sequence[ReviewRow]) -> Account | None:
    """The sums of a review (None for a game without a decision).  Luck is None where the
    review was made before luck was judged."""
    if not rows:
        return None
    judged = all(r.luck is not None for r in rows)
    first = rows[0]
    start = first.chance_a_before - _seat_a_luck(first)
    seats = []
    for seat in (0, 1):
        own = [r for r in rows if r.mover == seat and r.choices > 1]
        verdicts = [r.verdict for r in own]
        luck = sum(r.luck or 0.0 for r in rows if r.thrower == seat) if judged else None
        seats.append(
            SeatAccount(
                seat,
                len(own),
                sum(r.loss for r in own),
                verdicts.count("inaccuracy"),
                verdicts.count("mistake"),
                verdicts.count("blunder"),
                luck,
            )
        )
    return Account(start, rows[-1].chance_a_after, (seats[0], seats[1]))


def _seat_a_luck(row: ReviewRow) -> float:
    """The luck of the throws before ``row`` from seat A's side."""
    if row.luck is None or row.thrower is None:
        return 0.0
    return row.luck if row.thrower == 0 else -row.luck


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
