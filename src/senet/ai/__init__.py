"""The computer opponent: levels from a gentle beginner to a searching, endgame-solving master.

>>> import random
>>> from senet.engine import find_variant, Position
>>> from senet.ai import choose_move, LEVELS
>>> pos = Position.initial(find_variant("standard")).apply_throw(3)
>>> choose_move(pos, "master", random.Random(1)) in pos.legal_moves()
True

Every level judges positions by an evaluation learned by TD(λ) self-play
(:mod:`senet.ai.evaluation`, :mod:`senet.ai.network`); they differ in the model, how far they look and how much noise
they add:

* the lower levels look one decision ahead and pick among the moves at random, weighted by
  ``exp(value / temperature)`` — so they make the natural mistakes of a weaker player rather
  than absurd ones, and always take a move that wins on the spot;
* the expert plays the best move by the linear evaluation; the master runs expectiminimax
  over the exact throw distribution (:mod:`.search`), deepened iteratively within a fixed
  amount of search (the positions its evaluation scores in 300 ms of a core), with the network trained by self-play (:mod:`.network`, evaluated by the
  compiled code of :mod:`.compiled_network`, trained by
  :mod:`.selfplay`, in standard and Kendall's game then fitted to its own deeper search by
  :mod:`.fitted`; the older ``net`` model where a variant ships none), and plays endgames exactly
  from the shipped tables (:mod:`.tables`: every position with at most two pieces a side in
  standard, Kendall and Bell, with three against two in standard and Kendall, with at most
  three in all in Jéquier's game) or by solving them (:mod:`.solver`); in Kendall's game
  it chooses its move by rollouts at the root instead (:mod:`.rollout`: the expert's policy
  played on from every move on the compiled simulator, up to 8,000 rollouts a move), while the values it
  shows (:func:`move_values`) stay the search's.

``choose_move`` is deterministic for a given ``rng`` state: the same seed gives the same play,
the master included: its search and rollouts are fixed in amount (positions evaluated,
batches of rollouts), not in time, so a busy machine makes it slower, never weaker nor
different (a wall-clock cap of a few seconds, :data:`.search.WALL_CAP`, is the only exception,
for a machine many times overloaded).
The computer never sees future throws: throws are chance outcomes it averages over.
"""

from __future__ import annotations

import math
import random
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from senet.engine import Move, Position, Variant

from . import search
from .evaluation import EQUAL_WITHIN, StateEvaluation, evaluator_for, terminal_value
from .network import network_for
from .search import Searcher
from .solver import for_seat

if TYPE_CHECKING:
    from .rollout import RolloutPlayer

__all__ = [
    "Level",
    "LEVELS",
    "find_level",
    "choose_move",
    "move_values",
    "searcher_for",
    "evaluation_for",
    "forget_searchers",
    "rolls_out",
    "warm_up",
    "rollout_player_for",
]


@dataclass(frozen=True)
class Level:
    """One playing strength.  ``depth`` counts decisions searched; ``temperature`` > 0 makes the
    choice random among moves (weighted by their values); ``solve_states`` lets the level solve
    endgames whose whole future has at most that many positions; with a ``budget`` (seconds)
    the search deepens iteratively up to ``depth`` within it."""

    key: str
    name_en: str
    name_ru: str
    description_en: str
    description_ru: str
    depth: int
    temperature: float = 0.0
    solve_states: int = 0
    #: seconds per decision for iterative deepening up to ``depth`` (the level's pace: where
    #: ``nodes`` fixes the search instead, what it costs on an idle machine, which the engine
    #: protocol's ``go movetime`` compares with the time it is given)
    budget: float = 0.0
    #: per variant, positions evaluated per decision for iterative deepening up to ``depth``
    #: (:class:`.search.Searcher`'s ``node_budget``): the amount of search fixed, so the
    #: level plays the same on a loaded machine as on an idle one; a variant not named, and
    #: a level without ``nodes``, deepens within ``budget`` on the clock
    nodes: tuple[tuple[str, int], ...] = ()
    #: which shipped evaluation: ``linear`` or ``net`` (:data:`senet.ai.evaluation.MODELS`),
    #: or ``td``, the network trained by self-play (:mod:`senet.ai.network`; where a variant
    #: ships none, the ``net`` model)
    model: str = "linear"
    #: seconds of Monte Carlo rollouts at the root (:mod:`.rollout`) in the variants named in
    #: ``rollout_variants``: there the move is chosen by rollouts instead of the search (exact
    #: values still come first); the values a level shows (:func:`move_values`: hints, reviews,
    #: the analysis board) stay the search's
    rollouts: float = 0.0
    rollout_variants: tuple[str, ...] = ()
    #: with ``nodes``, the rollouts are fixed as well: every move is rolled out until the best
    #: is clear or for at most this many batches (:class:`.rollout.RolloutPlayer`'s
    #: ``max_batches``), whatever the clock says (0: within ``rollouts`` seconds)
    rollout_batches: int = 0
    #: variants where the search counts whole turns, not decisions (:class:`.search.Searcher`'s
    #: ``whole_turns``): those where one seat often decides several times on one throw
    whole_turn_variants: tuple[str, ...] = ()
    #: whether a solving level reads the endgame tables inside its search as well as at the
    #: root (:class:`.search.Searcher`'s ``leaf_tables``)
    leaf_tables: bool = True

    def node_budget(self, variant_name: str) -> int:
        """Positions evaluated per decision in the variant (0: the search is timed)."""
        return dict(self.nodes).get(variant_name, 0)

    def name(self, lang: str = "en") -> str:
        return self.name_ru if lang == "ru" else self.name_en

    def description(self, lang: str = "en") -> str:
        return self.description_ru if lang == "ru" else self.description_en


