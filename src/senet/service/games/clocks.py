"""Time controls: what a player's time is, and how a decision spends it.  Pure: no I/O.

The server is the only clock.  A timed game stores, with every action, each seat's remaining
time and the *deadline* of the decision now due (an absolute time), so that a restart, a
reconnection or another server process sees the same clock; the browser only draws it.

Three kinds, chosen when the game is created and written as text:

* ``untimed``: no clock (the default);
* ``move:S``: S seconds for every decision, whatever was left from the last one;
* ``clock:S+I``: S seconds for the whole game, I seconds added after each decision;
* ``days:D``: a *turn-based* game: D days for every decision (1, 2, 3 or 7 on the site),
  whatever was left from the last one, so that a game lasts days and each player moves when
  they can.  Its deadline is enforced like any other: a move after it is refused and the game
  is lost on time.

Only decisions cost time: while a throw is due or a computer seat decides, no clock runs.
A decision that the server plays for a player (a forced pass) costs that player nothing.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from dataclasses import dataclass
from typing import Literal

from senet.service.errors import GameError

__all__ = [
    "TimeControl",
    "ClockState",
    "DAY",
    "TURN_BASED",
    "UNTIMED",
    "PRESETS",
    "parse_time_control",
    "requested_time_control",
    "SystemClock",
    "ManualClock",
]

Kind = Literal["untimed", "move", "clock", "days"]

#: seconds in a day: a turn-based game's limit per decision is a whole number of days
DAY = 86_400

_FORM = re.compile(
    r"untimed|move:([0-9]{1,4})|clock:([0-9]{1,5})\+([0-9]{1,3})|days:([0-9]{1,2})"
)  # ASCII digits only


@dataclass(frozen=True)
class TimeControl:
    kind: Kind
    seconds: int = 0  # per decision (move) or for the whole game (clock)
    increment: int = 0  # added after each decision (clock)

    @property
    def timed(self) -> bool:
        return self.kind != "untimed"

    @property
    def per_decision(self) -> bool:
        """Each decision has the same time, whatever was left from the last one."""
        return self.kind in ("move", "days")

    @property
    def turn_based(self) -> bool:
        """Days per move: nobody need stay on the page, the deadline alone decides."""
        return self.kind == "days"

    @property
    def days(self) -> int | None:
        """The days per move of a turn-based game (None for any other)."""
        return self.seconds // DAY if self.kind == "days" else None

    def text(self) -> str:
        if self.kind == "days":
            return f"days:{self.seconds // DAY}"
        if self.kind == "move":
            return f"move:{self.seconds}"
        if self.kind == "clock":
            return f"clock:{self.seconds}+{self.increment}"
        return "untimed"

    def start(self) -> ClockState:
        """The clocks before the first decision: each seat's whole allowance, nothing running."""
        allowance = self.seconds * 1000 if self.kind == "clock" else 0
        return ClockState(self, (allowance, allowance), None, None)


UNTIMED = TimeControl("untimed")

#: The choices offered on the site (any well-formed control is accepted from API clients).
PRESETS = (
    UNTIMED,
    TimeControl("move", 30),
    TimeControl("move", 60),
    TimeControl("move", 180),
    TimeControl("clock", 180, 2),
    TimeControl("clock", 300, 5),
    TimeControl("clock", 600, 10),
)

#: The turn-based choices: 1, 2, 3 and 7 days per move.
TURN_BASED = tuple(TimeControl("days", days * DAY) for days in (1, 2, 3, 7))


@functools.lru_cache(maxsize=256)  # read with every look at a game's clock; a few forms in use
def parse_time_control(text: str | None) -> TimeControl:
    """``untimed``, ``move:30``, ``clock:300+5`` or ``days:3``; ValueError naming the form
    otherwise."""
    text = (text or "untimed").strip()
    if not text.isascii():
        raise ValueError(f"time control {text!r}: numbers are written in the ASCII digits 0-9")
    match = _FORM.fullmatch(text)
    if not match:
        raise ValueError(
            f"time control {text!r}: expected untimed, move:SECONDS, clock:SECONDS+INCREMENT"
            " or days:DAYS"
        )
    if match.group(1):
        seconds = int(match.group(1))
        if not 5 <= seconds <= 3600:
            raise ValueError(f"time control {text!r}: move:SECONDS takes 5 to 3600 seconds")
        return TimeControl("move", seconds)
    if match.group(2):
        seconds, increment = int(match.group(2)), int(match.group(3))
        if not 30 <= seconds <= 36000 or increment > 600:
            raise ValueError(
                f"time control {text!r}: clock:SECONDS+INCREMENT takes 30 to 36000 s, +0 to 600 s"
            )
        return TimeControl("clock", seconds, increment)
    if match.group(4):
        days = int(match.group(4))
        if not 1 <= days <= 14:
            raise ValueError(f"time control {text!r}: days:DAYS takes 1 to 14 days")
        return TimeControl("days", days * DAY)
    return UNTIMED


