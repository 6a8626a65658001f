"""The server's own turns: the computer's moves, and the passes that are a person's only legal
decision (a *forced pass*), each played after a delay.

The scheduler listens to the store (:attr:`GameStore.on_change`) and holds at most one task per
game: the turn due at the game's current ply, if the server plays it.  A change at a new ply
replaces the task (a task for a ply that has passed can do nothing useful).

* **The computer's move** is played ``computer_delay`` seconds after the position reached it,
  through the same command as a human's move (``play``).
* **A forced pass** — the decider's only legal move is ``pass``: no piece can move, or a throw
  of fate's move is impossible — is played for the player, computer or person, after
  ``pass_delay`` seconds of the server's clock (so that everyone can read why the turn
  passes), through :meth:`GameCommands.forced_pass`: the stored action is the ``pass`` the
  player could have sent, and costs them no clock time.  If the player's own pass arrives
  first it is stored and the server's is answered ``stale`` and dropped.  ``pass_delay`` None:
  the server plays no forced pass (the player must send it; the service's default, for
  programs that drive every move themselves).

The computer's move is searched in a worker process (:mod:`senet.service.infrastructure.jobs`, first of every
kind of job); a task cancelled because the game moved on gives its job up.  If the job fails
(its worker died twice, the level raised) or gets no answer in ``SEARCH_LIMIT`` seconds (no
worker serves the queue), the greedy player moves instead, so that no game waits for ever.

When this process stored the change (or it is the only process) the turn is played after its
delay; a game that changed elsewhere (read from the database or absorbed from another
process's message, with several processes) gets a *stand-by*: it plays only if nobody has after
another ``backup_delay`` seconds (the process that should have played died).  Either way the
database's insert with its expected ply decides, so a turn is stored exactly once whichever
processes try.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from senet.service import computer
from senet.service.errors import GameError
from senet.service.infrastructure.jobs import ComputerMoveJob, JobFailed, JobQueue

from .live_games import GameStore, LiveGame
from .requests import parsed_move

if TYPE_CHECKING:
    from .commands import GameCommands

__all__ = ["ServerTurns", "Turn"]

log = logging.getLogger("senet.service")

#: Seconds the computer's move may wait for a worker (none running, all stuck) before the
#: greedy player moves instead: a move takes well under a second once a worker has it.
SEARCH_LIMIT = 60.0


@dataclass(frozen=True)
class Turn:
    """A decision the server plays: ``seat``'s, a computer's move or a forced pass."""

    seat: int
    kind: Literal["computer", "pass"]


@dataclass
class _Waiting:
    ply: int
    turn: Turn
    backup: bool
    task: asyncio.Task[None]


class ServerTurns:
    """One task per game whose next decision the server plays (see the module doc)."""

    def __init__(
        self,
        store: GameStore,
        commands: GameCommands,
        jobs: JobQueue,
        *,
        computer_delay: float,
        pass_delay: float | None = None,
        backup_delay: float = 3.0,
    ) -> None:
        self.store = store
        self.commands = commands
        self.jobs = jobs
        self.computer_delay = computer_delay
        self.pass_delay = pass_delay
        self.backup_delay = backup_delay  # a stand-by acts if the game did not move meanwhile
        self._waiting: dict[str, _Waiting] = {}
        self._closing = False
        store.on_change.append(self._changed)
        store.keep.append(self.busy)

    @property
    def plays_forced_passes(self) -> bool:
        return self.pass_delay is not None

    def due(self, live: LiveGame) -> Turn | None:
        """The turn the server plays in ``live`` now, if any."""
        if live.over or live.seeding:
            return None
        decider = live.position.decider
        if decider is None:
            return None
        if self.pass_delay is not None and live.forced_pass:
            return Turn(decider, "pass")
        if decider == live.computer_seat():
            return Turn(decider, "computer")
        return None

    async def resume(self) -> None:
        """Resume the computer's turn in every unfinished computer game (after a restart).
        A game waiting for a forced pass is scheduled when it is next loaded."""
        for game_id in await self.store.storage.unfinished_computer_games():
            try:
                live = await self.store.load(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            self.schedule(live, backup=self.store.shared)

    def busy(self, game_id: str) -> bool:
        """Is a task held for this game (so that the game stays cached)?"""
        return game_id in self._waiting

    def schedule(self, live: LiveGame, backup: bool = False) -> None:
        """Play the server's turn due in ``live`` after its delay, or stand by (``backup``);
        forget a task of an earlier ply."""
        turn = None if self._closing else self.due(live)
        held = self._waiting.get(live.id)
        if held is not None and not held.task.done():
            if held.ply == live.ply and held.turn == turn and (backup or not held.backup):
                return  # already waiting for this turn (a stand-by gives way to the real one)
            if held.task is not asyncio.current_task():
                held.task.cancel()
        self._waiting.pop(live.id, None)
        if turn is None:
            return
        delay = (self.pass_delay if turn.kind == "pass" else self.computer_delay) or 0.0
        if backup:
            delay += self.backup_delay
        # A forced pass waits on the server's clock (which a test's manual clock moves), from
        # now; the computer in real time.
        due = self.store.clock.now() + round(delay * 1000) if turn.kind == "pass" else None
        task = asyncio.create_task(self._play(live.id, live.ply, turn, delay, due))
        self._waiting[live.id] = _Waiting(live.ply, turn, backup, task)

    async def close(self) -> None:
        self._closing = True
        tasks = [held.task for held in self._waiting.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._waiting.clear()

    def _changed(self, live: LiveGame, here: bool) -> None:
        # With one process every change is this process's to act on (a game read again after
        # a restart too); with several, a change made elsewhere gets a stand-by.
        self.schedule(live, backup=not here and self.store.shared)

    async def _play(
        self, game_id: str, ply: int, turn: Turn, delay: float, due: int | None
    ) -> None:
        try:
            if due is not None:
                await self.store.clock.sleep_until(due)
            else:
                await asyncio.sleep(delay)
            live = await self.store.refresh(game_id)
            if live.ply != ply or self.due(live) != turn:
                return  # moved on meanwhile: the change scheduled whatever is due now
            if turn.kind == "pass":
                await self.commands.forced_pass(game_id, ply)
                return
            level = live.stored.level or computer.default_level()
            seed = secrets.randbits(64)
            request = ComputerMoveJob(live.position.fen(), level, seed, game_id, ply)
            try:
                move = await asyncio.wait_for(self.jobs.computer_move(request), SEARCH_LIMIT)
            except (JobFailed, TimeoutError) as exc:
                why = str(exc) or f"no answer in {SEARCH_LIMIT:.0f} s"
                log.error("the computer's move in %s failed (%s): greedy plays", game_id, why)
                move = computer.greedy_player(live.position, random.Random(seed)).text()
            await self.commands.play(game_id, (turn.seat,), ply, parsed_move(move))
        except asyncio.CancelledError:
            raise
        except GameError as exc:  # the position moved on meanwhile (another process played)
            log.info("server's %s in %s refused: %s", turn.kind, game_id, exc.message)
        except Exception:
            log.exception("the server's %s failed in game %s", turn.kind, game_id)
        finally:
            held = self._waiting.get(game_id)
            if held is not None and held.task is asyncio.current_task():
                del self._waiting[game_id]
