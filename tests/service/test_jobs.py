"""Search in worker processes (senet.service.infrastructure.jobs, the local backend): served by kind, the
computer's moves first; limited per client and per queue; a job nobody waits for is dropped or
stopped; a worker killed in a job is replaced and the job runs again, once.

Nothing here waits on time: a worker is held still with SIGSTOP while the queue is filled, so
which job goes first is decided by the queue alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from senet.engine import Game, Position, Throw, find_variant
from senet.engine.record import GameRecord
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.infrastructure.jobs import (
    AnalysisJob,
    Busy,
    Client,
    ComputerMoveJob,
    JobFailed,
    JobLimits,
    KindLimits,
    LocalJobQueue,
    ReviewJob,
)
from senet.service.reviews.analyses import Reviews
from senet.service.server import GameService


def run(coro):
    """Run on a fresh event loop in a thread (a session's Playwright may own this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def until(condition: Callable[[], bool], what: str, limit: float = 120.0) -> None:
    """Wait for ``condition`` (a bound against a hang, not a pause: it returns when true)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


def decision(variant: str = "standard", throw: int = 3) -> Position:
    position = Position.initial(find_variant(variant))
    return position.apply_throw(throw) if position.is_chance() else position


def positions(n: int) -> list[Position]:
    """``n`` different positions where a decision is due (after random opening moves)."""
    rng = random.Random(5)
    found: dict[str, Position] = {}
    while len(found) < n:
        game = Game(find_variant("standard"))
        for _ in range(rng.randint(2, 12)):
            pos = game.position
            if pos.is_over():
                break
            if pos.is_chance():
                game.push_throw(rng.choice([v for v, _ in pos.chance_outcomes()]))
            else:
                game.push(rng.choice(pos.legal_moves()))
        if game.position.decider is not None and not game.position.is_over():
            found[game.position.fen()] = game.position
    return list(found.values())


def long_game_record() -> str:
    """A finished adelaida-long game of random moves: its review is seconds of search."""
    rng = random.Random(3)
    game = Game(find_variant("adelaida-long"))
    while not game.is_over():
        pos = game.position
        if pos.is_chance():
            game.push_throw(rng.choice([v for v, _ in pos.chance_outcomes()]))
        else:
            game.push(rng.choice(pos.legal_moves()))
    return GameRecord.from_game(game).text()


async def started(queue: LocalJobQueue) -> None:
    await queue.start()
    await until(lambda: queue.ready(), "the workers are ready")


def hold(pids: list[int]) -> None:
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)


def release(pids: list[int]) -> None:
    for pid in pids:
        os.kill(pid, signal.SIGCONT)


@pytest.mark.slow  # analyses queued on worker processes: more than a few seconds
def test_the_computers_move_is_served_before_the_analyses_queued_ahead_of_it() -> None:
    async def main() -> list[str]:
        queue = LocalJobQueue(1, warm=False)
        await started(queue)
        done: list[str] = []

        async def ask(name: str, work: Awaitable[object]) -> None:
            await work
            done.append(name)

        try:
            pids = queue.worker_pids()
            hold(pids)  # the worker cannot take anything while the queue fills
            first, second = positions(2)
            tasks = [
                asyncio.create_task(ask("analysis 1", queue.analysis(AnalysisJob(first.fen())))),
                asyncio.create_task(ask("analysis 2", queue.analysis(AnalysisJob(second.fen())))),
            ]
            await until(lambda: sum(queue.waiting().values()) + len(queue.running()) == 2, "queued")
            move = ComputerMoveJob(decision().fen(), "master", 1, "game", 0)
            tasks.append(asyncio.create_task(ask("computer", queue.computer_move(move))))
            await until(lambda: queue.waiting()["computer"] == 1, "the computer's move queued")
            release(pids)
            await asyncio.gather(*tasks)
        finally:
            await queue.close()
        return done

    done = run(main())
    # the first analysis may already have been handed to the held worker; the second waited
    # in the queue, and the computer's move, asked for last, went before it
    assert done.index("computer") < done.index("analysis 2"), done


@pytest.mark.slow  # fills a pool of worker processes: more than a few seconds
def test_a_client_gets_busy_beyond_its_quota_and_a_full_queue_refuses_everyone() -> None:
    limits = JobLimits(analysis=KindLimits(3, per_address=2), retry_after=5)

    async def main() -> None:
        queue = LocalJobQueue(1, limits, warm=False)
        await started(queue)
        pids = queue.worker_pids()
        hold(pids)
        attacker, other = Client("203.0.113.9"), Client("198.51.100.7")
        work = positions(6)
        try:
            waiting = [
                asyncio.create_task(queue.analysis(AnalysisJob(p.fen()), attacker))
                for p in work[:2]
            ]
            await until(lambda: sum(queue.waiting().values()) + len(queue.running()) == 2, "2")
            with pytest.raises(Busy) as refused:
                await queue.analysis(AnalysisJob(work[2].fen()), attacker)
            assert (refused.value.status, refused.value.code, refused.value.retry_after) == (
                429,
                "busy",
                5,
            )
            # another client is not refused for the first one's jobs ...
            waiting.append(asyncio.create_task(queue.analysis(AnalysisJob(work[3].fen()), other)))
            waiting.append(asyncio.create_task(queue.analysis(AnalysisJob(work[4].fen()), other)))
            await until(lambda: sum(queue.waiting().values()) + len(queue.running()) == 4, "4")
            # ... until the queue of the kind is full (3 waiting, one handed to the worker)
            with pytest.raises(Busy):
                await queue.analysis(AnalysisJob(work[5].fen()), Client("192.0.2.1"))
            # the computer's moves have a queue of their own
            move = ComputerMoveJob(decision().fen(), "master", 1, "game", 0)
            waiting.append(asyncio.create_task(queue.computer_move(move)))
            release(pids)
            results = await asyncio.gather(*waiting)
            assert len(results) == 5
            # the quota is given back with the answers
            await queue.analysis(AnalysisJob(work[2].fen()), attacker)
        finally:
            release(pids)
            await queue.close()

    run(main())


def test_a_job_whose_client_left_is_dropped_before_it_starts_and_stopped_if_it_runs() -> None:
    async def main() -> None:
        queue = LocalJobQueue(1, warm=False)
        await started(queue)
        try:
            pids = queue.worker_pids()
            hold(pids)
            first, second = positions(2)
            running = asyncio.create_task(queue.analysis(AnalysisJob(first.fen())))
            await until(lambda: len(queue.running()) == 1, "handed to the worker")
            queued = asyncio.create_task(queue.analysis(AnalysisJob(second.fen())))
            await until(lambda: queue.waiting()["analysis"] == 1, "queued behind it")
            queued.cancel()  # its client hung up
            await asyncio.gather(queued, return_exceptions=True)
            assert queue.waiting()["analysis"] == 0  # dropped before it started
            assert len(queue.running()) == 1
            release(pids)
            await running

            # a long job stopped in flight: its worker is killed and replaced
            review = asyncio.create_task(queue.review(ReviewJob("g", long_game_record())))
            await until(lambda: queue.running() != [], "the review runs")
            [(kind, pid)] = queue.running()
            assert kind == "review"
            review.cancel()
            await asyncio.gather(review, return_exceptions=True)
            await until(lambda: pid not in queue.worker_pids(), "the worker stopped")
            await until(lambda: queue.ready(), "a new worker ready")
            assert queue.running() == [] and sum(queue.waiting().values()) == 0
            await until(lambda: not Path(f"/proc/{pid}").exists(), "the old worker reaped")
            # the new worker serves the next job
            assert await queue.computer_move(
                ComputerMoveJob(decision().fen(), "greedy", 1, "game", 0)
            )
        finally:
            await queue.close()

    run(main())


async def kill_the_running_job(queue: LocalJobQueue, kind: str) -> None:
    """SIGKILL the worker running the one job that runs, and wait for its replacement."""
    await until(lambda: len(queue.running()) == 1, "a job handed to a worker")
    [(running, pid)] = queue.running()
    assert running == kind and pid is not None
    os.kill(pid, signal.SIGKILL)
    await until(lambda: pid not in queue.worker_pids(), "the worker replaced")


def test_a_worker_killed_in_a_job_is_replaced_and_the_job_runs_once_more() -> None:
    move = ComputerMoveJob(decision().fen(), "master", 1, "game", 0)

    async def main() -> str:
        queue = LocalJobQueue(1, warm=False)
        await started(queue)
        try:
            hold(queue.worker_pids())  # the job is handed over, not begun
            task = asyncio.create_task(queue.computer_move(move))
            await kill_the_running_job(queue, "computer")
            return await task  # the second try, on the new worker
        finally:
            await queue.close()

    assert run(main()) in {m.text() for m in decision().legal_moves()}


def test_a_job_whose_worker_is_killed_on_both_tries_fails() -> None:
    async def main() -> BaseException | None:
        queue = LocalJobQueue(1, warm=False)
        await started(queue)
        try:
            task = asyncio.create_task(queue.review(ReviewJob("g", long_game_record())))
            await kill_the_running_job(queue, "review")  # seconds of search: still running
            await kill_the_running_job(queue, "review")
            return (await asyncio.gather(task, return_exceptions=True))[0]
        finally:
            await queue.close()

    assert isinstance(run(main()), JobFailed)


def test_the_computer_still_moves_when_its_worker_is_killed_in_the_move(tmp_path: Path) -> None:
    """A game against the computer, its worker killed in the computer's first move: the move
    is searched again by the new worker and played; the game goes on."""

    async def main() -> tuple[int, set[int | None]]:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        queue = LocalJobQueue(1, warm=False)
        service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, jobs=queue)
        await service.start()
        try:
            await until(lambda: queue.ready(), "ready")
            hold(queue.worker_pids())
            created = await service.commands.create("standard", "computer", "B", "master", seed="x")
            await kill_the_running_job(queue, "computer")
            await until(
                lambda: (
                    service.store.cached(created.game_id) is not None
                    and service.store.cached(created.game_id).position.decider != 0
                ),
                "the computer moved",
            )
            stored = await storage.get_game(created.game_id)
            assert stored is not None
            moves = [a for a in stored.actions if a.kind.value == "move"]
            return len(moves), {move.seat for move in moves}
        finally:
            await service.close()
            await storage.close()

    moves, seats = run(main())
    assert moves >= 1 and seats == {0}  # the computer's turn (a throw may give it another move)


def test_a_review_is_computed_once_stored_and_read_by_another_process(tmp_path: Path) -> None:
    """Two services on one database (as two server processes): the first has the review
    computed by a worker and stores it; the second reads it, asking no worker."""
    rng = random.Random(11)
    game = Game(Position.from_fen("standard ........../........../..AAB.B... A -"))
    while not game.is_over():
        pos = game.position
        if pos.is_chance():
            game.push_throw(rng.choice([v for v, _ in pos.chance_outcomes()]))
        else:
            game.push(rng.choice(pos.legal_moves()))
    db = tmp_path / "db.sqlite3"

    async def main() -> None:
        storage = Storage(f"sqlite+aiosqlite:///{db}")
        await storage.init()
        maker = GameService(storage, MemoryBroadcast())
        created = await maker.commands.create("standard", "friend", seed="x")
        live = SimpleNamespace(id=created.game_id, over=True, game=game)
        first_jobs, second_jobs = LocalJobQueue(1, warm=False), LocalJobQueue(1, warm=False)
        first, second = Reviews(storage, first_jobs), Reviews(storage, second_jobs)
        try:
            assert await second.ready(live) is None  # not computed yet
            asked = [asyncio.create_task(first.review(live)) for _ in range(3)]
            reviews = await asyncio.gather(*asked)  # asked three times, judged once
            assert reviews[0] == reviews[1] == reviews[2]
            read = await second.ready(live)
            assert read == reviews[0]
            assert second_jobs.worker_pids() == []  # the second process started no worker
        finally:
            await first_jobs.close()
            await second_jobs.close()
            await maker.close()
            await storage.close()

    run(main())
    with sqlite3.connect(db) as conn:
        [(count, rows)] = conn.execute("SELECT count(*), max(rows) FROM reviews").fetchall()
    assert count == 1
    assert len(json.loads(rows)["rows"]) == sum(1 for _, a in game if not isinstance(a, Throw))


def test_the_computers_move_is_given_up_when_its_game_moves_on(tmp_path: Path) -> None:
    """The computer's move is being searched when its opponent resigns: the position it was
    asked for has gone, so the job is stopped (its worker replaced) and nothing is played."""

    async def main() -> tuple[str | None, int]:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        queue = LocalJobQueue(1, warm=False)
        service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, jobs=queue)
        await service.start()
        try:
            await until(lambda: queue.ready(), "ready")
            [worker] = queue.worker_pids()
            hold([worker])  # the computer's move is handed over, not searched
            created = await service.commands.create("standard", "computer", "B", "master", seed="x")
            await until(lambda: len(queue.running()) == 1, "the computer's move asked for")
            await service.commands.resign(created.game_id, created.token)
            await until(lambda: worker not in queue.worker_pids(), "the search stopped")
            assert queue.running() == [] and sum(queue.waiting().values()) == 0
            stored = await storage.get_game(created.game_id)
            assert stored is not None
            return stored.termination, sum(1 for a in stored.actions if a.kind.value == "move")
        finally:
            await service.close()
            await storage.close()

    termination, moves = run(main())
    assert (termination, moves) == ("resignation", 0)


def test_with_no_worker_on_the_queue_the_greedy_player_moves_for_the_computer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Redis queue with no ``senet worker`` serving it: the computer's move gets no answer
    within the scheduler's limit, so its job is given up (cancelled on the queue) and the
    greedy player moves: a game never waits for ever."""
    from senet.service.games import scheduler
    from senet.service.infrastructure.jobs.redis_queue import RedisJobQueue
    from senet_testkit.servers import redis_server

    monkeypatch.setattr(scheduler, "SEARCH_LIMIT", 0.5)

    async def main(url: str) -> tuple[int, dict[str, int]]:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        queue = RedisJobQueue(url)
        service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, jobs=queue)
        await service.start()
        try:
            created = await service.commands.create("standard", "computer", "B", "master", seed="x")
            await until(
                lambda: (
                    service.store.cached(created.game_id) is not None
                    and service.store.cached(created.game_id).position.decider != 0
                ),
                "the greedy player moved for the computer",
            )
            stored = await storage.get_game(created.game_id)
            assert stored is not None
            moves = sum(1 for a in stored.actions if a.kind.value == "move" and a.seat == 0)
            waiting: dict[str, int] = {}
            for _ in range(200):  # the give-up runs on the queue's threads: wait for it
                waiting = await asyncio.to_thread(queue.counts)
                if waiting["computer"] == 0:
                    break
                await asyncio.sleep(0.05)
            return moves, waiting
        finally:
            await service.close()
            await storage.close()

    with redis_server() as redis:
        moves, waiting = run(main(redis.url))
    assert moves >= 1
    assert waiting["computer"] == 0  # the job given up, not left for a worker to come


def test_a_warm_worker_is_ready_only_once_its_warm_up_is_done() -> None:
    """With ``warm`` a worker loads (compiles) the search before it says it is ready, so the
    queue — and /readyz — says ready only then, and its warm-up time is known; without, it is
    ready at once and says it did not warm up."""

    async def main() -> tuple[bool, list[float | None], list[float | None]]:
        warm, cold = LocalJobQueue(1, warm=True), LocalJobQueue(1, warm=False)
        try:
            await warm.start()
            before = warm.ready()
            await started(warm)
            await started(cold)
            return before, warm.warm_up_times(), cold.warm_up_times()
        finally:
            await warm.close()
            await cold.close()

    before, warm_times, cold_times = run(main())
    assert before is False
    [took] = warm_times
    assert took is not None and took > 0
    assert cold_times == [None]