def requested_time_control(text: str | None) -> TimeControl:
    """The time control a request names (``untimed``, ``move:30``, ``clock:300+5``,
    ``days:3``); GameError ``bad_time_control`` naming the form otherwise."""
    try:
        return parse_time_control(text)
    except ValueError as exc:
        raise GameError("bad_time_control", str(exc), 400) from None


@dataclass(frozen=True)
class ClockState:
    """Each seat's remaining time (ms) when its clock is stopped, and the running decision.

    ``running`` is the seat whose decision is due and timed, ``deadline`` (ms since the epoch)
    when its time runs out; both None when no clock runs.
    """

    control: TimeControl
    remaining: tuple[int, int]
    running: int | None
    deadline: int | None

    def left(self, seat: int, now: int) -> int:
        """The time ``seat`` has left at ``now`` (ms; never below 0)."""
        if seat == self.running and self.deadline is not None:
            return max(0, self.deadline - now)
        if self.control.per_decision:
            return self.control.seconds * 1000
        return self.remaining[seat]

    def stopped(self, now: int) -> ClockState:
        """The clocks once the game ends at ``now`` (a resignation, a loss on time, an
        abandoned game): no clock runs, and on a game clock the running seat keeps the time it
        had left then, with no increment (none at all after a loss on time).  A limit per
        decision keeps nothing between decisions."""
        if self.running is None or self.deadline is None:
            return self
        remaining = list(self.remaining)
        if self.control.kind == "clock":
            remaining[self.running] = max(0, self.deadline - now)
        return ClockState(self.control, (remaining[0], remaining[1]), None, None)

    def expired(self, now: int) -> bool:
        return self.deadline is not None and now >= self.deadline

    def after(
        self, now: int, decided: int | None, next_decider: int | None, *, free: bool = False
    ) -> ClockState:
        """The clocks after actions stored at ``now``.

        ``decided``: the seat whose decision was among them (None for throws alone);
        ``next_decider``: the timed seat that must decide next (None when no clock runs — a
        computer decides, a throw is due, the game is over); ``free``: the decision was played
        for the player by the server (a forced pass) and costs no time.
        """
        if not self.control.timed:
            return self
        remaining = list(self.remaining)
        if (
            self.control.kind == "clock"
            and decided is not None
            and decided == self.running
            and self.deadline is not None
            and not free
        ):
            remaining[decided] = max(0, self.deadline - now) + self.control.increment * 1000
        if next_decider is None:
            return ClockState(self.control, (remaining[0], remaining[1]), None, None)
        allowance = (
            self.control.seconds * 1000 if self.control.per_decision else remaining[next_decider]
        )
        return ClockState(self.control, (remaining[0], remaining[1]), next_decider, now + allowance)


class SystemClock:
    """Wall-clock time in ms since the epoch, and waiting for a moment to come."""

    def now(self) -> int:
        return int(time.time() * 1000)

    async def sleep_until(self, moment: int) -> None:
        delay = moment - self.now()
        if delay > 0:
            await asyncio.sleep(delay / 1000)


class ManualClock(SystemClock):
    """A clock that moves only when told (tests, and a server started for browser tests):
    :meth:`advance` wakes everyone whose moment has come, so nothing waits for real time."""

    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self._now = start
        self._moved = asyncio.Condition()

    def now(self) -> int:
        return self._now

    async def sleep_until(self, moment: int) -> None:
        async with self._moved:
            await self._moved.wait_for(lambda: self._now >= moment)

    async def advance(self, ms: int) -> int:
        """Move the time on by ``ms`` (not backwards) and wake whoever waits; the new time."""
        async with self._moved:
            self._now += max(0, ms)
            self._moved.notify_all()
        return self._now
