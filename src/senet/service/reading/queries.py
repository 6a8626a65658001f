"""What the front ends read of a game, by its id and the viewer's seat secret.

:class:`GameQueries` is the one way the site reads a game: a viewer's state
(:meth:`~GameQueries.state`), what an events-mode client missed (:meth:`~GameQueries.events`),
the facts a page shows besides the state (:class:`GameFacts`), the record, the players'
ratings, the review.  Each reads the game through the store (from its cache, verified against
the database with several processes) and answers with typed values built here or in
:mod:`senet.service.games.views`, so that no front end handles the store's games
(:class:`~senet.service.games.live_games.LiveGame`) or knows how a secret maps to a seat.  It
changes nothing, but for what a read implies: a finished rated game not yet rated is rated
when its ratings are read (:meth:`Players.seat_ratings`), a review is computed when first
asked for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from senet.engine import Outcome, Position, Variant
from senet.service.errors import GameError
from senet.service.games.clocks import SystemClock
from senet.service.games.live_games import GameStore, LiveGame
from senet.service.games.scheduler import ServerTurns
from senet.service.games.views import events_message, game_record, state_message
from senet.service.infrastructure.jobs import Client
from senet.service.infrastructure.presence import Presence
from senet.service.messages import EventsMessage, Holder, Mode, StateMessage
from senet.service.players.accounts import Players, SeatRating
from senet.service.players.storage import PlayerRow
from senet.service.reviews.analyses import GameReview, Reviews

from .export import ExportedGame, PlayerData, finished_games, month_bounds, player_data

__all__ = ["GameFacts", "GameQueries"]


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a page shows of a game besides its state, for one viewer.

    ``seats``: the seats the viewer's secret holds (() for a spectator); ``invite``: the
    invitation secret, shown only to a seat holder of a game by invitation while the other seat
    is free; ``listed``: shown in the lobby's open games; ``termination``: how a player ended the game (a resignation, a loss on time, an
    abandoned game), None while it goes on or when the rules ended it.
    """

    id: str
    variant: Variant
    mode: Mode
    level: str | None
    commitment: str
    ply: int
    over: bool
    outcome: Outcome | None
    termination: str | None
    seats: tuple[int, ...]
    invite: str | None
    free_seat: int | None
    listed: bool
    rematch_of: str | None
    rematch_id: str | None

    def seat_names(self, seats: tuple[int, ...], lang: str) -> str:
        """The seats as a page names them: ``Spools + Cones``."""
        return " + ".join(self.variant.seat_name(seat, lang) for seat in seats)


def facts_of(live: LiveGame, seats: tuple[int, ...]) -> GameFacts:
    s = live.stored
    return GameFacts(
        id=live.id,
        variant=live.game.variant,
        mode=s.mode,
        level=s.level,
        commitment=s.commitment,
        ply=live.ply,
        over=live.over,
        outcome=live.outcome,
        termination=s.termination if live.ending else None,
        seats=seats,
        invite=live.invite_for(seats),
        free_seat=live.free_seat(),
        listed=s.listed,
        rematch_of=s.rematch_of,
        rematch_id=s.rematch_id,
    )


