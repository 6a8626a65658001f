"""What the compiled expert player (:data:`senet.compiled.kernel.EXPERT`) reads of the learned
linear evaluation, defined without Numba so that :mod:`senet.ai` can build it cheaply."""

from __future__ import annotations

import numpy as np

__all__ = ["EQUAL_WITHIN", "Weights"]

#: The linear evaluation as the kernel reads it: the two 15-bit occupancy tables and the scalar
#: weights followed by the tempo weight (:func:`senet.ai.evaluation.weights_for` builds it).
Weights = tuple[np.ndarray, np.ndarray, np.ndarray]

#: Values closer than this are equal when a level picks "the first of the best moves": the
#: batched evaluation and a move-by-move one round the same sum differently in the last bits,
#: and exact ties (common with the hand-made default weights, which value every move by the
#: same throw alike) must stay ties.  The compiled expert and :mod:`senet.ai` use this one
#: value, so that they choose the same move.
EQUAL_WITHIN = 1e-12
