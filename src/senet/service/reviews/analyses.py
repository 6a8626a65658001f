"""Analysis of finished games for the site: the winning-chance graph, the mistakes and the
replay of every decision; and the analysis of single positions (hints, the analysis board).

The judge is :func:`senet.ai.review.review_game` (the master level: exact endgame values where
the solver reaches, search elsewhere), run by a worker process (:mod:`senet.service.infrastructure.jobs`),
never by a web process.  A finished game never changes, so its review is computed once and
stored with the game (the ``reviews`` table), read by every process and kept in a small LRU of
each; a page can say it is not ready yet (:meth:`Reviews.ready`) and a request wait for it
(:meth:`Reviews.review`).  A position's analysis is kept in an LRU of each process too.

Decisions are shown by their *turn number*, the number of the record's line and of the game
page's move list (a turn holds every throw and move of one seat, extra throws included), so the
same number finds a mistake in the review, in the game's moves and in the downloaded record.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from senet.ai.review import Account, ReviewRow, account, review_game
from senet.engine import Game, Position, Throw, parse_move
from senet.engine.record import GameRecord, turn_numbers
from senet.service.analysis.position_analysis import Analysis
from senet.service.errors import GameError
from senet.service.games.live_games import LiveGame
from senet.service.games.storage import Storage
from senet.service.infrastructure.jobs import AnalysisJob, Client, JobKind, JobQueue, ReviewJob
from senet.service.infrastructure.jobs.messages import result_from_wire, result_to_wire

__all__ = [
    "Analyses",
    "GameReview",
    "ReviewDecision",
    "ReviewTurn",
    "Replay",
    "Reviews",
    "review_from_rows",
    "review_game_of",
    "replay",
    "chart",
]


@dataclass(frozen=True)
class ReviewDecision:
    """One decision of the game, judged, with where it stands in the game."""

    index: int  # 0-based place among the decisions: the replay's step
    turn: int  # the turn number, as the record and the game's move list number it
    on_turn: int  # the seat on turn (the decider may be the other seat)
    row: ReviewRow

    @property
    def throw(self) -> str:
        """The throw the decision was made with, as the position notation writes it (``-``
        for a choice made before a throw); where several throws of the turn waited
        (kendall-1978), the one the move played."""
        return self._throw_of(self.row.move)

    @property
    def best_throw(self) -> str:
        """The throw the best move would have played: the same as :attr:`throw` but where
        several throws of the turn waited and the best move uses another of them."""
        return self._throw_of(self.row.best)

    def _throw_of(self, move_text: str) -> str:
        position = Position.from_fen(self.row.position)
        if len(position.throws) > 1:
            move = parse_move(move_text)
            if move.is_step:
                return str(position.throw_used(move))
        return self.row.position.split(" ")[3]


@dataclass(frozen=True)
class ReviewTurn:
    """The decisions of one turn, for the review's move list."""

    number: int
    seat: int  # the seat on turn
    decisions: tuple[ReviewDecision, ...]


@dataclass(frozen=True)
class GameReview:
    decisions: tuple[ReviewDecision, ...]
    end: str  # the final position's notation

    @property
    def rows(self) -> tuple[ReviewRow, ...]:
        return tuple(d.row for d in self.decisions)

    @property
    def account(self) -> Account | None:
        """Each player's luck and decisions in sums (None for a game without a decision)."""
        return account(self.rows)

    @property
    def marked(self) -> tuple[ReviewDecision, ...]:
        return tuple(d for d in self.decisions if d.row.verdict)

    @property
    def turns(self) -> tuple[ReviewTurn, ...]:
        turns: list[ReviewTurn] = []
        for d in self.decisions:
            if turns and turns[-1].number == d.turn:
                last = turns[-1]
                turns[-1] = ReviewTurn(last.number, last.seat, (*last.decisions, d))
            else:
                turns.append(ReviewTurn(d.turn, d.on_turn, (d,)))
        return tuple(turns)


def review_game_of(game: Game) -> GameReview:
    """Judge every decision of ``game`` here (blocking: minutes of search for a long game; the
    site has a worker do it) and place each one in its turn."""
    return review_from_rows(game, review_game(game))


def review_from_rows(game: Game, rows: Sequence[ReviewRow]) -> GameReview:
    """The judged decisions ``rows`` of ``game``, each placed in its turn."""
    played = list(game)
    numbers = turn_numbers(pos for pos, _ in played)
    places = [
        (number, pos.turn)
        for number, (pos, action) in zip(numbers, played, strict=True)
        if not isinstance(action, Throw)
    ]
    if len(places) != len(rows):
        raise ValueError(f"{len(rows)} decisions judged, {len(places)} played")
    decisions = tuple(
        ReviewDecision(index, number, seat, row)
        for index, ((number, seat), row) in enumerate(zip(places, rows, strict=True))
    )
    return GameReview(decisions, game.position.fen())


#: One step of the replay, in the order the page reads it: turn number, seat that decided,
#: position before the decision (notation, throw included), move played, best move, verdict
#: ("" for a good move), winning chance lost in percent (one decimal), the throw the move
#: played (``-`` before a throw; kendall-1978: which of the turn's throws), and the throw the
#: best move would have played (kendall-1978: it may be another of the turn's throws).
ReplayStep = tuple[int, int, str, str, str, str, float, str, str]


