"""Words for :class:`senet.engine.explain.Reason`: one line in English or Russian.

The engine names the rule and its squares; this module picks the catalog text (``why.*`` in
``locales/<lang>/learn.json``) and names the squares as the board does (a House by its name).
"""

from __future__ import annotations

from collections.abc import Mapping

from senet.engine import UnknownVariant, Variant, find_variant
from senet.engine.explain import Reason

from ..i18n import translator

__all__ = ["reason_text", "place", "position_reason_text"]


def place(variant: Variant, square: int, lang: str) -> str:
    """ "the House of Three Truths (29)" or "square 29"."""
    t = translator(lang)
    house = variant.houses.get(square)
    if house is None or len(set(house.name_en)) <= 3:  # Bell's "X", "III": not names
        return t("why.square", n=square)
    return t("why.house", name=house.name(lang), n=square)


def _throws(throws: tuple[int, ...], lang: str) -> str:
    t = translator(lang)
    words = [t("why.a_throw", n=n) for n in throws]
    return t("why.or").join(words)


def _sentence(reason: Reason, variant: Variant, lang: str, throw: int) -> str:
    t = translator(lang)
    sq = reason.squares
    kind = reason.kind
    if kind == "protected":
        target, first, last = sq
        key = "why.protected_pair" if last - first == 1 else "why.protected_row"
        return t(key, a=target, first=first, last=last, count=last - first + 1)
    if kind == "blocked":
        return t("why.blocked", a=sq[0], b=sq[1])
    if kind in ("exit_throw", "beyond_end"):
        if not reason.throws:
            return t("why.beyond_end_never", n=throw, place=place(variant, sq[0], lang))
        return t(
            f"why.{kind}",
            n=throw,
            place=place(variant, sq[0], lang),
            throws=_throws(reason.throws, lang),
        )
    if kind == "ba":
        ba = place(variant, sq[0], lang)
        cause = reason.cause
        if cause is None or cause.kind == "off_board" or len(sq) < 2:
            return t("why.ba_off", place=ba)
        if cause.kind in ("own_piece", "safe"):
            return t(f"why.ba_{cause.kind}", place=ba, b=sq[1])
        cause_text = _capital(_sentence(cause, variant, lang, throw))
        return t("why.ba", place=ba, b=sq[1], cause=cause_text)
    if kind == "waiting":
        return t("why.waiting", a=sq[0], b=sq[1])
    if kind == "past_three":
        return t("why.past_three", a=sq[0], c=sq[2])
    if kind == "not_home":
        return t("why.not_home", squares=", ".join(map(str, sq)))
    if kind == "back_empty":
        return t("why.back_empty", a=sq[0])
    if kind == "gate":
        return t("why.gate", squares=", ".join(map(str, sq)))
    if kind == "priority":
        squares = sorted(variant.priority)
        return t(
            "why.priority",
            squares=", ".join(map(str, sq)),
            first=squares[0],
            last=squares[-1],
        )
    if kind == "guarded":
        return t("why.guarded", a=sq[0], place=place(variant, sq[1], lang))
    if kind in ("must_stop", "drowning", "returned", "fate", "water_choice", "safe"):
        return t(f"why.{kind}", place=place(variant, sq[0], lang))
    if kind in ("empty", "not_yours", "own_piece", "off_board", "occupied", "no_back"):
        return t(f"why.{kind}", a=sq[0])
    return t(f"why.{kind}")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def reason_text(reason: Reason, variant: Variant, lang: str, throw: int = 0) -> str:
    """One line saying why the piece cannot move (``throw``: the throw being played)."""
    text = _capital(_sentence(reason, variant, lang, throw))
    if reason.back is not None:
        back = _capital(_sentence(reason.back, variant, lang, throw))
        text += " " + translator(lang)("why.back", reason=back)
    return text


def position_reason_text(reason: str, params: Mapping[str, str | int], lang: str) -> str:
    """Why a position is impossible, from the engine's code and params (``pos.*`` in
    ``locales/<lang>/positions.json``): its variant by its title, a House by its name."""
    t = translator(lang)
    words: dict[str, str | int] = dict(params)
    try:
        variant = find_variant(str(params["variant"])) if "variant" in params else None
    except UnknownVariant:
        variant = None
    if variant is not None:
        words["variant"] = variant.title(lang)
        house = variant.houses.get(int(params.get("square", 0)))
        if house is not None:
            words["house"] = house.name(lang)
    return t("err.impossible", reason=t(f"pos.{reason}", **words))
