"""Heavy computation — the computer's moves, hints, analyses, reviews — in worker processes.

One interface (:class:`JobQueue`) and two backends: :class:`LocalJobQueue`, worker processes
started by ``senet serve`` itself (the embedded default), and :class:`RedisJobQueue`, an RQ
queue on Redis served by ``senet worker`` processes (the scaled-out setup).  The jobs and
their results are typed in :mod:`.messages`; what a worker does with one is :mod:`.work`.
"""

from __future__ import annotations

from senet.settings import LOCAL_JOB_QUEUE

from .local import LocalJobQueue
from .messages import KINDS, LIVE_KINDS, AnalysisJob, ComputerMoveJob, JobKind, ReviewJob
from .queue import Busy, Client, JobFailed, JobLimits, JobQueue, KindLimits

__all__ = [
    "KINDS",
    "LIVE_KINDS",
    "AnalysisJob",
    "Busy",
    "Client",
    "ComputerMoveJob",
    "JobFailed",
    "JobKind",
    "JobLimits",
    "JobQueue",
    "KindLimits",
    "LocalJobQueue",
    "ReviewJob",
    "job_queue",
]


def job_queue(url: str, workers: int, limits: JobLimits | None = None) -> JobQueue:
    """The job queue a server's settings name: ``local://`` (``workers`` processes of its
    own) or a Redis URL (the RQ queue that ``senet worker`` processes serve)."""
    if url == LOCAL_JOB_QUEUE:
        return LocalJobQueue(workers, limits)
    from .redis_queue import RedisJobQueue  # RQ loads only where it is used

    return RedisJobQueue(url, limits)
