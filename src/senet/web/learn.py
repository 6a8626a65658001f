"""Learning Senet: why a piece cannot move, rule diagrams, the tutorial and the analysis board.

``api`` holds the JSON endpoints (``/api/learn/...``, in the OpenAPI document); ``pages`` the
HTML pages.  Every answer comes from the engine (and the computer player for chances): the
browser only shows them.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel

from senet.engine import NotationError, Position, parse_position
from senet.engine.explain import why_not
from senet.service.games import GameError

from .app import lang_of
from .diagrams import rule_diagrams
from .explain_text import reason_text

__all__ = ["api", "pages", "read_position", "rule_diagrams"]

api = APIRouter(prefix="/api/learn", tags=["learn"])
pages = APIRouter(include_in_schema=False)

PositionText = Annotated[
    str,
    Query(
        min_length=1,
        max_length=200,
        description="a position in one-line notation, e.g. "
        "'standard ABABABABAB/........../.......... A 3'",
    ),
]


def read_position(text: str) -> Position:
    """The position of ``text``, or a 400 error naming the column and what was expected."""
    try:
        return parse_position(" ".join(text.split()))
    except NotationError as exc:
        raise GameError("bad_position", str(exc), 400) from None


class WhyAnswer(BaseModel):
    """Why the piece on ``square`` cannot move (``can_move`` true and no reason when it can)."""

    square: int
    can_move: bool
    kind: str | None
    squares: list[int]
    throws: list[int]
    text: str


@api.get("/why", response_model=WhyAnswer)
async def why(
    request: Request,
    position: PositionText,
    square: Annotated[int, Query(ge=1, le=30)],
) -> Any:
    """Why the piece on ``square`` cannot move in ``position`` with its pending throw."""
    pos = read_position(position)
    reason = why_not(pos, square)
    if reason is None:
        return WhyAnswer(square=square, can_move=True, kind=None, squares=[], throws=[], text="")
    text = reason_text(reason, pos.variant, lang_of(request), pos.throw)
    return WhyAnswer(
        square=square,
        can_move=False,
        kind=reason.kind,
        squares=list(reason.squares),
        throws=list(reason.throws),
        text=text,
    )
