"""The other reading of our decisions on open points, where the variant data can express it.

Each :class:`Alternative` names a decision of the rulebook (:mod:`senet.engine.rulebook`) by
its key and changes the variant's data the way the other reading would
(:func:`dataclasses.replace`); the engine and the simulator then play it like any variant.
Decisions whose other reading is behaviour rather than data (where a returned piece goes when
15 is taken, whether a pass keeps an extra throw, ...) are not simulated: :func:`expressible`
lists those that are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from senet.engine import Backward, Passing, Variant, find_variant
from senet.engine.rulebook import RULEBOOKS

__all__ = ["Alternative", "ALTERNATIVES", "alternatives_for", "expressible"]


@dataclass(frozen=True)
class Alternative:
    """The other reading of decision ``key`` of ``variant``, as a change of the variant data."""

    variant: str
    key: str
    en: str
    ru: str
    changes: tuple[tuple[str, object], ...]

    def text(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en

    def build(self) -> Variant:
        """The variant read the other way (named ``variant~key``)."""
        return _build(self)


@cache
def _build(alt: Alternative) -> Variant:
    base = find_variant(alt.variant)
    changes: dict[str, Any] = dict(alt.changes)
    return replace(base, name=f"{base.name}~{alt.key}", **changes)


def _alt(variant: str, key: str, en: str, ru: str, **changes: object) -> Alternative:
    return Alternative(variant, key, en, ru, tuple(sorted(changes.items())))


def _alternating(count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(range(1, 2 * count, 2)), tuple(range(2, 2 * count + 1, 2))


_ADELAIDA: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    (
        "backward-per-piece",
        "§16 per player: back only when no piece can go forward",
        "§16 для игрока: назад, только если ни одна фишка не может вперёд",
        {"backward": Backward.PLAYER},
    ),
    (
        "pass-26",
        "every piece must stop on 26 first",
        "каждая фишка сначала останавливается на 26",
        {"must_stop": frozenset({26})},
    ),
)

ALTERNATIVES: tuple[Alternative, ...] = (
    _alt(
        "standard",
        "backward",
        "back when no piece can go forward",
        "назад, если ни одна фишка не может вперёд",
        backward=Backward.PLAYER,
    ),
    _alt(
        "standard",
        "passing",
        "no passing over two pieces side by side",
        "нельзя проходить через две фишки подряд",
        passing=Passing.SINGLES,
    ),
    _alt(
        "standard",
        "beauty-exact",
        "every piece must stop on 27 first",
        "каждая фишка сначала останавливается на 27",
        must_stop=frozenset({27}),
    ),
    _alt(
        "standard",
        "late-houses",
        "pieces on 29 and 30 only leave the board",
        "фишки на 29 и 30 только уходят с доски",
        exit_only=frozenset({29, 30}),
    ),
    _alt(
        "standard",
        "extra-after-pass",
        "a 1, 4 or 5 with no move still gives its extra throw",
        "1, 4 или 5 без хода всё равно дают дополнительный бросок",
        extra_after_pass=True,
    ),
    _alt(
        "bell",
        "beauty-gate",
        "the piece on 26 has no precedence over those on 27-30",
        "фишка на 26 не ходит раньше фишек на 27–30",
        gates=frozenset(),
    ),
    _alt(
        "bell",
        "beauty-exact",
        "every piece must stop on 26 first",
        "каждая фишка сначала останавливается на 26",
        must_stop=frozenset({26}),
    ),
    _alt(
        "bell",
        "marked-moves",
        "pieces on 27-30 may move within 27-30",
        "фишки на 27–30 могут ходить в пределах 27–30",
        exit_only=frozenset(),
    ),
    _alt(
        "bell",
        "passing",
        "no passing over two pieces side by side",
        "нельзя проходить через две фишки подряд",
        passing=Passing.SINGLES,
    ),
    _alt(
        "kendall",
        "pieces",
        "seven stones a side on 1-14 (Kendall's commercial set)",
        "по семь камней на 1–14 (коммерческий набор Кендалла)",
        pieces=7,
        start=_alternating(7),
    ),
    _alt(
        "kendall",
        "beauty-attack",
        "a stone on 26 cannot be attacked",
        "камень на 26 нельзя атаковать",
        safe=frozenset({26}),
    ),
    _alt(
        "kendall",
        "passing",
        "no passing over two stones side by side",
        "нельзя проходить через два камня подряд",
        passing=Passing.SINGLES,
    ),
    *(
        _alt(variant, key, en, ru, **changes)
        for variant in ("adelaida", "adelaida-long")
        for key, en, ru, changes in _ADELAIDA
    ),
    _alt(
        "kendall-1978",
        "bear-off-optional",
        "a bearing off must be made when it is the only move",
        "вывод обязателен, когда это единственный ход",
        bear_off_optional=False,
    ),
    _alt(
        "kendall-1978",
        "water-safe",
        "a piece on 27 can be attacked: the pieces change places",
        "фишку на 27 можно атаковать: фишки меняются местами",
        safe=frozenset(),
    ),
    _alt(
        "kendall-1978",
        "passing",
        "no passing over two pieces side by side",
        "нельзя проходить через две фишки подряд",
        passing=Passing.SINGLES,
    ),
    _alt(
        "jequier",
        "safe-20",
        "15 is safe instead of 20 (as Ludii's code has it)",
        "безопасно поле 15, а не 20 (как в коде Ludii)",
        safe=frozenset({15, 26, 28, 29}),
    ),
    _alt(
        "jequier",
        "backward",
        "a piece going back may land on an opponent and attack it",
        "фишка, идущая назад, может встать на фишку соперника и атаковать её",
        backward=Backward.PIECE,
    ),
    _alt(
        "jequier",
        "extra-after-pass",
        "a 1, 4 or 6 with no move gives no extra throw",
        "1, 4 или 6 без хода не дают дополнительного броска",
        extra_after_pass=False,
    ),
)


def alternatives_for(variant: str) -> tuple[Alternative, ...]:
    return tuple(alt for alt in ALTERNATIVES if alt.variant == variant)


def expressible(variant: str) -> frozenset[str]:
    """Keys of the variant's decisions that have a simulated alternative."""
    return frozenset(alt.key for alt in alternatives_for(variant))


def _check() -> None:
    for alt in ALTERNATIVES:
        keys = {d.key for d in RULEBOOKS[alt.variant].decisions}
        if alt.key not in keys:
            raise ValueError(f"{alt.variant} has no decision {alt.key!r}")


_check()
