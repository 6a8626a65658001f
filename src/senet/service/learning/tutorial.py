"""The tutorial: short lessons per variant, each a prepared position with its throw fixed and
a task, the player's answer checked by the engine.

Lessons are found from the variant's own example positions (:mod:`senet.engine.examples`) and
its data, so that every variant has a tutorial and a change of rules changes it with them.
The first lessons start from zero (what wins, how the throw is made and how likely each
throw is, the path, which throws give another throw, whose turn comes next), each found from the
variant's data and answered by the engine; then the rules of play.  Four kinds of task:

* ``quiz``: pick one of ``options``; every key of ``goal`` is a right answer (the page words
  the options from ``params``: the throws and their chances come from the engine's throw model);

* ``move``: play a move of ``goal`` (the other legal moves are answered "legal, but not the
  task"; a piece that cannot move says why);
* ``why``: this piece cannot move — pick the reason among ``options`` (the engine's reason
  from :func:`senet.engine.explain.why_not` is the right one);
* ``best``: choose the best decision; the endgame solver's exact values decide (the House of
  Water's "risk or return").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from senet.ai.solver import TooLarge, solve_many
from senet.engine import (
    OFF,
    HouseKind,
    Move,
    Position,
    Scoring,
    Variant,
    find_variant,
    parse_move,
)
from senet.engine.examples import Example, examples
from senet.engine.explain import why_not

__all__ = [
    "Lesson",
    "find_lesson",
    "Verdict",
    "lessons",
    "check_move",
    "check_reason",
    "throw_chances",
    "REASON_OPTIONS",
]

#: The reasons a "why" lesson offers, in this order (``beyond_end`` is asked as ``exit_throw``).
REASON_OPTIONS = ("protected", "blocked", "own_piece", "safe", "exit_throw", "must_stop")


@dataclass(frozen=True)
class Lesson:
    key: str
    kind: str  # "quiz", "move", "why" or "best"
    position: str
    focus: int
    square: int = 0
    goal: frozenset[str] = frozenset()
    options: tuple[str, ...] = ()
    answer: str = ""  # the right reason of a "why" lesson
    params: dict[str, object] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Verdict:
    correct: bool
    #: "done", "legal_not_goal", "illegal", "wrong_reason", "not_best"
    outcome: str
    after: str | None  # the position after a legal move
    move: str | None


#: Whether a move does what a lesson asks, in a position.
Goal = Callable[[Position, Move], bool]


def _with_choice(position: Position, goal_of: Goal) -> Position:
    """The position with one more piece of the player to move, somewhere on the first row, when
    that gives a legal move outside the task (so that a wrong answer is possible), else as is."""
    if any(not goal_of(position, m) for m in position.legal_moves()):
        return position
    seat = position.decider
    if seat is None or position.pending:
        return position
    v = position.variant
    pieces = [list(position.pieces(0)), list(position.pieces(1))]
    for sq in (8, 7, 9, 6, 10, 2):
        if position.owner(sq) is not None or len(pieces[seat]) >= v.pieces:
            continue
        extra = [list(p) for p in pieces]
        extra[seat].append(sq)
        try:
            candidate = Position.from_parts(
                v, (extra[0], extra[1]), turn=position.turn, throw=position.throw
            )
        except ValueError:
            continue
        moves = candidate.legal_moves()
        if any(goal_of(candidate, m) for m in moves) and any(
            not goal_of(candidate, m) for m in moves
        ):
            return candidate
    return position


def _move_lesson(
    key: str, example: Example | None, goal_of: Goal, **params: object
) -> Lesson | None:
    if example is None:
        return None
    position = _with_choice(example.position, goal_of)
    goal = frozenset(m.text() for m in position.legal_moves() if goal_of(position, m))
    if not goal:
        return None
    return Lesson(
        key, "move", position.fen(), example.focus, example.square, goal, params=dict(params)
    )


def _why_lesson(key: str, position: Position | None, focus: int, index: int) -> Lesson | None:
    if position is None:
        return None
    reason = why_not(position, focus)
    if reason is None:
        return None
    answer = "exit_throw" if reason.kind == "beyond_end" else reason.kind
    if answer not in REASON_OPTIONS:
        return None
    others = [k for k in REASON_OPTIONS if k != answer]
    distractors = [others[(index + i) % len(others)] for i in (0, 2)]
    options = tuple(sorted({answer, *distractors}, key=REASON_OPTIONS.index))
    return Lesson(key, "why", position.fen(), focus, options=options, answer=answer)


def _by_key(found: list[Example]) -> dict[str, Example]:
    return {e.key: e for e in found}


def _leave_why(v: Variant) -> Lesson | None:
    """A piece on a bearing-off square with a throw that does not bear it off (standard: only a
    3 leaves the House of Three Truths); another piece can move, so the answer is the rule."""
    for sq in sorted(v.bear_off, reverse=True):
        if not v.bear_off[sq] or v.house_kind(sq) in (HouseKind.SEND_BACK, HouseKind.DROWN):
            continue
        for n in v.instrument.values:
            if n in v.bear_off[sq] or (sq + n <= 30 and sq not in v.exit_only):
                continue
            try:
                position = Position.from_parts(v, ((sq, 12), (5,)), throw=n)
            except ValueError:
                continue
            lesson = _why_lesson("leave", position, sq, 3)
            if lesson is not None and lesson.answer == "exit_throw":
                return lesson
    return None


def _water_choice(v: Variant) -> Lesson | None:
    """kendall: a piece fell into the House of Water; risk or return, as the solver decides."""
    water = v.squares_of(HouseKind.WATER_CHOICE)
    if not water:
        return None
    sq = water[0]
    for a, b in (((sq, sq - 1), (30,)), ((sq, sq - 2), (29,)), ((sq,), (30,))):
        try:
            position = Position.from_parts(v, (a, b), pending=2)
        except ValueError:
            continue
        try:
            solution = solve_many([position], max_states=60_000)
        except TooLarge:
            continue
        best = solution.best_moves(position)
        if len(best) == 1:
            return Lesson("water", "best", position.fen(), sq, sq, frozenset({best[0].text()}))
    return None


def _house_square(v: Variant) -> int:
    """The House a "reach it" lesson is about: Ba, else a square to stop on, else the first
    plain House (the House of Beauty in our variants)."""
    for kinds in ((HouseKind.BA,),):
        squares = [sq for sq in sorted(v.houses) if v.houses[sq].kind in kinds]
        if squares:
            return squares[0]
    if v.must_stop:
        return min(v.must_stop)
    plain = [sq for sq in sorted(v.houses) if v.houses[sq].kind is HouseKind.PLAIN]
    return plain[0] if plain else 0


def _lands_on(square: int, through_ba: bool) -> Goal:
    def goal(position: Position, move: Move) -> bool:
        if not move.is_step:
            return False
        if through_ba:
            return move.target == square + position.throw
        return move.target == square

    return goal


def _divided_lessons(v: Variant) -> list[Lesson | None]:
    """piccione: enter a piece from the hand with a whole 1; move a piece by part of a throw."""
    if not v.divided_throws:
        return []
    out: list[Lesson | None] = []
    hand = (v.pieces - 1, v.pieces - 1)
    try:
        entering = Position.from_parts(v, ((8,), (12,)), throw=v.enter_throw, hand=hand)
        dividing = Position.from_parts(v, ((3, 8), (12,)), throw=4, hand=(v.pieces - 2, hand[1]))
    except ValueError:
        return out
    out.append(_move_lesson("enter", Example("enter", entering, 0), lambda p, m: m.kind == "enter"))
    out.append(
        _move_lesson(
            "divide",
            Example("divide", dividing, 3),
            lambda p, m: m.is_step and 0 < abs(m.target - m.origin) < p.throw,
        )
    )
    return out


def _banked_lesson(v: Variant) -> Lesson | None:
    """kendall-1978: every throw of a turn is made before a piece moves, then each is played by
    one move in any order.  The task takes the larger throw first, for an attack the smaller
    throw cannot make."""
    if not v.throws_first:
        return None
    for a, b, small, big in (((3, 7), (10, 20), 1, 3), ((3, 6), (10, 20), 2, 4)):
        try:
            position = Position.from_parts(v, (a, b), throw=small, bank=(big,))
        except ValueError:
            continue
        goal = frozenset(
            m.text()
            for m in position.legal_moves()
            if position.is_capture(m) and abs(m.target - m.origin) == big
        )
        if goal:
            return Lesson("banked", "move", position.fen(), a[1], goal=goal, params={"big": big})
    return None


# ---------------------------------------------------------------- the lessons from zero
def _opening(v: Variant) -> Position:
    return Position.initial(v)


def _goal_lesson(v: Variant) -> Lesson:
    """What wins: bearing every piece off first, or (bell) the most pieces borne off."""
    right = "points" if v.scoring is Scoring.POINTS else "off_all"
    options = (right, "take_all", "reach_30")
    return Lesson(
        "goal", "quiz", _opening(v).fen(), 0, options=options, goal=frozenset({right}),
        params={"pieces": v.pieces},
    )  # fmt: skip


def throw_chances(v: Variant) -> tuple[tuple[int, int, int], ...]:
    """Each throw with how many of the instrument's equally likely patterns give it:
    ``(value, count, patterns)``, from the engine's throw model."""
    total = v.instrument.patterns
    return tuple((n, int(p * total), total) for n, p in v.instrument.outcomes)


