"""Finding an opponent without a friend: open games, quick pairing, games to watch, my games
(:mod:`.opponents`), and quick pairing for rated games (:mod:`.rated_pairing`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .opponents import LOBBY_CHANNEL, Activity, Lobby, MyGame, OpenGame, Paired, Taken, WatchedGame
from .rated_pairing import (
    RANGE_MAX,
    RANGE_START,
    RANGE_WIDENING,
    RatedPairing,
    may_pair,
    one_at_a_time,
    pairing_range,
)

__all__ = [
    "Activity",
    "LOBBY_CHANNEL",
    "Lobby",
    "MyGame",
    "OpenGame",
    "Paired",
    "RANGE_MAX",
    "RANGE_START",
    "RANGE_WIDENING",
    "RatedPairing",
    "Taken",
    "WatchedGame",
    "may_pair",
    "one_at_a_time",
    "pairing_range",
]
