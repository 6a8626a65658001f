"""Bots on the site: BOT accounts, personal API tokens, and what a bot asks of its games
(:mod:`.accounts`), on their tables (:mod:`.storage`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .accounts import (
    SCOPES,
    TOKEN_PREFIX,
    Authenticated,
    BotEvent,
    BotGamesWatch,
    Bots,
    ChallengeBotEvent,
    EventFeed,
    GameFinishEvent,
    GamesQuotaReached,
    GameStartEvent,
    player_channel,
)
from .storage import BotStorage, GameOfPlayer, TokenRow

__all__ = [
    "Authenticated",
    "BotEvent",
    "BotGamesWatch",
    "BotStorage",
    "Bots",
    "ChallengeBotEvent",
    "EventFeed",
    "GameFinishEvent",
    "GameOfPlayer",
    "GameStartEvent",
    "GamesQuotaReached",
    "SCOPES",
    "TOKEN_PREFIX",
    "TokenRow",
    "player_channel",
]