def _sticks_lesson(v: Variant) -> Lesson:
    """How the throw is made, with each throw's chance; the question: which comes most often."""
    chances = throw_chances(v)
    counts = {count for _, count, _ in chances}
    top = max(counts)
    right = (
        frozenset({"equal"})
        if len(counts) == 1
        else frozenset(f"v{n}" for n, count, _ in chances if count == top)
    )
    options = (*(f"v{n}" for n, _, _ in chances), "equal")
    return Lesson("sticks", "quiz", _opening(v).fen(), 0, options=options, goal=right)


def _steps_from(origin: int, n: int) -> Goal:
    def goal(position: Position, move: Move) -> bool:
        return move.is_step and move.origin == origin and move.target == origin + n

    return goal


def _path_lesson(v: Variant) -> Lesson | None:
    """The path: a piece near the end of the first row moves round the turn into the middle
    row (9 with a 3 lands on 12, which lies under 9 on the board)."""
    for origin, n in ((9, 3), (9, 2), (10, 2)):
        if n not in v.instrument.values:
            continue
        try:
            position = Position.from_parts(v, ((origin,), (25,)), throw=n)
        except ValueError:
            continue
        lesson = _move_lesson("path", Example("path", position, origin), _steps_from(origin, n))
        if lesson is not None:
            return lesson
    return None


