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
    parse_move,
    parse_position,
)
from senet.engine.explain import why_not
from senet.engine.record import parse_record
from senet.service.analysis import Analysis
from senet.service.errors import GameError, requested_variant
from senet.service.infrastructure import Client, JobKind
from senet.service.learning import (
    Lesson,
    check_move,
    check_reason,
    find_lesson,
    lessons,
    throw_chances,
)
from senet.service.server import GameService

from ..common import render, seat_cookie
from ..deps import Lang, Service, service_of
from ..i18n import error_text, percent, translator
from ..render.diagrams import mistake_board, rule_diagrams
from ..render.explain_text import place, position_reason_text, reason_text
from ..render.move_words import step_words
from ..waiting import client_of, unless_gone
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
    """The position of ``text``, or a 400 error naming the column and what was expected, and
    for a well-written but impossible position the engine's reason (its code and params)."""
    try:
        return parse_position(" ".join(text.split()))
    except NotationError as exc:
        reason = exc.reason
        raise GameError(
            "bad_position",
            str(exc),
            400,
            line=exc.line,
            column=exc.column,
            reason=reason.code if reason else None,
            params=reason.params if reason else None,
        ) from None


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
    lang: Lang,
    position: PositionText,
    square: Annotated[int, Query(ge=1, le=30)],
) -> Any:
    """Why the piece on ``square`` cannot move in ``position`` with its pending throw."""
    pos = read_position(position)
    reason = why_not(pos, square)
    if reason is None:
        return WhyAnswer(square=square, can_move=True, kind=None, squares=[], throws=[], text="")
    text = reason_text(reason, pos.variant, lang, pos.throw)
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
    turn_throws: list[int]  # every throw of the turn not yet used (kendall-1978 banks them)
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
        turn_throws=list(pos.throws),
        chance=result.chance,
        exact=result.exact,
        over=result.over,
        moves=[MoveChanceOut(**asdict(m)) for m in result.moves],
        throws=[ThrowChanceOut(**asdict(t)) for t in result.throws],
        pieces=[list(pos.pieces(0)), list(pos.pieces(1))],
    )


GameOfHint = Annotated[
    str | None,
    Query(
        max_length=32,
        description="a hint for a player of this game (its seat cookie says which) against "
        "the computer or on one screen, for the game's current position and a seat that "
        "decides it: served before the analysis board's requests; any other position counts "
        "as an analysis",
    ),
]


@api.get("/analysis", response_model=AnalysisOut)
async def analysis(
    request: Request, service: Service, position: PositionText, game: GameOfHint = None
) -> Any:
    """Every legal move of ``position`` with the decider's winning chance after it (exact when
    the endgame solver reaches: the values of ``senet solve``; else the master's estimate).
    Computed by a worker: 429 ``busy`` (with ``Retry-After``) when too many requests wait,
    from everyone or from this client."""
    pos = read_position(position)
    kind: JobKind = "analysis"
    client = client_of(request)
    token = request.cookies.get(seat_cookie(game)) if game else None
    if game and token and await service.queries.hint_allowed(game, token, pos):
        kind, client = "hint", client_of(request, token, game)
    return analysis_out(
        pos, await unless_gone(request, service.analyses.analyse(pos, kind, client))
    )


async def _analyse(request: Request, pos: Position, client: Client) -> Analysis:
    service: GameService = service_of(request)
    return await unless_gone(request, service.analyses.analyse(pos, "analysis", client))


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
    except NotationError as exc:
        raise GameError("bad_record", str(exc), 400, line=exc.line, column=exc.column) from None
    except IllegalMove as exc:
        raise GameError("bad_record", str(exc), 400) from None
    steps = []
    for pos, action in game:
        text = f"({action.value})" if isinstance(action, Throw) else pos.move_text(action)
        steps.append(RecordStep(position=pos.fen(), action=text))
    steps.append(RecordStep(position=game.position.fen(), action=None))
    return steps


