"""The scaled-out setup's job queue: RQ (Redis Queue) on the Redis the servers already share.

Each kind of job has its RQ queue (``senet-computer``, ``senet-hint``, ``senet-analysis``,
``senet-review``); a worker (``senet worker``, :mod:`senet.service.cli`) takes from them
in that order, so the computer's moves always go first, and runs each job in a forked child
of a process that loaded the compiled search once.  The web processes only enqueue, wait for
the result and cancel: a job's id comes from what it asks (:func:`.messages.job_id`), so the
same position or the same game's review asked by two processes runs once.

Why RQ (see ``docs/workers.md``): strict priorities by the order of a worker's queues, a job
stopped in flight by killing the child that runs it, a retry of a job whose worker died, and
results kept in Redis; all of it plain blocking calls, made here from a thread pool of their
own so that the event loop never waits on them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from redis import Redis
from rq import Queue, Retry
from rq.command import send_stop_job_command
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job, JobStatus
from rq.results import Result
from rq.serializers import JSONSerializer

from .messages import KINDS, JobKind, JobRequest, Wire, job_id, request_to_wire
from .queue import JobFailed, JobLimits, JobQueue

__all__ = ["RedisJobQueue", "queue_names", "PERFORM"]

log = logging.getLogger("senet.jobs")

#: The function the workers run (its import path: RQ stores jobs by name).
PERFORM = "senet.service.infrastructure.jobs.work.perform"
#: Seconds a job may run before its worker stops it, by kind.
TIMEOUTS: dict[JobKind, int] = {"computer": 120, "hint": 120, "analysis": 120, "review": 900}
#: Seconds a result stays in Redis for the processes that wait for it.
RESULT_TTL = 300
#: What :meth:`RedisJobQueue._poll` answers for a job another process gave up.
_GIVEN_UP: Wire = {}
_WAITING = (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED)

T = TypeVar("T")


def queue_names(kinds: tuple[JobKind, ...] = KINDS) -> list[str]:
    """The RQ queues of ``kinds``, first served first."""
    return [f"senet-{kind}" for kind in kinds]


class RedisJobQueue(JobQueue):
    """Jobs enqueued on the Redis at ``url`` for ``senet worker`` processes."""

    def __init__(self, url: str, limits: JobLimits | None = None, waits: int = 256) -> None:
        super().__init__(limits)
        self.url = url
        self.redis = Redis.from_url(url, max_connections=waits + 16)
        self.serializer = JSONSerializer
        self._queues = {
            kind: Queue(name, connection=self.redis, serializer=self.serializer)
            for kind, name in zip(KINDS, queue_names(), strict=True)
        }
        # Blocking calls to Redis, off the event loop: a waiting job holds a thread.
        self._threads = ThreadPoolExecutor(max_workers=waits, thread_name_prefix="senet-jobs")
        self._waiters: dict[str, int] = {}

    async def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.redis.close)

    async def _call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, lambda: function(*args, **kwargs))

    async def _run(self, request: JobRequest) -> Wire:
        name = job_id(request)
        joined = self._waiters.get(name, 0) > 0
        if not joined:
            await self._call(self._enqueue, request, name)
        self._waiters[name] = self._waiters.get(name, 0) + 1
        try:
            return await self._wait(request, name)
        finally:
            self._waiters[name] -= 1
            if self._waiters[name] == 0:
                del self._waiters[name]
                if _cancelling():  # the caller gave up: so does the queue
                    asyncio.get_running_loop().run_in_executor(self._threads, self._give_up, name)

    def _enqueue(self, request: JobRequest, name: str) -> None:
        """Enqueue the job, unless the same one waits or runs already (another process)."""
        try:
            job = Job.fetch(name, connection=self.redis, serializer=self.serializer)
            if job.get_status() in (*_WAITING, JobStatus.FINISHED):
                return  # wait for it, or take its result
            job.delete()  # failed, stopped or cancelled: its results go too
        except NoSuchJobError:
            pass
        queue = self._queues[request.kind]
        if queue.count >= self.limits.of(request.kind).queued:
            raise self.full(request.kind)
        queue.enqueue_call(
            PERFORM,
            args=(request_to_wire(request),),
            job_id=name,
            timeout=TIMEOUTS[request.kind],
            result_ttl=RESULT_TTL,
            failure_ttl=RESULT_TTL,
            ttl=TIMEOUTS[request.kind] * 4,
            retry=Retry(max=1),
            description=request.kind,
        )

    async def _wait(self, request: JobRequest, name: str) -> Wire:
        again = 1  # another process's client gave the job up: ask for it once more
        while True:
            outcome = await self._call(self._poll, name)
            if outcome is _GIVEN_UP and again:
                again -= 1
                await self._call(self._enqueue, request, name)
            elif outcome is _GIVEN_UP:
                raise JobFailed("the job was given up")
            elif outcome is not None:
                return outcome

    def _poll(self, name: str) -> Wire | None:
        """The job's result if it ends within a second, else None; :data:`_GIVEN_UP` if it was
        cancelled or stopped (by another process); JobFailed if it failed."""
        try:
            job = Job.fetch(name, connection=self.redis, serializer=self.serializer)
        except NoSuchJobError:
            raise JobFailed("the job is gone") from None
        result = job.latest_result(timeout=1)
        if result is None:
            status = job.get_status()
            if status in (JobStatus.CANCELED, JobStatus.STOPPED):
                return _GIVEN_UP
            if status == JobStatus.FAILED:
                raise JobFailed("the job failed")
            return None
        if result.type == Result.Type.SUCCESSFUL:
            value = result.return_value
            if not isinstance(value, dict):
                raise TypeError(f"a job's result is a dict, not {type(value).__name__}")
            return value
        if result.type == Result.Type.RETRIED:
            time.sleep(0.1)  # the next try's result is not in yet
            return None
        if result.type == Result.Type.STOPPED:
            return _GIVEN_UP
        raise JobFailed(f"{result.type.name.lower()}: {result.exc_string or ''}".strip())

    def _give_up(self, name: str) -> None:
        """Nobody here waits for the job any more: cancel it, or stop it where it runs."""
        try:
            job = Job.fetch(name, connection=self.redis, serializer=self.serializer)
            status = job.get_status()
            if status == JobStatus.STARTED:
                send_stop_job_command(self.redis, name, serializer=self.serializer)
                log.info("job %s stopped: nobody waits for it", name)
            elif status in _WAITING:
                job.cancel()
                log.info("job %s dropped before it started", name)
        except (NoSuchJobError, InvalidJobOperation):
            pass

    # ------------------------------------------------------------------ for tests
    def counts(self) -> dict[JobKind, int]:
        """Jobs waiting to start, by kind."""
        return {kind: queue.count for kind, queue in self._queues.items()}


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def run_worker(url: str, kinds: tuple[JobKind, ...], *, burst: bool = False) -> None:
    """Serve ``kinds`` from the Redis at ``url`` until stopped (``burst``: until the queues are
    empty): the search is loaded here once, and each job runs in a forked child of this
    process (RQ's work horse), which a stop command or a timeout kills."""
    from rq import Worker

    from . import work

    work.warm_up()
    redis = Redis.from_url(url)
    queues = [
        Queue(name, connection=redis, serializer=JSONSerializer) for name in queue_names(kinds)
    ]
    Worker(queues, connection=redis, serializer=JSONSerializer).work(
        burst=burst, with_scheduler=False
    )
