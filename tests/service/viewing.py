"""A viewer's state built from a game the test holds (the site asks ``service.queries.state``
with a seat secret; a test names the seats)."""

from __future__ import annotations

from senet.service.games.live_games import LiveGame
from senet.service.games.views import state_message
from senet.service.messages import StateMessage
from senet.service.server import GameService


def state_for(service: GameService, live: LiveGame, seats: tuple[int, ...]) -> StateMessage:
    """The state the holder of ``seats`` sees, with the service's presence, clock and whether
    it plays forced passes."""
    return state_message(
        live,
        seats,
        service.presence(live.id),
        service.clock.now(),
        service.turns.plays_forced_passes,
    )
