"""Expectiminimax over the explicit chance nodes, with alpha-beta at decisions and Star1 at throws.

All values are seat A's expected result in [0, 1] (see :mod:`senet.ai.evaluation`); a node
where A decides maximises, one where B decides minimises.  The decider is read from the
position every time, never assumed from the turn: the Kendall House of Water choice and the
Adelaida fate move can fall to the seat that is not on turn.

``depth`` counts decisions: depth 1 picks the move whose resulting position evaluates best,
depth 2 also lets the opponent (or ourselves, after an extra throw) answer every throw, and
so on.  Chance nodes average the exact throw distribution; nothing looks at a future throw.

Star1 (Ballard 1983): because every value lies in [0, 1], a chance node can stop as soon as
the children seen so far, with the unseen ones at their best or worst, cannot bring it back
inside the (alpha, beta) window.  Results are cached per (state, depth) with bound flags.
"""

from __future__ import annotations

from senet.engine import Move, Position

from .evaluation import Evaluator, terminal_value
from .solver import Solution, TooLarge, solve_many
from .tables import table_for

__all__ = ["Searcher"]

_EXACT, _LOWER, _UPPER = 0, 1, 2


class Searcher:
    """A fixed-depth expectiminimax player for one variant's evaluator.

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
            child = position._play(move)
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
        for n, exact in pos.chance_outcomes():
            p = float(exact)
            rest -= p
            lo = max(0.0, (alpha - total - rest) / p)  # unseen throws at 1
            hi = min(1.0, (beta - total) / p)  # unseen throws at 0
            v = self._value(pos.apply_throw(n), depth, lo, hi)
            total += p * v
            if v <= lo and lo > 0.0:
                return total + rest  # cannot reach alpha any more (an upper bound)
            if v >= hi and hi < 1.0:
                return total  # already at beta or above (a lower bound)
        return total

    def _decision(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        maximise = pos.decider == 0
        children = [pos._play(m) for m in pos.legal_moves()]
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
