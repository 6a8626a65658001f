"""The rule-difference table between two variants, generated from their definitions.

Each *aspect* of the rules (pieces, throws, extra throws, capture, ...) turns a variant's data
into a sentence in English and Russian.  Two variants differ on an aspect when their sentences
differ, so the table can never disagree with the rules the engine actually plays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .variants import (
    Backward,
    Capture,
    HouseKind,
    Passing,
    Protection,
    Scoring,
    Variant,
    find_variant,
)

__all__ = ["Aspect", "ASPECTS", "describe", "difference_table", "DifferenceRow"]


def _squares(squares: Iterable[int], lang: str) -> str:
    items = sorted(squares)
    if not items:
        return "—"
    runs: list[str] = []
    start = prev = items[0]
    for sq in items[1:] + [None]:
        if sq is not None and sq == prev + 1:
            prev = sq
            continue
        runs.append(str(start) if start == prev else f"{start}–{prev}")
        if sq is not None:
            start = prev = sq
    return ", ".join(runs)


def _pieces(v: Variant, lang: str) -> str:
    a, b = v.start
    if v.divided_throws and not a and not b:
        if lang == "ru":
            return (
                f"По {v.pieces} фишек, все в руке; фишка входит на клетку 1 целым броском "
                f"{v.enter_throw}, и следующий бросок сначала двигает её. A ходит первым."
            )
        return (
            f"{v.pieces} pieces each, all in the hand; a piece enters on square 1 with a whole "
            f"throw of {v.enter_throw}, and the next throw moves it first. A moves first."
        )
    if lang == "ru":
        return f"По {v.pieces} фишек; место A — на {_squares(a, lang)}, место B — на {_squares(b, lang)}; A ходит первым."
    return f"{v.pieces} pieces each; seat A on {_squares(a, lang)}, seat B on {_squares(b, lang)}; A moves first."


def _throws(v: Variant, lang: str) -> str:
    odds = ", ".join(
        f"{value}: {p.numerator}/{p.denominator}" for value, p in v.instrument.outcomes
    )
    text = v.instrument.description_ru if lang == "ru" else v.instrument.description_en
    return f"{text[0].upper()}{text[1:]} ({odds})."


def _extra(v: Variant, lang: str) -> str:
    if not v.extra_throws:
        return "Нет." if lang == "ru" else "None."
    values = ", ".join(map(str, sorted(v.extra_throws)))
    rebirth = v.squares_of(HouseKind.REBIRTH)
    if v.divided_throws:
        houses = _squares(v.squares_of(HouseKind.EXTRA_THROW), lang)
        if lang == "ru":
            return (
                f"Бросок {values} даёт ещё один бросок, даже если ходить нечем; клетки {houses} "
                "дают по броску за каждое попадание. Новый бросок делается, когда текущий "
                "использован целиком."
            )
        return (
            f"A throw of {values} gives another throw, even when no move is possible; each "
            f"landing on {houses} gives one. A new throw comes once the throw in play is used up."
        )
    if v.throws_first:
        if lang == "ru":
            return (
                f"Бросок {values} даёт ещё один бросок сразу: все броски хода делаются до ходов, "
                "и каждый затем целиком тратится на одну фишку в любом порядке."
            )
        return (
            f"A throw of {values} gives another throw at once: all the throws of a turn are made "
            "before the moves, each then moving one piece by its whole value, in any order."
        )
    if lang == "ru":
        text = f"Бросок {values} даёт ещё один бросок после хода"
        if v.extra_after_pass:
            text += ", даже если ходить нечем"
        text += "; они накапливаются, и вставший на 15 тоже получает бросок." if rebirth else "."
        return text
    text = f"A throw of {values} gives another throw after the move"
    if v.extra_after_pass:
        text += ", even when no move is possible"
    return text + ("; they accumulate, and landing on 15 earns one too." if rebirth else ".")


def _capture(v: Variant, lang: str) -> str:
    ru = lang == "ru"
    if v.capture is Capture.NONE:
        return (
            "Нельзя: на занятую клетку не встают, ни на свою, ни на чужую."
            if ru
            else "Not allowed: no piece lands on a taken square, its own or the opponent's."
        )
    if v.capture is Capture.REMOVE:
        base = (
            "Фишка соперника взята и покидает игру."
            if ru
            else "The opponent's piece is captured and leaves the game."
        )
    elif v.capture is Capture.SEND_BACK:
        base = (
            f"Фишка соперника отправляется на первую свободную клетку от {v.rebirth_square}."
            if ru
            else f"The opponent's piece goes back to the first free square from {v.rebirth_square}."
        )
    else:
        base = "Фишки меняются местами." if ru else "The two pieces swap places."
    protection = {
        Protection.NONE: ("Соседи не защищают.", "Neighbours do not protect."),
        Protection.NEIGHBOUR: (
            "Фишка с соседом своего цвета защищена.",
            "A piece with a neighbour of its colour is protected.",
        ),
        Protection.NEIGHBOUR_BUT_TRIPLE_MIDDLE: (
            "Фишка с соседом своего цвета защищена, кроме средней в тройке.",
            "A piece with a neighbour of its colour is protected, except the middle of a triple.",
        ),
    }[v.protection][0 if ru else 1]
    text = f"{base} {protection}"
    if v.unprotected:
        text += (
            f" Фишки на {_squares(v.unprotected, lang)} не защищают друг друга."
            if ru
            else f" Pieces on {_squares(v.unprotected, lang)} do not protect each other."
        )
    if v.drown_on_attack and v.squares_of(HouseKind.WATER_WAIT):
        water = _squares(v.squares_of(HouseKind.WATER_WAIT), lang)
        text += (
            f" Атакованная на {_squares(v.drown_on_attack, lang)} отправляется ждать на {water}."
            " Пока фишка игрока ждёт на 27 или вернулась на 15 и не ходила, его фишки не защищены."
            if ru
            else f" A piece attacked on {_squares(v.drown_on_attack, lang)} is sent to wait on "
            f"{water}. While a player's piece waits on 27, or is back on 15 and has not moved, his "
            "pieces are not protected."
        )
    elif v.drown_on_attack:
        text += (
            f" Атакованная на {_squares(v.drown_on_attack, lang)} тонет в Доме воды."
            if ru
            else f" A piece attacked on {_squares(v.drown_on_attack, lang)} drowns in the House of Water."
        )
    return text


def _safe(v: Variant, lang: str) -> str:
    guarded = ""
    if v.guarded_by_water:
        water = _squares(v.squares_of(HouseKind.WATER_WAIT), lang)
        guarded = (
            f"{_squares(v.guarded_by_water, lang)}, пока на {water} стоит фишка."
            if lang == "ru"
            else f"{_squares(v.guarded_by_water, lang)} while a piece stands on {water}."
        )
    if not v.safe:
        return guarded[0].upper() + guarded[1:] if guarded else "—"
    one = len(v.safe) == 1
    if lang == "ru":
        text = f"{'Клетка' if one else 'Клетки'} {_squares(v.safe, lang)}."
    else:
        text = f"{'Square' if one else 'Squares'} {_squares(v.safe, lang)}."
    return f"{text} {guarded[0].upper() + guarded[1:]}" if guarded else text


_EFFECTS = {
    HouseKind.REBIRTH: ("ещё бросок", "another throw"),
    HouseKind.NET: ("пропуск хода", "skip a turn"),
    HouseKind.BA: ("ход повторяется", "the move repeats"),
    HouseKind.FATE: ("бросок судьбы", "a throw of fate"),
    HouseKind.DROWN: ("фишка тонет", "the piece drowns"),
    HouseKind.SEND_BACK: ("обратно на {rebirth}", "back to {rebirth}"),
    HouseKind.WATER_CHOICE: ("риск или возврат на 15", "risk, or return to 15"),
    HouseKind.EXTRA_THROW: ("ещё бросок", "another throw"),
    HouseKind.TO_HAND: ("фишка возвращается в руку", "the piece goes back to the hand"),
    HouseKind.WATER_WAIT: (
        "ждёт 4 или возвращается на 15 ценой хода",
        "waits for a 4, or returns to 15 at the cost of a turn",
    ),
}


def _houses(v: Variant, lang: str) -> str:
    parts = []
    for sq, house in sorted(v.houses.items()):
        effect = _EFFECTS.get(house.kind)
        parts.append(
            f"{sq} — {house.name(lang)}"
            + (
                f" ({effect[0 if lang == 'ru' else 1].format(rebirth=v.rebirth_square)})"
                if effect
                else ""
            )
        )
    return "; ".join(parts) + "."


def _passing(v: Variant, lang: str) -> str:
    ru = lang == "ru"
    if v.passing is Passing.SINGLES:
        text = (
            "Только через одиночные фишки; две рядом не перепрыгнуть."
            if ru
            else "Only over single pieces; two side by side cannot be passed."
        )
    elif v.passing is Passing.NOT_PAST_THREE:
        text = (
            "Через любые фишки, кроме трёх фишек соперника подряд."
            if ru
            else "Over any pieces but three opposing pieces in a row."
        )
    else:
        text = "Через любые фишки." if ru else "Over any pieces."
    if v.must_stop:
        text += (
            f" Клетку {_squares(v.must_stop, lang)} миновать нельзя."
            if ru
            else f" No piece may pass square {_squares(v.must_stop, lang)}."
        )
    return text


def _backward(v: Variant, lang: str) -> str:
    ru = lang == "ru"
    if v.divided_throws:
        no_back = _squares(v.no_backward_from, lang)
        return (
            "Если ни одна часть броска не ведёт ни одну фишку вперёд, фишка идёт назад; все ходы "
            f"хода — в одну сторону. С {no_back} назад не ходят."
            if ru
            else "When no part of the throw moves a piece forward, a piece moves back; all the "
            f"moves of a turn go one way. No piece moves back from {no_back}."
        )
    if v.throws_first and v.backward is Backward.PLAYER:
        return (
            "Бросок, которым ни одна фишка не может пойти вперёд, ведёт фишку назад."
            if ru
            else "A throw that moves no piece forward moves a piece back."
        )
    return {
        Backward.NONE: ("Нет.", "None."),
        Backward.PLAYER: (
            "Только если ни одна фишка не может вперёд.",
            "Only if no piece can move forward.",
        ),
        Backward.PIECE: (
            "Любая фишка, которая не может вперёд, идёт назад.",
            "Any piece that cannot go forward goes back.",
        ),
        Backward.PIECE_TO_EMPTY: (
            "Любая фишка, которая не может вперёд, идёт назад, но только на пустую клетку.",
            "Any piece that cannot go forward goes back, to an empty square only.",
        ),
    }[v.backward][0 if ru else 1]


def _forced(v: Variant, lang: str) -> str:
    ru = lang == "ru"
    text = ""
    if any(v.waiting):
        text = (
            "Фишка на своей начальной клетке ждёт, пока освободится клетка перед ней. "
            if ru
            else "A piece on its starting square waits until the square in front of it is clear. "
        )
    if v.gates:
        gate = _squares(v.gates, lang)
        text += (
            f"Фишка на {gate} идёт дальше, как только может, раньше любой другой. "
            if ru
            else f"A piece on {gate} moves on as soon as it can, before any other. "
        )
    if v.squares_of(HouseKind.WATER_WAIT):
        text += (
            "Пока фишка игрока ждёт на 27 или вернулась на 15 и не ходила, ходит только она. "
            if ru
            else "While a player's piece waits on 27, or is back on 15 and has not moved, only "
            "it moves. "
        )
    if v.divided_throws:
        text += (
            "Бросок делится между фишками как угодно, но используется целиком, пока это возможно. "
            if ru
            else "A throw is divided among the pieces at will, but used in full while it can be. "
        )
    if v.priority:
        sq = _squares(v.priority, lang)
        return text + (
            f"Если фишка на {sq} может ходить, ходить нужно одной из них."
            if ru
            else f"If a piece on {sq} can move, one of them must."
        )
    return text + (
        "Можно ходить любой фишкой, которая может ходить."
        if lang == "ru"
        else "Any piece that can move may move."
    )


def _bearing_off(v: Variant, lang: str) -> str:
    parts = []
    for sq, throws in sorted(v.bear_off.items()):
        values = "/".join(map(str, sorted(throws)))
        parts.append(f"{sq}: {values}")
    exits = ", ".join(parts)
    if lang == "ru":
        text = f"Вывод с клеток по броскам — {exits}."
        if v.exit_only:
            text += f" Фишки на {_squares(v.exit_only, lang)} только уходят."
        if v.bear_off_home:
            text += f" Только когда все фишки игрока на {_squares(v.bear_off_home, lang)}."
        if v.bear_off_optional:
            text += (
                " Выводить не обязательно: если броски позволяют только вывод, можно пропустить."
            )
        if v.divided_throws:
            text += " Точным числом очков, и частью разделённого броска тоже."
        return text
    text = f"Bearing off by square and throw — {exits}."
    if v.exit_only:
        text += f" Pieces on {_squares(v.exit_only, lang)} may only leave."
    if v.bear_off_home:
        text += f" Only when all the player's pieces are on {_squares(v.bear_off_home, lang)}."
    if v.bear_off_optional:
        text += (
            " Bearing off is not required: when it is all the throws allow, the player may pass."
        )
    if v.divided_throws:
        text += " By the exact points, a part of a divided throw too."
    return text


def _winning(v: Variant, lang: str) -> str:
    if v.scoring is Scoring.POINTS:
        return (
            "Очко за фишку; конец, когда исход ясен; равный счёт — ничья."
            if lang == "ru"
            else "A point a piece; over when the result is certain; equal scores draw."
        )
    text = (
        f"Первым вывести все {v.pieces} фишек."
        if lang == "ru"
        else f"Be first to bear off all {v.pieces} pieces."
    )
    if v.margin_points:
        a, b, c = v.margin_points
        text += (
            f" Победитель получает {a}, {b}, {c} очка за каждую фишку соперника в 1-м, 2-м, 3-м ряду."
            if lang == "ru"
            else f" The winner scores {a}, {b}, {c} for each opposing piece left on row 1, 2, 3."
        )
    return text


@dataclass(frozen=True)
class Aspect:
    key: str
    label_en: str
    label_ru: str
    describe: Callable[[Variant, str], str]

    def label(self, lang: str = "en") -> str:
        return self.label_ru if lang == "ru" else self.label_en


ASPECTS: tuple[Aspect, ...] = (
    Aspect("pieces", "Pieces and set-up", "Фишки и расстановка", _pieces),
    Aspect("throws", "Throws", "Броски", _throws),
    Aspect("extra", "Extra throws", "Дополнительные броски", _extra),
    Aspect("capture", "Landing on an opponent", "Ход на фишку соперника", _capture),
    Aspect("safe", "Safe squares", "Безопасные клетки", _safe),
    Aspect("houses", "Houses", "Дома", _houses),
    Aspect("passing", "Passing over pieces", "Проход через фишки", _passing),
    Aspect("backward", "Backward moves", "Ходы назад", _backward),
    Aspect("forced", "Forced moves", "Обязательные ходы", _forced),
    Aspect("bearing-off", "Bearing off", "Вывод фишек", _bearing_off),
    Aspect("winning", "How to win", "Как победить", _winning),
)


def describe(variant: Variant | str, lang: str = "en") -> list[tuple[str, str]]:
    """Every aspect of one variant as (label, sentence)."""
    v = find_variant(variant) if isinstance(variant, str) else variant
    return [(aspect.label(lang), aspect.describe(v, lang)) for aspect in ASPECTS]


@dataclass(frozen=True)
class DifferenceRow:
    key: str
    label: str
    a: str
    b: str


def difference_table(
    a: Variant | str, b: Variant | str = "standard", lang: str = "en"
) -> list[DifferenceRow]:
    """The aspects on which ``a`` and ``b`` differ, each with both sentences.

    Comparison is on the English sentences (the Russian ones say the same things); the rows
    are in ``lang``.
    """
    va = find_variant(a) if isinstance(a, str) else a
    vb = find_variant(b) if isinstance(b, str) else b
    rows = []
    for aspect in ASPECTS:
        if aspect.describe(va, "en") != aspect.describe(vb, "en"):
            rows.append(
                DifferenceRow(
                    aspect.key,
                    aspect.label(lang),
                    aspect.describe(va, lang),
                    aspect.describe(vb, lang),
                )
            )
    return rows
