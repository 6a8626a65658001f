"""Expectiminimax over the explicit chance nodes, iteratively deepened to a time budget.

All values are seat A's expected result in [0, 1] (see :mod:`senet.ai.evaluation`); a node
where A decides maximises, one where B decides minimises.  The decider is read from the state
every time, never assumed from the turn: the Kendall House of Water choice and the Adelaida
fate move can fall to the seat that is not on turn.

``depth`` counts decisions: depth 1 picks the move whose resulting position evaluates best,
depth 2 also lets the opponent (or ourselves, after an extra throw) answer every throw, and
so on.  Chance nodes average the exact throw distribution; nothing looks at a future throw.

The search runs on the engine's raw states (:mod:`senet.engine.state`), not on Position
objects, and evaluates the leaves in batches (every move of a last-level decision at once,
:meth:`StateEvaluation.values_of_states`).  An evaluation with compiled code of its own
(:class:`CompiledLastChance`: the trained network, :mod:`senet.ai.compiled_network`) searches
each last chance node whole (every throw, every move after it), where most of the time goes.  The same batch orders the moves of the inner decisions
(best first, for more cut-offs).  Alpha-beta prunes at decisions and Star1 (Ballard 1983) at
throws: because every value lies in [0, 1], a chance node stops as soon as the throws seen so
far, with the unseen ones at their best or worst, cannot bring it back inside the window.
Results are kept in a transposition table per (state, depth) with bound flags.

With ``whole_turns`` depth counts turns rather than decisions where one seat decides several
times without a throw in between (Kendall's 1978 game: the banked throws of a turn are spent
one by one; Piccione's: a throw is divided between pieces): a decision followed at once by another decision of the
same seat costs no depth, so a search of depth 2 sees the whole of the mover's turn and every
answer to it, as plain expectiminimax over turns would.  A child reached at depth 0 keeps its
static value; the batched last chance node is not used there (the last decision's own
continuations have to be searched).

With a ``budget`` (seconds), :meth:`Searcher.move_values` deepens iteratively: depth 1, 2, ...
up to ``depth``, starting a new iteration only while the last one's time, times the growth
of one more level, still fits the budget, and abandoning an iteration that runs past the
hard limit (the previous depth's values are kept).  Depth 2 (a few milliseconds) is
abandoned only past :data:`LAST_RESORT`, so a slow solve attempt rarely leaves the move to
the static evaluation and a move never takes a second.  The clock is injectable (``clock``),
so tests can make the deepening deterministic.

With a ``node_budget`` instead, the same deepening counts work, not time: the positions
evaluated (:attr:`Searcher.nodes`).  A new iteration starts only while the last one's
positions, times the growth, still fit the budget, and an iteration that passes
``HARD_FACTOR`` times the budget is abandoned.  The amount of search per move is then fixed,
so a move is the same on a loaded machine as on an idle one (the master's way: its strength
does not drop when the machine is busy); the clock is read only for a safety cap,
:data:`WALL_CAP`, which on an idle machine is never reached.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from senet.engine import Move, Position
from senet.engine.flow import DRAW, legal_moves, play, winner
from senet.engine.flow import thrown as thrown_state
from senet.engine.rules import tables_for
from senet.engine.state import decider, throw_due

from .evaluation import StateEvaluation
from .solver import Solution, TooLarge, solve_many
from .tables import LARGE_TABLE_SPECS, TABLE_SPECS, EndgameTable, large_table_for, table_for, within

if TYPE_CHECKING:
    from .compiled_table import TableArrays

__all__ = ["CompiledLastChance", "Searcher", "small_endgame"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: How much longer one more level of depth takes before it has been measured (throws x
#: moves, after pruning); later levels are predicted from how the last one grew.
GROWTH = 8.0
#: An iteration running past ``HARD_FACTOR`` x budget is abandoned (and never past 0.6 s from
#: the start of the move, a failed solve attempt included: the margin keeps a move under 1 s
#: on a loaded machine).
HARD_FACTOR = 2.0
HARD_CAP = 0.6
#: Depth 2 is abandoned too (the move then rests on depth 1) past this many seconds from the
#: start of the move: a move must never take a second, even on an overloaded machine.
LAST_RESORT = 0.85
#: Under a node budget, every iteration, depth 2 included, is abandoned past this many seconds
#: from the start of the move: only a machine many times overloaded reaches it (the master's
#: budget costs at most about 0.3 s of a core).
WALL_CAP = 3.0
#: Pieces left in total (on the board, or drowned and able to come back) up to which the
#: searcher tries an exact solve of the position's whole future.
SOLVE_PIECES = 4
#: A searcher reads the large (three-against-two) table at its leaves once the root has at
#: most this many pieces on the board more than the table's positions: the search reaches
#: the table's material after a bearing off or two.  Further from it the table is not read
#: from disk (a game that never comes near never pays for it).
LEAF_TABLE_MARGIN = 2


@runtime_checkable
class CompiledLastChance(Protocol):
    """An evaluation that also searches a last chance node by itself, in compiled code
    (:class:`senet.ai.compiled_network.CompiledNetEvaluator`): the value and how many open
    positions it evaluated.  Where the search spends most of its time, so the search hands
    those nodes over whole."""

    def last_chance(self, state: Sequence[int], table: Any = ...) -> tuple[float, int]: ...


#: The default clock of every searcher (tests replace it to make the deepening deterministic).
now: Callable[[], float] = time.perf_counter


class _OutOfTime(Exception):
    pass


State = tuple[int, ...]


class Searcher:
    """An expectiminimax player for one variant's evaluator.

    ``depth``: the deepest search; ``budget``: seconds per decision for iterative deepening
    (0: always search to ``depth``); ``node_budget``: positions evaluated per decision for
    iterative deepening instead (the amount of search fixed whatever the machine's load; it
    takes the place of ``budget``).  With ``solve_states > 0`` the searcher plays exactly
    where it can: positions covered by the variant's shipped endgame table (:mod:`.tables`)
    are looked up, and those whose whole future fits in ``solve_states`` states are solved
    (and the solution is kept, since the rest of the game stays inside it), and every chance
    position the search reaches inside a table — a leaf, or an inner chance node — takes the
    table's exact value instead of the evaluation or a deeper search (the large table once the
    root is within :data:`LEAF_TABLE_MARGIN` pieces of its material).  With ``whole_turns`` a
    decision followed by another decision of the same seat costs no depth (see the module's
    description).  ``leaf_tables=False`` reads the tables at the root only (the master before
    it read them inside its search, kept as a reference).
    """

    def __init__(
        self,
        evaluator: StateEvaluation,
        depth: int,
        solve_states: int = 0,
        budget: float = 0.0,
        clock: Callable[[], float] | None = None,
        whole_turns: bool = False,
        leaf_tables: bool = True,
        node_budget: int = 0,
    ) -> None:
        if depth < 1:
            raise ValueError("depth counts decisions and must be at least 1")
        if node_budget < 0 or budget < 0:
            raise ValueError("a budget cannot be negative")
        if node_budget and budget:
            raise ValueError("a search has a time budget or a node budget, not both")
        self.evaluator = evaluator
        self.depth = depth
        self.budget = budget
        self.node_budget = node_budget
        self.solve_states = solve_states
        self.whole_turns = whole_turns
        self.leaf_tables = leaf_tables
        self.clock = clock  # None: this module's :func:`now`, read at every call
        self._t = tables_for(evaluator.variant)
        self._outcomes = [(n, float(p)) for n, p in evaluator.variant.instrument.outcomes]
        self._tt: dict[tuple[State, int], tuple[float, int]] = {}
        self._solution: Solution | None = None
        self._too_large: set[tuple[int, ...]] = set()  # material signatures too big to solve
        self._table = table_for(evaluator.variant) if solve_states else None
        #: the most pieces in all of the table's positions (0: no table)
        self._table_pieces = (
            max(total for _, _, total in TABLE_SPECS[evaluator.variant.name])
            if self._table is not None
            else 0
        )
        self._compiled = evaluator if isinstance(evaluator, CompiledLastChance) else None
        #: the table read at the search's chance nodes (:meth:`_tables_near`), and what the
        #: compiled last chance node reads of it
        self._leaf_table: EndgameTable | None = self._table if leaf_tables else None
        self._leaf_arrays: TableArrays | None = None
        self._deadline = float("inf")
        #: under a node budget, the count of :attr:`nodes` past which an iteration is abandoned
        self._node_limit = float("inf")
        self.nodes = 0
        self.reached = 0  # the depth of the last completed iteration
        #: moves whose search under a node budget the wall-clock cap cut short
        self.wall_capped = 0

    # ----------------------------------------------------------------- public
    def move_values(self, position: Position) -> list[tuple[Move, float]]:
        """Every legal move of the decider with seat A's value after it (exact when solved)."""
        start = self._now()
        exact = self.exact_move_values(position)
        if exact is not None:
            return exact
        self._tables_near(position)
        if len(self._tt) > 400_000:  # bounded memory per searcher (one per thread)
            self._tt.clear()
        moves = position.legal_moves()
        children = [self._child(position.state, m) for m in moves]
        values = self._leaves(children)
        self.reached = 1
        maximise = decider(self._t, position.state) == 0
        if self.node_budget > 0:
            # work counted in positions evaluated; the clock only as a safety cap
            spent, budget = self._spent_nodes, float(self.node_budget)
            hard_limit = float(self.nodes) + budget * HARD_FACTOR
            self._deadline = start + WALL_CAP
        else:
            spent, budget = self._now, self.budget
            hard = start + min(self.budget * HARD_FACTOR, HARD_CAP)
        began, last, growth = spent(), 0.0, GROWTH
        for depth in range(2, self.depth + 1):
            elapsed = spent() - began
            if budget > 0 and elapsed + last * growth > budget:
                break
            if self.node_budget > 0:  # depth 2 is always finished, unless past the cap
                self._node_limit = hard_limit if depth > 2 else float("inf")
            elif budget > 0:  # depth 2 unless the machine is badly overloaded, then in time
                self._deadline = hard if depth > 2 else start + LAST_RESORT
            order = sorted(range(len(moves)), key=lambda i: values[i], reverse=maximise)
            deeper = list(values)
            try:
                for i in order:
                    self._check_time()  # (depth 2 counting decisions reaches no inner one that would)
                    below = self._child_depth(children[i], maximise, depth)
                    deeper[i] = self._value(children[i], below, 0.0, 1.0)
            except _OutOfTime:
                if self.node_budget > 0 and self.nodes <= self._node_limit:
                    self.wall_capped += 1  # the safety cap, not the budget, cut this move
                break
            took = spent() - began - elapsed
            if depth > 2 and last > 0:
                growth = min(max(took / last, 2.0), 4 * GROWTH)  # as the last level grew
            last = took
            values = deeper
            self.reached = depth
        self._deadline = self._node_limit = float("inf")
        return list(zip(moves, values))

    def position_value(self, position: Position) -> float:
        """Seat A's value of any position: the result once the game is over; where a decision
        is due, the decider's best move by :meth:`move_values`; where a throw is due, the
        average over the throws of the value after each (a throw that leads to another throw,
        as where all throws come before moving, is valued by a search two levels deep)."""
        done = self._terminal(position.state)
        if done is not None:
            return done
        self._tables_near(position)
        if not position.is_chance():
            values = [v for _, v in self.move_values(position)]
            return max(values) if decider(self._t, position.state) == 0 else min(values)
        total = 0.0
        for n, p in self._outcomes:
            child = position.apply_throw(n)
            if child.is_chance():
                total += p * self._value(child.state, 2, 0.0, 1.0)
            else:
                total += p * self.position_value(child)
        return total

    def exact_move_values(self, position: Position) -> list[tuple[Move, float]] | None:
        """The exact value of every legal move (seat A's), from the shipped table or a solve;
        None when the position is out of reach of both."""
        if not self.solve_states:
            return None
        if self._table is not None:
            values = self._table.move_values(position)
            if values is not None:
                return values
        large = self._large_table(position)
        if large is not None:
            values = large.move_values(position)
            if values is not None:
                return values
        solution = self.exact(position)
        return solution.move_values(position) if solution is not None else None

    def _large_table(self, position: Position) -> EndgameTable | None:
        """The variant's three-against-two table (:data:`LARGE_TABLE_SPECS`), read from disk
        the first time a position of its material is met (never for a level that does not
        solve, nor in a variant without one)."""
        regions = LARGE_TABLE_SPECS.get(self.evaluator.variant.name)
        if not self.solve_states or regions is None:
            return None
        if not within(position.variant, position.state, regions):
            return None
        return large_table_for(self.evaluator.variant)

    def _tables_near(self, position: Position) -> None:
        """Choose the table the search reads at its chance nodes from the root: the large one
        once the root is within :data:`LEAF_TABLE_MARGIN` pieces of its material, else the
        two-a-side one (a level that does not solve reads none).  The transposition table is
        emptied when the choice changes: its values were found with the other table."""
        table = self._table if self.leaf_tables else None
        regions = LARGE_TABLE_SPECS.get(self.evaluator.variant.name)
        if self.leaf_tables and self.solve_states and regions is not None:
            on_board = position.mask(0).bit_count() + position.mask(1).bit_count()
            if on_board <= max(total for _, _, total in regions) + LEAF_TABLE_MARGIN:
                table = large_table_for(self.evaluator.variant) or table
        if table is not self._leaf_table:
            self._leaf_table = table
            self._leaf_arrays = None
            self._tt.clear()
        if self._compiled is not None and self._leaf_arrays is None:
            from .compiled_table import table_arrays  # compiled code: never in a web process

            self._leaf_arrays = table_arrays(self._leaf_table)

    def exact(self, position: Position) -> Solution | None:
        """The exact solution covering ``position``, if it is small enough to solve."""
        if not self.solve_states:
            return None
        if self._solution is not None and position in self._solution:
            return self._solution
        if self._table_pieces >= SOLVE_PIECES:
            # The shipped table holds every endgame of two pieces a side or fewer; what it
            # does not cover (three pieces or more on a side) reaches far beyond a move's solve.
            # A table of three pieces in all (Jéquier) leaves the four-piece ones to solving.
            return None
        signature = _material(position)
        if not small_endgame(position) or signature in self._too_large:
            return None
        try:
            self._solution = solve_many([position], max_states=self.solve_states)
        except TooLarge:
            # Do not pay for a failed attempt again until some piece has left the board.
            self._too_large.add(signature)
            return None
        return self._solution

    # ----------------------------------------------------------------- search
    def _now(self) -> float:
        return (self.clock or now)()

    def _child(self, s: State, move: Move) -> State:
        child = list(s)
        play(self._t, child, move)
        return tuple(child)

    def _terminal(self, s: State) -> float | None:
        won = winner(self._t, s)
        if won is None:
            return None
        return 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)

    def _leaves(self, states: Sequence[State]) -> list[float]:
        """Static values of many states: exact when the game is over or the table holds the
        state (:meth:`_exact_chance`), else the evaluation."""
        out: list[float | None] = [self._terminal(s) for s in states]
        if self._leaf_table is not None:
            for i, s in enumerate(states):
                if out[i] is None:
                    out[i] = self._exact_chance(s)
        open_ = [i for i, v in enumerate(out) if v is None]
        if open_:
            self.nodes += len(open_)
            est = self.evaluator.values_of_states([states[i] for i in open_]).tolist()
            for i, v in zip(open_, est):
                out[i] = v
        return out  # type: ignore[return-value]

    def _exact_chance(self, s: State) -> float | None:
        """The table's exact value of ``s`` (an open state) when a throw is due and the table
        holds it, else None."""
        if self._leaf_table is None or not throw_due(s):
            return None
        return self._leaf_table.chance_value(s)

    def _value(self, s: State, depth: int, alpha: float, beta: float) -> float:
        done = self._terminal(s)
        if done is not None:
            return done
        exact = self._exact_chance(s)
        if exact is not None:
            return exact
        if depth <= 0:
            return self._leaves([s])[0]
        key = (s, depth)
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
        if throw_due(s):
            if depth == 1 and not self.whole_turns:
                value = self._last_chance(s)
                self._tt[key] = (value, _EXACT)
                return value
            value = self._chance(s, depth, alpha, beta)
        else:
            value = self._decision(s, depth, alpha, beta)
        flag = _UPPER if value <= a0 else _LOWER if value >= b0 else _EXACT
        self._tt[key] = (value, flag)
        return value

    def _last_chance(self, s: State) -> float:
        """A throw followed by the last decision searched: every move after every throw is
        evaluated in one batch (no pruning needed, the batch is one call), then each throw's
        decider takes the best and the throws are averaged."""
        if self._compiled is not None:
            if self._leaf_table is None:
                value, evaluated = self._compiled.last_chance(s)
            else:
                if self._leaf_arrays is None:
                    from .compiled_table import table_arrays

                    self._leaf_arrays = table_arrays(self._leaf_table)
                value, evaluated = self._compiled.last_chance(s, self._leaf_arrays)
            self.nodes += evaluated
            return value
        t = self._t
        groups: list[tuple[float, int, int, bool]] = []  # (p, first child, end, maximise)
        fixed = 0.0
        children: list[State] = []
        for n, p in self._outcomes:
            thrown = thrown_state(t, s, n)
            done = self._terminal(thrown)
            if done is not None:
                fixed += p * done
                continue
            first = len(children)
            if throw_due(thrown):  # a banked throw (all throws before moving): evaluated as is
                children.append(thrown)
                groups.append((p, first, first + 1, True))
                continue
            children += [self._child(thrown, m) for m in legal_moves(t, thrown)]
            groups.append((p, first, len(children), decider(t, thrown) == 0))
        values = self._leaves(children)
        total = fixed
        for p, first, end, maximise in groups:
            part = values[first:end]
            total += p * (max(part) if maximise else min(part))
        return total

    def _chance(self, s: State, depth: int, alpha: float, beta: float) -> float:
        total = 0.0
        rest = 1.0
        for n, p in self._outcomes:
            rest -= p
            lo = max(0.0, (alpha - total - rest) / p)  # unseen throws at 1
            hi = min(1.0, (beta - total) / p)  # unseen throws at 0
            child = thrown_state(self._t, s, n)
            # a banked throw leads to another throw: it costs a ply, so a run of them ends
            v = self._value(child, depth - 1 if throw_due(child) else depth, lo, hi)
            total += p * v
            if v <= lo and lo > 0.0:
                return total + rest  # cannot reach alpha any more (an upper bound)
            if v >= hi and hi < 1.0:
                return total  # already at beta or above (a lower bound)
        return total

    def _child_depth(self, child: State, maximise: bool, depth: int) -> int:
        """The depth left after a decision at ``depth`` that led to ``child``: one less, except
        under ``whole_turns`` when the same seat decides again at once (the turn goes on)."""
        if (
            self.whole_turns
            and not throw_due(child)
            and self._terminal(child) is None
            and (decider(self._t, child) == 0) == maximise
        ):
            return depth
        return depth - 1

    def _spent_nodes(self) -> float:
        return float(self.nodes)

    def _check_time(self) -> None:
        if self.nodes > self._node_limit:
            raise _OutOfTime
        if self._deadline != float("inf") and self._now() > self._deadline:
            raise _OutOfTime

    def _decision(self, s: State, depth: int, alpha: float, beta: float) -> float:
        self._check_time()
        maximise = decider(self._t, s) == 0
        children = [self._child(s, m) for m in legal_moves(self._t, s)]
        values = self._leaves(children)
        if depth == 1 and not self.whole_turns:  # the common last level: no child is searched
            return max(values) if maximise else min(values)
        depths = [self._child_depth(child, maximise, depth) for child in children]
        if not any(depths):
            return max(values) if maximise else min(values)
        order = sorted(range(len(children)), key=values.__getitem__, reverse=maximise)
        best = -1.0 if maximise else 2.0
        for i in order:
            v = values[i] if depths[i] == 0 else self._value(children[i], depths[i], alpha, beta)
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


def small_endgame(position: Position) -> bool:
    """Cheap filter before trying to solve: at most :data:`SOLVE_PIECES` pieces left in all.
    A piece counts when it is on the board, drowned and able to come back (Adelaida) or in the
    hand waiting to enter (piccione); a piece borne off or captured is gone.  A failed attempt
    costs the whole enumeration budget, so larger material is not tried, and a failed
    signature is not tried again."""
    left = sum(
        position.mask(seat).bit_count() + position.drowned(seat) + position.hand(seat)
        for seat in (0, 1)
    )
    return left <= SOLVE_PIECES


def _material(position: Position) -> tuple[int, ...]:
    """What the size of a position's future depends on most: pieces on the board, borne off,
    captured, drowned and in the hand, and the rearmost piece of each seat.  After a failed attempt we try
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
            position.hand(seat),
        ]
    return tuple(out)
