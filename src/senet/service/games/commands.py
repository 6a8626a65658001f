"""What players (and the computer) can ask of a game: each request one command.

Every command follows the same shape, so that a new one (resigning, a clock running out, taking
an open game) is one more method here:

1. check the request's own fields (types, ranges) and raise ``GameError`` on bad input;
2. find the seats the secret controls (:meth:`GameCommands.seats_of`);
3. ``async with self.store.deciding(game_id) as decision``: read ``await decision.current()``,
   check the rules against it, and change the game only through ``decision`` (``commit``,
   ``claim_seat``, ``set_seed``, ``set_rematch``), which stores, applies and announces;
4. return the game.

A method marked :func:`command` runs to its end in a task of its own even if its caller is
cancelled (a WebSocket closing while its move is stored): see :mod:`senet.service.infrastructure.unstoppable`.
Nothing is stored or changed when a command raises.  A refusal is never based on a cached copy
alone when several processes serve the game: before refusing (stale ply, not your turn,
illegal move) the game is read from the database and checked again.  Whatever must happen
after a change (the computer's turn) listens to the store, not to the commands.

Every action a browser sends is checked here with the engine before it is stored: the seat's
secret must control the deciding seat, the expected ply must be the current one, and the move
must be legal.  The server throws the sticks itself (:meth:`Decision.commit`).
Seat secrets are never stored, only their SHA-256.  An invitation is a separate secret that
takes the free seat once.  This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

from senet.engine import IllegalMove, Move, Position
from senet.engine.moves import PASS
from senet.service import computer
from senet.service.errors import GameError, requested_variant
from senet.service.fairness.throws import commitment_of, encode_player_seeds, new_secret
from senet.service.infrastructure.unstoppable import Unstoppable
from senet.service.messages import (
    ActionKind,
    Holder,
    Mode,
    SeatKind,
    cancelled_message,
    lobby_changed,
    refresh_message,
)

from .clocks import UNTIMED, TimeControl, requested_time_control
from .fair_play import FairPlay
from .live_games import Decision, GameStore, LiveGame, hash_token, new_token
from .requests import checked_seat
from .seeding import checked_seed, seed_needed, seeds_of
from .storage import ListingCapReached, NewGame, NewSeat, StoredAction

__all__ = [
    "Created",
    "GameCommands",
    "MODES",
    "command",
    "new_game_rows",
    "resigning_seat",
    "LOBBY_CHANNEL",
]

#: The channel on which every change of the open games' listing is announced.
LOBBY_CHANNEL = "lobby"

MODES = tuple(mode.value for mode in Mode)


@dataclass
class Created:
    game_id: str
    token: str  # the creator's seat secret
    seats: tuple[int, ...]  # the seats it controls
    invite: str | None  # the invitation secret of the free seat (friend games)


P = ParamSpec("P")
R = TypeVar("R")


def command(
    method: Callable[Concatenate[GameCommands, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[GameCommands, P], Coroutine[Any, Any, R]]:
    """Mark a method as a command: once started it is decided, stored and published even if
    whoever asked for it goes away meanwhile (it runs in a task of its own)."""

    @functools.wraps(method)
    async def run(self: GameCommands, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await self.actions.run(method(self, *args, **kwargs))

    return run


def new_game_rows(
    variant: str,
    mode: str,
    colour: str,
    level: str | None,
    token_hash: str,
    control: TimeControl = UNTIMED,
    *,
    rematch_of: str | None = None,
    listed: bool = False,
    public: bool = False,
    now: int | None = None,
    listed_until: int | None = None,
    listed_by: str | None = None,
) -> tuple[NewGame, int]:
    """A new game (its row and its seats' rows) and the creator's seat: checked (GameError on
    a bad variant, mode, colour or level), not stored.  Only a friend game is
    ``listed`` (shown until ``listed_until``, counted for the client ``listed_by``); a listed
    game and a game against the computer are always ``public``.  In a friend game the
    creator is seen ``now`` (see :mod:`senet.service.games.fair_play`)."""
    v = requested_variant(variant)
    if mode not in MODES:
        raise GameError("bad_mode", f"mode must be one of {', '.join(MODES)}, not {mode!r}", 400)
    game_mode = Mode(mode)
    colour = (colour or "random").strip()
    if colour in ("A", "a", "0"):
        mine = 0
    elif colour in ("B", "b", "1"):
        mine = 1
    elif colour == "random":
        mine = secrets.randbelow(2)
    else:
        raise GameError("bad_colour", "colour must be A, B or random", 400)
    if game_mode == Mode.COMPUTER:
        level = level or computer.default_level()
        if level not in computer.levels():
            raise GameError(
                "bad_level", f"level must be one of {', '.join(computer.levels())}", 400
            )
    else:
        level = None
    invite = new_token() if game_mode == Mode.FRIEND else None
    seats: list[NewSeat] = []
    for seat in (0, 1):
        if seat == mine or game_mode == Mode.LOCAL:
            seen = now if game_mode == Mode.FRIEND else None
            seats.append(NewSeat(seat, SeatKind.HUMAN, token_hash, left_at=seen))
        elif game_mode == Mode.COMPUTER:
            seats.append(NewSeat(seat, SeatKind.COMPUTER))
        else:
            seats.append(NewSeat(seat, SeatKind.HUMAN, invite_token=invite, claimed=False))
    secret = new_secret()
    state = control.start()
    listed = listed and game_mode == Mode.FRIEND
    game = NewGame(
        id=secrets.token_urlsafe(9),
        variant=v.name,
        mode=game_mode,
        secret=secret.hex(),
        commitment=commitment_of(secret),
        level=level,
        time_control=control.text(),
        clock_a=state.remaining[0] if control.timed else None,
        clock_b=state.remaining[1] if control.timed else None,
        colour_choice="random" if colour == "random" else "AB"[mine],
        rematch_of=rematch_of,
        listed=listed,
        public=public or listed or game_mode == Mode.COMPUTER,
        listed_until=listed_until if listed else None,
        listed_by=listed_by if listed else None,
        seats=tuple(seats),
    )
    return game, mine


class GameCommands:
    """The commands on the games of one :class:`~senet.service.games.live_games.GameStore`."""

    def __init__(self, store: GameStore, fair_play: FairPlay | None = None) -> None:
        self.store = store
        self.fair_play = fair_play or FairPlay()
        self.actions = Unstoppable("an action")  # the commands running now

    async def drain(self) -> None:
        """Wait for every command started so far (at shutdown)."""
        await self.actions.drain()

    async def seats_of(self, game_id: str, token: Holder) -> tuple[int, ...]:
        """The seats ``token`` holds in the game (() for none).  The cached copy is enough to
        find them, unless the seat was claimed through another process: then it is read."""
        live = self.store.cached(game_id) or await self.store.load(game_id)
        seats = live.seats_of(token)
        if not seats and token:
            seats = (await self.store.refresh(game_id)).seats_of(token)
        return seats

    # ------------------------------------------------------------------ creating
    @command
    async def create(
        self,
        variant: str,
        mode: str = "friend",
        colour: str = "random",
        level: str | None = None,
        seed: str | None = None,
        rematch_of: str | None = None,
        time_control: TimeControl = UNTIMED,
        listed: bool = False,
        public: bool = False,
        client: str | None = None,
    ) -> Created:
        """A new game, seeding: no throw yet.  ``seed`` (bots) is given for the creator's
        seats at once.  ``time_control``: parsed by the caller
        (:func:`~senet.service.games.clocks.requested_time_control`); days per move make a
        turn-based game.  ``listed``: an open game in the lobby (friend games), for
        :meth:`FairPlay.listed_until`, and at most :attr:`FairPlay.listing_cap` shown at
        once per ``client`` (else GameError ``too_many_listed``); ``public``: anyone may find
        it among the games to watch (open and computer games always are)."""
        if seed is not None:
            checked_seed(seed)
        token = new_token()
        now = self.store.clock.now()
        game, mine = new_game_rows(
            variant,
            mode,
            colour,
            level,
            hash_token(token),
            time_control,
            rematch_of=rematch_of,
            listed=bool(listed),
            public=bool(public),
            now=now,
            listed_until=self.fair_play.listed_until(now, time_control),
            listed_by=client,
        )
        invite = next((s.invite_token for s in game.seats if s.invite_token), None)
        try:
            await self.store.storage.create_game(
                game, self.fair_play.listing_cap, self.fair_play.listing(now)
            )
        except ListingCapReached:
            raise too_many_listed(self.fair_play.listing_cap) from None
        seats = (0, 1) if game.mode == Mode.LOCAL else (mine,)
        if seed is not None:
            for seat in seats:
                await self.seed(game_id=game.id, token=token, seed=seed, seat=seat)
        if game.listed:
            await self.store.broadcast.publish(LOBBY_CHANNEL, lobby_changed())
        return Created(game.id, token, seats, invite)

    # ------------------------------------------------------------------ seats
    @command
    async def claim(self, game_id: str, invite: str) -> tuple[str, int] | None:
        """Take the free seat with an invitation: ``(seat secret, seat)``, or None if it is
        taken already or the invitation is wrong (the visitor then watches)."""
        live = await self.store.load(game_id)
        seat = live.free_seat()
        if seat is None or not live.invite_valid(invite):
            return None
        token = new_token()
        now = self.store.clock.now()
        async with self.store.deciding(game_id) as decision:
            deadline = self.fair_play.seeds_due(now, live.clock.control)
            if not await decision.claim_seat(seat, invite, hash_token(token), now, deadline):
                return None
        await self.store.publish(game_id, refresh_message(live.ply))
        return token, seat

    @command
    async def seed(
        self, game_id: str, token: Holder, seed: str, seat: int | None = None
    ) -> LiveGame:
        """Store ``seed`` as the own seed of a seat that ``token`` holds and, once every human
        seat has one, make the first throw (see :mod:`senet.service.games.seeding`).  ``seat`` may be
        left out: then the first of the secret's seats still without a seed (a game on one
        screen holds both).

        Raises GameError ``bad_seed``, ``bad_request`` (a seat that is not 0 or 1),
        ``forbidden`` (a spectator, a wrong secret, another's seat), ``already_seeded``,
        ``not_seeding`` (the first throw is made), ``unknown_game``.
        """
        checked_seed(seed)
        seat = checked_seat(seat)
        seats = await self.seats_of(game_id, token)
        if not seats or (seat is not None and seat not in seats):
            raise GameError(
                "forbidden",
                "you hold no such seat in this game (a missing or wrong seat secret)",
                403,
            )
        return await self.seed_seats(game_id, seats, seed, seat)

    @command
    async def seed_seats(
        self, game_id: str, seats: tuple[int, ...], seed: str, seat: int | None = None
    ) -> LiveGame:
        """What :meth:`seed` does once the seats are known (a bot's seats are found from its
        account, not from a seat secret)."""
        checked_seed(seed)
        not_seeding = GameError(
            "not_seeding", "the first throw is made: seeds are taken only before it", 409
        )
        async with self.store.deciding(game_id) as decision:
            live = await decision.current()  # before the first throw this reads the seeds
            if not live.seeding:
                raise not_seeding
            needed = seed_needed(live)
            if seat is None:
                seat = next((s for s in seats if needed[s]), seats[0])
            already = GameError(
                "already_seeded", f"seat {'AB'[seat]} has given its seed already", 409
            )
            if not needed[seat]:
                raise already
            if not await decision.set_seed(seat, seed):
                if not (await decision.reload()).seeding:  # another process threw meanwhile
                    raise not_seeding
                raise already
            live = await decision.current()  # this seat's seed, and any other stored meanwhile
            started = False
            if live.seeding and not any(seed_needed(live)):
                try:
                    # The first throw, stored with the seeds every throw derives from.
                    await decision.commit(live, [], encode_player_seeds(seeds_of(live)))
                    started = True
                except GameError:  # stale: another process made the first throw; it stands
                    live = decision.cached() or live
        if not started:
            await self.store.publish(game_id, refresh_message(live.ply))
        return live

    # ------------------------------------------------------------------ playing
    @command
    async def act(self, game_id: str, token: Holder, ply: int, move: Move) -> LiveGame:
        """Play ``move`` for the seat that ``token`` controls, if ``ply`` is current.  Both are
        parsed by the caller, once, where the request arrived
        (:func:`~senet.service.games.requests.checked_ply`,
        :func:`~senet.service.games.requests.parsed_move`: ``bad_request``, ``bad_move``).

        Raises GameError: ``unknown_game``, ``forbidden`` (no seat), ``not_your_turn``,
        ``stale`` (an old ply: a double click or an outdated page), ``game_over``,
        ``illegal`` (the engine refuses it).
        """
        seats = await self.seats_of(game_id, token)
        if not seats:
            raise GameError(
                "forbidden", "you hold no seat in this game (a missing or wrong seat secret)", 403
            )
        return await self.play(game_id, seats, ply, move)

    @command
    async def play(self, game_id: str, seats: tuple[int, ...], ply: int, move: Move) -> LiveGame:
        """Play ``move`` for one of ``seats`` at ``ply``: what :meth:`act` does once the seats
        are known, and what the computer and the bots play through."""
        async with self.store.deciding(game_id) as decision:
            live = decision.cached() or await decision.current()
            if live.clock.expired(self.store.clock.now()):
                live = await decision.current()
                late = live.clock.running
                if late is not None and live.clock.expired(self.store.clock.now()):
                    if not live.over:
                        await self._end(decision, live, late, "time forfeit")
                    raise GameError("time_out", "time ran out before this move arrived", 409)
            try:
                decider = _check_move(live, seats, ply, move)
            except GameError:
                if not self.store.shared:
                    raise
                # The cached copy may be behind another process: refuse only what the
                # database refuses too.  (An accepted action needs no such read: the insert
                # with its expected ply fails if the copy was behind, and the answer is stale.)
                live = await decision.current()
                decider = _check_move(live, seats, ply, move)
            await decision.commit(
                live, [StoredAction(live.ply, ActionKind.MOVE, decider, move.text())]
            )
        return live

    @command
    async def forced_pass(self, game_id: str, ply: int) -> LiveGame:
        """Play the pass at ``ply`` for the seat that decides, if a pass is still its only legal
        decision there (the server's turn: no secret needed, nothing else can be played).  The
        action stored is the same ``pass`` the player could have sent, and costs no clock time.

        Raises GameError ``stale`` if the game has moved on (the player passed first, or it
        was played elsewhere), ``not_forced`` if the decision due is not a forced pass.
        """
        async with self.store.deciding(game_id) as decision:
            live = decision.cached() or await decision.current()
            if live.ply != ply and self.store.shared:
                live = await decision.current()
            if live.ply != ply:
                raise GameError.stale()
            if not live.forced_pass:
                raise GameError("not_forced", "the decision due is not a forced pass", 409)
            decider = live.position.decider
            await decision.commit(
                live, [StoredAction(live.ply, ActionKind.MOVE, decider, PASS)], free=True
            )
        return live

    # ------------------------------------------------------------------ ending a game early
    @command
    async def resign(self, game_id: str, token: Holder, seat: int | None = None) -> LiveGame:
        """Resign: the other seat wins (``[Termination "resignation"]``), at any moment of the
        game once both seats are taken, one's own decision or not.  ``seat`` only when the
        secret holds both seats (on one screen; else the seat on turn resigns).  A game whose
        other seat is still free has nobody to win it: it is cancelled instead (:meth:`cancel`).

        Raises GameError ``forbidden`` (no seat), ``game_over``, ``bad_request``,
        ``not_joined`` (the other seat is still free).
        """
        seat = checked_seat(seat)
        seats = await self.seats_of(game_id, token)
        if not seats or (seat is not None and seat not in seats):
            raise GameError("forbidden", "only a player can resign, for their own seat", 403)
        return await self.resign_seats(game_id, seats, seat)

    @command
    async def resign_seats(
        self, game_id: str, seats: tuple[int, ...], seat: int | None = None
    ) -> LiveGame:
        """What :meth:`resign` does once the seats are known."""
        async with self.store.deciding(game_id) as decision:
            live = await decision.current(seats=True)
            _check_not_over(live)
            if live.free_seat() is not None:
                raise GameError(
                    "not_joined", "nobody holds the other seat: cancel the game instead", 409
                )
            if seat is None:
                seat = resigning_seat(live.position, seats)
            await self._end(decision, live, seat, "resignation")
        return live

    @command
    async def cancel(self, game_id: str, token: Holder) -> None:
        """Cancel a game nobody has joined yet (its host changed their mind, or stops looking
        for an opponent): the game, its invitation and its listing are gone, and everyone
        showing it is told (a ``cancelled`` message).  Nothing was thrown yet, so nothing is
        lost; once a person holds the other seat, resigning is the way out.

        Raises GameError ``forbidden`` (no seat), ``game_over``, ``joined`` (the other seat
        is taken, or there was none to wait for: a game on one screen or against the computer).
        """
        seats = await self.seats_of(game_id, token)
        if not seats:
            raise GameError("forbidden", "only the player who made the game can cancel it", 403)
        joined = GameError(
            "joined", "the other seat is taken: the game can only be resigned now", 409
        )
        async with self.store.deciding(game_id) as decision:
            live = await decision.current(seats=True)
            _check_not_over(live)
            if live.free_seat() is None:
                raise joined
            if not await decision.delete_unjoined():
                raise joined
        await self.store.publish(game_id, cancelled_message())
        if live.stored.listed:
            await self.store.broadcast.publish(LOBBY_CHANNEL, lobby_changed())
        if live.stored.rematch_of is not None:
            # the game it is a rematch of no longer offers it
            first = await self.store.reload(live.stored.rematch_of)
            await self.store.publish(first.id, refresh_message(first.ply))

    @command
    async def claim_abandoned(self, game_id: str, token: Holder) -> LiveGame:
        """Claim the win of an untimed game whose opponent has not been seen (no connection,
        no move, no read of the state with their secret) for :attr:`FairPlay.abandon_after`.
        Before the first throw there is nothing to win: a game whose seeds do not come in
        time is called off (:meth:`abort_unstarted`).

        Raises GameError ``forbidden``, ``game_over``, ``not_abandoned`` (the opponent is
        here, was seen within the grace time, the game has not started, or it is timed: its
        clock decides).
        """
        seats = await self.seats_of(game_id, token)
        if len(seats) != 1:
            raise GameError("forbidden", "only a player facing an opponent can claim", 403)
        async with self.store.deciding(game_id) as decision:
            live = await decision.current(seats=True)
            _check_not_over(live)
            opponent = 1 - seats[0]
            now = self.store.clock.now()
            claimable = abandoned_since(live, opponent, now, self.fair_play.abandon_after)
            if claimable is None or claimable > now:
                raise GameError("not_abandoned", "your opponent has not been gone long enough", 409)
            await self._end(decision, live, opponent, "abandoned")
        return live

    @command
    async def abort_unstarted(self, game_id: str) -> bool:
        """Call off a game whose seeds did not all come by its seeding deadline: it is
        deleted without a result (nothing was thrown), and everyone showing it is told (a
        ``cancelled`` message with ``"reason": "aborted"``).  True if this call did it; False
        if the first throw came first, the deadline is not past, or the game is gone (another
        process called it off)."""
        async with self.store.deciding(game_id) as decision:
            live = await decision.current(seats=True)
            if not live.seeding:
                return False
            if not await decision.delete_unstarted(self.store.clock.now()):
                return False
        await self.store.publish(game_id, cancelled_message("aborted"))
        if live.stored.rematch_of is not None:
            first = await self.store.reload(live.stored.rematch_of)
            await self.store.publish(first.id, refresh_message(first.ply))
        return True

    async def time_out(self, game_id: str) -> LiveGame:
        """End the game on time if its timed decision is still due after its deadline (the
        server's clock calls this; stored once whichever process calls it)."""
        async with self.store.deciding(game_id) as decision:
            live = await decision.current()
            clock = live.clock
            if live.over or clock.running is None or not clock.expired(self.store.clock.now()):
                return live
            await self._end(decision, live, clock.running, "time forfeit")
        return live

    async def _end(self, decision: Decision, live: LiveGame, loser: int, termination: str) -> None:
        await decision.commit(live, [StoredAction(live.ply, ActionKind.END, loser, termination)])
        if live.stored.pairing is not None or live.free_seat() is not None:
            await self.store.broadcast.publish(LOBBY_CHANNEL, lobby_changed())

    # ------------------------------------------------------------------ after the game
    @command
    async def rematch(self, game_id: str, token: Holder) -> tuple[str, str | None]:
        """Ask for (or accept) a rematch: ``(new game id, new seat secret or None if already
        seated)``.

        Colours swap: whoever held A now holds B.  The first request creates the game; the other
        player's request takes their seat in it; further requests return the same game.
        """
        live = await self.store.refresh(game_id)
        seats = live.seats_of(token)
        if not seats:
            raise GameError("forbidden", "only the players can ask for a rematch", 403)
        if not live.over:
            raise GameError("not_over", "the game is not over yet", 409)
        mine = seats[0]
        if live.stored.rematch_id is None:
            s = live.stored
            created = await self.create(
                s.variant,
                s.mode,
                "AB"[1 - mine],
                s.level,
                rematch_of=s.id,
                time_control=requested_time_control(s.time_control),
                public=s.public,
            )
            async with self.store.deciding(game_id) as decision:
                linked = await decision.set_rematch(created.game_id)
                live = decision.cached() or live
            if linked:
                await self.store.publish(game_id, refresh_message(live.ply))
                return created.game_id, created.token
        new_id = live.stored.rematch_id
        if new_id is None:
            raise RuntimeError(f"game {game_id} has no rematch after one was made")
        new = await self.store.load(new_id)
        seat = 1 - mine
        free = next(s for s in new.stored.seats if s.seat == seat)
        if free.claimed or not free.invite_token:
            return new_id, None  # already seated there (the creator) or taken
        claimed = await self.claim(new_id, free.invite_token)
        return new_id, claimed[0] if claimed else None


#: How long an opponent must be gone before the player who stayed may claim the win (ms), by
#: default (the setting ``SENET_ABANDON_GRACE``).
ABANDONED_AFTER = FairPlay.abandon_after


def too_many_listed(cap: int) -> GameError:
    return GameError(
        "too_many_listed",
        f"you have {cap} open games listed already: wait for a taker or cancel one",
        429,
    )


def abandoned_since(
    live: LiveGame, seat: int, now: int, after: int = ABANDONED_AFTER
) -> int | None:
    """When the win over ``seat`` may be claimed (ms since the epoch), ``after`` ms after its
    holder was last seen, or None: the game has not started (a game whose seeds do not come
    is called off instead), is timed (its clock decides), the seat is not a person's, or its
    holder is connected."""
    if live.over or live.seeding or live.clock.control.timed or live.stored.mode != Mode.FRIEND:
        return None
    held = next((s for s in live.stored.seats if s.seat == seat), None)
    if held is None or held.kind != SeatKind.HUMAN or not held.claimed or held.left_at is None:
        return None
    return held.left_at + after


def resigning_seat(position: Position, seats: tuple[int, ...]) -> int:
    """Who resigns when no seat is named: the player's own seat, or, for the holder of both
    seats (one screen), the seat deciding now (which may be the seat not on turn: a pending
    House decision), else the seat on turn."""
    if len(seats) == 1:
        return seats[0]
    decider = position.decider
    return position.turn if decider is None else decider


def _check_not_over(live: LiveGame) -> None:
    if live.over:
        raise GameError("game_over", "the game is over", 409)


def _check_move(live: LiveGame, seats: tuple[int, ...], ply: int, move: Move) -> int:
    """The deciding seat if ``move`` may be played now by one of ``seats``; GameError if not."""
    pos = live.position
    if live.over:
        raise GameError("game_over", "the game is over", 409)
    if live.seeding:
        raise GameError(
            "seeding", "the game starts when every player has given a seed: no move yet", 409
        )
    if ply != live.ply:
        raise GameError("stale", f"the game is at ply {live.ply}, not {ply}: reload the state", 409)
    decider = pos.decider
    if decider not in seats:
        raise GameError("not_your_turn", "it is not your decision now", 409)
    if move not in live.legal_moves():
        try:
            pos.apply(move)  # raises IllegalMove, naming the legal moves
        except IllegalMove as exc:
            raise GameError("illegal", str(exc), 422) from None
    if decider is None:
        raise RuntimeError("no seat decides in a position that is neither over nor chance")
    return decider