#: The levels, weakest first.
LEVELS: tuple[Level, ...] = (
    Level(
        "beginner",
        "Beginner",
        "Новичок",
        "Plays almost at random, but never misses a winning move, and answers at once (under a"
        " millisecond). Anyone who knows the rules wins most games against it.",
        "Ходит почти наугад, но не упустит выигрывающий ход, и отвечает сразу (меньше"
        " миллисекунды). Тот, кто знает правила, выиграет у него большинство партий.",
        depth=1,
        temperature=0.5,
    ),
    Level(
        "casual",
        "Casual",
        "Любитель",
        "Knows which moves are good, yet often picks a worse one; answers at once. Against the"
        " beginner it wins from six games in ten to nearly every game, depending on the variant"
        " (78 in 100 in the standard game: rated about 220 points above it): a fair match for a"
        " new player.",
        "Понимает, какие ходы хороши, но часто выбирает похуже; отвечает сразу. У новичка"
        " выигрывает от шести партий из десяти почти до всех, смотря по варианту (78 из 100 в"
        " стандартной игре: рейтинг примерно на 220 очков выше): ровный соперник для"
        " начинающего.",
        depth=1,
        temperature=0.03,
    ),
    Level(
        "expert",
        "Expert",
        "Знаток",
        "Always plays the move its learned judgement rates best, one move ahead; answers at once."
        " Against the casual player it wins from three games in five (Bell's game) to nine in"
        " ten, depending on the variant (69 in 100 in the standard game: rated about 140 points"
        " above it): a good player needs care to beat it.",
        "Всегда делает ход, который его выученная оценка считает лучшим, на ход вперёд; отвечает"
        " сразу. У любителя выигрывает от трёх партий из пяти (игра Белла) до девяти из десяти,"
        " смотря по варианту (69 из 100 в стандартной игре: рейтинг примерно на 140 очков выше):"
        " хорошему игроку нужно быть внимательным.",
        depth=1,
    ),
    Level(
        "master",
        "Master",
        "Мастер",
        "Thinks usually under a tenth of a second a move (medians 7–90 ms, depending on the"
        " variant), at most about 0.7 s: it weighs every throw of both players several moves"
        " ahead (in Kendall's game it plays each possible move out hundreds of times against"
        " different throws, to see where it leads). Plays the end of the game perfectly once few"
        " pieces are left (three against two in the standard game and Kendall's, two a side in"
        " Bell's). Against the expert it wins from three games in five (the standard game: rated"
        " about 70 points above it) to six in seven (Kendall's 1978 game): the strongest"
        " opponent here.",
        "Думает обычно меньше десятой доли секунды над ходом (медиана 7–90 мс, смотря по"
        " варианту), самое большее около 0,7 с: просчитывает все броски обоих игроков на"
        " несколько ходов вперёд (в игре Кендалла разыгрывает каждый возможный ход сотни раз при"
        " разных бросках, чтобы увидеть, к чему он ведёт). Безупречно доигрывает партию, когда"
        " фишек остаётся мало (три против двух в стандартной игре и у Кендалла, по две у каждого"
        " у Белла). У знатока выигрывает от трёх партий из пяти (стандартная игра: рейтинг"
        " примерно на 70 очков выше) до шести из семи (игра Кендалла 1978 года): самый сильный"
        " соперник на сайте.",
        depth=8,
        budget=0.3,
        # what its search evaluated in 0.3 s of one core (bench/ai_move_time.py's sample,
        # 139,000 to 244,000 positions a second depending on the variant's evaluation)
        nodes=(
            ("standard", 70_000),
            ("bell", 50_000),
            ("kendall", 70_000),
            ("adelaida", 70_000),
            ("adelaida-long", 70_000),
            ("jequier", 75_000),
            ("kendall-1978", 55_000),
            ("piccione", 40_000),
        ),
        solve_states=6_000,
        model="td",
        rollouts=0.2,
        rollout_variants=("kendall",),
        rollout_batches=1_000,
    ),
)

_BY_KEY = {level.key: level for level in LEVELS}


def find_level(level: Level | str) -> Level:
    """A level by key (``"beginner"`` ... ``"master"``) or the level itself."""
    if isinstance(level, Level):
        return level
    try:
        return _BY_KEY[level.strip().lower()]
    except KeyError:
        raise KeyError(f"unknown level {level!r}; known: {', '.join(_BY_KEY)}") from None


