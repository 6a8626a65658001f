"""The computer's turns: when a game reaches the computer's decision, play it after a delay.

The scheduler listens to the store (:attr:`GameStore.on_change`).  When this process stored
the change (a human's move, the first throw) the computer plays at once after ``delay``
seconds; a game that changed elsewhere (read from the database or absorbed from another
process's message, with several processes) gets a *stand-by*: it plays only if nobody has after
another ``backup_delay`` seconds (the process that should have played died).  Either way the
move goes through the same command as a human's (``play``), so the database's insert decides
and it is stored exactly once whichever process computes it.

A timer of another kind (a clock that runs out) would follow the same pattern: listen to the
store, hold one task per game, act through a command.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable

from . import computer
from .errors import GameError
from .store import GameStore, LiveGame

__all__ = ["ComputerScheduler", "PlayMove"]

log = logging.getLogger("senet.service")

#: The command the computer plays through: (game id, seats, expected ply, move notation).
PlayMove = Callable[[str, tuple[int, ...], int, str], Awaitable[LiveGame]]


class ComputerScheduler:
    """One task per game whose computer seat is to decide (see the module doc)."""

    def __init__(
        self, store: GameStore, play: PlayMove, *, delay: float, backup_delay: float = 3.0
    ) -> None:
        self.store = store
        self.play = play
        self.delay = delay
        self.backup_delay = backup_delay  # a stand-by acts if the game did not move meanwhile
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._backups: set[str] = set()  # games whose task is only a stand-by
        self._closing = False
        store.on_change.append(self._changed)
        store.keep.append(self.busy)

    async def resume(self) -> None:
        """Resume the computer's turn in every unfinished computer game (after a restart)."""
        for game_id in await self.store.storage.unfinished_computer_games():
            try:
                live = await self.store.load(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            self.schedule(live, backup=self.store.shared)

    def busy(self, game_id: str) -> bool:
        """Is a computer task held for this game (so that the game stays cached)?"""
        return game_id in self._tasks

    def schedule(self, live: LiveGame, backup: bool = False) -> None:
        """Let the computer play its turn from here, or stand by (``backup``)."""
        seat = live.computer_seat()
        if self._closing or seat is None or live.position.decider != seat:
            return
        task = self._tasks.get(live.id)
        if task is not None and not task.done():
            if backup or live.id not in self._backups:
                return
            task.cancel()  # a stand-by gives way to the real one
        if backup:
            self._backups.add(live.id)
        else:
            self._backups.discard(live.id)
        delay = self.delay + (self.backup_delay if backup else 0.0)
        self._tasks[live.id] = asyncio.create_task(self._turns(live.id, seat, delay))

    async def close(self) -> None:
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _changed(self, live: LiveGame, here: bool) -> None:
        if here:
            self.schedule(live)
        elif self.store.shared:
            self.schedule(live, backup=True)

    async def _turns(self, game_id: str, seat: int, first_delay: float) -> None:
        rng = random.Random(secrets.randbits(64))
        delay = first_delay
        try:
            while True:
                await asyncio.sleep(delay)
                delay = self.delay
                live = await self.store.refresh(game_id)
                self._backups.discard(game_id)
                pos = live.position
                if pos.decider != seat:
                    return
                level = live.stored.level or computer.default_level()
                move = await asyncio.to_thread(
                    computer.choose_move, pos, level, rng, computer.greedy_player
                )
                try:
                    await self.play(game_id, (seat,), live.ply, move.text())
                except GameError as exc:  # the position moved on meanwhile: look again
                    log.info("computer move in %s refused: %s", game_id, exc.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer failed in game %s", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                self._backups.discard(game_id)
