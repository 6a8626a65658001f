"""Players with a name: their names (:mod:`.names`), sessions, ratings and profiles
(:mod:`.accounts`), the Glicko-2 system (:mod:`.glicko2`), the computer levels' fixed ratings
(:mod:`.levels`), on their tables (:mod:`.storage`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .accounts import (
    CHALLENGE_TTL_MS,
    TRANSFER_TTL_MS,
    NameRefused,
    Players,
    Profile,
    RatingView,
    SeatRating,
    rating_text,
)
from .glicko2 import NEW, PROVISIONAL_RD, SCALE, TAU, Rating, idle, rate
from .levels import CENTRE, LADDER, LADDER_SCORES, LEVEL_RD, level_rating, level_ratings
from .names import (
    MAX_LENGTH,
    MIN_LENGTH,
    RESERVED,
    check_name,
    look_alike_keys,
    name_key,
    probe_keys,
)
from .storage import (
    PasskeyRow,
    PlayedGame,
    PlayerRow,
    PlayerStorage,
    RatingChange,
    RatingRow,
    SeatHolder,
    Seek,
)

__all__ = [
    "CENTRE",
    "CHALLENGE_TTL_MS",
    "LADDER",
    "LADDER_SCORES",
    "LEVEL_RD",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "NEW",
    "NameRefused",
    "PROVISIONAL_RD",
    "PasskeyRow",
    "PlayedGame",
    "PlayerRow",
    "PlayerStorage",
    "Players",
    "Profile",
    "RESERVED",
    "Rating",
    "RatingChange",
    "RatingRow",
    "RatingView",
    "SCALE",
    "SeatHolder",
    "SeatRating",
    "Seek",
    "TAU",
    "TRANSFER_TTL_MS",
    "check_name",
    "idle",
    "level_rating",
    "level_ratings",
    "look_alike_keys",
    "name_key",
    "probe_keys",
    "rate",
    "rating_text",
]
