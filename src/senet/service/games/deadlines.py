"""The server's clock at work: a game whose timed decision is not made by its deadline ends,
a loss on time, stored exactly once as an action.

Every process that holds a timed game in memory waits for its deadline (one task per game,
replaced whenever the game changes); when it comes, :meth:`GameCommands.time_out` stores the
end if the decision is still due — the append with its expected ply makes it happen once
whichever processes try.  After a restart, every unfinished timed game is loaded and waited
for again.  A move that arrives after the deadline is refused (``time_out``) and the game is
ended instead, also when no task here was waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from senet.service.errors import GameError

from .clocks import SystemClock
from .live_games import GameStore, LiveGame

__all__ = ["DeadlineWatcher"]

log = logging.getLogger("senet.service")


class DeadlineWatcher:
    def __init__(
        self,
        store: GameStore,
        time_out: Callable[[str], Awaitable[object]],
        clock: SystemClock,
    ) -> None:
        self.store = store
        self.time_out = time_out
        self.clock = clock
        self._waiting: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._closing = False
        store.on_change.append(self._changed)
        store.keep.append(lambda game_id: game_id in self._waiting)

    async def resume(self) -> None:
        """Wait again for the deadline of every unfinished timed game (after a restart)."""
        for game_id in await self.store.storage.running_clocks():
            try:
                self.watch(await self.store.load(game_id))
            except Exception:
                log.exception("cannot resume the clock of game %s", game_id)

    def watch(self, live: LiveGame) -> None:
        deadline = None if live.over else live.clock.deadline
        current = self._waiting.get(live.id)
        if current is not None:
            if current[0] == deadline:
                return
            if current[1] is not asyncio.current_task():  # not the waiter storing the end
                current[1].cancel()
            del self._waiting[live.id]
        if deadline is None or self._closing:
            return
        task = asyncio.create_task(self._wait(live.id, deadline))
        self._waiting[live.id] = (deadline, task)

    async def close(self) -> None:
        self._closing = True
        tasks = [task for _, task in self._waiting.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._waiting.clear()

    def _changed(self, live: LiveGame, here: bool) -> None:
        self.watch(live)

    async def _wait(self, game_id: str, deadline: int) -> None:
        try:
            await self.clock.sleep_until(deadline)
            await self.time_out(game_id)
        except asyncio.CancelledError:
            raise
        except GameError as exc:
            log.info("time-out of game %s not stored: %s", game_id, exc.message)
        except Exception:
            log.exception("the clock of game %s failed", game_id)
        finally:
            entry = self._waiting.get(game_id)
            if entry is not None and entry[1] is asyncio.current_task():
                del self._waiting[game_id]
