"""Rule diagrams for the variant pages: each movement rule on a small board, from the engine.

For every example position of :func:`senet.engine.examples.examples` the diagram marks each
legal move of the position with an arrow (all of them, exactly ``legal_moves``), crosses out
the pieces of the player to move that cannot move, with the engine's reason in words under
the picture, and says the rule in a line of text built from the variant's data.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from markupsafe import Markup

from senet.engine import OFF, HouseKind, Position, Variant, find_variant, parse_move
from senet.engine.examples import Example, examples
from senet.engine.explain import why_not

from ..i18n import translator
from .board_svg import Arrow, board_svg
from .explain_text import place, reason_text

__all__ = ["Diagram", "rule_diagrams", "arrows_of", "mistake_board"]


@dataclass(frozen=True)
class Diagram:
    key: str
    title: str
    text: str
    throw: int
    fate: bool
    svg: Markup
    moves: tuple[str, ...]
    reasons: tuple[str, ...]
    position: str


def arrows_of(position: Position) -> list[Arrow]:
    """One arrow per legal move that moves a piece (pass, revive, risk, return have none)."""
    return [Arrow(m.origin, m.target, m.text()) for m in position.legal_moves() if m.is_step]


def _throws_text(throws: tuple[int, ...] | list[int], lang: str) -> str:
    t = translator(lang)
    return t("why.or").join(t("why.a_throw", n=n) for n in sorted(throws))


def _bear_off_list(v: Variant, lang: str) -> str:
    t = translator(lang)
    parts = [
        t("diagram.from_with", square=sq, throws=_throws_text(tuple(throws), lang))
        for sq, throws in sorted(v.bear_off.items())
        if throws
    ]
    return "; ".join(parts)


def _rule_text(example: Example, lang: str) -> tuple[str, str]:
    """(title, text) of the rule an example shows."""
    t = translator(lang)
    v = example.position.variant
    topic, sq = example.topic, example.square
    n = example.position.throw
    if topic == "house":
        house = v.houses[sq]
        kind = house.kind
        title = t("diagram.house.title", name=house.name(lang), n=sq)
        text = t(
            f"diagram.house.{kind.value}", place=place(v, sq, lang), rebirth=v.rebirth_square, n=n
        )
        if kind is HouseKind.PLAIN or kind is HouseKind.WATER_CHOICE:
            facts = []
            if sq in v.safe:
                facts.append(t("diagram.fact.safe"))
            if sq in v.must_stop:
                facts.append(t("diagram.fact.must_stop"))
            if sq in v.exit_only:
                facts.append(t("diagram.fact.exit_only"))
            if v.bear_off.get(sq):
                facts.append(
                    t("diagram.fact.bears_off", throws=_throws_text(tuple(v.bear_off[sq]), lang))
                )
            if facts:
                text = f"{text} {' '.join(facts)}"
        return title, text
    params: dict[str, object] = {"n": n}
    if topic == "enter":
        params["place"] = place(v, 1, lang)
    elif v.divided_throws and topic in ("move", "backward"):
        topic = f"{topic}_divided"  # piccione: a throw is divided among the pieces
    elif topic == "extra_throw":
        params["throws"] = _throws_text(tuple(v.extra_throws), lang)
    elif topic == "attack":
        topic = f"attack_{v.capture}"
    elif topic in ("safe", "must_stop"):
        params["place"] = place(v, sq, lang)
        params["squares"] = ", ".join(map(str, sorted(v.safe)))
    elif topic == "backward":
        topic = f"backward_{v.backward}"
    elif topic == "jump":
        topic = "jump_singles" if v.passing == "singles" else "jump_free"
    elif topic == "gate":
        params["place"] = place(v, sq, lang)
    elif topic == "priority":
        params.update(first=min(v.priority), last=max(v.priority))
    elif topic == "drown_attack":
        water = v.squares_of(HouseKind.WATER_CHOICE)
        params.update(
            first=min(v.drown_on_attack),
            last=max(v.drown_on_attack),
            water=place(v, water[0], lang) if water else "",
        )
    elif topic == "bear_off":
        params["list"] = _bear_off_list(v, lang)
    return t(f"diagram.{topic}.title"), t(f"diagram.{topic}", **params)


def _attempt(position: Position, square: int) -> Arrow | None:
    """The forward move the piece on ``square`` would make, drawn crossed out."""
    n = position.throw
    target = square + n if square + n <= 30 else OFF
    return Arrow(square, target, f"{square}-{'off' if target == OFF else target}", legal=False)


def _diagram(example: Example, lang: str, index: int) -> Diagram:
    position = example.position
    v = position.variant
    seat = position.decider
    stuck = []
    reasons = []
    if seat is not None:
        for sq in position.pieces(seat):
            reason = why_not(position, sq)
            if reason is not None:
                stuck.append(sq)
                reasons.append(f"{sq}: {reason_text(reason, v, lang, position.throw)}")
    arrows = arrows_of(position)
    if example.focus in stuck:
        attempt = _attempt(position, example.focus)
        if attempt:
            arrows.append(attempt)
    title, text = _rule_text(example, lang)
    moves = tuple(position.move_text(m) for m in position.legal_moves())
    svg = board_svg(
        position,
        lang=lang,
        arrows=arrows,
        stuck=stuck,
        ident=f"d{index}-{example.key}",
        label=f"{title}: {text}",
    )
    return Diagram(
        key=example.key,
        title=title,
        text=text,
        throw=position.throw,
        fate=position.pending_name == "fate",
        svg=svg,
        moves=moves,
        reasons=tuple(reasons),
        position=position.fen(),
    )


@cache
def rule_diagrams(name: str, lang: str) -> tuple[Diagram, ...]:
    """The diagrams of variant ``name`` in ``lang`` (computed once per variant and language)."""
    v = find_variant(name)
    return tuple(_diagram(e, lang, i) for i, e in enumerate(examples(v)))


def mistake_board(position: str, played: str, best: str, lang: str, ident: str) -> Markup:
    """A reviewed decision on the board: the better move in green, the move played in red."""
    pos = Position.from_fen(position)
    arrows = []
    for text, legal in ((best, True), (played, False)):
        move = parse_move(text)
        if move.is_step:
            arrows.append(Arrow(move.origin, move.target, move.text(), legal=legal))
    return board_svg(pos, lang=lang, arrows=arrows, ident=ident, label=f"{best} / {played}")
