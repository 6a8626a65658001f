"""The players' own seeds (issue 6): a game starts in a *seeding* phase.

The order is what makes the throws trustworthy: a game is created with its secret and the
public commitment (SHA-256 of the secret) but no throw; only then does each human seat's holder
give a seed of their own, once; the first throw is made when every human seat has given one,
and every throw is derived from the secret *and* both seeds (see :mod:`senet.service.fairness`
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

This is part of :class:`senet.service.games.GameService` kept in a module of its own: it uses
the service's cache, locks and ``_commit``.  It must not import :mod:`senet.web`.
"""

from __future__ import annotations

from typing import Any

from .fairness import check_seed, encode_player_seeds
from .games import GameError, GameService, LiveGame

__all__ = ["checked_seed", "give_seed", "seeds_of", "seed_needed"]


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


async def give_seed(
    service: GameService, game_id: str, token: str | None, seed: Any, seat: Any = None
) -> LiveGame:
    """Store ``seed`` as the own seed of a seat that ``token`` holds and, once every human seat
    has one, make the first throw.  ``seat`` may be left out: then the first of the secret's
    seats still without a seed (a game on one screen holds both).

    Raises GameError ``bad_seed``, ``bad_request`` (a seat that is not 0 or 1), ``forbidden``
    (a spectator, a wrong secret, another's seat), ``already_seeded``, ``not_seeding`` (the
    first throw is made), ``unknown_game``; nothing is stored or changed when it raises.
    """
    return await service.actions.run(_give_seed(service, game_id, token, seed, seat))


async def _give_seed(
    service: GameService, game_id: str, token: str | None, seed: Any, seat: Any
) -> LiveGame:
    checked_seed(seed)
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1)
    ):
        raise GameError("bad_request", "seat must be 0 (A) or 1 (B)")
    live = service._cache.get(game_id) or await service.load(game_id)
    seats = live.seats_of(token)
    if not seats and token:
        seats = (await service.refresh(game_id)).seats_of(token)  # claimed through another process?
    if not seats or (seat is not None and seat not in seats):
        raise GameError(
            "forbidden", "you hold no such seat in this game (a missing or wrong seat secret)", 403
        )
    not_seeding = GameError(
        "not_seeding", "the first throw is made: seeds are taken only before it", 409
    )
    async with service._lock(game_id):
        live = await service._refresh(game_id)  # before the first throw this reads the seats' seeds
        if not live.seeding:
            raise not_seeding
        needed = seed_needed(live)
        if seat is None:
            seat = next((s for s in seats if needed[s]), seats[0])
        if not needed[seat]:
            raise GameError("already_seeded", f"seat {'AB'[seat]} has given its seed already", 409)
        if not await service.storage.set_seed(game_id, seat, seed):
            if not (await service.reload(game_id)).seeding:  # another process threw meanwhile
                raise not_seeding
            raise GameError("already_seeded", f"seat {'AB'[seat]} has given its seed already", 409)
        live = await service._refresh(game_id)  # this seat's seed, and any other stored meanwhile
        started = False
        if live.seeding and not any(seed_needed(live)):
            live.stored.player_seeds = encode_player_seeds(
                seeds_of(live)
            )  # what every throw derives from
            try:
                await service._commit(live, [])  # the first throw, stored with the seeds
                started = True
            except GameError:  # stale: another process made the first throw; it stands
                live = service._cache.get(game_id) or live
    if started:
        service._schedule_computer(live)  # the computer may open the game now
    else:
        await service._publish(game_id, {"type": "update", "ply": live.ply, "refresh": True})
    return live