class GameQueries:
    """The reads of a game the front ends make (see the module doc)."""

    def __init__(
        self,
        store: GameStore,
        people: Presence,
        clock: SystemClock,
        turns: ServerTurns,
        players: Players,
        reviews: Reviews,
    ) -> None:
        self._store = store
        self._people = people
        self._clock = clock
        self._turns = turns
        self._players = players
        self._reviews = reviews

    async def _read(self, game_id: str, min_ply: int | None, reread: bool) -> LiveGame:
        if reread:
            return await self._store.refresh(game_id, seats=True)
        return await self._store.load(game_id, min_ply)

    def _state_of(self, live: LiveGame, seats: tuple[int, ...]) -> StateMessage:
        return state_message(
            live,
            seats,
            self._people.summary(live.id),
            self._clock.now(),
            self._turns.plays_forced_passes,
        )

    async def facts(self, game_id: str, token: Holder = None) -> GameFacts:
        """The game's facts for the holder of ``token`` (None: a spectator); GameError
        ``unknown_game`` if there is no such game."""
        live = await self._store.load(game_id)
        return facts_of(live, live.seats_of(token))

    async def seats(self, game_id: str, token: Holder) -> tuple[int, ...]:
        """The seats ``token`` holds in the game (() for none)."""
        return (await self._store.load(game_id)).seats_of(token)

    async def invite_opens(self, game_id: str, invite: str) -> bool:
        """Does ``invite`` still open the game's free seat?  (Nothing is taken by asking.)"""
        return (await self._store.load(game_id)).invite_valid(invite)

    async def state(
        self,
        game_id: str,
        token: Holder = None,
        *,
        seats: tuple[int, ...] | None = None,
        min_ply: int | None = None,
        reread: bool = False,
    ) -> StateMessage:
        """Everything the holder of ``token`` may see of the game now (the legal moves only
        for the seat that decides), with the presence summed over every server process, the
        server's clock and whether it plays forced passes.

        ``seats``: the viewer's seats when they are known otherwise than by a secret (a bot's,
        by its player), instead of ``token``'s; ``min_ply``: an update message's ply (a copy
        that has it is current enough); ``reread``: read the game again from the database, its
        seats too (messages may have been lost, or something besides its actions changed)."""
        live = await self._read(game_id, min_ply, reread)
        return self._state_of(live, live.seats_of(token) if seats is None else seats)

    async def events(
        self,
        game_id: str,
        token: Holder,
        since: int | None,
        *,
        seats: tuple[int, ...] | None = None,
        min_ply: int | None = None,
        reread: bool = False,
    ) -> StateMessage | EventsMessage:
        """What a client in events mode that has seen ``since`` events missed: the events
        from ``since`` on (none if it has them all), or the whole state when ``since`` is None
        or not an event number of the game.  ``seats``, ``min_ply``, ``reread``: as for
        :meth:`state`."""
        live = await self._read(game_id, min_ply, reread)
        if seats is None:
            seats = live.seats_of(token)
        if since is None or not 0 <= since <= live.ply:
            return self._state_of(live, seats)
        return events_message(live, seats, since, self._turns.plays_forced_passes)

    async def record(self, game_id: str, site: str = "") -> str:
        """The game in the record format (:mod:`senet.engine.record`), with its fairness tags."""
        return game_record(await self._store.load(game_id), site)

    def export(
        self, month: str, variant: str | None = None, site: str = ""
    ) -> AsyncIterator[ExportedGame]:
        """The games finished in ``month`` (YYYY-MM), of ``variant`` or all, with their
        records (:func:`senet.service.reading.export.finished_games`); ValueError for a bad month."""
        month_bounds(month)  # refused before the first line is sent
        return finished_games(self._store.storage, self._players.db, month, variant, site)

    async def player_data(self, player: PlayerRow, site: str = "") -> PlayerData:
        """Everything kept about a named player that they may take away."""
        return await player_data(self._store.storage, self._players.db, player, site)

    async def ratings(self, game_id: str) -> tuple[bool, list[SeatRating]]:
        """``(rated, the named seats)`` of the game (see :meth:`Players.seat_ratings`)."""
        return await self._players.seat_ratings(await self._store.load(game_id))

    async def review_ready(self, game_id: str) -> GameReview | None:
        """The review of a finished game if it is computed (GameError ``not_over`` before)."""
        return await self._reviews.ready(await self._store.load(game_id))

    async def review(self, game_id: str, client: Client | None = None) -> GameReview:
        """The review of a finished game, computed by a worker if nobody has yet."""
        return await self._reviews.review(await self._store.load(game_id), client)

    async def hint_allowed(self, game_id: str, token: Holder, position: Position) -> bool:
        """Is ``position`` a hint for the holder of ``token`` (served as a hint, counted
        against that seat), rather than an analysis (the analysis board's quota)?  Only where
        the game page offers hints — against the computer or two people on one screen, the
        game going on — for its current position, to a seat that decides it now.  False for
        no such game, or a position the game is not at."""
        if not token:
            return False
        try:
            live = await self._store.load(game_id)
        except GameError:
            return False
        if live.stored.mode not in (Mode.COMPUTER, Mode.LOCAL) or live.over:
            return False
        decider = live.decider
        return decider is not None and decider in live.seats_of(token) and live.position == position
