"""What a worker process does with a job: the one function both queues run
(:func:`perform`, wire in, wire out), and the warm-up before the first job.

Only worker processes import the search through here; a web process never calls it.
"""

from __future__ import annotations

import random

from senet.engine import Position
from senet.engine.record import parse_record
from senet.service import computer
from senet.service.analysis.position_analysis import analyse, load_compiled_solver

from .messages import (
    AnalysisJob,
    ComputerMoveJob,
    JobResult,
    Wire,
    request_from_wire,
    result_to_wire,
)

__all__ = ["perform", "warm_up"]


def perform(wire: Wire) -> Wire:
    """Do the job ``wire`` asks for and answer its result (blocking: seconds of CPU)."""
    request = request_from_wire(wire)
    result: JobResult
    if isinstance(request, ComputerMoveJob):
        position = Position.from_fen(request.position)
        rng = random.Random(request.seed)
        result = computer.choose_move(position, request.level, rng, computer.greedy_player).text()
    elif isinstance(request, AnalysisJob):
        result = analyse(Position.from_fen(request.position))
    else:
        from senet.ai.review import review_game

        result = tuple(review_game(parse_record(request.record).replay()))
    return result_to_wire(result)


def warm_up() -> None:
    """Load the levels' compiled code and the compiled solver of the analyses now, so that no
    player's move and no analysis waits for it."""
    thread = computer.warm_up()
    if thread is not None:
        thread.join()
    load_compiled_solver()
