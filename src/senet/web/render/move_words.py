"""A move as the site names it to players: ``8 → 10``, ``5 → 8 ⚔`` (onto an opponent),
``28 → off (3)`` (the throw a bearing off uses), the same words as the game's move buttons
(``static/notation.js``).  Records and move lists keep the notation itself."""

from __future__ import annotations

from collections.abc import Callable

from senet.engine import parse_move

__all__ = ["step_words", "review_words"]

#: the word moves a review names in words (its own short forms: "risk", "return"...)
REVIEW_WORDS = ("pass", "risk", "return", "revive")


def step_words(move: str, off: str, capture: bool | None = None) -> str:
    """The words of a step in notation (``off``: the language's word for leaving the board);
    ``capture`` None reads it from the notation's ``x``.  Not for word moves (pass, risk…)."""
    step = parse_move(move)
    target = off if step.bears_off else str(step.target)
    used = f" ({step.throw})" if step.throw else ""
    onto = ("x" in move) if capture is None else capture
    return f"{step.origin} → {target}{used}{' ⚔' if onto else ''}"


def review_words(move: str, t: Callable[..., str]) -> str:
    """A move in a review's sentences and its table of mistakes: a word move by the review's
    short word for it, a step in words (``enter``, Piccione's entering move, as notation)."""
    if move in REVIEW_WORDS:
        return t(f"rp.move.{move}")
    if move == "enter":
        return move
    return step_words(move, t("g.off"))
