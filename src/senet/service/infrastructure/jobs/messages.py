"""The messages between a web process and the worker processes: what a job asks, what it
answers, and their wire form (plain JSON values, the same for the local pool's pipes and the
Redis queue).  Each request and each result is built here, in one place.

Four kinds of job, in the order they are served: the computer's move in a live game, a hint
for a player, the analysis board's judgement of a position, the review of a finished game.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any, Literal

from senet.ai.review import ReviewRow
from senet.service.analysis.position_analysis import Analysis, MoveChance, ThrowChance

__all__ = [
    "KINDS",
    "LIVE_KINDS",
    "AnalysisJob",
    "ComputerMoveJob",
    "JobKind",
    "JobRequest",
    "JobResult",
    "ReviewJob",
    "Wire",
    "request_from_wire",
    "request_to_wire",
    "result_from_wire",
    "result_to_wire",
]

JobKind = Literal["computer", "hint", "analysis", "review"]
#: Every kind, first served first.
KINDS: tuple[JobKind, ...] = ("computer", "hint", "analysis", "review")
#: The kinds a player waits for in a live game (served by every worker; the others are not
#: served by the workers kept for these).
LIVE_KINDS: frozenset[JobKind] = frozenset({"computer", "hint"})

#: A message on the wire: a JSON object.
Wire = dict[str, Any]


@dataclass(frozen=True)
class ComputerMoveJob:
    """The computer's move for ``position``'s decider at ``level``, its randomness from
    ``seed``; ``game`` and ``ply`` name the turn (one job a turn)."""

    position: str
    level: str
    seed: int
    game: str
    ply: int

    kind: JobKind = "computer"

    @property
    def key(self) -> str:
        return f"computer:{self.game}:{self.ply}"


@dataclass(frozen=True)
class AnalysisJob:
    """The judgement of ``position`` (:func:`senet.service.analysis.position_analysis.analyse`), for a
    player's hint (``kind`` ``hint``) or the analysis board (``analysis``)."""

    position: str
    kind: JobKind = "analysis"

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.position}"


@dataclass(frozen=True)
class ReviewJob:
    """The master's judgement of every decision of the finished game ``game``, whose moves
    ``record`` holds (the record format of :mod:`senet.engine.record`)."""

    game: str
    record: str

    kind: JobKind = "review"

    @property
    def key(self) -> str:
        return f"review:{self.game}"


JobRequest = ComputerMoveJob | AnalysisJob | ReviewJob
#: A move in notation, a position's judgement, or the review's rows (one per decision).
JobResult = str | Analysis | tuple[ReviewRow, ...]


def job_id(request: JobRequest) -> str:
    """A short name of the job, the same in every process (a queue's job id)."""
    digest = hashlib.sha256(request.key.encode()).hexdigest()[:32]
    return f"{request.kind}-{digest}"


def request_to_wire(request: JobRequest) -> Wire:
    return asdict(request)


def request_from_wire(wire: Wire) -> JobRequest:
    kind = wire.get("kind")
    if kind == "computer":
        return ComputerMoveJob(
            str(wire["position"]),
            str(wire["level"]),
            int(wire["seed"]),
            str(wire["game"]),
            int(wire["ply"]),
        )
    if kind in ("hint", "analysis"):
        return AnalysisJob(str(wire["position"]), kind)
    if kind == "review":
        return ReviewJob(str(wire["game"]), str(wire["record"]))
    raise ValueError(f"unknown job kind {kind!r}")


def result_to_wire(result: JobResult) -> Wire:
    if isinstance(result, str):
        return {"move": result}
    if isinstance(result, Analysis):
        return {"analysis": asdict(result)}
    return {"rows": [asdict(row) for row in result]}


def result_from_wire(request: JobRequest, wire: Wire) -> JobResult:
    if isinstance(request, ComputerMoveJob):
        return str(wire["move"])
    if isinstance(request, AnalysisJob):
        data = dict(wire["analysis"])
        data["moves"] = tuple(MoveChance(**m) for m in data["moves"])
        data["throws"] = tuple(ThrowChance(**t) for t in data["throws"])
        return Analysis(**data)
    return tuple(ReviewRow(**row) for row in wire["rows"])
