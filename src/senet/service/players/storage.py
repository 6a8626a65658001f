"""Durable storage of players with a name: their rows, sessions, transfer codes, passkeys and
ratings, on the games' database (the tables of migration ``0005_players``).

The secrets a device holds (a session, a transfer code) are stored only as their SHA-256, as
the seat secrets are.  Every one-time thing is spent by a statement that deletes it only while
it is still there and valid, so of two racing uses exactly one succeeds; a game's ratings are
updated in the transaction that flips its ``rating_done`` from false to true (exactly once,
whichever processes try).  Only this module writes these tables; :mod:`senet.service.players.accounts`
decides what to write.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    Integer,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from senet.service.database.connections import StorageTables
from senet.service.database.rows import from_row
from senet.service.database.schema import (
    actions,
    api_tokens,
    games,
    passkeys,
    players,
    ratings,
    seats,
)
from senet.service.database.schema import auth_challenges as challenges
from senet.service.database.schema import player_sessions as sessions
from senet.service.database.schema import rating_changes as changes
from senet.service.database.schema import transfer_codes as transfers

__all__ = [
    "PlayerRow",
    "RatingRow",
    "SeatHolder",
    "RatingChange",
    "PlayedGame",
    "PasskeyRow",
    "PlayerStorage",
    "Seek",
]


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str
    kind: str  # human | computer | bot
    level: str | None
    created_at: datetime
    accepts_bots: bool = False  # a person who lets quick pairing give them a bot

    @property
    def bot(self) -> bool:
        return self.kind == "bot"


@dataclass(frozen=True)
class SeatHolder:
    """Who holds a seat of a game: a named player's name and kind (human | computer | bot)."""

    name: str
    kind: str

    @property
    def bot(self) -> bool:
        return self.kind == "bot"


@dataclass(frozen=True)
class RatingRow:
    variant: str
    rating: float
    rd: float
    volatility: float
    games: int


@dataclass(frozen=True)
class RatingChange:
    player_id: str
    variant: str
    game_id: str
    before: float
    after: float
    rd: float
    created_at: datetime


@dataclass(frozen=True)
class PasskeyRow:
    credential_id: str  # base64url
    player_id: str
    public_key: str  # base64url of the COSE key
    sign_count: int


@dataclass(frozen=True)
class Seek:
    """A rated quick-pairing request waiting for an opponent: its game and who waits."""

    game_id: str
    seat: int  # the free seat, the taker's
    since: datetime
    player_id: str
    name: str
    rating: float  # in the game's variant (1500 before any rated game)
    rd: float
    kind: str = "human"  # human | bot
    accepts_bots: bool = False


@dataclass(frozen=True)
class PlayedGame:
    """A game one player held a seat in, as their history lists it."""

    id: str
    variant: str
    mode: str
    level: str | None
    seat: int
    result: str | None  # A | B | draw, None while it goes on
    termination: str | None  # resignation | time forfeit | abandoned; None: borne off
    rated: bool
    created_at: datetime
    updated_at: datetime
    opponent: str | None  # the opponent's name; None: anonymous (or nobody yet)
    opponent_kind: str | None  # human | computer


#: what :meth:`PlayerStorage.rate_game` asks the caller: each seat's (rating before, rating
#: after) given the game's (variant, result) and each seat's (player id, current rating or
#: None, the computer level the player is or None)
Rater = Callable[
    [str, str, dict[int, tuple[str, RatingRow | None, str | None]]],
    dict[int, tuple[float, RatingRow]],
]


def _now() -> datetime:
    return datetime.now(UTC)


