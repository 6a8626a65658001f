"""The site's database, described once: every table the service reads and writes, in one
:data:`metadata`.

Each store (:mod:`~senet.service.games.storage`, :mod:`~senet.service.players.storage`,
:mod:`~senet.service.bots.storage`, :mod:`~senet.service.challenges.storage`,
:mod:`~senet.service.push.storage`) imports its tables from here; the Alembic migrations
(``migrations/versions``) make these tables, and Alembic's ``target_metadata`` is this
:data:`metadata`, so ``tests/service/test_schema.py`` (SQLite) and
``tests/multiprocess/test_schema_pg.py`` (PostgreSQL) upgrade an empty database to the head
and compare it with this description: a table or column changed here without a migration, or
a migration that makes something not described here, fails the suite.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

__all__ = [
    "actions",
    "api_tokens",
    "auth_challenges",
    "challenge_settings",
    "game_challenges",
    "games",
    "metadata",
    "passkeys",
    "player_sessions",
    "players",
    "push_keys",
    "push_notices",
    "push_subscriptions",
    "rating_changes",
    "ratings",
    "reviews",
    "seats",
    "transfer_codes",
]

# ---------------------------------------------------------------------- games
metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("mode", String(16), nullable=False),  # friend | computer | local
    Column("level", String(16)),  # the computer's level, computer games only
    Column("ply", Integer, nullable=False, default=0),  # number of actions stored
    Column("result", String(8)),  # A | B | draw, once over
    Column("reason", String(200)),
    Column("score_a", Integer),
    Column("score_b", Integer),
    Column("secret", String(64), nullable=False),  # hex; revealed only when the game is over
    Column("commitment", String(64), nullable=False),
    Column("player_seeds", String(200), nullable=False, default=""),
    Column("rematch_of", String(32)),
    Column("rematch_id", String(32)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # time control and the server's clock (see senet.service.games.clocks); ms
    Column("time_control", String(24), nullable=False, server_default="untimed"),
    Column("clock_a", Integer),
    Column("clock_b", Integer),
    Column("clock_seat", Integer),
    Column("deadline", BigInteger),  # ms since the epoch, of the decision now timed
    Column("termination", String(16)),  # resignation | time forfeit | abandoned
    Column("listed", Boolean, nullable=False, server_default=false()),  # an open game in the lobby
    Column("pairing", String(64)),  # a quick-pairing seeker's request, while it waits
    Column("colour_choice", String(8), nullable=False, server_default="random"),
    Column("public", Boolean, nullable=False, server_default=false()),  # listed for spectators
    Column("listed_until", BigInteger),  # ms since the epoch: an open game is shown until then
    Column("listed_by", String(64)),  # a digest of the client that listed it (the cap per client)
    Column("seeding_deadline", BigInteger),  # ms since the epoch: both seeds due by then
    # players with a name (senet.service.players.accounts): a rated game, and its ratings applied once
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("rating_done", Boolean, nullable=False, server_default=false()),
    Index("ix_games_listed", "listed", "pairing"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),  # 0 = A, 1 = B
    Column("kind", String(16), nullable=False),  # human | computer
    Column("token_hash", String(64)),  # sha256 of the seat secret (never the secret itself)
    Column(
        "invite_token", String(64)
    ),  # the invitation secret of a free seat (shown again to the creator until used)
    Column("claimed", Boolean, nullable=False, default=False),
    Column("seed", String(64)),  # the seat holder's own seed, given once before the first throw
    Column("left_at", BigInteger),  # ms since the epoch: when its holder was last connected
    # the named player holding the seat (no foreign key: a deleted name leaves its games)
    Column("player_id", String(32)),
    Index("ix_seats_player", "player_id"),
)

actions = Table(
    "actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("ply", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # throw | move
    Column("seat", Integer),  # who decided (moves) or whose turn it was (throws)
    Column("notation", String(16), nullable=False),  # "3" for a throw, "12-15", "pass", ...
    Column("pattern", Integer),  # raw stick pattern / die face, throws only
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("game_id", "ply", name="uq_actions_game_ply"),
)

#: The review of a finished game, computed once (by a worker) and read by every process: the
#: master's judgement of each decision as JSON (senet.service.reviews.analyses reads and writes it).
reviews = Table(
    "reviews",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("rows", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# ---------------------------------------------------------------------- players
players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(80), nullable=False, unique=True),  # the look-alike key
    Column("kind", String(16), nullable=False, server_default="human"),  # human | computer | bot
    Column("level", String(16)),  # a computer level's name
    Column("created_at", DateTime(timezone=True), nullable=False),
    # a person who lets quick pairing give them a bot
    Column("accepts_bots", Boolean, nullable=False, server_default=false()),
)

player_sessions = Table(
    "player_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the device's session secret
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_player_sessions_player", "player_id"),
)

transfer_codes = Table(
    "transfer_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("expires_at", BigInteger, nullable=False),  # ms since the epoch
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("public_key", Text, nullable=False),  # base64url of the COSE key
    Column("sign_count", BigInteger, nullable=False, server_default="0"),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_passkeys_player", "player_id"),
)

#: WebAuthn challenges, each spent once (their player, if any, is not a foreign key: a
#: challenge may outlive a deleted name by its minutes)
auth_challenges = Table(
    "auth_challenges",
    metadata,
    Column("challenge", String(128), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("player_id", String(32)),
    Column("expires_at", BigInteger, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("variant", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("player_id", "game_id", name="uq_rating_changes_player_game"),
    Index("ix_rating_changes_game", "game_id"),
)

# ---------------------------------------------------------------------- bots
api_tokens = Table(
    "api_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the token
    Column("id", String(16), nullable=False, unique=True),  # shown, to revoke it by
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("label", String(40), nullable=False),
    Column("scopes", String(200), nullable=False),  # words
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_api_tokens_player", "player_id"),
)

# ---------------------------------------------------------------------- challenges
game_challenges = Table(
    "game_challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("challenger_id", String(32)),  # None: an anonymous challenger
    Column("secret_hash", String(64), nullable=False),  # SHA-256 of the challenger's secret
    Column("challenged_id", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("time_control", String(32), nullable=False),
    Column("colour", String(8), nullable=False),  # the challenger's: A | B | random
    Column("rated", Boolean, nullable=False),
    Column("from_game", String(32)),
    Column("status", String(16), nullable=False),
    Column("created_at", BigInteger, nullable=False),  # ms since the epoch
    Column("expires_at", BigInteger, nullable=False),
    Column("game_id", String(32)),
    Index("ix_game_challenges_challenged", "challenged_id", "status"),
    Index("ix_game_challenges_challenger", "challenger_id", "status"),
)

challenge_settings = Table(
    "challenge_settings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("accept", String(16), nullable=False),
)

# ---------------------------------------------------------------------- push
push_keys = Table(
    "push_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("private_key", String(64), nullable=False),
    Column("public_key", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("endpoint_hash", String(64), primary_key=True),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(100), nullable=False),
    Column("auth", String(40), nullable=False),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column(
        "session_hash",
        String(64),
        ForeignKey("player_sessions.token_hash", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("lang", String(8), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_push_subscriptions_player", "player_id"),
    Index("ix_push_subscriptions_session", "session_hash"),
)

push_notices = Table(
    "push_notices",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
