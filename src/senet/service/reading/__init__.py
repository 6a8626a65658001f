"""What the front ends read across the domains: a game by its id and the viewer's seat secret
(:mod:`.queries`), what a game's channel carries (:mod:`.channel`), the games as open data and a
player's own data (:mod:`.export`), the games waiting for a player's move (:mod:`.your_turn`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .channel import GameChannelMessage, read_game_message
from .export import (
    ExportedGame,
    ExportedSeat,
    PlayerData,
    finished_games,
    month_bounds,
    player_data,
)
from .queries import GameFacts, GameQueries
from .your_turn import WaitingGame, YourTurn

__all__ = [
    "ExportedGame",
    "ExportedSeat",
    "GameChannelMessage",
    "GameFacts",
    "GameQueries",
    "PlayerData",
    "WaitingGame",
    "YourTurn",
    "finished_games",
    "month_bounds",
    "player_data",
    "read_game_message",
]
