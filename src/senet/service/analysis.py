"""Analysis of finished games for the site: the winning-chance graph and the mistakes.

The judge is :func:`senet.ai.review.review_game` (the master level: exact endgame values where
the solver reaches, search elsewhere).  A finished game never changes, so each review is
computed once per process and kept (a small LRU), and always in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

from senet.ai.review import ReviewRow, review_game

from .store import LiveGame

__all__ = ["GameReview", "review_of", "chart"]

_CACHE: OrderedDict[str, GameReview] = OrderedDict()
_CACHE_SIZE = 64


@dataclass(frozen=True)
class GameReview:
    rows: tuple[ReviewRow, ...]

    @property
    def marked(self) -> tuple[ReviewRow, ...]:
        return tuple(row for row in self.rows if row.verdict)


async def review_of(live: LiveGame) -> GameReview:
    """The review of a finished game (ValueError while it is still going on)."""
    if live.position.outcome() is None:
        raise ValueError("the game is not over yet")
    cached = _CACHE.get(live.id)
    if cached is None:
        rows = await asyncio.to_thread(review_game, live.game)
        cached = _CACHE[live.id] = GameReview(tuple(rows))
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end(live.id)
    return cached


def chart(review: GameReview, width: int = 640, height: int = 200) -> dict[str, object]:
    """Coordinates of the winning-chance graph (seat A's chance after each decision) and of the
    marked mistakes, for an SVG drawn by the template."""
    rows = review.rows
    step = width / max(len(rows), 1)
    y = lambda chance: round((1 - chance) * height, 1)  # noqa: E731 - a scale, not a function to name
    points = [(0.0, y(rows[0].chance_a_before))] if rows else []
    points += [(round((i + 1) * step, 1), y(row.chance_a_after)) for i, row in enumerate(rows)]
    marks = [
        {
            "x": round((i + 1) * step, 1),
            "y": y(row.chance_a_after),
            "verdict": row.verdict,
            "ply": row.ply,
        }
        for i, row in enumerate(rows)
        if row.verdict
    ]
    return {
        "width": width,
        "height": height,
        "points": " ".join(f"{x},{yy}" for x, yy in points),
        "marks": marks,
        "half": height / 2,
    }
