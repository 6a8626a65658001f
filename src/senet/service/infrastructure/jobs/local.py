"""The embedded default's job queue: worker processes started by the server itself.

``workers`` processes, each running one job at a time (:func:`.work.perform`) and answering
through a pipe.  The queue is held here, one FIFO per kind; a free worker takes the first job
of the first kind in :data:`~.messages.KINDS` order that it serves.  With two workers or more,
half of them (rounded down) are *background* workers: they serve every kind and run at a
lower CPU priority (``nice``), and the others serve only the live kinds (the computer's moves
and hints), so that a flood of analyses and reviews never holds up a game's next move.  With
one worker, it serves every kind in order.

A job nobody waits for any more is dropped before it starts, and a running one is stopped by
killing its worker (a new one is started in its place).  A worker that dies in a job (killed,
out of memory) is replaced and the job runs once more; if it dies again the job fails.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .messages import KINDS, LIVE_KINDS, JobKind, JobRequest, Wire, request_to_wire
from .queue import JobFailed, JobLimits, JobQueue

__all__ = ["LocalJobQueue"]

log = logging.getLogger("senet.jobs")

#: The CPU priority of background workers (``nice`` increment): the live kinds and the web
#: process come first when the machine is busy.
BACKGROUND_NICE = 10
#: Tries of a job whose worker died in it.
TRIES = 2
#: Workers that die before they are ready, one after another, before the pool gives up
#: starting them (a broken installation must not start processes for ever).
START_FAILURES = 3


def worker_main(fd: int, nice: int, warm: bool) -> None:
    """A worker process (``python -m senet.service.infrastructure.jobs.process FD NICE WARM``): warm up, then
    run the jobs the socket ``fd`` brings until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    if nice:
        os.nice(nice)
    conn = Connection(fd)
    from . import work

    # Warm before the first job: with an empty compiled-code cache (a fresh install) the search
    # compiles for seconds, and a player's first move would wait for it; the server counts the
    # process ready (and says so on /readyz) only once this is done.
    warmed: float | None = None
    if warm:
        started = time.perf_counter()
        try:
            work.warm_up()
        except Exception:  # a job loads what it needs itself: log, and serve anyway
            log.exception("warming up failed")
        warmed = time.perf_counter() - started
    conn.send(("ready", warmed, None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the server has gone
        if message is None:
            return
        number, wire = message
        try:
            conn.send((number, True, work.perform(wire)))
        except Exception as exc:
            log.exception("job %s failed", number)
            conn.send((number, False, f"{type(exc).__name__}: {exc}"))


@dataclass(eq=False)
class _Job:
    number: int
    request: JobRequest
    future: asyncio.Future[Wire]
    waiters: int = 0
    tries: int = 0
    worker: _Worker | None = None
    dropped: bool = False


@dataclass(eq=False)
class _Worker:
    index: int
    background: bool
    process: Any = None
    conn: Connection | None = None
    ready: bool = False
    failures: int = 0  # deaths before ready, one after another
    warmed: float | None = None  # seconds its warm-up took before it said ready (None: none)
    job: _Job | None = None
    kinds: frozenset[JobKind] = field(default_factory=frozenset)


class LocalJobQueue(JobQueue):
    """``workers`` worker processes on this machine (see the module doc); ``warm``: each
    loads the compiled search as it starts, beside its first jobs; ``eager``: the processes start with
    :meth:`start`, else at the first job."""

    def __init__(
        self,
        workers: int,
        limits: JobLimits | None = None,
        *,
        warm: bool = True,
        eager: bool = True,
    ) -> None:
        super().__init__(limits)
        if workers < 1:
            raise ValueError("at least one worker")
        self.warm = warm
        self.eager = eager
        background = workers // 2 if workers > 1 else 1
        self._workers = [_Worker(i, i < background) for i in range(workers)]
        for worker in self._workers:
            worker.kinds = frozenset(KINDS) if worker.background else LIVE_KINDS
        self._queues: dict[JobKind, deque[_Job]] = {kind: deque() for kind in KINDS}
        self._jobs: dict[str, _Job] = {}
        self._numbers = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = False
        self._closing = False

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.eager:
            self._start_workers()

    def _start_workers(self) -> None:
        if self._started or self._closing:
            return
        self._started = True
        for worker in self._workers:
            self._spawn(worker)

    def _spawn(self, worker: _Worker) -> None:
        """Start ``worker``'s process: a fresh interpreter (not a fork of this server, whose
        threads and sockets it must not inherit) on one end of a socket pair."""
        ours, theirs = socket.socketpair()
        nice = BACKGROUND_NICE if worker.background and len(self._workers) > 1 else 0
        command = [sys.executable, "-m", f"{__package__}.process", str(theirs.fileno()), str(nice)]
        process = subprocess.Popen(
            [*command, "1" if self.warm else "0"], pass_fds=(theirs.fileno(),), close_fds=True
        )
        theirs.close()
        conn = Connection(ours.detach())
        worker.process, worker.conn, worker.ready, worker.job = process, conn, False, None
        threading.Thread(
            target=self._listen,
            args=(worker, conn),
            name=f"senet-worker-{worker.index}",
            daemon=True,
        ).start()

    def _listen(self, worker: _Worker, conn: Connection) -> None:
        """A thread per worker process: its answers, then its end, handed to the loop."""
        if self._loop is None:
            raise RuntimeError("the worker pool listens before it has started")
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            try:
                self._loop.call_soon_threadsafe(self._answered, worker, conn, message)
            except RuntimeError:  # the loop is closed
                return
        try:
            self._loop.call_soon_threadsafe(self._died, worker, conn)
        except RuntimeError:
            pass

    async def close(self) -> None:
        self._closing = True
        for job in list(self._jobs.values()):
            if not job.future.done():
                job.future.set_exception(JobFailed("the server is stopping"))
        self._jobs.clear()
        for queue in self._queues.values():
            queue.clear()
        processes: list[subprocess.Popen[bytes]] = []
        for worker in self._workers:
            if worker.process is None:
                continue
            if worker.job is None and worker.conn is not None:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
            else:
                worker.process.kill()
            processes.append(worker.process)
        for process in processes:
            try:
                await asyncio.to_thread(process.wait, 5)
            except subprocess.TimeoutExpired:
                process.kill()
                await asyncio.to_thread(process.wait, 5)
        for worker in self._workers:
            if worker.conn is not None:
                worker.conn.close()

    # ------------------------------------------------------------------ jobs
    async def _run(self, request: JobRequest) -> Wire:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        if self._closing:
            raise JobFailed("the server is stopping")
        if self._started and not any(w.conn is not None for w in self._workers):
            raise JobFailed("no worker process could start")
        job = self._jobs.get(request.key)
        if job is None:
            if len(self._queues[request.kind]) >= self.limits.of(request.kind).queued:
                raise self.full(request.kind)
            self._numbers += 1
            job = _Job(self._numbers, request, self._loop.create_future())
            self._jobs[request.key] = job
            self._queues[request.kind].append(job)
            self._start_workers()
        job.waiters += 1
        self._pump()
        try:
            return await asyncio.shield(job.future)
        finally:
            job.waiters -= 1
            if job.waiters == 0 and not job.future.done():
                self._drop(job)

    def _drop(self, job: _Job) -> None:
        """Nobody waits for ``job``: drop it from its queue, or stop its worker."""
        job.dropped = True
        self._jobs.pop(job.request.key, None)
        job.future.cancel()
        worker = job.worker
        if worker is None:
            try:
                self._queues[job.request.kind].remove(job)
            except ValueError:
                pass
            log.info("job %s (%s) dropped before it started", job.number, job.request.kind)
        elif worker.process is not None:
            log.info("job %s (%s) stopped: nobody waits for it", job.number, job.request.kind)
            worker.process.kill()  # _died starts another

    def _pump(self) -> None:
        """Give every free worker the first job it serves."""
        for worker in self._workers:
            if not worker.ready or worker.job is not None or worker.conn is None:
                continue
            job = self._next_for(worker)
            if job is None:
                continue
            job.worker, job.tries = worker, job.tries + 1
            worker.job = job
            try:
                worker.conn.send((job.number, request_to_wire(job.request)))
            except OSError:
                pass  # the worker died: _died runs the job again

    def _next_for(self, worker: _Worker) -> _Job | None:
        for kind in KINDS:
            if kind not in worker.kinds:
                continue
            queue = self._queues[kind]
            while queue:
                job = queue.popleft()
                if job.waiters > 0 and not job.dropped:
                    return job
        return None

    def _answered(self, worker: _Worker, conn: Connection, message: tuple[Any, bool, Any]) -> None:
        if worker.conn is not conn:
            return  # a replaced process's last word
        number, ok, payload = message
        if number == "ready":
            worker.ready, worker.failures = True, 0
            worker.warmed = ok if isinstance(ok, float) else None
            if ok is not None and self.ready():
                log.info("the search workers are warm: ready for the computer's moves")
        else:
            job = worker.job
            worker.job = None
            if job is not None and job.number == number:
                job.worker = None
                self._jobs.pop(job.request.key, None)
                if not job.future.done():
                    if ok:
                        job.future.set_result(payload)
                    else:
                        job.future.set_exception(JobFailed(str(payload)))
        self._pump()

    def _died(self, worker: _Worker, conn: Connection) -> None:
        if worker.conn is not conn:
            return
        job = worker.job
        started = worker.ready
        worker.job, worker.ready = None, False
        conn.close()
        if worker.process is not None and worker.process.poll() is None:
            # its socket closes a moment before it can be reaped: reap it off the loop
            threading.Thread(target=worker.process.wait, daemon=True).start()
        if self._closing:
            worker.conn = None
            return
        worker.failures = 0 if started else worker.failures + 1
        if job is not None and not job.dropped:
            job.worker = None
            if job.tries < TRIES:
                log.warning(
                    "a worker died in job %s (%s): it runs again", job.number, job.request.kind
                )
                self._queues[job.request.kind].appendleft(job)
            else:
                log.error(
                    "a worker died in job %s (%s) twice: it fails", job.number, job.request.kind
                )
                self._jobs.pop(job.request.key, None)
                if not job.future.done():
                    job.future.set_exception(JobFailed("its worker died on each try"))
        if worker.failures >= START_FAILURES:
            log.error(
                "worker %s died %d times before it was ready: not started again",
                worker.index,
                worker.failures,
            )
            worker.conn = None
            if not any(w.conn is not None for w in self._workers):
                self._fail_all("no worker process could start")
            return
        self._spawn(worker)
        self._pump()

    def _fail_all(self, reason: str) -> None:
        for job in list(self._jobs.values()):
            if not job.future.done():
                job.future.set_exception(JobFailed(reason))
        self._jobs.clear()
        for queue in self._queues.values():
            queue.clear()

    def ready(self) -> bool:
        """Whether every worker process is up (warmed, if ``warm``) and waiting for jobs."""
        return all(w.ready for w in self._workers)

    def warm_up_times(self) -> list[float | None]:
        """Each worker's warm-up before it said ready, in seconds (None: not warmed)."""
        return [w.warmed for w in self._workers]

    # ------------------------------------------------------------------ for tests

    def worker_pids(self) -> list[int]:
        """The processes of the workers (a test may kill one)."""
        return [w.process.pid for w in self._workers if w.process is not None]

    def running(self) -> list[tuple[JobKind, int | None]]:
        """``(kind, pid)`` of every job running now."""
        return [
            (w.job.request.kind, w.process.pid if w.process is not None else None)
            for w in self._workers
            if w.job is not None
        ]

    def waiting(self) -> dict[JobKind, int]:
        """Jobs waiting to start, by kind."""
        return {kind: len(queue) for kind, queue in self._queues.items()}
