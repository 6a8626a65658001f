"""Live-play payload: bytes per decision over whole games, the full state every time (the old
scheme) against one state and then deltas (the live protocol), raw and compressed.

    .venv/bin/python bench/payload.py                      # standard, kendall, bell, adelaida
    .venv/bin/python bench/payload.py --variant kendall --games 3 --seed 7

It starts one real ``senet serve`` (a SQLite file in a temporary folder, rate limits off) and,
per game, connects two real WebSocket viewers (the holder of seat A and a spectator) before the
first throw.  Both players play through the REST API, a seeded policy (the furthest move 70% of
the time, else a random legal one) until the game ends; after every decision the bench waits
until each viewer has rebuilt the state of that ply.  The throws come from the server's fair
dice (a fresh secret each game), so games differ from run to run; the policy's choices are
seeded.

For every message a viewer gets after its first state (one per decision, and one per other
change such as a seed or a presence change):

* new: the message as received (a ``delta``), bytes of its UTF-8 text;
* old: the full state that delta rebuilds, serialised as the server serialises a state
  (what was sent before deltas existed: the rebuilt state equals the server's full state, which
  tests/web/test_deltas.py checks at every ply);
* compressed: each stream through permessage-deflate as uvicorn negotiates it (one zlib stream
  per connection with context takeover, window 2^12, memLevel 5, sync flush, the 4-byte tail
  dropped), and each message deflated alone (no context: what a per-message gzip would give).

It prints per game the decisions, the messages, bytes per decision (mean) both ways and their
ratio, the size of the message at decision 80 (or the last), the whole game's traffic to one
viewer, and the CPU time zlib spent per message on each stream.  Bounded: at most 2,000
decisions a game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import zlib
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from senet.service.games.views import apply_delta
from senet_testkit.servers import ServeProcess

MAX_DECISIONS = 2000
AT_DECISION = 80


def serialised(message: dict[str, Any]) -> bytes:
    """A message as the server puts it on the wire (starlette's ``send_json``)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


class Deflate:
    """permessage-deflate with context takeover, as uvicorn's websockets negotiates it."""

    def __init__(self) -> None:
        self.stream = zlib.compressobj(6, zlib.DEFLATED, -12, 5)
        self.cpu = 0.0

    def size(self, data: bytes) -> int:
        started = time.process_time()
        out = self.stream.compress(data) + self.stream.flush(zlib.Z_SYNC_FLUSH)
        self.cpu += time.process_time() - started
        return len(out) - 4  # the 00 00 ff ff tail is not sent


def alone(data: bytes) -> int:
    """One message deflated on its own (no context)."""
    stream = zlib.compressobj(6, zlib.DEFLATED, -12, 5)
    return len(stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)) - 4


@dataclass
class Viewer:
    """One WebSocket viewer: its rebuilt state and the sizes of what it was sent."""

    name: str
    ws: Any
    state: dict[str, Any] | None = None
    new: list[int] = field(default_factory=list)  # bytes of each delta as received
    old: list[int] = field(default_factory=list)  # bytes of the full state it stands for
    new_deflated: list[int] = field(default_factory=list)
    old_deflated: list[int] = field(default_factory=list)
    new_alone: list[int] = field(default_factory=list)
    old_alone: list[int] = field(default_factory=list)
    new_zlib: Deflate = field(default_factory=Deflate)
    old_zlib: Deflate = field(default_factory=Deflate)

    def take(self) -> None:
        raw = self.ws.recv(timeout=10)
        data = raw.encode() if isinstance(raw, str) else raw
        message = json.loads(data)
        if message["type"] == "state":
            assert self.state is None, "a second full state: a delta was refused"
            self.state = message
            self.new_zlib.size(data)  # the stream's context starts with the first state
            self.old_zlib.size(data)
            return
        if message["type"] != "delta":
            for stream in (self.new_zlib, self.old_zlib):
                stream.size(data)  # presence, pong: in both streams alike
            return
        assert self.state is not None
        rebuilt = apply_delta(self.state, message)  # type: ignore[arg-type]
        assert rebuilt is not None, f"{self.name}: a delta that does not apply"
        self.state = dict(rebuilt)
        full = serialised(self.state)
        self.new.append(len(data))
        self.old.append(len(full))
        self.new_deflated.append(self.new_zlib.size(data))
        self.old_deflated.append(self.old_zlib.size(full))
        self.new_alone.append(alone(data))
        self.old_alone.append(alone(full))

    def follow(self, ply: int) -> None:
        while self.state is None or self.state["ply"] < ply:
            self.take()


