"""Monte Carlo rollouts at the root: each legal move valued by many short games played on.

From the position after each candidate move, the compiled simulator (:mod:`senet.compiled.kernel`)
plays the game on with the expert's policy for both seats (the shipped linear evaluation, one
decision ahead) for ``horizon`` decisions, then values where it stopped with the same linear
evaluation (or by its result, when the game ended).  Rollout *r* uses the same throws after
every candidate move (common random numbers), so the differences between the candidates are
measured on the same luck and their noise mostly cancels.  A root decision by rollouts of a
policy is stronger than the policy itself, as backgammon programs found: every rollout answers
each throw with a real move, many decisions deep.

:class:`RolloutPlayer` is anytime: it plays rollouts in small batches until its time budget is
spent (the clock is the search's, :data:`senet.ai.search.now`, or the player's own: tests
inject one that counts batches instead of seconds) and returns each
move's mean.  The rollouts' seed is derived from the position, so the same position with the
same number of batches always gets the same values.

The compiled functions are cached on disk by Numba (``cache=True``); the first call in a process
still loads them (about a second), so a server warms them up off the request path
(:func:`warm_up`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from senet.ai.evaluation import weights_for
from senet.compiled.kernel import (
    EXPERT,
    MAX_MOVES,
    N_EVENTS,
    TR_DEPTH,
    TR_DROWNED,
    TR_WIDTH,
    choose,
    decider,
    evaluate,
    game_seed,
    legal,
    play,
    throw,
    thrown,
    track_start,
    winner,
)
from senet.compiled.tables import CompiledRules, compile_rules
from senet.engine import Move, Position, Variant
from senet.engine.rules import tables_for
from senet.engine.state import (
    DROWNED,
    PENDING,
    PENDING_WATER,
    THROW,
)

from . import search
from .compiled_network import last_chance, result_value, value_a
from .compiled_table import table_value

__all__ = [
    "RolloutPlayer",
    "rollout_sums",
    "exact_rollout_sums",
    "network_move",
    "after_throw_value",
    "table_value",
    "settled",
    "supports",
    "warm_up",
    "position_seed",
]

#: Rollouts played per candidate move between two looks at the clock.
BATCH = 8

#: Standard errors of a paired difference by which the best child must lead every other
#: before the rollouts stop early.
SURE = 3.0
#: ... plus this much winning chance (a lead smaller than it is never called sure).
EQUAL = 1e-4


@njit(cache=True, nogil=True)
def _track(s: np.ndarray, trk: np.ndarray) -> None:
    """Piece identities for the kernel's bookkeeping, drowned pieces included (the kernel's
    :func:`track_start` numbers the pieces on the board only)."""
    track_start(s, trk)
    for seat in range(2):
        drowned = s[DROWNED + seat]
        for j in range(drowned):
            trk[seat, TR_DROWNED + j] = -1
        trk[seat, TR_DEPTH] = drowned


@njit(cache=True, nogil=True)
def rollout_sums(
    T: np.ndarray,
    path: np.ndarray,
    children: np.ndarray,
    seed: int,
    first: int,
    count: int,
    horizon: int,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    sums: np.ndarray,
    pair_squares: np.ndarray,
) -> None:
    """Rollouts ``first`` .. ``first + count - 1`` from every row of ``children`` (raw states):
    seat A's value at the end of each is added to ``sums``, and the square of the difference
    between the values of children *c* and *d* in the same rollout to ``pair_squares[c, d]``
    (the paired differences measure how sure the comparison is).  Rollout *r* draws its throws
    from the same generator state after every child."""
    m, width = children.shape
    s = np.zeros(width, dtype=np.int64)
    scratch = np.zeros(width, dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    scratch_trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    scratch_ev = np.zeros(N_EVENTS, dtype=np.int64)
    values = np.zeros(MAX_MOVES)
    rng = np.zeros(1, dtype=np.uint64)
    last = np.zeros(m)
    for r in range(first, first + count):
        for c in range(m):
            rng[0] = game_seed(seed, r)
            s[:] = children[c]
            _track(s, trk)
            decisions = 0
            while winner(T, s) < 0 and decisions < horizon:
                if not s[THROW] and s[PENDING] != PENDING_WATER:
                    s[THROW] = throw(T, rng)
                k = legal(T, path, s, moves)
                i = 0
                if k > 1:
                    i = choose(
                        T, path, s, moves, k, EXPERT, rng, lo, hi, w,
                        scratch, trk, scratch_trk, scratch_ev, values,
                    )  # fmt: skip
                play(T, path, s, moves[i], ev, trk, 0)
                decisions += 1
            v = evaluate(T, lo, hi, w, s)
            sums[c] += v
            last[c] = v
        for c in range(m):
            for d in range(c):
                diff = last[c] - last[d]
                pair_squares[c, d] += diff * diff
                pair_squares[d, c] += diff * diff


@njit(cache=True, nogil=True)
def network_move(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    trk: np.ndarray,
    moves: np.ndarray,
    k: int,
    lookahead: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    throws: np.ndarray,
    probs: np.ndarray,
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    table: np.ndarray,
    per_side: int,
    total: int,
    canonical_pieces: int,
    both_seats: bool,
    scratch: np.ndarray,
    scratch_trk: np.ndarray,
    scratch_ev: np.ndarray,
    image: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
    chance: np.ndarray,
) -> int:
    """The index among the ``k`` legal ``moves`` of state ``s`` that the trained network's
    policy takes (the first of equals), for the decider of ``s``.  ``lookahead`` 1 values each
    move's position by the network; 2 looks through the throw after each move: every throw,
    then the next decider's best reply by the network
    (:func:`senet.ai.compiled_network.last_chance`), and takes the table's exact value wherever
    the table (``keys_hi`` .. ``both_seats``) holds a chance position it looks at, as the
    master's last searched chance node does.  The rest are scratch buffers."""
    seat = decider(T, s)
    best = -1.0
    chosen = 0
    for j in range(k):
        scratch[:] = s
        scratch_trk[:, :] = trk
        play(T, path, scratch, moves[j], scratch_ev, scratch_trk, 0)
        value = -1.0
        due = scratch[THROW] == 0 and scratch[PENDING] != PENDING_WATER
        if lookahead > 1 and due and winner(T, scratch) < 0:
            value = table_value(
                keys_hi, keys_lo, table, scratch, image, per_side, total,
                canonical_pieces, both_seats,
            )  # fmt: skip
            if value < 0.0:
                last_chance(
                    T, path, scratch, throws, probs, w1, b1, w2, b2,
                    keys_hi, keys_lo, table, per_side, total,
                    canonical_pieces, both_seats, chance,
                )  # fmt: skip
                value = chance[0]
        if value < 0.0:
            value = value_a(T, scratch, w1, b1, w2, b2, x, h)
        if seat == 1:
            value = 1.0 - value
        if value > best + 1e-12:
            best, chosen = value, j
    return chosen