def _again_lesson(v: Variant) -> Lesson:
    """Which throws give another throw (the variant's own; none in bell)."""
    values = v.instrument.values
    right = frozenset(f"v{n}" for n in values if n in v.extra_throws) or frozenset({"none"})
    options = (*(f"v{n}" for n in values), "none")
    return Lesson("again", "quiz", _opening(v).fen(), 0, options=options, goal=right)


def _turns_lesson(v: Variant) -> Lesson | None:
    """Turn order: who throws first, and who throws after a move with a throw that gives no
    other throw — found by playing the move on the engine."""
    plain = [n for n in v.instrument.values if n not in v.extra_throws]
    n = plain[0] if plain else v.instrument.values[0]
    try:
        position = Position.from_parts(v, ((3,), (20,)), throw=n)
    except ValueError:
        return None
    steps = [m for m in position.legal_moves() if m.is_step]
    if not steps:
        return None
    after = position.apply(steps[0])
    mover = position.decider
    right = "you" if after.turn == mover else "other"
    return Lesson(
        "turns", "quiz", position.fen(), 3, options=("you", "other"), goal=frozenset({right}),
        params={"first": _opening(v).turn, "n": n},
    )  # fmt: skip


def basics(v: Variant) -> list[Lesson | None]:
    """The lessons from zero, before the rules of play."""
    return [_goal_lesson(v), _sticks_lesson(v), _path_lesson(v), _again_lesson(v), _turns_lesson(v)]


@cache
def lessons(name: str) -> tuple[Lesson, ...]:
    """The tutorial of variant ``name``, in order."""
    v = find_variant(name)
    found = _by_key(examples(v))
    out: list[Lesson | None] = basics(v)
    move = found.get("move")
    out.append(
        _move_lesson(
            "move",
            move,
            lambda p, m: (
                m.is_step
                and move is not None
                and m.origin == move.focus
                # piccione: the whole throw here; dividing it has a lesson of its own
                and (not v.divided_throws or m.target == m.origin + p.throw)
            ),
            n=move.position.throw if move else 0,
        )
    )
    out += _divided_lessons(v)
    out.append(_move_lesson("attack", found.get("attack"), lambda p, m: p.is_capture(m)))
    out.append(_banked_lesson(v))
    protection = found.get("protection")
    if protection:
        out.append(_why_lesson("protection", protection.position, protection.focus, 0))
    blocked = found.get("blocked")
    if blocked:
        out.append(_why_lesson("blocked", blocked.position, blocked.focus, 1))
    house = _house_square(v)
    if house:
        through_ba = v.house_kind(house) is HouseKind.BA
        out.append(
            _move_lesson(
                "house",
                found.get(f"house-{house}"),
                _lands_on(house, through_ba),
                house=house,
                ba=through_ba,
            )
        )
    out.append(_water_choice(v))
    out.append(_leave_why(v))
    out.append(_move_lesson("bear_off", found.get("bear_off"), lambda p, m: m.target == OFF))
    return tuple(lesson for lesson in out if lesson is not None)


def find_lesson(name: str, key: str) -> Lesson:
    for lesson in lessons(name):
        if lesson.key == key:
            return lesson
    raise KeyError(f"{name} has no lesson {key!r}")


def check_move(lesson: Lesson, text: str) -> Verdict:
    """The verdict on playing ``text`` (move notation) in the lesson's position."""
    position = Position.from_fen(lesson.position)
    move = parse_move(text)  # NotationError for text that is not a move
    if move not in position.legal_moves():
        return Verdict(False, "illegal", None, move.text())
    after = position.apply(move).fen()
    if move.text() in lesson.goal:
        return Verdict(True, "done", after, move.text())
    return Verdict(
        False, "not_best" if lesson.kind == "best" else "legal_not_goal", after, move.text()
    )


def check_reason(lesson: Lesson, reason: str) -> Verdict:
    """The verdict on the option picked: the reason of a "why" lesson, an answer of a quiz."""
    if reason == lesson.answer or (lesson.kind == "quiz" and reason in lesson.goal):
        return Verdict(True, "done", None, None)
    return Verdict(False, "wrong_reason", None, None)
