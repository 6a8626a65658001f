"""The one error the service layer answers a refused request with."""

from __future__ import annotations

from senet.engine import UnknownVariant, Variant, find_variant

__all__ = ["GameError", "requested_variant"]


class GameError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``status`` for HTTP;
    ``line`` and ``column`` (1-based) point into refused text (a position, a move, a record);
    ``reason`` and ``params``, an impossible position's reason (the engine's stable code of
    :data:`senet.engine.errors.POSITION_REASONS`) and what its message is written from."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        *,
        line: int | None = None,
        column: int | None = None,
        reason: str | None = None,
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.line = line
        self.column = column
        self.reason = reason
        self.params = params or {}

    @classmethod
    def unknown_game(cls, game_id: str) -> GameError:
        return cls("unknown_game", f"there is no game {game_id!r}", 404)

    @classmethod
    def stale(cls) -> GameError:
        return cls("stale", "another action was stored first: reload the state", 409)


def requested_variant(name: str, status: int = 400) -> Variant:
    """The variant a request names (a name or an alias); GameError ``unknown_variant`` (with
    the known names) and ``status`` otherwise."""
    try:
        return find_variant(name)
    except UnknownVariant as exc:
        raise GameError("unknown_variant", str(exc), status) from None
