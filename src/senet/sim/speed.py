"""How fast the rules engine plays: random playouts per second, decisions per second and the
cost of one legal-move generation, per variant (``senet bench engine`` and ``bench/engine.py``).

Why these numbers: playouts per second bound every Monte Carlo player and every simulation;
decisions per second make variants with different game lengths comparable; microseconds per
generation isolate the move generator from the playout loop.  Each is measured three ways in
one run, so their ratios compare like with like: through the public :class:`Position` API (one
object per throw and move), on the raw integer state (:func:`senet.engine.flow.random_playout`,
the path search and Monte Carlo use) and, where it plays the variant, on the compiled simulator
(:mod:`senet.compiled.kernel`).

Every rate is per CPU second of this process, not wall time: the measurement is
single-threaded, and on a shared machine other processes would otherwise show up as a slower
engine.  Throws are drawn by :func:`senet.engine.draw_throw` from one seed, so every engine
behind the :class:`Engine` protocol is fed the same throws.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from senet.engine import Move, Position, draw_throw, find_variant

__all__ = [
    "COMPILED_TARGETS",
    "NO_RANDOM_PLAYOUTS",
    "Engine",
    "SenetEngine",
    "api_playouts",
    "compiled_playouts",
    "generation_time",
    "measure",
    "playout",
    "raw_playouts",
    "sample_positions",
]

State = Any

#: CPU time of this process (see the module's docstring).
clock = time.process_time

#: Variants a default run leaves out, and why: a uniformly random playout of them does not end
#: in a time a benchmark can wait for (naming the variant still measures it).
NO_RANDOM_PLAYOUTS = {
    "jequier": "uniformly random games run 10^5-10^6 moves (taken pieces go back to the start "
    "and nothing bears off before every piece is on the last row)",
}

#: Random playouts per CPU second that the compiled simulator must reach (one core).
COMPILED_TARGETS = {"kendall": 25_000.0, "bell": 50_000.0}


class Engine(Protocol):
    """What the measurement needs from a Senet engine.  States and moves are opaque to it; the
    throws are drawn by the measurement, with the instrument of our variant of the same name,
    so another implementation (a compiled move generator, a port of Ludii's rules) can be
    measured by the same loop through an adapter."""

    name: str

    def initial(self, variant: str) -> State: ...
    def is_chance(self, state: State) -> bool: ...
    def throw(self, state: State, value: int) -> State: ...
    def legal(self, state: State) -> Sequence[Any]: ...
    def play(self, state: State, move: Any) -> State: ...
    def over(self, state: State) -> bool: ...


class SenetEngine:
    """Adapter for :mod:`senet.engine`.  ``play`` is :meth:`Position.apply_unchecked`: the
    measurement plays only moves the generator produced, as a search or playout would."""

    name = "senet.engine"

    def initial(self, variant: str) -> Position:
        return Position.initial(find_variant(variant))

    def is_chance(self, state: Position) -> bool:
        return state.is_chance()

    def throw(self, state: Position, value: int) -> Position:
        return state.apply_throw(value)

    def legal(self, state: Position) -> list[Move]:
        return state.legal_moves()

    def play(self, state: Position, move: Move) -> Position:
        return state.apply_unchecked(move)

    def over(self, state: Position) -> bool:
        return state.outcome() is not None


def playout(
    engine: Engine,
    variant: str,
    rng: random.Random,
    visit: Callable[[State], None] | None = None,
) -> tuple[int, int]:
    """One game from the initial position with random throws and uniformly random legal
    moves; returns (moves, throws).  ``visit`` sees every decision position (for sampling)."""
    instrument = find_variant(variant).instrument
    state = engine.initial(variant)
    moves = throws = 0
    while not engine.over(state):
        if engine.is_chance(state):
            state = engine.throw(state, draw_throw(rng, instrument))
            throws += 1
            continue
        legal = engine.legal(state)
        if visit is not None:
            visit(state)
        state = engine.play(state, legal[rng.randrange(len(legal))])
        moves += 1
    return moves, throws


def api_playouts(engine: Engine, variant: str, seconds: float, seed: int) -> dict[str, float]:
    """Playouts through ``engine`` until ``seconds`` of CPU time have passed (at least one)."""
    rng = random.Random(seed)
    games = moves = throws = 0
    start = clock()
    while True:
        m, t = playout(engine, variant, rng)
        games += 1
        moves += m
        throws += t
        if clock() >= start + seconds:
            break
    elapsed = clock() - start
    return {
        "games": games,
        "seconds": elapsed,
        "playouts_per_s": games / elapsed,
        "moves_per_s": moves / elapsed,
        "throws_per_s": throws / elapsed,
        "moves_per_playout": moves / games,
    }


def raw_playouts(variant: str, seconds: float, seed: int) -> dict[str, float]:
    """Our engine's playouts on the raw integer state (:func:`senet.engine.flow.random_playout`):
    the same rules with no Position object per move."""
    from senet.engine.flow import random_playout
    from senet.engine.rules import tables_for

    v = find_variant(variant)
    tables, state, rng = tables_for(v), Position.initial(v).state, random.Random(seed)
    games = moves = 0
    start = clock()
    while True:
        moves += random_playout(tables, state, rng)[1]
        games += 1
        if clock() >= start + seconds:
            break
    elapsed = clock() - start
    return {"raw_playouts_per_s": games / elapsed, "raw_moves_per_s": moves / elapsed}


def compiled_playouts(variant: str, seconds: float, seed: int) -> dict[str, float]:
    """Random playouts of the compiled simulator (one process), with every statistic the
    simulator keeps counted along the way, in batches until ``seconds`` of CPU time have
    passed; compiling (or loading the cached machine code) happens before the clock starts.
    Raises ValueError, naming the rule, for a variant the simulator does not play."""
    from senet.compiled.kernel import RANDOM
    from senet.compiled.tables import compile_rules

    from .runner import run

    rules = compile_rules(find_variant(variant))
    run(rules, 10, seed)
    games = moves = 0
    batch = 2_000
    start = clock()
    while True:
        tally = run(rules, batch, seed + games, (RANDOM, RANDOM))
        games += batch
        moves += int(tally.lengths[2])  # decisions, summed exactly
        if clock() >= start + seconds:
            break
    elapsed = clock() - start
    return {"compiled_playouts_per_s": games / elapsed, "compiled_moves_per_s": moves / elapsed}


def sample_positions(engine: Engine, variant: str, count: int, seed: int) -> list[State]:
    """A fixed sample of reachable decision positions: every 7th decision of seeded random
    playouts, so early, middle and late positions are all represented.  Same seed, same sample."""
    rng = random.Random(seed)
    seen: list[State] = []
    counter = [0]

    def visit(state: State) -> None:
        counter[0] += 1
        if counter[0] % 7 == 0 and len(seen) < count:
            seen.append(state)

    while len(seen) < count:
        playout(engine, variant, rng, visit)
    return seen


def generation_time(engine: Engine, positions: list[State], seconds: float) -> dict[str, float]:
    """Microseconds per legal-move generation over ``positions``, repeated until ``seconds``;
    the median of the passes, so one interrupted pass does not skew it."""
    legal = engine.legal
    passes: list[float] = []
    spent = 0.0
    while spent < seconds or not passes:
        start = clock()
        for state in positions:
            legal(state)
        elapsed = clock() - start
        passes.append(elapsed / len(positions) * 1e6)
        spent += elapsed
    return {
        "positions": len(positions),
        "passes": len(passes),
        "us_per_generation": statistics.median(passes),
    }


def measure(
    variant: str,
    seconds: float,
    seed: int,
    *,
    engine: Engine | None = None,
    sample: int = 2000,
    compiled: bool = True,
    on_skip: Callable[[str], None] = lambda why: None,
) -> dict[str, Any]:
    """Every figure of one variant within about ``seconds`` of CPU time: half on API
    playouts, a quarter each on raw and compiled playouts (our engine only), a quarter on
    generating the legal moves of ``sample`` positions.  A variant the compiled simulator
    refuses is measured without it, and ``on_skip`` is told why."""
    engine = engine or SenetEngine()
    row: dict[str, Any] = {"variant": variant}
    row.update(api_playouts(engine, variant, seconds * 0.5, seed))
    if isinstance(engine, SenetEngine):
        row.update(raw_playouts(variant, seconds * 0.25, seed))
        if compiled:
            try:
                row.update(compiled_playouts(variant, seconds * 0.25, seed))
            except ValueError as exc:  # rules the compiled simulator refuses, by name
                on_skip(f"{variant}: no compiled playouts: {exc}")
    positions = sample_positions(engine, variant, sample, seed + 1)
    row.update(generation_time(engine, positions, seconds * 0.25))
    return row
