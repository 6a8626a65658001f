"""The analysis board's judgement of one position: every legal move with the winning chance
after it, exact where the endgame solver reaches (the values of ``senet solve``), else the
master level's estimate; for a position where a throw is due, the chance of each throw (where
no exact solution reaches: the master's value of the best move after each throw, and their
mean weighted by the throws' probabilities).  The throws' positions are judged by the review's
search (:func:`senet.ai.review.review_searcher`: three decisions deep, no time budget), not the
master's, so that a throw-due position costs one search of a few milliseconds per throw rather
than up to the master's 0.3 s each; that judgement is kept as the throw's position's analysis,
so the board shows the same numbers when the throw is picked.

Chances are always the deciding seat's (for a throw: the seat on turn's), as fractions 0..1
(Bell's points game: the expected result, a draw counting one half).  Answers are cached per
position.  This is search: the site runs it in a worker process
(:class:`senet.service.reviews.analyses.Analyses`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock, get_ident

from senet.ai import move_values as estimated_move_values
from senet.ai.review import review_searcher
from senet.ai.search import Searcher, small_endgame
from senet.ai.solver import ExactMoves, TooLarge, for_seat, solve_many
from senet.engine import Move, Position

__all__ = ["MoveChance", "ThrowChance", "Analysis", "analyse", "forget", "SOLVE_STATES"]

#: Positions the solver may enumerate for one request (the master level's own bound is 30,000;
#: ``senet solve`` allows 400,000 but takes seconds to find a position too large).
SOLVE_STATES = 60_000
#: The bound where only the reference solver can solve (a variant the compiled rules cannot
#: hold: Piccione's divided throws): it learns that a future is too large only by enumerating
#: it to the bound in Python, about a second for 60,000 positions, paid again for every throw of
#: a throw-due position.  There it tries only endgames of at most four pieces left
#: (:func:`senet.ai.search.small_endgame`, the master's own filter) and the master's own bound.
REFERENCE_SOLVE_STATES = 6_000


@dataclass(frozen=True)
class MoveChance:
    move: str  # the move in notation, with x when it lands on an opponent
    chance: float  # the decider's chance after it
    best: bool
    after: str  # the position after it


@dataclass(frozen=True)
class ThrowChance:
    throw: int
    probability: float
    chance: float | None  # the seat on turn's chance after this throw (exact or estimated)
    after: str


@dataclass(frozen=True)
class Analysis:
    position: str
    decider: int | None
    #: the chance of the seat judged (decider, or the seat on turn before a throw), best play
    chance: float | None
    exact: bool
    moves: tuple[MoveChance, ...]
    throws: tuple[ThrowChance, ...]
    over: bool


_CACHE: OrderedDict[str, Analysis] = OrderedDict()
_CACHE_SIZE = 512
_lock = Lock()


def analyse(position: Position, solve_states: int = SOLVE_STATES, quick: bool = False) -> Analysis:
    """The judgement of ``position`` (kept: a position judged once is answered from memory);
    ``quick``: its moves valued by the review's search instead of the master's."""
    key = f"{position.fen()}|{solve_states}"
    with _lock:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE.move_to_end(key)
            return cached
    result = _analyse(position, solve_states, quick)
    with _lock:
        _CACHE[key] = result
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return result


def forget() -> None:
    """Empty the cache of analyses (a benchmark measures fresh positions)."""
    with _lock:
        _CACHE.clear()


def _estimate_after_throw(after: Position, on_turn: int, solve_states: int) -> float | None:
    """The chance of the seat on turn once this throw is made: the master's value of the best
    move after it (the analysis of that position, cached, so that the board shows the same
    number when the throw is picked); None where no decision follows the throw at once
    (kendall-1978 throws again before moving)."""
    if after.decider is None:  # another throw first: estimating it would recurse throw by throw
        return None
    judged = analyse(after, solve_states, quick=True)
    if judged.decider is None or judged.chance is None:
        return None
    return judged.chance if judged.decider == on_turn else 1.0 - judged.chance


#: The compiled solver, once loaded (:func:`load_compiled_solver`); None until then.
_compiled_solve: Callable[..., ExactMoves] | None = None


def load_compiled_solver() -> None:
    """Load the compiled solver (Numba's code: from its disk cache in about a second, compiled
    the first time on a machine) for the analyses that follow; until it is loaded they use the
    reference solver, which gives the same values (the solvers' tests), only slower."""
    global _compiled_solve
    from senet.ai.compiled_solver import solve_compiled  # Numba loads only here

    solve_compiled([Position.from_fen(_SMALL)], max_states=SOLVE_STATES)
    _compiled_solve = solve_compiled


_SMALL = "standard ........../........../..A..A...B A -"


def _solved(position: Position, solve_states: int) -> ExactMoves | None:
    """Every position reachable from ``position`` solved exactly, or None where they are more
    than ``solve_states``: by the compiled solver once loaded (a too-large future is found out
    in milliseconds instead of a second of enumeration in Python), else by the reference
    solver; for a variant the compiled rules cannot hold, only a small endgame, within
    :data:`REFERENCE_SOLVE_STATES`."""
    try:
        if _compiled_solve is not None:
            try:
                return _compiled_solve([position], max_states=solve_states)
            except ValueError:  # not compiled: the reference solver, on small endgames only
                if not small_endgame(position):
                    return None
                solve_states = min(solve_states, REFERENCE_SOLVE_STATES)
        return solve_many([position], max_states=solve_states)
    except TooLarge:
        return None


_quick_searchers: dict[tuple[str, int], Searcher] = {}


def _quick_values(position: Position) -> list[tuple[Move, float]]:
    """Every legal move with the decider's chance after it, by the review's search (one
    searcher per variant and thread, its table kept between positions)."""
    key = (position.variant.name, get_ident())
    with _lock:
        searcher = _quick_searchers.get(key)
        if searcher is None:
            searcher = _quick_searchers[key] = review_searcher(position)
    seat = position.decider
    return [(m, for_seat(v, seat)) for m, v in searcher.move_values(position)]  # type: ignore[arg-type]


def _analyse(position: Position, solve_states: int, quick: bool = False) -> Analysis:
    fen = position.fen()
    if position.is_over():
        return Analysis(fen, None, None, True, (), (), True)
    solution = _solved(position, solve_states)
    if position.is_chance():
        on_turn = position.turn
        throws = []
        for n, p in position.chance_outcomes():
            after = position.apply_throw(n)
            chance: float | None
            if solution is not None:
                chance = for_seat(solution.value(after), on_turn)
            else:
                chance = _estimate_after_throw(after, on_turn, solve_states)
            throws.append(ThrowChance(n, float(p), chance, after.fen()))
        if solution is not None:
            value: float | None = for_seat(solution.value(position), on_turn)
        elif all(x.chance is not None for x in throws):
            value = sum(x.probability * x.chance for x in throws if x.chance is not None)
        else:
            value = None
        return Analysis(fen, None, value, solution is not None, (), tuple(throws), False)
    seat = position.decider
    if seat is None:
        raise RuntimeError("no seat decides in a position that is neither over nor chance")
    if solution is not None:
        scored = [(m, for_seat(v, seat)) for m, v in solution.move_values(position)]
    else:
        scored = _quick_values(position) if quick else estimated_move_values(position, "master")
    top = max(v for _, v in scored)
    moves = tuple(
        MoveChance(position.move_text(m), v, v >= top - 1e-9, position.apply(m).fen())
        for m, v in scored
    )
    return Analysis(fen, seat, top, solution is not None, moves, (), False)