def play_game(server: ServeProcess, variant: str, rng: random.Random) -> dict[str, Any]:
    base = server.url
    created = httpx.post(
        f"{base}/api/games", json={"variant": variant, "mode": "friend", "colour": "A"}
    ).json()
    gid = created["id"]
    joined = httpx.post(created["invite_url"], follow_redirects=False)
    tokens = {0: created["token"], 1: joined.cookies[f"senet_seat_{gid}"]}
    with ExitStack() as stack:
        seat_a = f"senet_seat_{gid}={tokens[0]}"
        viewers = [
            Viewer(
                "seat A",
                stack.enter_context(
                    connect(
                        f"{server.ws_url}/ws/games/{gid}", additional_headers={"Cookie": seat_a}
                    )
                ),
            ),
            Viewer("spectator", stack.enter_context(connect(f"{server.ws_url}/ws/games/{gid}"))),
        ]
        for viewer in viewers:
            viewer.follow(0)
        for seat in (0, 1):
            httpx.post(
                f"{base}/api/games/{gid}/seed",
                json={"seed": f"bench {seat}"},
                headers={"X-Seat-Token": tokens[seat]},
            ).raise_for_status()
        decisions = 0
        at_decision: dict[int, tuple[int, int]] = {}
        while decisions < MAX_DECISIONS:
            now = httpx.get(f"{base}/api/games/{gid}").json()
            for viewer in viewers:
                viewer.follow(now["ply"])
            if decisions == AT_DECISION or (now["outcome"] and decisions < AT_DECISION):
                spectator = viewers[1]
                at_decision[decisions] = (spectator.new[-1], spectator.old[-1])
            if now["outcome"]:
                break
            token = tokens[now["decider"]]
            legal = httpx.get(f"{base}/api/games/{gid}", headers={"X-Seat-Token": token}).json()[
                "legal"
            ]
            move = furthest(legal) if rng.random() < 0.7 else rng.choice(legal)
            httpx.post(
                f"{base}/api/games/{gid}/moves",
                json={"ply": now["ply"], "move": move},
                headers={"X-Seat-Token": token},
            ).raise_for_status()
            decisions += 1
    events = now["ply"]
    return {
        "variant": variant,
        "decisions": decisions,
        "events": events,
        "viewers": viewers,
        "at": at_decision,
    }


def furthest(legal: list[str]) -> str:
    """Bear off first, else the move that lands furthest (games end sooner)."""

    def key(text: str) -> tuple[int, int]:
        if "-" in text or "x" in text:
            target = text.replace("x", "-").split("-")[1]
            return (2, 99 if target == "off" else int(target))
        return (1 if text in ("revive", "return") else 0, 0)

    return max(legal, key=key)


def report(game: dict[str, Any]) -> list[str]:
    decisions = game["decisions"]
    lines = [
        f"{game['variant']}: {decisions} decisions, {game['events']} events (throws and moves)"
    ]
    for viewer in game["viewers"]:
        per = lambda sizes: sum(sizes) / decisions  # noqa: E731 - a figure per decision
        rows = [
            ("raw", viewer.old, viewer.new),
            ("deflate, per connection", viewer.old_deflated, viewer.new_deflated),
            ("deflate, each message alone", viewer.old_alone, viewer.new_alone),
        ]
        lines.append(f"  {viewer.name}: {len(viewer.new)} messages after the first state")
        for label, old, new in rows:
            lines.append(
                f"    {label:29s} old {per(old):9,.0f} B/decision  new {per(new):7,.0f}"
                f" B/decision  ({per(old) / per(new):5.1f}x less);  whole game old"
                f" {sum(old) / 1024:8,.1f} KiB, new {sum(new) / 1024:6,.1f} KiB"
            )
        messages = len(viewer.new) or 1
        lines.append(
            f"    zlib CPU per message (per-connection stream): old"
            f" {viewer.old_zlib.cpu / messages * 1e6:6.1f} us, new"
            f" {viewer.new_zlib.cpu / messages * 1e6:6.1f} us"
        )
        lines.append(
            f"    median message: old {statistics.median(viewer.old):,.0f} B,"
            f" new {statistics.median(viewer.new):,.0f} B"
        )
    for decision, (new, old) in game["at"].items():
        lines.append(
            f"  the spectator's message after decision {decision}: old {old:,} B, new {new:,} B"
            f" ({old / new:.0f}x less)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant", action="append", help="default: standard kendall bell adelaida"
    )
    parser.add_argument("--games", type=int, default=1, help="games per variant")
    parser.add_argument("--seed", type=int, default=1, help="the players' choices")
    args = parser.parse_args(argv)
    variants = args.variant or ["standard", "kendall", "bell", "adelaida"]
    rng = random.Random(args.seed)
    totals: dict[str, list[int]] = {"old": [], "new": [], "old_deflated": [], "new_deflated": []}
    decisions = 0
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "senet.sqlite3"
        server = ServeProcess(
            db.with_suffix(".log"),
            ("--database-url", f"sqlite+aiosqlite:///{db}"),
            {"SENET_RATE_LIMITS": "off", "DATABASE_URL": None},
        )
        server.start()
        try:
            for variant in variants:
                for _ in range(args.games):
                    game = play_game(server, variant, rng)
                    print("\n".join(report(game)), flush=True)
                    spectator = game["viewers"][1]
                    decisions += game["decisions"]
                    for key in totals:
                        totals[key].append(sum(getattr(spectator, key)))
        finally:
            server.stop()
    old, new = sum(totals["old"]) / decisions, sum(totals["new"]) / decisions
    old_z, new_z = sum(totals["old_deflated"]) / decisions, sum(totals["new_deflated"]) / decisions
    print(
        f"all games, one spectator, {decisions} decisions: raw old {old:,.0f} B/decision, new"
        f" {new:,.0f} B/decision ({old / new:.1f}x less); with permessage-deflate old"
        f" {old_z:,.0f}, new {new_z:,.0f} B/decision ({old_z / new_z:.1f}x less); deltas"
        f" deflated against full states raw: {old / new_z:.0f}x less"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
