"""Fixed reference players for bench/ai_ladder.py, independent of the levels in senet.ai.

* ``frozen-master``: the master level as it played before iterative deepening (depth 2 over
  the exact throws, the ``net`` evaluation, exact play from the shipped tables and solves of
  futures up to 30,000 positions, the old solve filter: at most two pieces a side counting
  drowned ones).  Its search code is kept here verbatim (:class:`FrozenSearcher`), so later
  changes to the AI never move this yardstick, with one addition for kendall-1978, which it
  predates: a throw followed by another throw (banked) costs a ply, else its search never ends
  on a run of them; in every other variant a throw is followed by a decision, so its play
  there is unchanged.  Its endgame tables are today's (they are exact, so this only makes the
  reference stronger than it was in endgames beyond the old tables); its weights are the
  shipped ``net`` weights at the time of freezing, copied to ``bench/reference_weights``
  (piccione's are the hand-made evaluation it played on until it learned its own); a
  variant without frozen weights (kendall-1978, jequier) uses today's shipped ``net`` or
  linear weights, else the hand-made evaluation.
* ``pip3``: a plain depth-3 expectiminimax (no pruning, no table, no solving) with a
  hand-written evaluation: progress along the track (31 per piece borne off, the square for
  a piece on the board) plus a safety term (a lone piece with an enemy 1-5 squares behind
  it), squashed by a logistic.  Written only against the public engine API.
* ``depth2`` .. ``depth5``: today's master at that fixed depth (no time budget, no rollouts).
* ``selfplay-master``: today's master's search with the TD(λ) self-play network at its leaves
  (by the same compiled code) in the variants whose network was since refitted by
  :mod:`senet.ai.fitted` (standard and kendall; the self-play weights copied to
  ``bench/reference_weights``), today's master elsewhere.  It never rolls out: in kendall,
  where the master chooses its move by root rollouts of the expert's policy (which no network
  enters), it is the search alone with the self-play network, to set against
  ``search-master`` (the same search with the refitted one).
* ``candidate-master``: today's master's search with a network being tried before it ships,
  read from ``bench/reference_weights/<variant>.candidate.npz`` (not kept in the repository;
  adelaida's refined network was tried so before it shipped).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from senet.ai import choose_move, find_level
from senet.ai.compiled_network import CompiledNetEvaluator
from senet.ai.evaluation import EQUAL_WITHIN, Evaluator, evaluator_for, terminal_value
from senet.ai.network import NetEvaluator
from senet.ai.search import Searcher
from senet.ai.solver import Solution, TooLarge, for_seat, solve_many
from senet.ai.tables import table_for
from senet.engine import VARIANTS, Move, Position

__all__ = ["REFERENCES", "reference_move", "searched_move"]

_WEIGHTS = Path(__file__).parent / "reference_weights"

_EXACT, _LOWER, _UPPER = 0, 1, 2


class FrozenSearcher:
    """The master's search as it was before the deepening (kept verbatim, renamed): a
    fixed-depth expectiminimax player for one variant's evaluator.

    With ``solve_states > 0`` the searcher plays exactly where it can: positions covered by
    the variant's shipped endgame table (:mod:`.tables`) are looked up, and those whose whole
    future fits in ``solve_states`` states are solved (and the solution is kept, since the
    rest of the game stays inside it).
    """

    def __init__(self, evaluator: Evaluator, depth: int, solve_states: int = 0) -> None:
        if depth < 1:
            raise ValueError("depth counts decisions and must be at least 1")
        self.evaluator = evaluator
        self.depth = depth
        self.solve_states = solve_states
        self._tt: dict[tuple[tuple[int, ...], int], tuple[float, int]] = {}
        self._solution: Solution | None = None
        self._too_large: set[tuple[int, ...]] = set()  # material signatures too big to solve
        self._table = table_for(evaluator.variant) if solve_states else None
        self.nodes = 0

    # ----------------------------------------------------------------- public
    def move_values(self, position: Position) -> list[tuple[Move, float]]:
        """Every legal move of the decider with seat A's value after it (exact when solved)."""
        exact = self.exact_move_values(position)
        if exact is not None:
            return exact
        if len(self._tt) > 200_000:  # bounded memory per searcher (one per thread)
            self._tt.clear()
        out = []
        for move in position.legal_moves():
            child = position.apply_unchecked(move)
            out.append((move, self._value(child, self.depth - 1, 0.0, 1.0)))
        return out

    def exact_move_values(self, position: Position) -> list[tuple[Move, float]] | None:
        """The exact value of every legal move (seat A's), from the shipped table or a solve;
        None when the position is out of reach of both."""
        if not self.solve_states:
            return None
        if self._table is not None:
            values = self._table.move_values(position)
            if values is not None:
                return values
        solution = self.exact(position)
        return solution.move_values(position) if solution is not None else None

    def exact(self, position: Position) -> Solution | None:
        """The exact solution covering ``position``, if it is small enough to solve."""
        if not self.solve_states:
            return None
        if self._solution is not None and position in self._solution:
            return self._solution
        signature = _material(position)
        if not _small_endgame(position) or signature in self._too_large:
            return None
        try:
            self._solution = solve_many([position], max_states=self.solve_states)
        except TooLarge:
            # Do not pay for a failed attempt again until some piece has left the board.
            self._too_large.add(signature)
            return None
        return self._solution

    # ----------------------------------------------------------------- search
    def _value(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        done = terminal_value(pos)
        if done is not None:
            return done
        if depth <= 0:
            self.nodes += 1
            return self.evaluator.value(pos)
        key = (pos.state, depth)
        hit = self._tt.get(key)
        if hit is not None:
            value, flag = hit
            if (
                flag == _EXACT
                or (flag == _LOWER and value >= beta)
                or (flag == _UPPER and value <= alpha)
            ):
                return value
        a0, b0 = alpha, beta
        if pos.is_chance():
            value = self._chance(pos, depth, alpha, beta)
        else:
            value = self._decision(pos, depth, alpha, beta)
        flag = _UPPER if value <= a0 else _LOWER if value >= b0 else _EXACT
        self._tt[key] = (value, flag)
        return value

    def _chance(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        total = 0.0
        rest = 1.0
        for n, fraction in pos.chance_outcomes():
            p = float(fraction)
            rest -= p
            lo = max(0.0, (alpha - total - rest) / p)  # unseen throws at 1
            hi = min(1.0, (beta - total) / p)  # unseen throws at 0
            child = pos.apply_throw(n)
            # A throw followed by another throw (a banked throw where every throw of a turn
            # comes first: kendall-1978) costs a ply, as in today's search, so a run of them
            # ends.  Elsewhere a throw is always followed by a decision: the search is as frozen.
            v = self._value(child, depth - 1 if child.is_chance() else depth, lo, hi)
            total += p * v
            if v <= lo and lo > 0.0:
                return total + rest  # cannot reach alpha any more (an upper bound)
            if v >= hi and hi < 1.0:
                return total  # already at beta or above (a lower bound)
        return total

    def _decision(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        maximise = pos.decider == 0
        children = [pos.apply_unchecked(m) for m in pos.legal_moves()]
        if len(children) > 1 and depth > 1:
            ev = self.evaluator.value
            children.sort(key=ev, reverse=maximise)  # good moves first: more cut-offs
        best = -1.0 if maximise else 2.0
        for child in children:
            v = self._value(child, depth - 1, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def _small_endgame(position: Position) -> bool:
    """Cheap filter before trying to solve: at most two pieces a side left on the board or
    drowned (Adelaida), where the whole future often fits in a few thousand positions.  A
    failed attempt costs a full budget of enumeration, so we do not try on larger material."""
    return (
        position.mask(0).bit_count() + position.drowned(0) <= 2
        and position.mask(1).bit_count() + position.drowned(1) <= 2
    )


def _material(position: Position) -> tuple[int, ...]:
    """What the size of a position's future depends on most: pieces on the board, borne off,
    captured and drowned, and the rearmost piece of each seat.  After a failed attempt we try
    again only when this changes (a piece left the board or the last one moved up)."""
    out: list[int] = []
    for seat in (0, 1):
        mask = position.mask(seat)
        rear = (mask & -mask).bit_length()
        out += [
            mask.bit_count(),
            rear,
            position.off(seat),
            position.captured(seat),
            position.drowned(seat),
        ]
    return tuple(out)


_frozen: dict[str, FrozenSearcher] = {}


def _frozen_master(position: Position) -> FrozenSearcher:
    name = position.variant.name
    if name not in _frozen:
        path = _WEIGHTS / f"{name}.net.json"
        if not path.exists():  # the Adelaida variants had no net: their master used the linear
            path = _WEIGHTS / f"{name}.json"
        if path.exists():
            evaluator = Evaluator.from_json(position.variant, path.read_text())
        else:
            evaluator = evaluator_for(position.variant, "net")
        _frozen[name] = FrozenSearcher(evaluator, 2, 30_000)
    return _frozen[name]


def frozen_master_move(position: Position) -> Move:
    """The frozen master's move (its choose_move: a winning move first, then the best value)."""
    legal = position.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = position.decider
    assert seat is not None
    for move in legal:
        done = terminal_value(position.apply_unchecked(move))
        if done is not None and for_seat(done, seat) == 1.0:
            return move
    scored = [(m, for_seat(v, seat)) for m, v in _frozen_master(position).move_values(position)]
    best = max(v for _, v in scored)
    return next(m for m, v in scored if v == best)


# --------------------------------------------------------------------- the depth-3 reference
def pip_value(position: Position) -> float:
    """Seat A's expected result by progress and safety (exact when the game is over)."""
    done = terminal_value(position)
    if done is not None:
        return done
    score = 0.0
    for seat, sign in ((0, 1.0), (1, -1.0)):
        progress = 31.0 * position.off(seat) + sum(position.pieces(seat))
        mine = set(position.pieces(seat))
        theirs = set(position.pieces(1 - seat))
        exposed = sum(
            1
            for sq in mine
            if sq - 1 not in mine
            and sq + 1 not in mine
            and any(sq - k in theirs for k in range(1, 6))
        )
        score += sign * (progress - 3.0 * exposed)
    decider = position.decider if position.decider is not None else position.turn
    score += 3.0 if decider == 0 else -3.0
    return 1.0 / (1.0 + math.exp(-score / 15.0))


def _expecti(position: Position, depth: int) -> float:
    """Seat A's expectiminimax value ``depth`` decisions deep on :func:`pip_value`; a throw
    followed by another throw (kendall-1978's banked throws) costs a ply, as in the master's
    search, so a run of banked throws ends (elsewhere a throw is always followed by a decision
    or the end of the game, and nothing changes)."""
    done = terminal_value(position)
    if done is not None:
        return done
    if depth == 0:
        return pip_value(position)
    if position.is_chance():
        total = 0.0
        for n, p in position.chance_outcomes():
            child = position.apply_throw(n)
            total += float(p) * _expecti(child, depth - 1 if child.is_chance() else depth)
        return total
    values = [_expecti(position.apply(m), depth - 1) for m in position.legal_moves()]
    return max(values) if position.decider == 0 else min(values)


def pip3_move(position: Position) -> Move:
    """The depth-3 reference's move: the best by :func:`_expecti` (first of equals)."""
    legal = position.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = position.decider
    assert seat is not None
    scored = [(m, for_seat(_expecti(position.apply(m), 2), seat)) for m in legal]
    best = max(v for _, v in scored)
    return next(m for m, v in scored if v == best)


#: Today's master with its root rollouts switched off: the search alone, to measure what the
#: rollouts add in the variants where the master uses them.
SEARCH_MASTER = replace(find_level("master"), key="search-master", rollouts=0.0)


def search_master_move(position: Position) -> Move:
    """The master's move by its search alone (exact values first, as the master)."""
    return choose_move(position, SEARCH_MASTER, random.Random(0))


#: The networks the master used before the fitted ones (:mod:`senet.ai.fitted`) replaced
#: them: the TD(λ) self-play weights, copied here so that they stay a fixed yardstick.
_SELFPLAY_WEIGHTS = {"standard": "standard.td-selfplay.npz", "kendall": "kendall.td-selfplay.npz"}
_searchers: dict[tuple[str, str], Searcher] = {}


def searched_move(position: Position, searcher: Searcher) -> Move:
    """The best move by ``searcher`` (a winning move first, the first of equals), as the
    master chooses without rollouts."""
    legal = position.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = position.decider
    assert seat is not None
    for move in legal:  # a move that ends the game in our favour is never missed
        done = terminal_value(position.apply(move))
        if done is not None and for_seat(done, seat) == 1.0:
            return move
    scored = [(m, for_seat(v, seat)) for m, v in searcher.move_values(position)]
    best = max(v for _, v in scored)
    return next(m for m, v in scored if v >= best - EQUAL_WITHIN)


def _network_master_move(position: Position, role: str, weights: Path) -> Move:
    """Today's master's search (its budget and exact endgames) with the network of
    ``weights`` at its leaves; no root rollouts."""
    key = (position.variant.name, role)
    if key not in _searchers:
        level = find_level("master")
        network = NetEvaluator.load(position.variant, weights)
        # the compiled leaves and last chance nodes, as today's master evaluates its network
        _searchers[key] = Searcher(
            CompiledNetEvaluator(network), level.depth, level.solve_states, level.budget
        )
    return searched_move(position, _searchers[key])


def selfplay_master_move(position: Position) -> Move:
    """Today's master's search (its budget and exact endgames) with the TD(λ) self-play
    network at its leaves where a variant's network was since replaced (elsewhere today's
    master itself).  No root rollouts: where the master rolls out (kendall) this is its
    search alone, the counterpart of ``search-master``."""
    name = position.variant.name
    if name not in _SELFPLAY_WEIGHTS:
        return choose_move(position, "master", random.Random(0))
    return _network_master_move(position, "selfplay", _WEIGHTS / _SELFPLAY_WEIGHTS[name])


def candidate_master_move(position: Position) -> Move:
    """Today's master's search with a network being tried before it ships:
    ``bench/reference_weights/<variant>.candidate.npz`` (a file put there for the run, say
    by ``senet train selfplay --out``, renamed).  No root rollouts, so in kendall it
    is compared with ``search-master``."""
    weights = _WEIGHTS / f"{position.variant.name}.candidate.npz"
    if not weights.exists():
        raise FileNotFoundError(f"candidate-master: no weights at {weights}")
    return _network_master_move(position, "candidate", weights)


#: Reference players by name: a function of the position (deterministic but for the
#: search master's clock).
REFERENCES = {
    "selfplay-master": selfplay_master_move,
    "frozen-master": frozen_master_move,
    "pip3": pip3_move,
    "search-master": search_master_move,
    "candidate-master": candidate_master_move,
}


def reference_move(name: str, position: Position, rng: random.Random) -> Move:
    del rng  # both references are deterministic
    return REFERENCES[name](position)


def _fixed_depth(depth: int) -> Callable[[Position], Move]:
    """Today's master searching exactly ``depth`` decisions, with no time budget and no
    rollouts (exact values first, as the master): what one more level of search is worth."""
    level = replace(
        find_level("master"), key=f"depth{depth}", depth=depth, budget=0.0, rollouts=0.0
    )

    def move(position: Position) -> Move:
        return choose_move(position, level, random.Random(0))

    return move


REFERENCES.update({f"depth{depth}": _fixed_depth(depth) for depth in (2, 3, 4, 5)})


#: Today's master (search, budget, exact endgames) with the shipped linear evaluation at its
#: leaves: the master of the variants that shipped no network (Adelaida's until its fitted
#: one), to measure what a network adds there.
LINEAR_MASTER = replace(find_level("master"), key="linear-master", model="linear")


def linear_master_move(position: Position) -> Move:
    """The master's move with the linear evaluation at its leaves."""
    return choose_move(position, LINEAR_MASTER, random.Random(0))


REFERENCES["linear-master"] = linear_master_move


#: Today's master choosing its move by root rollouts in every variant the compiled simulator
#: plays (:func:`senet.ai.rolls_out` asks :func:`senet.ai.rollout.supports`; its search
#: elsewhere): what rollouts would add where the master searches instead.
ROLLOUT_MASTER = replace(
    find_level("master"), key="rollout-master", rollout_variants=tuple(VARIANTS)
)


def rollout_master_move(position: Position) -> Move:
    """The master's move by root rollouts wherever the simulator plays the variant."""
    return choose_move(position, ROLLOUT_MASTER, random.Random(0))


REFERENCES["rollout-master"] = rollout_master_move


#: Today's master counting whole turns, not decisions, in the variants where one seat often
#: decides several times on one throw (:class:`senet.ai.search.Searcher`'s ``whole_turns``):
#: what a search that sees the mover's whole turn adds there.
TURN_MASTER = replace(
    find_level("master"), key="turn-master", whole_turn_variants=("kendall-1978", "piccione")
)


def turn_master_move(position: Position) -> Move:
    """The master's move by a search counting whole turns in Kendall 1978 and Piccione."""
    return choose_move(position, TURN_MASTER, random.Random(0))


REFERENCES["turn-master"] = turn_master_move


#: Today's master reading its endgame tables at the root only, as it did before it read them
#: at every chance node of its search: what exact values inside the search add.
ROOT_TABLE_MASTER = replace(find_level("master"), key="root-table-master", leaf_tables=False)


def root_table_master_move(position: Position) -> Move:
    """The master's move with its tables read at the root only."""
    return choose_move(position, ROOT_TABLE_MASTER, random.Random(0))


REFERENCES["root-table-master"] = root_table_master_move