class PlayerStorage(StorageTables):
    """The players' tables on the database of a :class:`~senet.service.database.connections.Database`."""

    # ------------------------------------------------------------------ players
    async def create_player(
        self,
        player_id: str,
        name: str,
        key: str,
        token_hash: str | None,
        kind: str = "human",
        level: str | None = None,
        created_at: datetime | None = None,
    ) -> bool:
        """Store a new player (and its first device's session); False if the name's key is
        taken (of two racing takers of one name exactly one gets it: the key is UNIQUE)."""

        async def work(conn: AsyncConnection) -> bool:
            now = created_at or _now()
            await conn.execute(
                insert(players).values(
                    id=player_id, name=name, name_key=key, kind=kind, level=level, created_at=now
                )
            )
            if token_hash is not None:
                await conn.execute(
                    insert(sessions).values(
                        token_hash=token_hash, player_id=player_id, created_at=now
                    )
                )
            return True

        try:
            return bool(await self.write(work))
        except IntegrityError:
            return False

    async def by_key(self, key: str) -> PlayerRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(players).where(players.c.name_key == key))).first()
            return from_row(PlayerRow, row) if row is not None else None

    async def names_since(self, since: datetime) -> int:
        """How many people's names were taken since ``since``."""
        async with self.engine.connect() as conn:
            query = select(func.count()).where(
                players.c.kind == "human", players.c.created_at >= since
            )
            return int((await conn.execute(query)).scalar_one())

    async def unused_names(self, before: datetime, limit: int = 500) -> list[PlayerRow]:
        """People's names taken before ``before`` that never held a seat in a game and have no
        passkey nor API token: nothing of them would be lost if they were freed."""
        used = select(seats.c.player_id).where(seats.c.player_id.is_not(None))
        keyed = select(passkeys.c.player_id)
        tokens = select(api_tokens.c.player_id)
        query = (
            select(players)
            .where(
                players.c.kind == "human",
                players.c.created_at < before,
                players.c.id.not_in(used),
                players.c.id.not_in(keyed),
                players.c.id.not_in(tokens),
            )
            .order_by(players.c.created_at)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [from_row(PlayerRow, r) for r in await conn.execute(query)]

    async def by_exact_name(self, name: str) -> PlayerRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(players).where(players.c.name == name))).first()
            return from_row(PlayerRow, row) if row is not None else None

    async def by_id(self, player_id: str) -> PlayerRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(players).where(players.c.id == player_id))).first()
            return from_row(PlayerRow, row) if row is not None else None

    async def by_session(self, token_hash: str) -> PlayerRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(players)
                    .join(sessions, sessions.c.player_id == players.c.id)
                    .where(sessions.c.token_hash == token_hash)
                )
            ).first()
            return from_row(PlayerRow, row) if row is not None else None

    async def add_session(self, player_id: str, token_hash: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, player_id=player_id, created_at=_now()
                )
            )

        await self.write(work)

    async def end_session(self, token_hash: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

        await self.write(work)

    async def end_sessions(self, player_id: str) -> int:
        """Sign the player out on every device (and spend its transfer codes); how many."""

        async def work(conn: AsyncConnection) -> int:
            await conn.execute(delete(transfers).where(transfers.c.player_id == player_id))
            res = await conn.execute(delete(sessions).where(sessions.c.player_id == player_id))
            return int(res.rowcount)

        return int(await self.write(work))

    async def delete_player(self, player_id: str) -> None:
        """Forget the player: its name, sessions, codes, passkeys and ratings; its seats become
        anonymous (the games stay; the opponents' own rating changes stay theirs)."""

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                update(seats).where(seats.c.player_id == player_id).values(player_id=None)
            )
            for table in (sessions, transfers, passkeys, challenges, api_tokens, ratings, changes):
                await conn.execute(delete(table).where(table.c.player_id == player_id))
            await conn.execute(delete(players).where(players.c.id == player_id))

        await self.write(work)

    # ------------------------------------------------------------------ seats and games
    async def link_seats(self, game_id: str, seat_numbers: Sequence[int], player_id: str) -> int:
        """Link the game's human seats ``seat_numbers`` to the player where no one is linked
        yet, only while the game is not over (a finished game's seats stay as they ended: a
        name taken afterwards cannot make it rated); how many were linked now."""

        async def work(conn: AsyncConnection) -> int:
            unfinished = select(games.c.id).where(games.c.id == game_id, games.c.result.is_(None))
            res = await conn.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.game_id.in_(unfinished),
                    seats.c.seat.in_(list(seat_numbers)),
                    seats.c.player_id.is_(None),
                    seats.c.kind == "human",
                )
                .values(player_id=player_id)
            )
            return int(res.rowcount)

        return int(await self.write(work))

    async def link_computer(self, game_id: str, seat: int, player_id: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.kind == "computer",
                    seats.c.player_id.is_(None),
                )
                .values(player_id=player_id)
            )

        await self.write(work)

    async def mark_rated(self, game_id: str) -> bool:
        """Make a game rated, only before its first action."""

        async def work(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                update(games).where(games.c.id == game_id, games.c.ply == 0).values(rated=True)
            )
            return bool(res.rowcount == 1)

        return bool(await self.write(work))

    async def linked_seats(self, game_id: str, player_id: str) -> tuple[int, ...]:
        """The game's human seats linked to the player, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(seats.c.seat)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.player_id == player_id,
                    seats.c.kind == "human",
                )
                .order_by(seats.c.seat)
            )
            return tuple(int(row.seat) for row in rows)

    async def game_players(self, game_id: str) -> dict[int, PlayerRow]:
        """The named players (and computer players) linked to the game's seats, by seat."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(seats.c.seat, players)
                .join(players, players.c.id == seats.c.player_id)
                .where(seats.c.game_id == game_id)
            )
            return {row.seat: from_row(PlayerRow, row) for row in rows}

    async def game_flags(self, game_id: str) -> tuple[bool, bool] | None:
        """``(rated, rating_done)`` of a game, None if there is no such game."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(games.c.rated, games.c.rating_done).where(games.c.id == game_id)
                )
            ).first()
            return (bool(row.rated), bool(row.rating_done)) if row is not None else None

    async def rate_game(self, game_id: str, rater: Rater) -> list[RatingChange]:
        """Update the ratings of a finished rated game's players, exactly once: in the
        transaction that flips its ``rating_done`` (which only one transaction can do; on
        PostgreSQL the players' rating rows are locked, in one order, while they are read and
        written).  The changes made, or [] if it was done already, is not over or not rated,
        or its seats are not two different players.  A game that ended before each player
        made a move of their own (a forced pass is none) becomes casual: a resignation at
        ply 0 between two names of one person would otherwise farm a rating."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(games.c.variant, games.c.result).where(
                        games.c.id == game_id,
                        games.c.rated.is_(True),
                        games.c.rating_done.is_(False),
                        games.c.result.is_not(None),
                    )
                )
            ).first()
            held = (
                await conn.execute(
                    select(seats.c.seat, seats.c.player_id, players.c.level)
                    .join(players, players.c.id == seats.c.player_id)
                    .where(seats.c.game_id == game_id)
                )
            ).all()
            deciders = (
                await conn.execute(
                    select(actions.c.seat)
                    .where(
                        actions.c.game_id == game_id,
                        actions.c.kind == "move",
                        actions.c.notation != "pass",
                    )
                    .distinct()
                )
            ).all()
        if row is None:
            return []
        variant, result = row.variant, row.result
        owners = {r.seat: r.player_id for r in held}
        levels = {r.seat: r.level for r in held}
        if set(owners) != {0, 1} or owners[0] == owners[1]:
            return []
        if {r.seat for r in deciders} != {0, 1}:
            await self._unrate(game_id)
            return []
        # the rating rows exist before they are locked (a first rated game inserts them)
        for player_id in sorted(set(owners.values())):
            await self._ensure_rating_row(player_id, variant)

        async def work(conn: AsyncConnection) -> list[RatingChange]:
            # The seats' players as they are inside this transaction, their rows share-locked
            # until it ends: a player deleted since the look above (its seats now anonymous)
            # leaves the game unrated, and no deletion can remove a player half-way through.
            present = (
                await conn.execute(
                    select(seats.c.seat, seats.c.player_id)
                    .select_from(seats.join(players, players.c.id == seats.c.player_id))
                    .where(seats.c.game_id == game_id)
                    .with_for_update(of=players, read=True)
                )
            ).all()
            if {r.seat: r.player_id for r in present} != owners:
                return []
            flipped = await conn.execute(
                update(games)
                .where(
                    games.c.id == game_id,
                    games.c.rated.is_(True),
                    games.c.rating_done.is_(False),
                    games.c.result.is_not(None),
                )
                .values(rating_done=True)
            )
            if flipped.rowcount != 1:
                return []
            current: dict[int, tuple[str, RatingRow | None, str | None]] = {}
            for seat in sorted(owners, key=lambda s: owners[s]):
                found = (
                    await conn.execute(
                        select(ratings)
                        .where(ratings.c.player_id == owners[seat], ratings.c.variant == variant)
                        .with_for_update()
                    )
                ).first()
                have = from_row(RatingRow, found) if found is not None and found.games > 0 else None
                current[seat] = (owners[seat], have, levels[seat])
            new = rater(variant, result, current)
            now = _now()
            made = []
            for seat, (before_rating, after) in new.items():
                player_id = current[seat][0]
                await conn.execute(
                    update(ratings)
                    .where(ratings.c.player_id == player_id, ratings.c.variant == variant)
                    .values(
                        rating=after.rating,
                        rd=after.rd,
                        volatility=after.volatility,
                        games=after.games,
                        updated_at=now,
                    )
                )
                change = RatingChange(
                    player_id,
                    variant,
                    game_id,
                    before_rating,
                    after.rating,
                    after.rd,
                    now,
                )
                await conn.execute(
                    insert(changes).values(
                        player_id=player_id,
                        variant=variant,
                        game_id=game_id,
                        before=change.before,
                        after=change.after,
                        rd=change.rd,
                        created_at=now,
                    )
                )
                made.append(change)
            return made

        result_changes: list[RatingChange] = await self.write(work)
        return result_changes

    async def _unrate(self, game_id: str) -> None:
        """Make a finished game that ended before both players made a move of their own
        casual: nothing was played to rate (``rated`` false, ``rating_done`` true, so that no
        sweep looks at it again)."""

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                update(games)
                .where(
                    games.c.id == game_id,
                    games.c.rating_done.is_(False),
                    games.c.result.is_not(None),
                )
                .values(rated=False, rating_done=True)
            )

        await self.write(work)

    async def unrated_games(self, limit: int = 200) -> list[str]:
        """Finished rated games between two named players whose ratings are not applied yet
        (a process that ended one died before it rated it), oldest first."""
        named = (
            select(seats.c.game_id)
            .where(seats.c.player_id.is_not(None))
            .group_by(seats.c.game_id)
            .having(func.count() == 2)
        )
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.id)
                .where(
                    games.c.rated.is_(True),
                    games.c.rating_done.is_(False),
                    games.c.result.is_not(None),
                    games.c.id.in_(named),
                )
                .order_by(games.c.updated_at)
                .limit(limit)
            )
            return [r.id for r in rows]

    async def _ensure_rating_row(self, player_id: str, variant: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            exists = (
                await conn.execute(
                    select(ratings.c.player_id).where(
                        ratings.c.player_id == player_id, ratings.c.variant == variant
                    )
                )
            ).first()
            if exists is None:
                await conn.execute(
                    insert(ratings).values(
                        player_id=player_id,
                        variant=variant,
                        rating=1500.0,
                        rd=350.0,
                        volatility=0.06,
                        games=0,
                        updated_at=_now(),
                    )
                )

        try:
            await self.write(work)
        except IntegrityError:
            pass  # another process inserted it meanwhile: it exists

    async def changes_of_game(self, game_id: str) -> list[RatingChange]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(changes).where(changes.c.game_id == game_id))
            return [from_row(RatingChange, r) for r in rows]

    async def ratings_of(self, player_id: str) -> list[RatingRow]:
        """The player's ratings, one per variant played rated (by most games)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ratings)
                .where(ratings.c.player_id == player_id, ratings.c.games > 0)
                .order_by(ratings.c.games.desc(), ratings.c.variant)
            )
            return [from_row(RatingRow, r) for r in rows]

    async def ratings_for(self, player_ids: Sequence[str], variant: str) -> dict[str, RatingRow]:
        if not player_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ratings).where(
                    ratings.c.player_id.in_(list(player_ids)),
                    ratings.c.variant == variant,
                    ratings.c.games > 0,
                )
            )
            return {r.player_id: from_row(RatingRow, r) for r in rows}

    async def history_of(self, player_id: str, limit: int = 500) -> list[RatingChange]:
        """The player's rating changes, oldest first (the last ``limit``)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(changes)
                .where(changes.c.player_id == player_id)
                .order_by(changes.c.id.desc())
                .limit(limit)
            )
            return [from_row(RatingChange, r) for r in reversed(rows.all())]

    async def games_of(self, player_id: str, limit: int = 50) -> list[PlayedGame]:
        """The games the player held a seat in, most recently active first."""
        mine = seats.alias("mine")
        other = seats.alias("other")
        them = players.alias("them")
        query = (
            select(
                games.c.id,
                games.c.variant,
                games.c.mode,
                games.c.level,
                mine.c.seat,
                games.c.result,
                games.c.termination,
                games.c.rated,
                games.c.created_at,
                games.c.updated_at,
                them.c.name.label("opponent"),
                them.c.kind.label("opponent_kind"),
            )
            .join(mine, mine.c.game_id == games.c.id)
            .outerjoin(other, and_(other.c.game_id == games.c.id, other.c.seat != mine.c.seat))
            .outerjoin(them, them.c.id == other.c.player_id)
            .where(mine.c.player_id == player_id)
            .order_by(games.c.updated_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [from_row(PlayedGame, r) for r in await conn.execute(query)]

    async def unfinished_of(self, player_id: str, limit: int = 100) -> list[tuple[str, int]]:
        """``(game id, seat)`` of the player's games not over yet, most recently active
        first."""
        query = (
            select(games.c.id, seats.c.seat)
            .join(seats, seats.c.game_id == games.c.id)
            .where(seats.c.player_id == player_id, games.c.result.is_(None))
            .order_by(games.c.updated_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [(r.id, r.seat) for r in await conn.execute(query)]

    async def seat_names(self, game_ids: Sequence[str]) -> dict[tuple[str, int], SeatHolder]:
        """The named player (or computer level) holding each seat of these games, by
        ``(game id, seat)``: its name and kind."""
        if not game_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(seats.c.game_id, seats.c.seat, players.c.name, players.c.kind)
                .join(players, players.c.id == seats.c.player_id)
                .where(seats.c.game_id.in_(list(game_ids)))
            )
            return {(r.game_id, r.seat): SeatHolder(r.name, r.kind) for r in rows}

    async def tally(self, player_id: str) -> tuple[int, int, int, int]:
        """``(games finished, wins, losses, draws)`` over every game of the player."""
        won = func.sum(
            (
                ((seats.c.seat == 0) & (games.c.result == "A"))
                | ((seats.c.seat == 1) & (games.c.result == "B"))
            ).cast(Integer)
        )
        drawn = func.sum((games.c.result == "draw").cast(Integer))
        query = (
            select(func.count(), won, drawn)
            .select_from(games.join(seats, seats.c.game_id == games.c.id))
            .where(seats.c.player_id == player_id, games.c.result.is_not(None))
        )
        async with self.engine.connect() as conn:
            total, wins, draws = (await conn.execute(query)).one()
        total, wins, draws = int(total or 0), int(wins or 0), int(draws or 0)
        return total, wins, total - wins - draws, draws

    # ------------------------------------------------------------------ rated seeks
    async def set_pairing(self, game_id: str, key: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(update(games).where(games.c.id == game_id).values(pairing=key))

        await self.write(work)

    async def seeks(self, key: str | None = None, game_ids: Sequence[str] = ()) -> list[Seek]:
        """Listed games waiting for a taker whose other seat a named player holds (with
        ``key``: the rated seeks of that pairing request), oldest first."""
        free = seats.alias("free")
        held = seats.alias("held")
        query = (
            select(
                games.c.id.label("game_id"),
                free.c.seat,
                games.c.created_at,
                players.c.id.label("player_id"),
                players.c.name,
                players.c.kind,
                players.c.accepts_bots,
                ratings.c.rating,
                ratings.c.rd,
                ratings.c.games,
            )
            .join(free, and_(free.c.game_id == games.c.id, free.c.claimed.is_(False)))
            .join(held, and_(held.c.game_id == games.c.id, held.c.seat != free.c.seat))
            .join(players, players.c.id == held.c.player_id)
            .outerjoin(
                ratings,
                and_(ratings.c.player_id == players.c.id, ratings.c.variant == games.c.variant),
            )
            .where(games.c.listed.is_(True))
            .order_by(games.c.created_at)
        )
        if key is not None:
            query = query.where(games.c.pairing == key)
        if game_ids:
            query = query.where(games.c.id.in_(list(game_ids)))
        async with self.engine.connect() as conn:
            return [
                from_row(
                    Seek,
                    r,
                    since=_aware(r.created_at),
                    rating=r.rating if r.games else 1500.0,
                    rd=r.rd if r.games else 350.0,
                )
                for r in await conn.execute(query)
            ]

    # ------------------------------------------------------------------ one-time secrets
    async def add_transfer(self, code_hash: str, player_id: str, expires_at: int) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(transfers).values(
                    code_hash=code_hash, player_id=player_id, expires_at=expires_at
                )
            )

        await self.write(work)

    async def transfer_owner(self, code_hash: str, now: int) -> str | None:
        """The player a transfer code would sign in (nothing spent): None if unknown, used or
        expired."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(transfers.c.player_id).where(
                        transfers.c.code_hash == code_hash, transfers.c.expires_at > now
                    )
                )
            ).first()
        return str(row.player_id) if row is not None else None

    async def spend_transfer(self, code_hash: str, now: int) -> str | None:
        """The player a transfer code signs in, spending it: None if unknown, used or
        expired (of two racing uses one gets it)."""

        async def work(conn: AsyncConnection) -> str | None:
            row = (
                await conn.execute(
                    select(transfers.c.player_id).where(
                        transfers.c.code_hash == code_hash, transfers.c.expires_at > now
                    )
                )
            ).first()
            res = await conn.execute(
                delete(transfers).where(
                    transfers.c.code_hash == code_hash, transfers.c.expires_at > now
                )
            )
            await conn.execute(delete(transfers).where(transfers.c.expires_at <= now))
            return str(row.player_id) if row is not None and res.rowcount == 1 else None

        found: str | None = await self.write(work)
        return found

    async def add_challenge(
        self, challenge: str, purpose: str, player_id: str | None, expires_at: int
    ) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(challenges).values(
                    challenge=challenge,
                    purpose=purpose,
                    player_id=player_id,
                    expires_at=expires_at,
                )
            )

        await self.write(work)

    async def spend_challenge(
        self, challenge: str, purpose: str, now: int
    ) -> tuple[bool, str | None]:
        """``(valid, player id)``: a challenge is good once, for its purpose, until it
        expires."""

        async def work(conn: AsyncConnection) -> tuple[bool, str | None]:
            where = (
                challenges.c.challenge == challenge,
                challenges.c.purpose == purpose,
                challenges.c.expires_at > now,
            )
            row = (await conn.execute(select(challenges.c.player_id).where(*where))).first()
            res = await conn.execute(delete(challenges).where(*where))
            await conn.execute(delete(challenges).where(challenges.c.expires_at <= now))
            if row is None or res.rowcount != 1:
                return False, None
            return True, row.player_id

        found: tuple[bool, str | None] = await self.write(work)
        return found

    async def add_passkey(
        self, credential_id: str, player_id: str, public_key: str, sign_count: int
    ) -> bool:
        async def work(conn: AsyncConnection) -> bool:
            await conn.execute(
                insert(passkeys).values(
                    credential_id=credential_id,
                    player_id=player_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    created_at=_now(),
                )
            )
            return True

        try:
            return bool(await self.write(work))
        except IntegrityError:
            return False

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(passkeys).where(passkeys.c.credential_id == credential_id)
                )
            ).first()
            if row is None:
                return None
            return from_row(PasskeyRow, row)

    async def passkeys_of(self, player_id: str) -> list[str]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(passkeys.c.credential_id).where(passkeys.c.player_id == player_id)
            )
            return [r[0] for r in rows]

    async def set_sign_count(self, credential_id: str, sign_count: int) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                update(passkeys)
                .where(passkeys.c.credential_id == credential_id)
                .values(sign_count=sign_count)
            )

        await self.write(work)


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
