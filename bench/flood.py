"""Flood bench: one address floods the analysis board and the reviews while people play.

    .venv/bin/python bench/flood.py                      # the embedded default, one process
    .venv/bin/python bench/flood.py --before 30 --during 60 --workers 2

It starts one ``senet serve`` (SQLite file, its own worker processes; the default settings
but the worker count) and, on it:

* one player against the computer (the default level), moving at once whenever it decides;
* two players of a friend game, each thinking ``--think`` seconds on average;
* before the flood, eight adelaida-long games played to their end by bots (their reviews are
  the long ones the attacker asks for).

After ``--before`` seconds of quiet play, the attacker — every request from one address,
203.0.113.9, given as ``X-Forwarded-For`` by the loopback proxy the server trusts — asks at
once for the analysis of 40 fresh positions where a throw is due and for the reviews of the
eight long games, and asks again for each refused one after its ``Retry-After`` (a persistent
attacker), for ``--during`` seconds.  It prints, before and during the flood, the computer's
reply (from the player's move sent to the computer's move seen) median and max, the friend
moves' p99 (from one player's send to the other's update), and how many of the attacker's
requests were refused (429) or answered; then whether the targets are met: during the flood
the computer's reply median <= 1.5 s and max <= 3 s, the friend moves' p99 <= 200 ms.

The computer's reply includes its deliberate delay (SENET_COMPUTER_DELAY, 0.7 s by default).
Replies that are forced passes (shown SENET_FORCED_PASS_DELAY before the server plays them)
are left out.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from senet.engine import Game, find_variant
from senet_testkit.servers import ServeProcess
from senet_testkit.wsbots import Bot, create_friend_game, game_bots, play_game

ATTACKER = "203.0.113.9"


@dataclass
class Samples:
    """Timed samples: (time seen, seconds)."""

    points: list[tuple[float, float]] = field(default_factory=list)

    def add(self, seconds: float) -> None:
        self.points.append((time.perf_counter(), seconds))

    def between(self, start: float, end: float) -> list[float]:
        return [value for at, value in self.points if start <= at < end]


class ComputerOpponent(Bot):
    """A bot against the computer that notes how long each computer reply took: from the
    bot's last move sent to the computer's next move seen."""

    replies: Samples

    def _take(self, msg: dict[str, Any]) -> bool:
        before = len(self.events)
        taken = super()._take(msg)
        now = time.perf_counter()
        for event in self.events[before:]:
            if event["kind"] == "throw" or event["seat"] == self.seat:
                continue
            if event.get("text") == "pass":
                continue  # a forced pass waits on purpose
            mine = [
                e["ply"]
                for e in self.events[: event["ply"]]
                if e["kind"] != "throw" and e["seat"] == self.seat
            ]
            if not mine or mine[-1] not in self.sent_at:
                continue
            between = self.events[mine[-1] + 1 : event["ply"]]
            if any(e["kind"] != "throw" and e["seat"] != self.seat for e in between):
                continue  # a second move of the computer's turn: not a reply to ours
            self.replies.add(now - self.sent_at[mine[-1]])
        return taken


async def computer_games(site: ServeProcess, replies: Samples, stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(timeout=60) as http:
        while not stop.is_set():
            r = await http.post(
                f"{site.url}/api/games",
                json={"variant": "standard", "mode": "computer", "colour": "B"},
            )
            r.raise_for_status()
            data = r.json()
            bot = ComputerOpponent(data["id"], 1, data["token"], [site.ws_url], {}, 0.0)
            bot.replies = replies
            task = asyncio.create_task(bot.run(time.monotonic() + 3600))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
            task.cancel()
            stopping.cancel()
            await asyncio.gather(task, stopping, return_exceptions=True)


async def friend_games(
    site: ServeProcess, bots: list[Bot], think: float, stop: asyncio.Event
) -> None:
    """Friend games one after another until ``stop``; every bot is kept in ``bots`` (their
    latencies are read at the end)."""
    async with httpx.AsyncClient(timeout=60) as http:
        while not stop.is_set():
            seats = await create_friend_game(http, site.url, site.url)
            pair = game_bots(seats, [[site.ws_url], [site.ws_url]], think)
            bots.extend(pair)
            play = asyncio.gather(*(bot.run(time.monotonic() + 3600) for bot in pair))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({play, stopping}, return_when=asyncio.FIRST_COMPLETED)
            play.cancel()
            stopping.cancel()
            await asyncio.gather(play, stopping, return_exceptions=True)


async def long_games(site: ServeProcess, count: int) -> list[str]:
    """``count`` adelaida-long games played to their end at once; their ids."""
    async with httpx.AsyncClient(timeout=60) as http:
        seats = [
            await create_friend_game(http, site.url, site.url, variant="adelaida-long")
            for _ in range(count)
        ]
    deadline = time.monotonic() + 600
    played = await asyncio.gather(
        *(
            play_game(s, [[site.ws_url], [site.ws_url]], deadline, seed=i)
            for i, s in enumerate(seats)
        )
    )
    for bots in played:
        if any(bot.outcome is None for bot in bots):
            raise RuntimeError("a long game did not end")
    return [s.game_id for s in seats]


def throw_due_positions(count: int, seed: int = 42) -> list[str]:
    """``count`` different positions where a throw is due, from random games (standard and
    adelaida-long, 10 to 80 actions in): fresh, so that no answer is cached."""
    rng = random.Random(seed)
    found: list[str] = []
    seen: set[str] = set()
    while len(found) < count:
        game = Game(find_variant(rng.choice(["standard", "adelaida-long"])))
        for _ in range(rng.randint(10, 80)):
            pos = game.position
            if pos.is_over():
                break
            if pos.is_chance():
                game.push_throw(rng.choice([v for v, _ in pos.chance_outcomes()]))
            else:
                game.push(rng.choice(pos.legal_moves()))
        pos = game.position
        if pos.is_chance() and not pos.is_over() and pos.fen() not in seen:
            seen.add(pos.fen())
            found.append(pos.fen())
    return found


@dataclass
class Attack:
    refused: int = 0  # 429 answers (each refused request is asked again after Retry-After)
    answered: int = 0
    unanswered: int = 0  # still waiting when the flood ended
    failed: int = 0  # another status


async def attacker(site: ServeProcess, urls: list[str], until: float, attack: Attack) -> None:
    """Every request at once from one address; each refused one again after Retry-After."""
    headers = {"X-Forwarded-For": ATTACKER}
    limits = httpx.Limits(max_connections=len(urls) + 4)

    async def one(http: httpx.AsyncClient, url: str) -> None:
        while time.monotonic() < until:
            try:
                r = await http.get(url, headers=headers, timeout=max(1.0, until - time.monotonic()))
            except httpx.TimeoutException:
                attack.unanswered += 1
                return
            except httpx.HTTPError:
                attack.failed += 1
                return
            if r.status_code == 429:
                attack.refused += 1
                await asyncio.sleep(float(r.headers.get("Retry-After", "5")))
                continue
            if r.status_code == 200:
                attack.answered += 1
            else:
                attack.failed += 1
            return

    async with httpx.AsyncClient(base_url=site.url, limits=limits) as http:
        await asyncio.gather(*(one(http, url) for url in urls), return_exceptions=True)


def summary(name: str, replies: list[float], moves: list[float]) -> dict[str, float]:
    median = statistics.median(replies) if replies else float("nan")
    worst = max(replies) if replies else float("nan")
    p99 = sorted(moves)[min(len(moves) - 1, int(0.99 * len(moves)))] if moves else float("nan")
    print(
        f"{name:>7}: computer reply median {median:.2f} s, max {worst:.2f} s "
        f"({len(replies)} replies); friend moves p99 {p99 * 1000:.0f} ms ({len(moves)} moves)"
    )
    return {"median": median, "max": worst, "p99": p99}


async def main_async(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="senet-flood-"))
    site = ServeProcess(
        tmp / "serve.log",
        (
            "--database-url",
            f"sqlite+aiosqlite:///{tmp / 'senet.sqlite3'}",
            "--log-level",
            "warning",
        ),
        {"DATABASE_URL": None, "SENET_RATE_LIMITS": None, "SENET_WORKERS": str(args.workers)},
    )
    site.start()
    try:
        print(f"server: one senet serve (SQLite), {args.workers} worker processes; log {site.log}")
        started = time.perf_counter()
        reviewed = await long_games(site, 8)
        print(f"8 adelaida-long games played to their end in {time.perf_counter() - started:.0f} s")
        positions = throw_due_positions(40)
        urls = [f"/api/learn/analysis?position={fen}" for fen in positions]
        urls += [f"/api/games/{game_id}/review" for game_id in reviewed]

        replies, moves = Samples(), Samples()
        friends: list[Bot] = []
        stop = asyncio.Event()
        players = [
            asyncio.create_task(computer_games(site, replies, stop)),
            asyncio.create_task(friend_games(site, friends, args.think, stop)),
        ]
        quiet_from = time.perf_counter()
        await asyncio.sleep(args.before)
        flood_from = time.perf_counter()
        attack = Attack()
        await attacker(site, urls, time.monotonic() + args.during, attack)
        flood_to = time.perf_counter()
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)
        for bot in friends:
            moves.points += zip(bot.latency_times, bot.latencies, strict=True)
        print(f"flood: {len(urls)} requests from {ATTACKER} for {flood_to - flood_from:.0f} s")
        before = summary(
            "before", replies.between(quiet_from, flood_from), moves.between(quiet_from, flood_from)
        )
        during = summary(
            "during", replies.between(flood_from, flood_to), moves.between(flood_from, flood_to)
        )
        print(
            f"attacker: {attack.refused} refused (429), {attack.answered} answered, "
            f"{attack.unanswered} still waiting at the end, {attack.failed} failed"
        )
        met = {
            "computer reply median <= 1.5 s": during["median"] <= 1.5,
            "computer reply max <= 3 s": during["max"] <= 3.0,
            "friend moves p99 <= 200 ms": during["p99"] <= 0.2,
        }
        for target, ok in met.items():
            print(f"target {target}: {'met' if ok else 'NOT met'}")
        del before
        return 0 if all(met.values()) else 1
    finally:
        site.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=float, default=30.0, help="seconds of quiet play first")
    parser.add_argument("--during", type=float, default=60.0, help="seconds of flood")
    parser.add_argument("--think", type=float, default=1.0, help="friend players' mean pause (s)")
    parser.add_argument("--workers", type=int, default=2, help="SENET_WORKERS of the server")
    sys.exit(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
