"""The one error the service layer answers a refused request with."""

from __future__ import annotations

__all__ = ["GameError"]


class GameError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    @classmethod
    def unknown_game(cls, game_id: str) -> GameError:
        return cls("unknown_game", f"there is no game {game_id!r}", 404)

    @classmethod
    def stale(cls) -> GameError:
        return cls("stale", "another action was stored first: reload the state", 409)
