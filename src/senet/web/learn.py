"""Learning Senet: why a piece cannot move, rule diagrams, the tutorial and the analysis board.

``api`` holds the JSON endpoints (``/api/learn/...``, in the OpenAPI document); ``pages`` the
HTML pages.  Every answer comes from the engine (and the computer player for chances): the
browser only shows them.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from senet.engine import (
    VARIANTS,
    IllegalMove,
    NotationError,
    Position,
    Throw,
    UnknownVariant,
    find_variant,
    parse_position,
)
from senet.engine.explain import why_not
from senet.engine.record import parse_record
from senet.service.games import GameError
from senet.service.position_analysis import Analysis, analyse_async

from .app import lang_of, render
from .diagrams import mistake_board, rule_diagrams
from .explain_text import reason_text
from .pages import variant_json

__all__ = ["api", "pages", "read_position", "rule_diagrams", "mistake_board"]

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


class MoveChanceOut(BaseModel):
    move: str
    chance: float
    best: bool
    after: str


class ThrowChanceOut(BaseModel):
    throw: int
    probability: float
    chance: float | None
    after: str


class AnalysisOut(BaseModel):
    """The deciding seat's chances (for a throw: the seat on turn's), exact when ``exact``."""

    position: str
    decider: int | None
    turn: int
    throw: int
    chance: float | None
    exact: bool
    over: bool
    moves: list[MoveChanceOut]
    throws: list[ThrowChanceOut]
    pieces: list[list[int]]


def analysis_out(pos: Position, result: Analysis) -> AnalysisOut:
    return AnalysisOut(
        position=result.position,
        decider=result.decider,
        turn=pos.turn,
        throw=pos.throw,
        chance=result.chance,
        exact=result.exact,
        over=result.over,
        moves=[MoveChanceOut(**asdict(m)) for m in result.moves],
        throws=[ThrowChanceOut(**asdict(t)) for t in result.throws],
        pieces=[list(pos.pieces(0)), list(pos.pieces(1))],
    )


@api.get("/analysis", response_model=AnalysisOut)
async def analysis(position: PositionText) -> Any:
    """Every legal move of ``position`` with the decider's winning chance after it (exact when
    the endgame solver reaches: the values of ``senet solve``; else the master's estimate)."""
    pos = read_position(position)
    return analysis_out(pos, await analyse_async(pos))


class RecordIn(BaseModel):
    record: str = Field(max_length=200_000, description="a game record (see senet.engine.record)")


class RecordStep(BaseModel):
    position: str
    action: str | None  # the action taken in this position: "(3)" a throw, or a move


@api.post("/record", response_model=list[RecordStep])
async def record_steps(body: RecordIn) -> Any:
    """The positions of a game record, each with the action taken there (the last: none)."""
    try:
        game = parse_record(body.record).replay()
    except (NotationError, IllegalMove) as exc:
        raise GameError("bad_record", str(exc), 400) from None
    steps = []
    for pos, action in game:
        text = f"({action.value})" if isinstance(action, Throw) else pos.move_text(action)
        steps.append(RecordStep(position=pos.fen(), action=text))
    steps.append(RecordStep(position=game.position.fen(), action=None))
    return steps


@pages.get("/analysis")
async def analysis_page(request: Request) -> Any:
    """The analysis board: any position (``?position=``), the throw, every move with its chance."""
    lang = lang_of(request)
    text = request.query_params.get("position")
    error = ""
    start = Position.initial(find_variant("standard"))
    if text:
        try:
            start = read_position(text[:300])
        except GameError as exc:
            error = exc.message
    elif request.query_params.get("variant"):
        try:
            start = Position.initial(find_variant(request.query_params["variant"][:40]))
        except UnknownVariant:
            pass
    variants = {name: json.loads(variant_json(name, lang)) for name in VARIANTS}
    return render(
        request,
        "analysis.html",
        position=start.fen(),
        error=error,
        variants_json=json.dumps(variants, ensure_ascii=False),
        variant_titles=[(v.name, v.title(lang)) for v in VARIANTS.values()],
        starts={name: Position.initial(v).fen() for name, v in VARIANTS.items()},
    )
