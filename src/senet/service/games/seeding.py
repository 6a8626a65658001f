"""The players' own seeds: a game starts in a *seeding* phase.

The order is what makes the throws trustworthy: a game is created with its secret and the
public commitment (SHA-256 of the secret) but no throw; only then does each human seat's holder
give a seed of their own, once; the first throw is made when every human seat has given one,
and every throw is derived from the secret *and* both seeds (see :mod:`senet.service.fairness.throws`
for the HMAC message and the seeds' unambiguous encoding).  The server cannot choose a secret
to suit the seeds (it committed before it saw them), and no player can steer a throw (the
secret stays hidden until the game is over).  A computer seat gives no seed.

With several server processes: a seed is stored per seat by one statement (``UPDATE seats ...
WHERE seed IS NULL`` and the game still at ply 0), so each seat's seed is stored once whichever
process receives it; after storing, a process re-reads the seats, and whichever sees every
human seed stored makes the first throw through the same optimistic append as any action
(ply 0 is stored once; a racing process gets ``stale`` and lets the other's throw stand).  The
encoded seeds are stored with that throw (``games.player_seeds``), so every process derives
the later throws from the same string.  A stored seed is published (``update`` with
``refresh``), so every viewer on every process sees who has given theirs.

This module holds the seeding rules (a valid seed, which seats still owe one); the command that
stores a seed and makes the first throw is :meth:`senet.service.games.commands.GameCommands.seed`.
It must not import :mod:`senet.web`.
"""

from __future__ import annotations

from typing import Any

from senet.service.errors import GameError
from senet.service.fairness.throws import check_seed

from .live_games import LiveGame

__all__ = ["checked_seed", "seeds_of", "seed_needed"]


def checked_seed(seed: Any) -> str:
    """``seed`` if valid, else GameError ``bad_seed`` saying why (1-64 printable ASCII, no ':')."""
    try:
        return check_seed(seed)
    except ValueError as exc:
        raise GameError("bad_seed", str(exc), 400) from None


def seeds_of(live: LiveGame) -> list[str | None]:
    """Each seat's own seed (None: not given yet, or a computer seat, which gives none)."""
    by_seat = {s.seat: s.seed for s in live.stored.seats}
    return [by_seat.get(0), by_seat.get(1)]


def seed_needed(live: LiveGame) -> list[bool]:
    """Which seats must still give a seed before the first throw (human seats without one,
    taken or not: a friend game waits for the friend)."""
    by_seat = {s.seat: s for s in live.stored.seats}
    return [
        live.seeding
        and seat in by_seat
        and by_seat[seat].kind == "human"
        and by_seat[seat].seed is None
        for seat in (0, 1)
    ]