@njit(cache=True, nogil=True)
def after_throw_value(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    value: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    table: np.ndarray,
    per_side: int,
    total: int,
    canonical_pieces: int,
    both_seats: bool,
    after: np.ndarray,
    child: np.ndarray,
    image: np.ndarray,
    moves: np.ndarray,
    ev: np.ndarray,
    trk: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
) -> float:
    """Seat A's value of the chance state ``s`` once ``value`` is thrown, one decision deep:
    the result if the throw ends the game; the position as it stands if chance is next again;
    else the decider's best move, each move's position valued by the table where it holds it
    and by the network (``w1`` .. ``b2``) elsewhere.  The rest are scratch buffers."""
    after[:] = s
    thrown(T, after, value, ev)
    won = winner(T, after)
    if won >= 0:
        return result_value(won)
    if after[THROW] == 0 and after[PENDING] != PENDING_WATER:
        v = table_value(
            keys_hi, keys_lo, table, after, image, per_side, total, canonical_pieces, both_seats
        )
        return v if v >= 0.0 else value_a(T, after, w1, b1, w2, b2, x, h)
    k = legal(T, path, after, moves)
    maximise = decider(T, after) == 0
    best = -1.0 if maximise else 2.0
    for j in range(k):
        child[:] = after
        trk[:, :] = 0
        play(T, path, child, moves[j], ev, trk, 0)
        v = -1.0
        if winner(T, child) < 0 and child[THROW] == 0 and child[PENDING] != PENDING_WATER:
            v = table_value(
                keys_hi, keys_lo, table, child, image, per_side, total,
                canonical_pieces, both_seats,
            )  # fmt: skip
        if v < 0.0:
            v = value_a(T, child, w1, b1, w2, b2, x, h)
        if (maximise and v > best) or (not maximise and v < best):
            best = v
    return best