@pages.get("/analysis")
async def analysis_page(request: Request, lang: Lang) -> Any:
    """The analysis board: any position (``?position=``), the throw, every move with its chance."""
    text = request.query_params.get("position")
    error = ""
    start = Position.initial(find_variant("standard"))
    if text:
        try:
            start = read_position(text[:300])
        except GameError as exc:
            error = (
                position_reason_text(exc.reason, exc.params, lang)
                if exc.reason
                else error_text(lang, exc.code)
            )
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


# ---------------------------------------------------------------------------- the tutorial
def _lesson_view(lesson: Lesson, lang: str) -> dict[str, Any]:
    """What the tutorial page needs of a lesson: texts, the position and its legal moves."""
    t = translator(lang)
    pos = Position.from_fen(lesson.position)
    v = pos.variant
    params: dict[str, Any] = {"n": pos.throw, "move": "", "focus": lesson.focus}
    if lesson.square:
        params["place"] = place(v, lesson.square, lang)
    if len(pos.throws) > 1:  # banked throws: the lesson names them all, and the one to take first
        params["throws"] = ", ".join(str(n) for n in pos.throws)
        params["big"] = lesson.params.get("big", "")
    if lesson.kind == "quiz":
        params |= _quiz_params(lesson, pos, lang)
    task_key = f"lesson.{lesson.key}.task"
    if lesson.key == "house" and lesson.params.get("ba"):
        task_key = "lesson.house.task_ba"
    seat = pos.decider if pos.decider is not None else pos.turn
    return {
        "key": lesson.key,
        "kind": lesson.kind,
        "position": lesson.position,
        "focus": lesson.focus,
        "title": _capital(t(f"lesson.{lesson.key}.title", **params)),
        "task": t(task_key, **params),
        "throw": pos.throw,
        "seat": seat,
        "pieces": [list(pos.pieces(0)), list(pos.pieces(1))],
        "legal": [pos.move_text(m) for m in pos.legal_moves()],
        "options": [
            {"key": k, "label": _option_label(lesson, k, t, params)} for k in lesson.options
        ],
    }


def _option_label(lesson: Lesson, key: str, t: Any, params: dict[str, Any]) -> str:
    if lesson.kind != "quiz":
        return str(t(f"lesson.why.{key}"))
    if key.startswith("v") and key[1:].isdigit():  # a throw
        return key[1:]
    return str(t(f"lesson.{lesson.key}.{key}", **params))


