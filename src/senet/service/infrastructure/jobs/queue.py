"""The one interface of the job queues (:class:`JobQueue`), and what both backends share:
the limits per kind and per client, and the refusal when they are reached (:class:`Busy`).

A job is asked for with :meth:`JobQueue.run` and awaited: the same job asked twice (the same
position, the same game's review, the same turn) runs once and both callers get its result.
A caller that stops waiting (its task cancelled: the client hung up, the position moved on)
gives the job up; a job nobody waits for is dropped before it starts, or stopped if it runs.
"""

from __future__ import annotations

import abc
import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from senet.ai.review import ReviewRow
from senet.service.analysis.position_analysis import Analysis
from senet.service.errors import GameError

from .messages import (
    AnalysisJob,
    ComputerMoveJob,
    JobKind,
    JobRequest,
    JobResult,
    ReviewJob,
    Wire,
    result_from_wire,
)

__all__ = ["Busy", "Client", "JobFailed", "JobLimits", "JobQueue", "KindLimits"]


class Busy(GameError):
    """A job refused: its kind's queue is full, or its client already waits for as many jobs
    as it may.  HTTP 429 with ``Retry-After: retry_after``."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("busy", message, 429)
        self.retry_after = retry_after


class JobFailed(RuntimeError):
    """A job failed (its worker raised, or died on each of its two tries), or was stopped."""


@dataclass(frozen=True)
class Client:
    """Who waits for a job: the client's address and, for a player's hint, their seat (a
    game and a digest of the seat's secret).  The server's own jobs have no client."""

    address: str | None = None
    seat: str | None = None


@dataclass(frozen=True)
class KindLimits:
    """``queued``: jobs of the kind waiting to start, at most; ``per_address`` and
    ``per_seat``: jobs (running or waiting) one client waits for at most (0: no limit)."""

    queued: int
    per_address: int = 0
    per_seat: int = 0


@dataclass(frozen=True)
class JobLimits:
    """The limits of each kind of job, and the seconds a refused client is told to wait."""

    computer: KindLimits = field(default_factory=lambda: KindLimits(100_000))
    hint: KindLimits = field(default_factory=lambda: KindLimits(64, per_address=4, per_seat=1))
    analysis: KindLimits = field(default_factory=lambda: KindLimits(32, per_address=4))
    review: KindLimits = field(default_factory=lambda: KindLimits(16, per_address=2))
    retry_after: int = 5

    def of(self, kind: JobKind) -> KindLimits:
        limits: KindLimits = getattr(self, kind)
        return limits


class _Quotas:
    """The jobs each client waits for in this process, by kind."""

    def __init__(self, limits: JobLimits) -> None:
        self.limits = limits
        self.counts: Counter[tuple[JobKind, str, str]] = Counter()

    def _keys(self, kind: JobKind, client: Client | None) -> list[tuple[JobKind, str, str, int]]:
        if client is None:
            return []
        limits = self.limits.of(kind)
        keys = []
        if client.address is not None:
            keys.append((kind, "address", client.address, limits.per_address))
        if client.seat is not None:
            keys.append((kind, "seat", client.seat, limits.per_seat))
        return keys

    def admit(self, kind: JobKind, client: Client | None) -> None:
        keys = self._keys(kind, client)
        for k, by, name, limit in keys:
            if limit and self.counts[(k, by, name)] >= limit:
                raise Busy(
                    f"this {by} already waits for {limit} {kind} jobs: try again later",
                    self.limits.retry_after,
                )
        for k, by, name, _ in keys:
            self.counts[(k, by, name)] += 1

    def release(self, kind: JobKind, client: Client | None) -> None:
        for k, by, name, _ in self._keys(kind, client):
            self.counts[(k, by, name)] -= 1
            if self.counts[(k, by, name)] <= 0:
                del self.counts[(k, by, name)]


class JobQueue(abc.ABC):
    """Jobs run in worker processes, first by kind (:data:`~.messages.KINDS`), then in the
    order asked.  ``await start()`` before use, ``await close()`` after."""

    def __init__(self, limits: JobLimits | None = None) -> None:
        self.limits = limits or JobLimits()
        self._quotas = _Quotas(self.limits)
        #: jobs asked and not yet answered, by kind (the operator's metrics)
        self.unanswered: Counter[JobKind] = Counter()
        #: called with (kind, seconds from asked to answered, "done" | "failed" | "cancelled")
        self.on_finished: list[Callable[[JobKind, float, str], None]] = []

    async def start(self) -> None:  # noqa: B027 - a backend may have nothing to start
        """Make ready (a backend may start its processes here, or at the first job)."""

    async def close(self) -> None:  # noqa: B027 - nor anything to close
        """Stop every job and release the workers."""

    def ready(self) -> bool:
        """Whether the workers are there to take jobs now (warmed up); a queue whose workers
        are other processes' (``senet worker`` on Redis) cannot tell, and says yes."""
        return True

    def full(self, kind: JobKind) -> Busy:
        """The refusal when ``kind``'s queue is full."""
        return Busy(f"too many {kind} jobs wait: try again later", self.limits.retry_after)

    async def run(self, request: JobRequest, client: Client | None = None) -> JobResult:
        """The result of ``request``, computed by a worker; :class:`Busy` if refused,
        :class:`JobFailed` if it failed.  Cancelling the caller gives the job up."""
        self._quotas.admit(request.kind, client)
        self.unanswered[request.kind] += 1
        started, outcome = time.perf_counter(), "failed"
        try:
            wire = await self._run(request)
            outcome = "done"
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            self._quotas.release(request.kind, client)
            self.unanswered[request.kind] -= 1
            for listener in self.on_finished:
                listener(request.kind, time.perf_counter() - started, outcome)
        return result_from_wire(request, wire)

    async def computer_move(self, request: ComputerMoveJob) -> str:
        result = await self.run(request)
        if not isinstance(result, str):
            raise TypeError(f"a computer move is a str, not {type(result).__name__}")
        return result

    async def analysis(self, request: AnalysisJob, client: Client | None = None) -> Analysis:
        result = await self.run(request, client)
        if not isinstance(result, Analysis):
            raise TypeError(f"an analysis job gave {type(result).__name__}")
        return result

    async def review(
        self, request: ReviewJob, client: Client | None = None
    ) -> tuple[ReviewRow, ...]:
        result = await self.run(request, client)
        if not isinstance(result, tuple):
            raise TypeError(f"a review is a tuple of rows, not {type(result).__name__}")
        return result

    @abc.abstractmethod
    async def _run(self, request: JobRequest) -> Wire:
        """The job's result on the wire, joining the same job if it is already asked for;
        :class:`Busy` if its kind's queue is full.  Cancelled: give the job up."""
