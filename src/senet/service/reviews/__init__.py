"""The site's analyses: the review of a finished game (its winning-chance graph, mistakes and
replay), computed once by a worker and stored, and a single position's analysis, each kept in
a small LRU (:mod:`.analyses`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .analyses import (
    Analyses,
    GameReview,
    Replay,
    ReviewDecision,
    Reviews,
    ReviewTurn,
    chart,
    replay,
    review_from_rows,
    review_game_of,
)

__all__ = [
    "Analyses",
    "GameReview",
    "Replay",
    "ReviewDecision",
    "ReviewTurn",
    "Reviews",
    "chart",
    "replay",
    "review_from_rows",
    "review_game_of",
]