_searchers: dict[tuple[str, str, int], Searcher] = {}
_rollout_players: dict[tuple[str, str], RolloutPlayer] = {}
_lock = threading.Lock()


def searcher_for(position: Position, level: Level) -> Searcher:
    """The searcher of ``level`` for the position's variant, one per thread (their caches are
    not shared between threads, so concurrent games never step on each other)."""
    key = (position.variant.name, level.key, threading.get_ident())
    with _lock:
        searcher = _searchers.get(key)
        if searcher is None:
            evaluator = evaluation_for(position.variant, level.model)
            nodes = level.node_budget(position.variant.name)
            searcher = _searchers[key] = Searcher(
                evaluator,
                level.depth,
                level.solve_states,
                0.0 if nodes else level.budget,
                whole_turns=position.variant.name in level.whole_turn_variants,
                leaf_tables=level.leaf_tables,
                node_budget=nodes,
            )
    return searcher


def evaluation_for(variant: Variant, model: str) -> StateEvaluation:
    """The shipped evaluation ``model`` of ``variant`` (``td``: the trained network where one
    is shipped, else the ``net`` model)."""
    if model == "td":
        network = network_for(variant)
        if network is not None:
            # the compiled code loads only where a network is used
            from .compiled_network import compiled_network_for

            return compiled_network_for(variant) or network
        model = "net"
    return evaluator_for(variant, model)


def forget_searchers() -> None:
    """Drop every searcher with its transposition table and solutions.  The master's depth
    depends on the time it has and on what its table already holds, so a replay that must
    repeat a game move for move starts from empty searchers (and an injected clock, see
    :data:`senet.ai.search.now`)."""
    with _lock:
        _searchers.clear()


def warm_up() -> None:
    """Load the compiled rollout code and the tables of every variant a level rolls out in,
    and the compiled network evaluation of every variant that ships a network (from Numba's
    disk cache about a second each; the very first time on a machine, while Numba compiles,
    half a minute), so that no player's move waits for it."""
    from senet.engine import VARIANTS, find_variant

    from .compiled_network import warm_up as load_network
    from .rollout import warm_up as load

    for name in sorted(
        {name for level in LEVELS if level.rollouts for name in level.rollout_variants}
    ):
        load(find_variant(name))
    if any(level.model == "td" for level in LEVELS):
        for name in VARIANTS:
            load_network(find_variant(name))


def rolls_out(position: Position, level: Level) -> bool:
    """Whether ``level`` chooses its moves in ``position``'s variant by rollouts."""
    from .rollout import supports  # the compiled simulator loads only when a level rolls out

    return (
        level.rollouts > 0
        and position.variant.name in level.rollout_variants
        and supports(position.variant)
    )


def rollout_player_for(position: Position, level: Level) -> RolloutPlayer:
    """The rollout player of ``level`` for the position's variant (it keeps no state between
    calls, so threads share it)."""
    from .rollout import RolloutPlayer

    key = (position.variant.name, level.key)
    with _lock:
        player = _rollout_players.get(key)
        if player is None:
            if level.rollout_batches and level.node_budget(position.variant.name):
                player = RolloutPlayer(
                    position.variant, max_batches=level.rollout_batches, fixed=True
                )
            else:
                player = RolloutPlayer(position.variant, level.rollouts)
            _rollout_players[key] = player
    return player


def move_values(position: Position, level: Level | str = "master") -> list[tuple[Move, float]]:
    """Every legal move with the decider's expected result after it, as ``level`` judges it."""
    seat = position.decider
    if seat is None:
        raise ValueError("no decision is due in this position (a throw is due or the game is over)")
    searcher = searcher_for(position, find_level(level))
    return [(m, for_seat(v, seat)) for m, v in searcher.move_values(position)]


def choose_move(position: Position, level: Level | str, rng: random.Random) -> Move:
    """The move ``level`` plays in ``position`` (which must await a decision)."""
    level = find_level(level)
    legal = position.legal_moves()
    if not legal:
        raise ValueError("no decision is due in this position (a throw is due or the game is over)")
    if len(legal) == 1:
        return legal[0]
    seat = position.decider
    for move in legal:  # a move that ends the game in our favour is never missed
        done = terminal_value(position.apply_unchecked(move))
        if done is not None and for_seat(done, seat) == 1.0:  # type: ignore[arg-type]
            return move
    if rolls_out(position, level):
        start = search.now()
        exact = searcher_for(position, level).exact_move_values(position)
        values = exact or rollout_player_for(position, level).move_values(position, start)
        scored = [(m, for_seat(v, seat)) for m, v in values]  # type: ignore[arg-type]
    else:
        scored = move_values(position, level)
    if level.temperature <= 0:
        best = max(v for _, v in scored)
        # the first of equals: deterministic, and the same whichever way a value was summed
        return next(m for m, v in scored if v >= best - EQUAL_WITHIN)
    top = max(v for _, v in scored)
    weights = [math.exp((v - top) / level.temperature) for _, v in scored]
    return rng.choices([m for m, _ in scored], weights=weights)[0]
