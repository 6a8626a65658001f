"""A position's analysis: every legal move with the winning chance after it, exact where the
endgame solver reaches (the analysis board, the hints).  Search: the site runs it in a worker
process (:mod:`senet.service.infrastructure.jobs`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .position_analysis import SOLVE_STATES, Analysis, MoveChance, ThrowChance, analyse, forget

__all__ = ["Analysis", "MoveChance", "SOLVE_STATES", "ThrowChance", "analyse", "forget"]