class Replay(TypedDict):
    """Every position of a reviewed game, for the review page's board (embedded in the page as
    JSON: under 100 bytes a decision)."""

    steps: list[ReplayStep]
    end: str
    #: where the result came from (:meth:`senet.ai.review.Account.as_dict`): seat A's chance at
    #: the start and after the last decision, and per seat the decisions with a choice, the
    #: chance they lost, the error rate (lost per decision), the inaccuracies, mistakes and
    #: blunders, and the luck of the seat's throws, each from the seat's own side
    account: dict[str, object] | None


def replay(review: GameReview) -> Replay:
    """The replay of ``review``: a step a decision, then the final position."""
    return {
        "steps": [
            (
                d.turn,
                d.row.mover,
                d.row.position,
                d.row.move,
                d.row.best,
                d.row.verdict,
                round(d.row.loss * 100, 1),
                d.throw,
                d.best_throw,
            )
            for d in review.decisions
        ],
        "end": review.end,
        "account": summary.as_dict() if (summary := review.account) is not None else None,
    }


class Reviews:
    """The reviews of finished games: stored once with the game, kept per process."""

    def __init__(self, storage: Storage, jobs: JobQueue, keep: int = 64) -> None:
        self.storage = storage
        self.jobs = jobs
        self.keep = keep
        self._kept: OrderedDict[str, GameReview] = OrderedDict()

    async def ready(self, live: LiveGame) -> GameReview | None:
        """The review of a finished game (ended by the rules or by a player: a resignation, a
        loss on time, an abandoned game) if it has been computed, else None; GameError
        ``not_over`` while the game is still going on."""
        if not live.over:
            raise GameError("not_over", "the review is ready when the game is over", 409)
        kept = self._kept.get(live.id)
        if kept is not None:
            self._kept.move_to_end(live.id)
            return kept
        stored = await self.storage.get_review(live.id)
        if stored is None:
            return None
        rows = result_from_wire(self._job(live), json.loads(stored))
        if not isinstance(rows, tuple):
            raise TypeError(f"a stored review is a tuple of rows, not {type(rows).__name__}")
        return self._keep(live.id, review_from_rows(live.game, rows))

    async def review(self, live: LiveGame, client: Client | None = None) -> GameReview:
        """The review of a finished game, computed by a worker if nobody has yet (the same
        game asked for twice is judged once); :class:`~senet.service.infrastructure.jobs.Busy` when the
        queue or the client's quota is full.  A caller that gives up gives the job up."""
        ready = await self.ready(live)
        if ready is not None:
            return ready
        rows = await self.jobs.review(self._job(live), client)
        await self.storage.store_review(live.id, json.dumps(result_to_wire(rows)))
        return self._keep(live.id, review_from_rows(live.game, rows))

    @staticmethod
    def _job(live: LiveGame) -> ReviewJob:
        return ReviewJob(live.id, GameRecord.from_game(live.game).text())

    def _keep(self, game_id: str, review: GameReview) -> GameReview:
        self._kept[game_id] = review
        while len(self._kept) > self.keep:
            self._kept.popitem(last=False)
        return review


class Analyses:
    """The analysis of positions (hints, the analysis board), by a worker, kept per process."""

    def __init__(self, jobs: JobQueue, keep: int = 512) -> None:
        self.jobs = jobs
        self.keep = keep
        self._kept: OrderedDict[str, Analysis] = OrderedDict()

    async def analyse(
        self, position: Position, kind: JobKind = "analysis", client: Client | None = None
    ) -> Analysis:
        """The judgement of ``position`` (see :mod:`senet.service.analysis.position_analysis`), for a
        player's ``hint`` or the ``analysis`` board; :class:`~senet.service.infrastructure.jobs.Busy` when
        the queue or the client's quota is full."""
        fen = position.fen()
        kept = self._kept.get(fen)
        if kept is not None:
            self._kept.move_to_end(fen)
            return kept
        result = await self.jobs.analysis(AnalysisJob(fen, kind), client)
        self._kept[fen] = result
        while len(self._kept) > self.keep:
            self._kept.popitem(last=False)
        return result


def chart(
    review: GameReview, width: int = 640, height: int = 200, side: int = 0
) -> dict[str, object]:
    """Coordinates of the winning-chance graph (the chance of ``side``, seat A's by default,
    after each decision) and of the marked mistakes, for an SVG drawn by the template."""
    rows = review.rows
    decisions = review.decisions
    step = width / max(len(rows), 1)

    def y(chance_a: float) -> float:
        chance = chance_a if side == 0 else 1 - chance_a
        return round((1 - chance) * height, 1)

    points = [(0.0, y(rows[0].chance_a_before))] if rows else []
    points += [(round((i + 1) * step, 1), y(row.chance_a_after)) for i, row in enumerate(rows)]
    marks = [
        {
            "x": round((d.index + 1) * step, 1),
            "y": y(d.row.chance_a_after),
            "verdict": d.row.verdict,
            "turn": d.turn,
            "step": d.index,
        }
        for d in decisions
        if d.row.verdict
    ]
    return {
        "side": side,
        "width": width,
        "height": height,
        "points": " ".join(f"{x},{yy}" for x, yy in points),
        "marks": marks,
        "half": height / 2,
        "step": round(step, 3),
    }