@njit(cache=True, nogil=True)
def exact_rollout_sums(
    T: np.ndarray,
    path: np.ndarray,
    children: np.ndarray,
    seed: int,
    first: int,
    count: int,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    table: np.ndarray,
    per_side: int,
    total: int,
    canonical_pieces: int,
    both_seats: bool,
    sums: np.ndarray,
    pair_squares: np.ndarray,
    decisions_played: np.ndarray,
    lookahead: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    throws: np.ndarray,
    probs: np.ndarray,
    luck_adjusted: bool,
    horizon: int,
) -> None:
    """:func:`rollout_sums` played to the end of the game, except that a rollout stops at the
    first chance position an endgame table holds and takes its exact value there (the rest of
    the game is known, so no policy's mistakes and no throws' noise enter after it), or at the
    first chance position after ``horizon`` decisions, valued there by the evaluation of the
    policy (the network where the rollouts use it, else the linear evaluation).
    ``decisions_played[0]`` counts the decisions the policy played.  ``lookahead`` 0 is the
    expert's policy; 1 and 2 the trained network's (``w1``, ``b1``, ``w2``, ``b2``, with the
    variant's ``throws`` and their ``probs``), one decision ahead or through the throw after
    each move (:func:`network_move`).

    With ``luck_adjusted`` (and the network) each rollout's value is its result minus the luck
    of its throws, as backgammon programs reduce the variance of their rollouts: the luck of a
    throw is the network's value one decision deep after it (:func:`after_throw_value`) minus
    that value averaged over every throw by its chance.  Each luck term averages to zero over
    the throws whatever the network's errors, so the mean is unchanged while much of the
    throws' noise leaves it."""
    m, width = children.shape
    s = np.zeros(width, dtype=np.int64)
    image = np.zeros(width, dtype=np.int64)
    scratch = np.zeros(width, dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    scratch_trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    scratch_ev = np.zeros(N_EVENTS, dtype=np.int64)
    values = np.zeros(MAX_MOVES)
    rng = np.zeros(1, dtype=np.uint64)
    last = np.zeros(m)
    x = np.zeros(w1.shape[1])
    h = np.zeros(w1.shape[0])
    chance = np.zeros(2)
    after = np.zeros(width, dtype=np.int64)
    child = np.zeros(width, dtype=np.int64)
    luck_trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    luck_moves = np.zeros(MAX_MOVES, dtype=np.int64)
    for r in range(first, first + count):
        for c in range(m):
            rng[0] = game_seed(seed, r)
            s[:] = children[c]
            _track(s, trk)
            v = -1.0
            luck = 0.0
            decisions = 0
            while True:
                won = winner(T, s)
                if won >= 0:
                    v = evaluate(T, lo, hi, w, s)
                    break
                if not s[THROW] and s[PENDING] != PENDING_WATER:
                    v = table_value(
                        keys_hi, keys_lo, table, s, image, per_side, total,
                        canonical_pieces, both_seats,
                    )  # fmt: skip
                    if v >= 0.0:
                        break
                    if decisions >= horizon:
                        if lookahead > 0 or luck_adjusted:
                            v = value_a(T, s, w1, b1, w2, b2, x, h)
                        else:
                            v = evaluate(T, lo, hi, w, s)
                        break
                    drawn = throw(T, rng)
                    if luck_adjusted:
                        average = 0.0
                        got = 0.0
                        for t in range(throws.shape[0]):
                            value = after_throw_value(
                                T, path, s, throws[t], w1, b1, w2, b2, keys_hi, keys_lo,
                                table, per_side, total, canonical_pieces, both_seats, after,
                                child, image, luck_moves, scratch_ev, luck_trk, x, h,
                            )  # fmt: skip
                            average += probs[t] * value
                            if throws[t] == drawn:
                                got = value
                        luck += got - average
                    s[THROW] = drawn
                k = legal(T, path, s, moves)
                i = 0
                if k > 1 and lookahead > 0:
                    i = network_move(
                        T, path, s, trk, moves, k, lookahead, w1, b1, w2, b2, throws, probs,
                        keys_hi, keys_lo, table, per_side, total, canonical_pieces,
                        both_seats, scratch, scratch_trk, scratch_ev, image, x, h, chance,
                    )  # fmt: skip
                    decisions_played[0] += 1
                elif k > 1:
                    i = choose(
                        T, path, s, moves, k, EXPERT, rng, lo, hi, w,
                        scratch, trk, scratch_trk, scratch_ev, values,
                    )  # fmt: skip
                    decisions_played[0] += 1
                play(T, path, s, moves[i], ev, trk, 0)
                decisions += 1
            sums[c] += v - luck
            last[c] = v - luck
        for c in range(m):
            for d in range(c):
                diff = last[c] - last[d]
                pair_squares[c, d] += diff * diff
                pair_squares[d, c] += diff * diff


def warm_up(variant: Variant) -> None:
    """Load (or compile) the rollout code and the variant's tables once, off the request path."""
    player = RolloutPlayer(variant, budget=0.0, min_batches=1)
    position = Position.initial(variant)
    rules = player.rules
    child = np.array([position.state], dtype=np.int64)
    sums, pairs = np.zeros(1), np.zeros((1, 1))
    rollout_sums(rules.table, rules.path, child, 1, 0, 1, 2, *player.weights, sums, pairs)


class RolloutPlayer:
    """Values every legal move by rollouts of the expert policy, within ``budget`` seconds.

    ``horizon``: decisions played per rollout before the evaluation takes over;
    ``min_batches`` / ``max_batches``: batches of :data:`BATCH` rollouts per move at least
    (whatever the clock says) and at most.  ``fixed``: the budget is ``max_batches`` alone
    (the rollouts stop when the best move is clear or at ``max_batches``), so the move does
    not depend on the machine's load; the clock is then read only for the safety cap
    :data:`senet.ai.search.WALL_CAP`.
    """

    def __init__(
        self,
        variant: Variant,
        budget: float = 0.25,
        horizon: int = 12,
        min_batches: int = 2,
        max_batches: int = 1000,
        clock: Callable[[], float] | None = None,
        fixed: bool = False,
    ) -> None:
        self.variant = variant
        self.budget = search.WALL_CAP if fixed else budget
        self.fixed = fixed
        self.horizon = horizon
        self.min_batches = min_batches
        self.max_batches = max_batches
        self.clock = (
            clock  # None: the search's clock (:data:`senet.ai.search.now`), read at every call
        )
        self.rules: CompiledRules = compile_rules(variant)
        self.weights = weights_for(variant)
        self.rollouts = 0  # rollouts per move at the last call

    def state_values(
        self,
        children: Sequence[Sequence[int]],
        seed: int,
        start: float | None = None,
        maximise: bool = True,
    ) -> np.ndarray:
        """Seat A's mean value after each of ``children`` (raw states), rolling out until the
        budget (counted from ``start``) is spent or the best child is clear: ahead of every
        other by :data:`SURE` standard errors of their paired difference.  ``maximise``: seat
        A decides (else B, who wants the lowest value)."""
        clock = self.clock or search.now
        start = clock() if start is None else start
        rows = np.array(children, dtype=np.int64)
        m = len(rows)
        sums, pairs = np.zeros(m), np.zeros((m, m))
        t, path = self.rules.table, self.rules.path
        lo, hi, w = self.weights
        batches = 0
        while batches < self.max_batches and (
            batches < self.min_batches or clock() - start < self.budget
        ):
            first = batches * BATCH
            rollout_sums(t, path, rows, seed, first, BATCH, self.horizon, lo, hi, w, sums, pairs)
            batches += 1
            if batches >= self.min_batches and settled(sums, pairs, batches * BATCH, maximise):
                break
        self.rollouts = batches * BATCH
        return sums / self.rollouts

    def move_values(
        self, position: Position, start: float | None = None
    ) -> list[tuple[Move, float]]:
        """Every legal move with seat A's rolled-out value after it."""
        moves = position.legal_moves()
        children = [position.apply_unchecked(m).state for m in moves]
        maximise = position.decider == 0
        means = self.state_values(children, position_seed(position), start, maximise)
        return list(zip(moves, means.tolist()))


def settled(sums: np.ndarray, pairs: np.ndarray, n: int, maximise: bool) -> bool:
    """Whether the decider's best child (the highest mean for seat A, the lowest for B) is
    ahead of every other by :data:`SURE` standard errors of their paired difference: then
    more rollouts would hardly change the choice."""
    if len(sums) < 2:
        return True
    mean = sums / n
    diff = mean[:, None] - mean[None, :]
    var = np.maximum(pairs / n - diff * diff, 0.0) / max(n - 1, 1)
    margin = SURE * np.sqrt(var) + EQUAL
    np.fill_diagonal(margin, -1.0)
    if maximise:
        top = int(np.argmax(mean))
        return bool(np.all(diff[top] > margin[top]))
    bottom = int(np.argmin(mean))
    return bool(np.all(-diff[bottom] > margin[bottom]))


def position_seed(position: Position) -> int:
    """A 63-bit seed that depends only on the position (the same play for the same position)."""
    digest = hashlib.blake2b(repr(position.state).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def supports(variant: Variant) -> bool:
    """Whether the compiled simulator plays ``variant``'s rollouts: every variant but those
    where all throws of a turn come first (a run of throws is not one chance event of the
    kernel's flow) or a throw is divided among the pieces (piccione:
    :func:`senet.compiled.tables.compile_rules` refuses it)."""
    t = tables_for(variant)
    return not (t.throws_first or t.divided)