def _quiz_params(lesson: Lesson, pos: Position, lang: str) -> dict[str, Any]:
    """What the words of a lesson from zero name: the throws and their chances (from the
    engine's throw model), the throws that give another, the seats."""
    t = translator(lang)
    v = pos.variant
    chances = throw_chances(v)
    total = v.instrument.patterns
    best = [(n, c) for n, c, _ in chances if f"v{n}" in lesson.goal]
    extra = [str(n) for n in v.instrument.values if n in v.extra_throws]
    first = int(str(lesson.params.get("first", 0)))
    mover = pos.decider if pos.decider is not None else pos.turn
    return {
        "pieces": v.pieces,
        "how": (v.instrument.description_ru if lang == "ru" else v.instrument.description_en),
        "total": total,
        "table": "; ".join(
            t("lesson.sticks.row", n=n, count=c, total=total, pct=percent(c / total, lang))
            for n, c, _ in chances
        ),
        "best": ", ".join(str(n) for n, _ in best),
        "count": best[0][1] if best else 1,
        "pct": percent((best[0][1] if best else 1) / total, lang),
        "extra": ", ".join(extra),
        "first": v.seat_name(first, lang),
        "seat": v.seat_name(mover, lang),
        "other": v.seat_name(1 - mover, lang),
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _move_words(move: str, t: Any, position: Position) -> str:
    """A move in ``position`` as the game page's move buttons name it: a word move (risk,
    return, pass, revive, enter) in words, a step as ``8 → 10``, ``5 → 8 ⚔`` (onto an
    opponent) or ``28 → off (3)`` (the throw it uses); no move, no words."""
    if not move:
        return ""
    if move in ("risk", "return", "pass", "revive", "enter"):
        return str(t(f"move.{move}"))
    return step_words(move, t("g.off"), capture=position.is_capture(parse_move(move)))


@pages.get("/learn")
async def learn_index(request: Request, lang: Lang) -> Any:
    return render(
        request,
        "learn_index.html",
        tutorials=[
            {"name": v.name, "title": v.title(lang), "count": len(lessons(v.name))}
            for v in VARIANTS.values()
        ],
    )


@pages.get("/learn/{name}")
async def tutorial_page(request: Request, lang: Lang, name: str) -> Any:
    v = requested_variant(name, 404)
    views = [_lesson_view(lesson, lang) for lesson in lessons(v.name)]
    return render(
        request,
        "tutorial.html",
        variant=v,
        lessons=views,
        lessons_json=json.dumps(views, ensure_ascii=False),
        variant_json=variant_json(v.name, lang),
    )


class AnswerIn(BaseModel):
    """A move in notation (``move``), or the reason picked (``reason``)."""

    move: str | None = Field(None, max_length=20)
    reason: str | None = Field(None, max_length=20)


class AnswerOut(BaseModel):
    correct: bool
    outcome: str
    text: str
    after: str | None
    move: str | None
    reason: str | None  # the engine's reason in words (a "why" lesson answered right)
    squares: list[int]  # the squares the reason names


@api.post("/lessons/{name}/{key}", response_model=AnswerOut)
async def answer_lesson(request: Request, lang: Lang, name: str, key: str, body: AnswerIn) -> Any:
    """Check an answer to a lesson of the tutorial with the engine (and, for a "best" task,
    the endgame solver)."""
    t = translator(lang)
    try:
        lesson = find_lesson(find_variant(name).name, key)
    except (KeyError, UnknownVariant):
        raise GameError("unknown_lesson", f"there is no lesson {key!r} of {name!r}", 404) from None
    pos = Position.from_fen(lesson.position)
    if body.move is not None and lesson.kind in ("move", "best"):
        try:
            verdict = check_move(lesson, body.move)
        except NotationError as exc:
            raise GameError("bad_move", str(exc), 400, line=exc.line, column=exc.column) from None
    elif body.reason is not None and lesson.kind in ("why", "quiz"):
        verdict = check_reason(lesson, body.reason)
    else:
        expected = "reason" if lesson.kind in ("why", "quiz") else "move"
        raise GameError("bad_answer", f"this lesson is answered with a {expected}", 400)
    reason_words, squares = None, []
    words: dict[str, Any] = {"n": pos.throw}
    if lesson.kind == "quiz":
        words |= _quiz_params(lesson, pos, lang)
        if body.reason in lesson.goal:  # the answer picked, as its button says it
            words["answer"] = _option_label(lesson, body.reason or "", t, words)
    if verdict.correct:
        done = f"lesson.{key}.done"
        if lesson.kind == "quiz" and lesson.goal <= {"equal", "none", "points"}:
            done = f"lesson.{key}.done_{next(iter(lesson.goal))}"
        text = t(done, move=_move_words(verdict.move or "", t, pos), **words)
        if lesson.kind == "why":
            reason = why_not(pos, lesson.focus)
            if reason is not None:
                reason_words = reason_text(reason, pos.variant, lang, pos.throw)
                squares = list(reason.squares)
        if lesson.kind == "best":
            result = await _analyse(request, pos, client_of(request))
            listed = ", ".join(
                f"{_move_words(m.move, t, pos)} {percent(m.chance, lang)}%" for m in result.moves
            )
            text = f"{text} {t('lesson.chances', list=listed)}"
    elif lesson.kind == "quiz":
        text = t("lesson.fb.wrong_answer")
    else:
        text = t(f"lesson.fb.{verdict.outcome}", move=_move_words(verdict.move or "", t, pos))
        if verdict.outcome == "illegal" and verdict.move and parse_move(verdict.move).is_step:
            reason = why_not(pos, parse_move(verdict.move).origin)
            if reason is not None:
                text = f"{text} {reason_text(reason, pos.variant, lang, pos.throw)}"
    return AnswerOut(
        correct=verdict.correct,
        outcome=verdict.outcome,
        text=text,
        after=verdict.after,
        move=verdict.move,
        reason=reason_words,
        squares=squares,
    )
