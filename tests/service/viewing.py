"""The state a viewer of a game is sent, built as the site builds it (for the service tests)."""

from __future__ import annotations

from senet.service.games import GameService
from senet.service.messages import StateMessage
from senet.service.store import LiveGame
from senet.service.views import state_message


def viewed(service: GameService, live: LiveGame, seats: tuple[int, ...]) -> StateMessage:
    """The state the holder of ``seats`` (() for a spectator) is sent by ``service``."""
    return state_message(
        live,
        seats,
        service.presence(live.id),
        service.store.clock.now(),
        service.turns.plays_forced_passes,
    )
