"""The rule texts of every variant: clauses with their sources, decisions on open points, history.

This is what ``senet rules VARIANT`` prints and what the site's variant pages show, in English
and Russian.  Each clause has an id that tests cite (``adelaida §25``, ``bell: safe squares``);
each decision has a key that a test names (``test_decision_<variant>_<key>``, with ``-`` as
``_``), and a meta-test checks that every decision is pinned.
"""

from __future__ import annotations

from dataclasses import dataclass

from .variants import VARIANTS, Variant, find_variant

__all__ = ["Clause", "Decision", "LudiiDifference", "Rulebook", "rulebook", "RULEBOOKS"]


@dataclass(frozen=True)
class Clause:
    """A rule as the source states it."""

    id: str
    en: str
    ru: str

    def text(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en


@dataclass(frozen=True)
class Decision:
    """Our choice where the source is silent or ambiguous, and why."""

    key: str
    question_en: str
    question_ru: str
    answer_en: str
    answer_ru: str

    def question(self, lang: str = "en") -> str:
        return self.question_ru if lang == "ru" else self.question_en

    def answer(self, lang: str = "en") -> str:
        return self.answer_ru if lang == "ru" else self.answer_en


@dataclass(frozen=True)
class LudiiDifference:
    """Where Ludii's encoding of the same reconstruction (``Senet.lud``) plays otherwise, and
    why ours follows our source."""

    topic_en: str
    topic_ru: str
    ludii_en: str
    ludii_ru: str
    ours_en: str
    ours_ru: str

    def topic(self, lang: str = "en") -> str:
        return self.topic_ru if lang == "ru" else self.topic_en

    def ludii(self, lang: str = "en") -> str:
        return self.ludii_ru if lang == "ru" else self.ludii_en

    def ours(self, lang: str = "en") -> str:
        return self.ours_ru if lang == "ru" else self.ours_en


@dataclass(frozen=True)
class Rulebook:
    variant: str
    summary_en: str
    summary_ru: str
    clauses: tuple[Clause, ...]
    decisions: tuple[Decision, ...]
    history_en: str
    history_ru: str
    #: Ludii's encoding of the same reconstruction, where it differs from ours
    ludii: tuple[LudiiDifference, ...] = ()

    def summary(self, lang: str = "en") -> str:
        return self.summary_ru if lang == "ru" else self.summary_en

    def history(self, lang: str = "en") -> str:
        return self.history_ru if lang == "ru" else self.history_en


def _c(id: str, en: str, ru: str) -> Clause:
    return Clause(id, en, ru)


def _d(key: str, q_en: str, q_ru: str, a_en: str, a_ru: str) -> Decision:
    return Decision(key, q_en, q_ru, a_en, a_ru)


_HISTORY_EN = (
    "Senet is one of the oldest board games known. Boards and paintings survive from Egyptian tombs over more "
    "than two thousand years, among them the painting in the tomb of Hesy-Ra (Third Dynasty) and the game boxes "
    "of Tutankhamun, but no complete rulebook has survived. Every way of playing today is a reconstruction."
)
_HISTORY_RU = (
    "Сенет — одна из древнейших известных настольных игр. Доски и изображения игры сохранились в египетских "
    "гробницах за период более двух тысяч лет — среди них роспись в гробнице Хесира времён III династии и игровые "
    "ящики из гробницы Тутанхамона, — но полного свода правил не сохранилось. Любой нынешний способ игры — "
    "реконструкция."
)

STANDARD = Rulebook(
    "standard",
    "The site's standard game: five pieces a side, four throwing sticks with extra throws for 1, 4 and 5, "
    "swaps with protection by neighbours, and the four Houses on 27-30.",
    "Стандартная игра сайта: по пять фишек, четыре палочки с дополнительным броском за 1, 4 и 5, обмен местами "
    "с защитой соседями и четыре дома на клетках 27–30.",
    (
        _c(
            "standard: pieces",
            "Five pieces each, alternating on squares 1-10: the first player on the odd squares, "
            "and the first player moves first.",
            "По пять фишек, через одну на клетках 1–10: первого игрока — на нечётных; первый игрок ходит первым.",
        ),
        _c(
            "standard: throws",
            "Four sticks: count the marked sides up, 1 to 4; none up is 5.",
            "Четыре палочки: считаются палочки лицевой стороной вверх, от 1 до 4; ни одной — 5.",
        ),
        _c(
            "standard: extra throws",
            "A throw of 1, 4 or 5 gives another throw after the move.",
            "Бросок 1, 4 или 5 даёт после хода ещё один бросок.",
        ),
        _c(
            "standard: swap",
            "Landing on an opponent's piece swaps the two pieces, unless that piece has a "
            "neighbour of its own colour.",
            "Ход на фишку соперника меняет фишки местами, если рядом с ней не стоит фишка её цвета.",
        ),
        _c(
            "standard: safe squares",
            "The four Houses on 27-30 are safe: no piece on them can be attacked.",
            "Четыре дома на клетках 27–30 безопасны: фишку на них нельзя атаковать.",
        ),
        _c(
            "standard: houses",
            "27 House of Beauty, 28 House of Water (sends the piece to 15), 29 House of Three "
            "Truths, 30 House of Ra-Atum.",
            "27 — Дом красоты, 28 — Дом воды (отправляет фишку на клетку 15), 29 — Дом трёх истин, 30 — Дом Ра-Атума.",
        ),
        _c(
            "standard: free choice",
            "Any piece that can move may move.",
            "Можно ходить любой фишкой, которая может ходить.",
        ),
        _c(
            "standard: bearing off",
            "Pieces bear off from 27 on by a throw that takes them past 30; from 29 only "
            "with a 3, from 30 only with a 2.",
            "Вывод с клетки 27 и дальше броском, который уводит фишку за клетку 30; с клетки 29 — только при 3, "
            "с клетки 30 — только при 2.",
        ),
        _c(
            "standard: winning",
            "The first to bear off all five pieces wins.",
            "Побеждает первый, кто вывел все пять фишек.",
        ),
    ),
    (
        _d(
            "backward",
            "May a piece move backward when no forward move exists?",
            "Можно ли ходить назад, если вперёд ходить нельзя?",
            "No. The source describes no backward moves; with no forward move the player passes.",
            "Нет. Источник не описывает ходов назад; если ходить вперёд нельзя, игрок пропускает ход.",
        ),
        _d(
            "water-occupied",
            "Where does a piece from the House of Water go when 15 is occupied?",
            "Куда идёт фишка из Дома воды, если клетка 15 занята?",
            "To the nearest free square behind 15 (14, 13, ...).",
            "На ближайшую свободную клетку позади 15 (14, 13, ...).",
        ),
        _d(
            "passing",
            "May pieces pass over other pieces, or over a row of three?",
            "Можно ли перепрыгивать через фишки, в том числе через ряд из трёх?",
            "Yes, over any pieces: the source names no blockade.",
            "Да, через любые фишки: источник не называет блокады.",
        ),
        _d(
            "beauty-exact",
            "Must a piece land exactly on the House of Beauty (27)?",
            "Обязана ли фишка точно встать на Дом красоты (27)?",
            "No. Nothing in the source requires it; pieces may pass 27.",
            "Нет. Источник этого не требует; фишки могут проходить клетку 27.",
        ),
        _d(
            "late-houses",
            "May a piece on 29 or 30 move at all other than off?",
            "Может ли фишка на 29 или 30 ходить иначе, чем с доски?",
            "A piece on 29 may move 1 to a free 30 (an ordinary move on the board); otherwise pieces on 29 and 30 "
            "move only off, with their exact throw (3 and 2).",
            "Фишка с 29 может пойти на 1 на свободную клетку 30 (обычный ход по доске); в остальном фишки на 29 и 30 "
            "уходят только с доски и только точным броском (3 и 2).",
        ),
        _d(
            "extra-after-pass",
            "Is the extra throw of a 1, 4 or 5 kept when no move is possible?",
            "Сохраняется ли дополнительный бросок за 1, 4 или 5, если ходить нельзя?",
            "No. The extra throw comes after the move; a throw with no move is a lost turn.",
            "Нет. Дополнительный бросок даётся после хода; бросок без хода — потерянный ход.",
        ),
        _d(
            "pass",
            "What happens when no piece can move?",
            "Что происходит, если ходить нечем?",
            "The player passes (the move is written 'pass') and the turn goes over.",
            "Игрок пропускает ход (в записи партии так и отмечается: пропуск), ход переходит к сопернику.",
        ),
        _d(
            "numbering",
            "Other tables put these Houses one square earlier (26-30). Which numbering?",
            "Другие таблицы ставят эти дома на клетку раньше (26–30). Какая нумерация?",
            "The site's own numbering as written: Houses on 27-30.",
            "Нумерация самого сайта, как написано: дома на клетках 27–30.",
        ),
    ),
    _HISTORY_EN
    + " This standard game is a modern reconstruction with four sticks and extra throws, the one our "
    "source site offers by default.",
    _HISTORY_RU
    + " Эта стандартная игра — современная реконструкция с четырьмя палочками и дополнительными "
    "бросками, которую исходный сайт предлагает по умолчанию.",
)

_BELL_LUDII = (
    LudiiDifference(
        "Occupied marked squares",
        "Занятые отмеченные клетки",
        "No piece may land on an occupied 15 or 26-29 (its 'Symbols' region); a piece on 30 can be captured.",
        "Ни одна фишка не может встать на занятую клетку 15 или 26–29 (область «Symbols»); фишку на 30 можно "
        "взять.",
        "Squares 26-30 are safe and 15 is an ordinary square: our source names «Последние пять клеток "
        "безопасны» and marks no 15 (decision options).",
        "Клетки 26–30 безопасны, а 15 — обычная клетка: источник говорит «Последние пять клеток безопасны» и "
        "не отмечает клетку 15 (решение options).",
    ),
    LudiiDifference(
        "Moves within 27-30",
        "Ходы в пределах 27–30",
        "A piece on 27-29 may move on to a later marked square by the throw.",
        "Фишка на 27–29 может пройти по броску на следующую отмеченную клетку.",
        "A piece on X, III, II, I leaves only with its exact throw «уходит с доски только при соответствующем "
        "броске» and otherwise waits (decision marked-moves).",
        "Фишка на X, III, II, I «уходит с доски только при соответствующем броске», иначе ждёт (решение "
        "marked-moves).",
    ),
    LudiiDifference(
        "Forced moves",
        "Обязательные ходы",
        "The pieces that must move first are those on 15 and 26-29 (not 30), and the piece on 26 has no "
        "precedence over 27-29.",
        "Первыми обязаны ходить фишки на 15 и 26–29 (не 30), и фишка на 26 не имеет первенства перед 27–29.",
        "«Если какая-то фишка на клетках с 26 по 30 может ходить, вы обязаны ходить одной из них», and the "
        "piece on 26 first (decision beauty-gate).",
        "«Если какая-то фишка на клетках с 26 по 30 может ходить, вы обязаны ходить одной из них», причём фишка "
        "на 26 — первой (решение beauty-gate).",
    ),
    LudiiDifference(
        "Who starts",
        "Кто начинает",
        "Both throw the die and the higher throw starts.",
        "Оба бросают кость, начинает выбросивший больше.",
        "The first seat starts, as our source decided («здесь начинает первое место»).",
        "Начинает первое место, как решил источник («здесь начинает первое место»).",
    ),
    LudiiDifference(
        "End of the game",
        "Конец игры",
        "Play goes on until both sides have no pieces left, then the scores decide.",
        "Игра идёт, пока у обеих сторон не кончатся фишки, затем решает счёт.",
        "The game ends «как только один игрок вывел больше фишек, чем другой ещё может набрать» — the same "
        "winner, without the moves that cannot change it.",
        "Игра кончается, «как только один игрок вывел больше фишек, чем другой ещё может набрать», — тот же "
        "победитель без ходов, которые его не изменят.",
    ),
)

BELL = Rulebook(
    "bell",
    "R. C. Bell's 1960 reconstruction: ten pieces a side, a four-sided long die, captures that remove pieces, "
    "and a point for every piece borne off.",
    "Реконструкция Р. Ч. Белла 1960 года: по десять фишек, четырёхгранная длинная кость, взятия, которые убирают "
    "фишки с доски, и очко за каждую выведенную фишку.",
    (
        _c(
            "bell: pieces",
            "Ten pieces each: the first player on the odd squares 1-19, the second on the even "
            "squares 2-20; the first seat moves first.",
            "По десять фишек: первого игрока — на нечётных клетках 1–19, второго — на чётных 2–20; "
            "первым ходит первое место.",
        ),
        _c(
            "bell: throws",
            "One four-sided long die: 1, 2, 3 or 4; no extra throws.",
            "Одна четырёхгранная длинная кость: 1, 2, 3 или 4; дополнительных бросков нет.",
        ),
        _c(
            "bell: own piece",
            "A piece may not land on its own.",
            "Фишка не может встать на свою фишку.",
        ),
        _c(
            "bell: capture",
            "Landing on an opponent captures it: it leaves the game; neighbours do not protect.",
            "Ход на фишку соперника берёт её: она покидает игру; соседние фишки не защищают.",
        ),
        _c("bell: safe squares", "Squares 26-30 are safe.", "Клетки 26–30 безопасны."),
        _c(
            "bell: house of beauty",
            "26, the House of Beauty, is a gate: a piece on it must move on as soon as it can.",
            "26 — Дом красоты — ворота: фишка на нём должна идти дальше, как только сможет.",
        ),
        _c(
            "bell: marked squares",
            "27, 28, 29, 30 are marked X, III, II, I: a piece leaves only from them and only "
            "with the exact throw 4, 3, 2, 1.",
            "27, 28, 29, 30 помечены X, III, II, I: фишка уходит с доски только с них и только точным броском 4, 3, 2, 1.",
        ),
        _c(
            "bell: forced moves",
            "If any piece on 26-30 can move, one of them must move.",
            "Если какая-то фишка на клетках 26–30 может ходить, ходить нужно одной из них.",
        ),
        _c(
            "bell: scoring",
            "Each piece borne off scores one point; the game ends as soon as one player has more "
            "points than the other can still reach; equal scores with an empty board is a draw.",
            "Каждая выведенная фишка — очко; игра кончается, как только у одного игрока больше очков, чем другой ещё "
            "может набрать; равный счёт при пустой доске — ничья.",
        ),
    ),
    (
        _d(
            "beauty-exact",
            "Must a piece land exactly on 26 before going on?",
            "Обязана ли фишка точно встать на 26, прежде чем идти дальше?",
            "No. A piece may pass over 26 and land on 27-30 directly.",
            "Нет. Фишка может пройти клетку 26 и встать прямо на 27–30.",
        ),
        _d(
            "marked-moves",
            "May pieces on 27-30 move within 27-30?",
            "Могут ли фишки на 27–30 ходить в пределах 27–30?",
            "No. A piece on a marked square waits for its exact throw and then leaves.",
            "Нет. Фишка на помеченной клетке ждёт своего точного броска и уходит.",
        ),
        _d(
            "passing",
            "May a piece pass over others?",
            "Можно ли перепрыгивать через фишки?",
            "Yes, over any pieces.",
            "Да, через любые фишки.",
        ),
        _d(
            "pass",
            "What happens when no move exists?",
            "Что, если ходить нечем?",
            "The player passes.",
            "Игрок пропускает ход.",
        ),
        _d(
            "beauty-gate",
            "The piece on 26 'must move on as soon as it can', and 'if a piece on 26-30 can move, one of them "
            "must': may another piece on 27-30 move instead of the one on 26?",
            "Фишка на 26 «должна идти дальше, как только сможет», а «если фишка на 26–30 может ходить, ходить "
            "нужно одной из них»: может ли вместо фишки с 26 пойти другая фишка с 27–30?",
            "No. The source says of the House of Beauty «фишка на ней должна идти дальше, как только сможет» (the "
            "piece on it must move on as soon as it can), which is stronger than «обязаны ходить одной из них» (you "
            "must move one of them): whenever the piece on 26 can move, it moves; only when it cannot does the "
            "choice among 27-30, and then among all pieces, come back.",
            "Нет. Источник говорит о Доме красоты: «фишка на ней должна идти дальше, как только сможет», — это "
            "сильнее, чем «обязаны ходить одной из них»: если фишка с 26 может ходить, ходит она; лишь когда она "
            "не может, выбор возвращается к фишкам на 27–30, а затем ко всем.",
        ),
        _d(
            "options",
            "Other accounts add rules this source does not have: Wikipedia's account of Bell makes captures "
            "compulsory; Ludii's encoding (ruleset «Bell», no. 529) leaves captures optional but marks 15 with "
            "26-29: no piece may land on an occupied one, and a piece on one of them moves first. Included?",
            "Другие описания добавляют правила, которых нет в источнике: в изложении Википедии взятие у Белла "
            "обязательно; кодировка Ludii (набор «Bell», № 529) оставляет взятие необязательным, но отмечает "
            "клетку 15 вместе с 26–29: на занятую такую клетку вставать нельзя, а фишка на ней ходит первой. "
            "Включены ли они?",
            "No. Neither is in this source: it says only that a piece «может встать на фишку соперника и взять "
            "её», so a capture is one move among the others (as in Ludii's encoding), and it marks no 15, so 15 "
            "is an ordinary square. They are named here and not applied.",
            "Нет. Ни того ни другого нет в источнике: он говорит лишь, что фишка «может встать на фишку "
            "соперника и взять её», так что взятие — один из возможных ходов (как и в кодировке Ludii), и не "
            "отмечает клетку 15, так что 15 — обычная клетка. Эти правила названы здесь и не применяются.",
        ),
    ),
    _HISTORY_EN
    + " R. C. Bell published his rules in Board and Table Games from Many Civilizations (1960) as "
    "'Suggested Rules for the Game of Thirty Squares'. Where his text is silent the source site decided: the "
    "first seat starts (Bell threw for it), the first player takes the odd squares (his worked examples need it), "
    "and the game ends as soon as the trailing player cannot catch up, which gives the same result as playing on.",
    _HISTORY_RU
    + " Р. Ч. Белл опубликовал свои правила в книге «Board and Table Games from Many Civilizations» "
    "(1960) под заголовком «Suggested Rules for the Game of Thirty Squares». Где текст Белла молчит, исходный сайт "
    "сделал выбор: начинает первое место (у Белла бросали жребий), первый игрок занимает нечётные клетки (этого "
    "требуют его примеры), а игра кончается, как только отстающий не может догнать, — это даёт тот же итог.",
    ludii=_BELL_LUDII,
)

_KENDALL_LUDII = (
    LudiiDifference(
        "Start",
        "Начало",
        "Seven pieces a side (five in its 'Kendall 5 pieces' option), the second seat's on the odd squares; "
        "both throw until a 1, whoever throws it plays first and its front piece moves 10 to 11 (14 to 15 with "
        "seven).",
        "По семь фишек (по пять в варианте «Kendall 5 pieces»), фишки второго места на нечётных клетках; оба "
        "бросают до единицы, выбросивший ходит первым, и его передняя фишка идёт с 10 на 11 (с 14 на 15 при "
        "семи).",
        "Our summary names neither the pieces nor the start; we keep the common five on 1-10 with the first "
        "seat starting and no opening move (decisions pieces, first-player).",
        "Сводка не называет ни числа фишек, ни начала; мы оставляем обычные пять на 1–10, начинает первое "
        "место, без начального хода (решения pieces, first-player).",
    ),
    LudiiDifference(
        "House of Water",
        "Дом воды",
        "The stone stays on 27 until a 4 bears it off; on any other throw its owner may return it to 15 only "
        "if 15 is empty (else he passes), and a returned stone must move next.",
        "Камень стоит на 27, пока 4 не выведет его; при любом другом броске владелец может вернуть его на 15, "
        "только если 15 свободно (иначе пропуск), и вернувшийся камень обязан ходить следующим.",
        "The summary makes it one choice «При попадании на это поле», risk or return to 15; we decide it at "
        "once, a risk stands, and a return goes to the nearest free square behind 15 (decisions water-choice, "
        "return-occupied).",
        "В сводке это один выбор «При попадании на это поле»: риск или возврат на 15; мы делаем его сразу, риск "
        "окончателен, а возврат идёт на ближайшее свободное поле позади 15 (решения water-choice, "
        "return-occupied).",
    ),
    LudiiDifference(
        "A forced pass on 1, 4 or 5",
        "Вынужденный пропуск при 1, 4 или 5",
        "The player throws again.",
        "Игрок бросает ещё раз.",
        "«Если же и это невозможно, игрок теряет ход»: the turn is lost (decision turn-lost).",
        "«Если же и это невозможно, игрок теряет ход» (решение turn-lost).",
    ),
    LudiiDifference(
        "Protection",
        "Защита",
        "Stones protect each other by adjacency on the 3x10 grid, so a row end is guarded from the next row "
        "(20 by 21), and stones on 27-30 protect each other too.",
        "Камни защищают друг друга по соседству на сетке 3×10, так что конец ряда защищён из следующего ряда "
        "(20 — камнем на 21), и камни на 27–30 тоже защищают друг друга.",
        "Rule 3 speaks of neighbouring squares of the track and rule 5 says stones on 27-30 «не защищают друг "
        "друга»: 20 and 21 are neighbours along the track, 27-30 give no protection among themselves.",
        "Правило 3 говорит о соседних полях дорожки, а правило 5 — что камни на 27–30 «не защищают друг друга».",
    ),
    LudiiDifference(
        "Attacking the House of Water",
        "Атака на Дом воды",
        "A stone on 27 cannot be attacked.",
        "Камень на 27 атаковать нельзя.",
        "Rule 1 has no exception but rule 3, and nothing calls 27 safe: the stones swap (kendall: rule 1).",
        "У правила 1 нет исключений, кроме правила 3, и поле 27 нигде не названо безопасным: камни меняются "
        "местами (правило 1).",
    ),
)

KENDALL = Rulebook(
    "kendall",
    "A Kendall-style game: the House of Beauty that every piece must stop on, the House of Water with its "
    "choice between risk and return, the Houses of Three and Two Judges and the House of Horus.",
    "Игра в духе Кендалла: Дом красоты, на котором останавливается каждая фишка, Дом воды с выбором между риском "
    "и возвратом, Дома трёх и двух судей и Дом Хоруса.",
    (
        _c(
            "kendall: throws",
            "Four sticks: 1-4 light sides up, none up = 5; a 1, 4 or 5 gives another move.",
            "Четыре палочки: 1–4 светлых стороны вверх, ни одной — 5; при 1, 4 или 5 — дополнительный ход.",
        ),
        _c(
            "kendall: rule 1",
            "Moving onto an opponent's stone swaps the two (except rule 3), on any square: nothing makes "
            "a square safe, the House of Water (27) included.",
            "Ход на камень противника меняет их местами (кроме правила 3) на любом поле: безопасных полей нет, "
            "включая Дом воды (27).",
        ),
        _c(
            "kendall: rule 2",
            "A stone may not move onto a stone of its own colour.",
            "Нельзя ходить на поле, занятое камнем своего цвета.",
        ),
        _c(
            "kendall: rule 3",
            "Two or more stones of one colour on adjacent squares protect each other.",
            "Два или более камня одного цвета на соседних полях защищают друг друга.",
        ),
        _c(
            "kendall: rule 4",
            "Move forward if any forward move exists; else one stone backward by the same count; "
            "else the turn is lost.",
            "Ходить вперёд; если нельзя — один камень назад на столько же; если и это нельзя — ход теряется.",
        ),
        _c(
            "kendall: rule 5",
            "Stones on 27-30 do not protect each other (a stone on 26 still protects, and is protected by, "
            "one on 27).",
            "Камни на 27–30 не защищают друг друга (камень на 26 по-прежнему защищает камень на 27 и защищён им).",
        ),
        _c(
            "kendall: House of Beauty",
            "26 cannot be passed: every stone stops there first; from it a 5 bears the stone off.",
            "Поле 26 нельзя миновать: каждый камень сначала останавливается на нём; с него при 5 камень уходит.",
        ),
        _c(
            "kendall: House of Water",
            "27: the owner chooses to risk (a 4 later bears the stone off, any other throw "
            "loses the turn) or to return the stone to 15, the House of Second Life; while a stone drowns no other "
            "stone may move.",
            "27: владелец выбирает риск (позже 4 выводит камень, любой другой бросок — потеря хода) или возврат на "
            "поле 15, Дом второй жизни; пока камень тонет, другими ходить нельзя.",
        ),
        _c(
            "kendall: House of Three Judges",
            "28: the stone only leaves, and only with a 3.",
            "28: камень можно только вывести, и только при 3.",
        ),
        _c(
            "kendall: House of Two Judges",
            "29: the stone only leaves, and only with a 2.",
            "29: камень можно только вывести, и только при 2.",
        ),
        _c(
            "kendall: House of Horus",
            "30: the stone leaves with any throw.",
            "30: камень уходит при любом броске.",
        ),
        _c(
            "kendall: attacked in the last houses",
            "A stone on 28-30 that is attacked goes at once to 27 and drowns, "
            "unless 27 is occupied.",
            "Камень на 28–30, атакованный противником, сразу отправляется на 27 и тонет, если 27 не занято.",
        ),
    ),
    (
        _d(
            "pieces",
            "How many pieces, and where do they start?",
            "Сколько фишек и где они стоят?",
            "Five a side, alternating on 1-10, the first player on the odd squares (the common set-up; Kendall's "
            "commercial set had seven on 1-14).",
            "По пять, через одну на 1–10, первый игрок на нечётных (обычная расстановка; в наборе Кендалла было семь "
            "на 1–14).",
        ),
        _d(
            "first-player",
            "Who starts?",
            "Кто начинает?",
            "The first seat (A).",
            "Первое место (A).",
        ),
        _d(
            "water-choice",
            "When is the Water choice made, and may a failed risk be changed to a return?",
            "Когда делается выбор в Доме воды и можно ли потом сменить риск на возврат?",
            "At once, by the owner, when the stone arrives (even out of turn, after an attack). A risk stands: it "
            "cannot later be changed.",
            "Сразу, владельцем, когда камень попадает туда (даже не в свой ход, после атаки). Риск окончателен.",
        ),
        _d(
            "drowning-freeze",
            "'While a stone drowns no other stone may move': whose stones?",
            "«Пока камень тонет, другими ходить нельзя»: чьими камнями?",
            "The owner's only: while his stone risks on 27 he may move nothing else and only a 4 saves it; the "
            "opponent plays on as usual. The reason is a sentence of the summary: a stone attacked on 28-30 "
            "drowns «если конечно это поле не занято другим камнем» (unless 27 is occupied by another stone). "
            "That clause presupposes moves while a stone stands on 27, which happen only if the freeze binds its "
            "owner alone.",
            "Только камнями владельца: пока его камень рискует на 27, он не ходит другими, спасает только 4; "
            "соперник ходит как обычно. Причина — фраза сводки: атакованный на 28–30 камень тонет, «если конечно "
            "это поле не занято другим камнем». Эта оговорка предполагает ходы, пока камень стоит на 27, а они "
            "возможны, только если запрет касается одного владельца.",
        ),
        _d(
            "return-occupied",
            "Where does a returned stone go if 15 is occupied?",
            "Куда идёт возвращённый камень, если 15 занято?",
            "To the nearest free square behind 15.",
            "На ближайшее свободное поле позади 15.",
        ),
        _d(
            "beauty-attack",
            "Can a stone on 26 be attacked?",
            "Можно ли атаковать камень на 26?",
            "Yes, as any stone (rule 1), unless a stone of its colour stands on 25 or 27 (rule 3): rule 5 takes "
            "protection away only among the stones on 27-30, and 26 is not one of them, so a stone on 26 and one "
            "on 27 protect each other.",
            "Да, как любой камень (правило 1), если рядом на 25 или 27 нет камня его цвета (правило 3): правило 5 "
            "отменяет защиту только между камнями на 27–30, а 26 к ним не относится, так что камни на 26 и 27 "
            "защищают друг друга.",
        ),
        _d(
            "attack-water-occupied",
            "What happens to an attack on 28-30 when 27 is occupied?",
            "Что происходит при атаке на 28–30, если 27 занято?",
            "The two stones swap as usual (rule 1): the attacked stone goes to 26.",
            "Камни меняются местами по правилу 1: атакованный камень идёт на 26.",
        ),
        _d(
            "extra-bearing-off",
            "Does bearing off from 26 or 30 with a 1, 4 or 5 still give another move?",
            "Даёт ли вывод с 26 или 30 при 1, 4 или 5 дополнительный ход?",
            "Yes: the throw gives it, whatever the move.",
            "Да: дополнительный ход даёт бросок, каким бы ни был ход.",
        ),
        _d(
            "turn-lost",
            "Does a lost turn keep the extra move of a 1 or 5?",
            "Сохраняется ли дополнительный ход за 1 или 5 при потере хода?",
            "No: a lost turn (no move possible, or a failed risk) ends the turn.",
            "Нет: потерянный ход (ходить нечем или риск не удался) завершает ход.",
        ),
        _d(
            "passing",
            "May stones pass over other stones?",
            "Можно ли перепрыгивать через камни?",
            "Yes: the summary names no blockade; pairs protect only the squares they stand on.",
            "Да: сводка не называет блокады; пары защищают только свои поля.",
        ),
    ),
    _HISTORY_EN
    + " Timothy Kendall's reconstruction (1978) gave names to the last Houses and sold a boxed set; "
    "this summary describes a game in that family. Kendall's published rules (Passing Through the "
    "Netherworld), as Ludii summarises them (ruleset «Kendall», no. 922, citing «Kendall 1979: rules "
    "book»), differ from this summary, and are played as the variant «kendall-1978»: seven pieces a "
    "side; the first to throw a 1 plays white and moves the front white piece; all the throws of a turn "
    "are made before any move (a 1, 4 or 5 throws again) and each is then used whole by one piece; a "
    "backward move also sends the opponent back; from 26 a 2, 3 or 4 goes to 28, 29 or 30 and a 5 bears "
    "off; while a piece stands on 27, or on 15 after a return, its owner moves no other piece, pieces "
    "side by side lose their protection and 28-30 are safe; the return from 27 may be chosen on any "
    "later turn and costs the next turn.",
    _HISTORY_RU
    + " Реконструкция Тимоти Кендалла (1978) дала имена последним домам и продавалась в коробке; "
    "эта сводка описывает игру из этого семейства. Опубликованные правила Кендалла («Passing Through the "
    "Netherworld») в пересказе Ludii (набор «Kendall», № 922, ссылка «Kendall 1979: rules book») "
    "расходятся со сводкой, их играют как вариант «kendall-1978»: по семь фишек; первый выбросивший 1 "
    "играет белыми и передвигает переднюю белую фишку; все броски хода делаются до первого хода (1, 4 "
    "или 5 дают ещё бросок), и каждый затем целиком тратится на одну фишку; ход назад тоже отправляет "
    "фишку соперника назад; с 26 броски 2, 3, 4 ведут на 28, 29, 30, а 5 выводит фишку; пока фишка "
    "стоит на 27 или на 15 после возврата, её владелец не ходит другими фишками, соседние фишки теряют "
    "защиту, а 28–30 безопасны; возврат с 27 можно выбрать в любой следующий ход, и он стоит "
    "следующего хода.",
    ludii=_KENDALL_LUDII,
)


def _adelaida_clauses() -> tuple[Clause, ...]:
    items = [
        (
            "§1",
            "A 10x3 board as one snake track of three rows; 5 (or 7 in the long game) black spools and white "
            "cones; 4 two-coloured sticks.",
            "Доска 10×3 — сплошная дорожка змейкой из трёх рядов; 5 (или 7 в «долгом Сенете») чёрных катушек и "
            "белых конусов; 4 двухцветные дощечки.",
        ),
        (
            "§2",
            "Start: spools and cones alternate on 1-10 (1-14), a spool first.",
            "Начало: катушки и конусы чередуются на 1–10 (1–14), первой ставится катушка.",
        ),
        (
            "§3",
            "Whoever first throws a 1 plays the spools and moves first.",
            "Кто первым выбросит единицу, играет катушками и ходит первым.",
        ),
        (
            "§4",
            "Throws: one white side up 1 and another throw; two 2; three 3; four 4 and another throw; none 5 and "
            "another throw.",
            "Броски: одна белая сторона — 1 и ещё бросок; две — 2; три — 3; четыре — 4 и ещё бросок; ни одной — 5 "
            "и ещё бросок.",
        ),
        ("§5", "One throw moves one piece.", "Очки одного броска нельзя делить между фишками."),
        (
            "§6",
            "Any extra throw may move any piece of one's colour.",
            "Дополнительный бросок можно использовать на любую свою фишку.",
        ),
        (
            "§7",
            "A piece moves as many squares as the throw.",
            "Фишка идёт на столько полей, сколько выпало.",
        ),
        (
            "§8",
            "A piece may jump over single pieces, of either colour, if there are free squares between and after "
            "them; so any two pieces side by side, own, opponent's or mixed, bar the way (as §26 says: «требуется "
            "перепрыгнуть через две и более рядом стоящие фишки» makes a move impossible). §12 and §14 follow.",
            "Фишка может перепрыгнуть через одиночные фишки любого цвета, если между ними и после них есть "
            "свободные поля; значит, любые две фишки рядом — свои, чужие или разного цвета — преграждают путь "
            "(как и в §26: ход невозможен, если «требуется перепрыгнуть через две и более рядом стоящие фишки»). "
            "§12 и §14 отсюда следуют.",
        ),
        ("§9", "Two pieces never share a square.", "Две фишки не стоят на одном поле."),
        (
            "§10",
            "A piece may take an opponent's piece on its last square: the two swap places.",
            "Фишка может побить фишку противника на последнем поле хода: они меняются местами.",
        ),
        (
            "§11",
            "It may also take an opponent standing behind one of its own pieces.",
            "Можно побить фишку противника, стоящую за своей фишкой.",
        ),
        (
            "§12",
            "A piece with a neighbour of its colour cannot be taken: a pair blocks.",
            "Фишку с соседом своего цвета побить нельзя: пара блокирует.",
        ),
        (
            "§13",
            "A triple is broken by landing on its middle piece, which swaps with the attacker.",
            "Тройка разбивается ходом на её среднюю фишку, которая меняется местами с атакующей.",
        ),
        (
            "§14",
            "Four or more in a row can be neither broken nor jumped.",
            "Четвёрки и более нельзя ни разбить, ни перепрыгнуть.",
        ),
        ("§15", "One may not take one's own pieces.", "Бить свои фишки нельзя."),
        (
            "§16",
            "A piece that cannot go forward by the throw must go back by it.",
            "Фишка, которая не может пойти вперёд, обязана пойти назад.",
        ),
        (
            "§17",
            "No move either way: the player passes.",
            "Ни вперёд, ни назад: игрок пропускает ход.",
        ),
        (
            "§18",
            "Touch-move (a table manner; not enforced online).",
            "«Тронул — ходи» (правило стола; онлайн не действует).",
        ),
        (
            "§19",
            "The first to bear off all pieces wins; there are no draws.",
            "Побеждает первый, кто вывел все фишки; ничьих нет.",
        ),
        (
            "§20",
            "15, House of Rebirth: landing there earns another throw; drowned pieces come back there.",
            "15 — Дом Возрождения: вставший получает дополнительный бросок; сюда возвращаются утонувшие.",
        ),
        (
            "§21",
            "No piece can be taken on any of the eight Houses, but a swap may put a piece into 15, 16, 21 or 26.",
            "Никого нельзя побить в восьми Домах, но обменом фишка может попасть в 15, 16, 21 или 26.",
        ),
        (
            "§22",
            "A piece swapped into a House is subject to that House's rules.",
            "На фишку, выбитую в Дом, действуют правила этого Дома.",
        ),
        (
            "§23",
            "16, House of the Net: the piece's owner skips a turn.",
            "16 — Дом Сетки: вставший пропускает ход.",
        ),
        (
            "§24",
            "Extra throws accumulate; a skip in the Net may cancel one extra throw.",
            "Дополнительные броски суммируются; пропуск в Доме Сетки может аннулировать один из них.",
        ),
        (
            "§25",
            "21, House of Ba: the piece goes on in the same direction by the same count.",
            "21 — Дом Ба: фишка продолжает движение в ту же сторону на то же число полей.",
        ),
        (
            "§26",
            "A move into Ba whose doubling is impossible is illegal.",
            "Если удвоение хода в Доме Ба невозможно, ход в Дом Ба недопустим.",
        ),
        (
            "§27",
            "26, House of Rejuvenation: a throw of fate for that piece: 5 back five, 1 to the Water, 2/3/4 to "
            "the House 2/3/4 squares on; an impossible fate move is lost.",
            "26 — Дом Омоложения: бросок судьбы для этой фишки: 5 — на пять назад, 1 — в Дом Воды, 2/3/4 — в Дом "
            "на 2/3/4 поля дальше; невозможный ход судьбы пропадает.",
        ),
        (
            "§28",
            "27, House of Water: the piece leaves the board, not borne off; instead of a later move it comes "
            "back to 15 if free (compulsory when nothing else can move).",
            "27 — Дом Воды: фишка снимается с доски, не считаясь выведенной; вместо следующего хода её можно "
            "вернуть на свободное 15 (обязательно, если больше ходить нечем).",
        ),
        (
            "§29",
            "Falling into the Water cancels extra throws.",
            "Попадание в Дом Воды аннулирует дополнительные броски.",
        ),
        (
            "§30",
            "A reborn piece moves only from the next throw.",
            "Возрождённая фишка ходит только со следующего броска.",
        ),
        (
            "§31",
            "28, House of Three Truths: the piece leaves with a 3, otherwise it stays (it moves neither on nor "
            "back).",
            "28 — Дом Трёх Истин: фишка уходит при 3, иначе остаётся на месте (не идёт ни вперёд, ни назад).",
        ),
        (
            "§32",
            "29, House of Isis and Nephthys: the piece leaves with a 2, otherwise it stays (it moves neither on "
            "nor back).",
            "29 — Дом Исиды и Нефтиды: фишка уходит при 2, иначе остаётся на месте (не идёт ни вперёд, ни "
            "назад).",
        ),
        (
            "§33",
            "30, House of the Rising Sun: the piece leaves with a 1, otherwise it stays (it moves neither on nor "
            "back).",
            "30 — Дом Восходящего Солнца: фишка уходит при 1, иначе остаётся на месте (не идёт ни вперёд, ни "
            "назад).",
        ),
        (
            "§34",
            "Instead of bearing off from 28-30 the player may make any other legal move.",
            "Вместо вывода фишки с 28–30 можно сделать любой другой допустимый ход.",
        ),
    ]
    return tuple(_c(f"adelaida {num}", en, ru) for num, en, ru in items)


_ADELAIDA_DECISIONS = (
    _d(
        "backward-per-piece",
        "Is §16 per piece or per player?",
        "§16 — для фишки или для игрока?",
        "Per piece, as written: every piece that cannot go forward may go back by the throw, even when other "
        "pieces can go forward.",
        "Для фишки, как написано: любая фишка, которая не может пойти вперёд, может пойти назад, даже если другие "
        "могут вперёд.",
    ),
    _d(
        "first-throw",
        "Is the deciding 1 of §3 also the first move's throw?",
        "Служит ли решающая единица §3 и броском первого хода?",
        "No. §3 gives whoever first throws a 1 the right to the first move, and its «(см. следующий пункт)» "
        "points to §4 for what a 1 is (one stick white side up) and what it brings: «право дополнительного "
        "броска», the right to another throw. So the deciding 1 is played as §4 says a 1 is: it earns the next "
        "throw, and the spools' first move is made with that fresh throw. The throw-off only assigns the spools "
        "(seat A); on the site 'leave it to chance' means this throw-off.",
        "Нет. §3 даёт тому, кто первым выбросит единицу, право первого хода, а его «(см. следующий пункт)» "
        "отсылает к §4: что такое единица (одна дощечка белой стороной вверх) и что она даёт — «право "
        "дополнительного броска». Поэтому решающая единица действует так, как §4 говорит о единице: она даёт "
        "следующий бросок, и первый ход катушек делается этим новым броском. Жеребьёвка лишь отдаёт катушки "
        "(место A); на сайте «доверить случаю» означает эту жеребьёвку.",
    ),
    _d(
        "pass-26",
        "May a piece pass 26 and land directly on 27-30?",
        "Может ли фишка миновать 26 и встать прямо на 27–30?",
        "Yes: §27 acts on a piece that lands on 26; nothing requires stopping there.",
        "Да: §27 действует на фишку, вставшую на 26; останавливаться там не требуется.",
    ),
    _d(
        "fate-extra",
        "Does a fate throw of 1, 4 or 5 earn another throw?",
        "Даёт ли бросок судьбы 1, 4 или 5 дополнительный бросок?",
        "Yes. §27 calls the fate throw one of the additional throws («В отличие от других дополнительных "
        "бросков, результат этого броска применяется только к фишке…»), and the only difference it names is "
        "who may use the points; §24 says «дополнительный бросок, дающий 1, 4 или 5, даёт новый дополнительный "
        "бросок». The new throw is owed to the piece's owner and may move any of his pieces (§6). A fate 1 "
        "sends the piece into the Water, which cancels it at once (§29); a fate 5 leads through Ba to the Net, "
        "which cancels it (§24).",
        "Да. §27 называет бросок судьбы одним из дополнительных бросков («В отличие от других дополнительных "
        "бросков, результат этого броска применяется только к фишке…»), и единственное названное отличие — кто "
        "может использовать очки; §24: «дополнительный бросок, дающий 1, 4 или 5, даёт новый дополнительный "
        "бросок». Новый бросок достаётся владельцу фишки и может пойти на любую его фишку (§6). Единица судьбы "
        "отправляет фишку в Дом Воды, и он сразу аннулирует этот бросок (§29); пятёрка ведёт через Дом Ба в Дом "
        "Сетки, который его аннулирует (§24).",
    ),
    _d(
        "fate-ba",
        "Does the House of Ba act on a fate move of 5 back?",
        "Действует ли Дом Ба на ход судьбы на 5 назад?",
        "Yes: the piece lands on 21 and goes on five more squares back, to 16 (the Net), whose skip cancels the "
        "extra throw the 5 earned (§24); if that is impossible the fate move is lost and the piece stays on 26.",
        "Да: фишка встаёт на 21 и идёт ещё на пять назад, на 16 (Дом Сетки), и пропуск хода аннулирует "
        "дополнительный бросок, заработанный пятёркой (§24); если это невозможно, ход судьбы пропадает и фишка "
        "остаётся на 26.",
    ),
    _d(
        "revival-throw",
        "Does a revival on 15 earn the Rebirth throw (§20 against §30)?",
        "Даёт ли возрождение на 15 бросок Дома Возрождения (§20 против §30)?",
        "No: §30 holds the reborn piece until the next throw. The throw used to revive keeps its own extra throw if "
        "it was a 1, 4 or 5 (§4).",
        "Нет: по §30 возрождённая фишка ждёт следующего броска. Бросок, потраченный на возрождение, сохраняет свой "
        "дополнительный бросок, если это 1, 4 или 5 (§4).",
    ),
    _d(
        "net-extra",
        "Which turn does the Net's skip consume when extra throws are pending?",
        "Какой ход отнимает Дом Сетки, если есть дополнительные броски?",
        "It cancels one pending extra throw (counting the one the landing throw earned); with none pending, the "
        "owner's next turn is skipped.",
        "Он аннулирует один дополнительный бросок (считая заработанный этим броском); если их нет, пропускается "
        "следующий ход владельца.",
    ),
    _d(
        "revival-timing",
        "When is a drowned piece revived?",
        "Когда возрождается утонувшая фишка?",
        "After a throw, instead of a move: the throw is used up. Only when 15 is free.",
        "После броска, вместо хода: бросок расходуется. Только если 15 свободно.",
    ),
    _d(
        "revival-later",
        "§28 gives the right to revive 'instead of the next move': does it lapse if not used then?",
        "§28 даёт право возродить фишку «вместо следующего хода»: пропадает ли оно, если им тогда не воспользоваться?",
        "No: the right stands at every later move while 15 is free. Read literally the piece could stay off for "
        "good and its owner could never bear off all pieces (§19), so the text cannot be played literally here.",
        "Нет: право сохраняется при каждом следующем ходе, пока 15 свободно. При буквальном чтении фишка могла бы "
        "навсегда остаться вне доски и её владелец не смог бы вывести все фишки (§19), так что буквально это "
        "правило неиграбельно.",
    ),
    _d(
        "ba-capture",
        "Where does a piece captured at the end of a Ba move go?",
        "Куда идёт фишка, побитая в конце хода через Дом Ба?",
        "It passes through Ba and Ba carries it on to the capturer's starting square. The swap puts the captured "
        "piece into 21, the square the capturer left (§21 lists Ba among the Houses a swap may put a piece "
        "into), and §22 applies the House to it: it goes on in the direction it moved, by the same count, which "
        "is the capturer's starting square (§25). No piece ever rests on 21.",
        "Она проходит через Дом Ба, и он переносит её на поле, с которого начала ход побившая фишка. Обмен "
        "ставит побитую фишку на 21, поле, которое покинула побившая (§21 называет Дом Ба среди Домов, куда "
        "фишка может попасть обменом), и по §22 на неё действует этот Дом: она идёт дальше в ту сторону, куда "
        "двигалась, на то же число полей — на начальное поле побившей фишки (§25). На 21 никто не остаётся.",
    ),
    _d(
        "swapped-into-house",
        "What does a House do to a piece swapped into it (§21-22)?",
        "Что делает Дом с фишкой, выбитой в него (§21–22)?",
        "15: its owner gets an extra throw in his next turn; 16: his next turn is skipped (or one pending extra "
        "throw cancelled); 26: a throw of fate for that piece at once.",
        "15: владелец получает дополнительный бросок в свой следующий ход; 16: его следующий ход пропускается (или "
        "аннулируется один дополнительный бросок); 26: сразу бросок судьбы для этой фишки.",
    ),
    _d(
        "fate-lost",
        "What becomes of a piece whose fate move is impossible?",
        "Что с фишкой, ход судьбы которой невозможен?",
        "It stays on 26 and later moves like any other piece (no new fate throw). The fate throw is lost "
        "whole, its extra throw for a 1, 4 or 5 included: «эти очки не могут использоваться другой фишкой» (§27).",
        "Она остаётся на 26 и потом ходит как любая фишка (без нового броска судьбы). Бросок судьбы пропадает "
        "целиком, вместе с дополнительным броском за 1, 4 или 5: «эти очки не могут использоваться другой "
        "фишкой» (§27).",
    ),
    _d(
        "pass-extra",
        "After a pass, are extra throws still thrown, and does an unusable 1, 4 or 5 earn one?",
        "Если пришлось пропустить ход, бросаются ли дополнительные броски и даёт ли его неиспользуемая 1, 4 "
        "или 5?",
        "Yes to both. Extra throws accumulate (§24), and §4 gives the extra throw with the throw itself («начисляется "
        "одно очко и предоставляется право дополнительного броска»), not with the move; only the Net (§24) and "
        "the Water (§29) cancel extra throws. So a 1, 4 or 5 that no piece can use (§17) still earns its throw, "
        "as it does when it is spent on a revival (§28). An impossible fate move is the exception §27 makes: "
        "«эти очки не могут использоваться другой фишкой игрока», and the extra throw it would earn moves any "
        "piece (§6), so it is lost whole (decision fate-lost).",
        "Да, в обоих случаях. Дополнительные броски накапливаются (§24), а §4 даёт право дополнительного броска "
        "вместе с самим броском («начисляется одно очко и предоставляется право дополнительного броска»), а не с "
        "ходом; аннулируют дополнительные броски только Дом Сетки (§24) и Дом Воды (§29). Поэтому 1, 4 или 5, "
        "которые нельзя использовать (§17), всё равно дают бросок — как и при возрождении (§28). Исключение "
        "делает §27 для невозможного хода судьбы: «эти очки не могут использоваться другой фишкой игрока», а "
        "дополнительный бросок, который он дал бы, ходит любой фишкой (§6), так что он пропадает целиком "
        "(решение fate-lost).",
    ),
    _d(
        "touch-move",
        "Is touch-move (§18) enforced?",
        "Действует ли «тронул — ходи» (§18)?",
        "No: it is a table manner; online, a move counts when it is made.",
        "Нет: это правило стола; онлайн ход считается, когда он сделан.",
    ),
)

_ADELAIDA_HISTORY_EN = (
    _HISTORY_EN
    + " The Kaliningrad art club «Adelaida» and the college «Telema-93» held the city's first master "
    "class and test tournament on 10 January and adopted these rules: not an exact reconstruction, but a "
    "practical compilation of published hypotheses with the club's own additions for situations met in play."
)
_ADELAIDA_HISTORY_RU = (
    _HISTORY_RU
    + " Калининградский арт-клуб «Аделаида» и колледж «Телема-93» провели 10 января первый в городе "
    "мастер-класс и испытательный турнир и утвердили эти правила: не точную реконструкцию, а удобную на практике "
    "компиляцию гипотез с собственными дополнениями клуба для ситуаций, возникших в игре."
)

ADELAIDA = Rulebook(
    "adelaida",
    "The rules of the Kaliningrad art club «Adelaida»: eight Houses, jumping over single pieces, pairs that "
    "block, triples that break, backward moves, the House of Ba's double move and the throw of fate.",
    "Правила калининградского арт-клуба «Аделаида»: восемь Домов, прыжки через одиночные фишки, блокирующие пары, "
    "разбиваемые тройки, ходы назад, двойной ход Дома Ба и бросок судьбы.",
    _adelaida_clauses(),
    _ADELAIDA_DECISIONS,
    _ADELAIDA_HISTORY_EN,
    _ADELAIDA_HISTORY_RU,
)

ADELAIDA_LONG = Rulebook(
    "adelaida-long",
    "«Long Senet» of the «Adelaida» club: the same rules with seven pieces a side on squares 1-14.",
    "«Долгий Сенет» клуба «Аделаида»: те же правила, по семь фишек на клетках 1–14.",
    _adelaida_clauses(),
    _ADELAIDA_DECISIONS,
    _ADELAIDA_HISTORY_EN,
    _ADELAIDA_HISTORY_RU,
)

JEQUIER = Rulebook(
    "jequier",
    "Gustave Jéquier's reconstruction as Ludii summarises it: five pieces a side on the first row, four sticks "
    "whose blank throw counts 6, captured pieces sent back to the start, blockades of three, and bearing off "
    "only once every piece has reached the last row.",
    "Реконструкция Гюстава Жекье в пересказе Ludii: по пять фишек в первом ряду, четыре палочки, у которых "
    "бросок без простых сторон даёт 6, побитые фишки возвращаются к началу, тройки блокируют, а выводить фишки "
    "можно, только когда все дошли до последнего ряда.",
    (
        _c(
            "jequier: pieces",
            "Five pieces per player, on the first row, alternating white and then black.",
            "По пять фишек у игрока, в первом ряду, через одну: белая, затем чёрная.",
        ),
        _c(
            "jequier: throws",
            "Four sticks, one red side and one plain; the throw is the number of plain sides up, and all red "
            "sides up is 6.",
            "Четыре палочки с красной и простой стороной; бросок — число простых сторон вверх, все красные вверх "
            "— 6.",
        ),
        _c(
            "jequier: extra throws",
            "Throws of 1, 4 and 6 grant another throw; throws are played as soon as they are thrown.",
            "Броски 1, 4 и 6 дают ещё один бросок; бросок играется сразу.",
        ),
        _c(
            "jequier: first throw",
            "The first player to throw a 1 plays black, moves the black piece in front of the line one space, "
            "and then continues to play.",
            "Первый выбросивший 1 играет чёрными, передвигает переднюю чёрную фишку на одну клетку и продолжает "
            "игру.",
        ),
        _c(
            "jequier: starting squares",
            "Pieces in their starting spots may not move until the piece immediately in front of them has "
            "moved.",
            "Фишки на начальных местах не могут ходить, пока не сдвинется фишка прямо перед ними.",
        ),
        _c(
            "jequier: three in a row",
            "A piece may not move past three of the opponent's pieces resting on three squares in a row.",
            "Нельзя пройти мимо трёх фишек соперника, стоящих на трёх клетках подряд.",
        ),
        _c(
            "jequier: capture",
            "A piece may land on an opponent's piece, sending it back to the unoccupied square furthest from "
            "the end; two or more of the opponent's pieces in a row cannot be sent back.",
            "Фишка может встать на фишку соперника, отправив её на незанятую клетку, самую далёкую от конца; две "
            "и более фишки соперника подряд отправить назад нельзя.",
        ),
        _c(
            "jequier: safe squares",
            "Pieces on squares 26, 28, 29 and 20 cannot be sent back.",
            "Фишки на клетках 26, 28, 29 и 20 отправить назад нельзя.",
        ),
        _c(
            "jequier: backward",
            "A piece that cannot move forward must move backward to an open space; with no move at all the "
            "turn ends.",
            "Фишка, которая не может идти вперёд, обязана идти назад на свободную клетку; если ходов нет, ход "
            "кончается.",
        ),
        _c(
            "jequier: water",
            "A piece landing on square 27 is sent back to the unoccupied square furthest from the end.",
            "Фишка, вставшая на клетку 27, отправляется на незанятую клетку, самую далёкую от конца.",
        ),
        _c(
            "jequier: bearing off",
            "No piece bears off until all the player's pieces are on the last row; then pieces moving beyond "
            "the final square are borne off.",
            "Выводить фишки нельзя, пока все фишки игрока не в последнем ряду; затем фишка, уходящая за "
            "последнюю клетку, выведена.",
        ),
        _c(
            "jequier: winning",
            "The first player to bear off all pieces wins, scoring 1 for each opposing piece left on the last "
            "row, 2 on the middle row and 3 on the first row.",
            "Побеждает первый, кто вывел все фишки; он получает 1 очко за каждую фишку соперника в последнем "
            "ряду, 2 — в среднем и 3 — в первом.",
        ),
    ),
    (
        _d(
            "text",
            "Is this Jéquier's own text?",
            "Это текст самого Жекье?",
            "No. Jéquier's publication was not available to us; these rules follow Ludii's summary of it "
            "(ruleset no. 939, whose reference reads «Jéquier 1930»), sentence by sentence. We could not "
            "confirm the 1909 date under which the reconstruction is also cited.",
            "Нет. Публикация Жекье нам недоступна; эти правила следуют пересказу Ludii (набор № 939, ссылка "
            "«Jéquier 1930») предложение за предложением. Дату 1909, под которой эту реконструкцию тоже "
            "упоминают, подтвердить не удалось.",
        ),
        _d(
            "opening",
            "How does the game begin?",
            "Как начинается игра?",
            "After the opening the text describes: black (seat A) has thrown the deciding 1 and moved its front "
            "piece from 10 to 11, and «then continues to play», so the game starts with black to throw. Which "
            "person plays black is the site's usual choice of seats (or the throw-off).",
            "После описанного начала: чёрные (место A) выбросили решающую 1 и передвинули переднюю фишку с 10 на "
            "11, и «затем продолжают игру», так что партия начинается с броска чёрных. Кто играет чёрными — "
            "обычный выбор мест на сайте (или жеребьёвка).",
        ),
        _d(
            "waiting",
            "'Until the piece in front has moved': how is that read from a position?",
            "«Пока не сдвинется фишка перед ней»: как это прочесть по позиции?",
            "A piece standing on one of its side's starting squares (black 2, 4, 6, 8, 10; white 1, 3, 5, 7, 9) "
            "may not move while the square immediately in front of it is occupied. A position records no history, "
            "so a piece sent back onto a starting square waits like one that never moved.",
            "Фишка на одной из начальных клеток своей стороны (чёрные 2, 4, 6, 8, 10; белые 1, 3, 5, 7, 9) не "
            "может ходить, пока занята клетка прямо перед ней. Позиция не хранит истории, поэтому фишка, "
            "отправленная на начальную клетку, ждёт так же, как не ходившая.",
        ),
        _d(
            "safe-20",
            "The text names 26, 28, 29 «and 20» as safe; Ludii's code protects 15 instead of 20. Which?",
            "Текст называет безопасными 26, 28, 29 «и 20», а код Ludii защищает 15 вместо 20. Что верно?",
            "20, as the text says; we do not correct a published sentence by guesswork.",
            "20, как сказано в тексте; мы не исправляем опубликованную фразу догадкой.",
        ),
        _d(
            "backward",
            "Is 'a piece that cannot move forward must move backward' per piece, and may it capture going back?",
            "«Фишка, которая не может вперёд, идёт назад» — для каждой фишки? Можно ли бить, идя назад?",
            "Per piece, as written («If a piece cannot move forward»), and only «to an open space»: a piece going "
            "back never lands on another piece.",
            "Для каждой фишки, как написано («If a piece cannot move forward»), и только «to an open space»: "
            "идя назад, фишка не встаёт на другую.",
        ),
        _d(
            "send-back",
            "Where exactly does a piece sent back go?",
            "Куда именно идёт отправленная назад фишка?",
            "To the lowest-numbered empty square once the move is made (the capturer on its new square, its old "
            "square free): «the unoccupied space furthest from the end».",
            "На свободную клетку с наименьшим номером после хода (побившая фишка уже на новой клетке, её прежняя "
            "клетка свободна): «the unoccupied space furthest from the end».",
        ),
        _d(
            "three-in-a-row",
            "Which pieces form a blockade of three?",
            "Какие фишки образуют блокаду из трёх?",
            "Three of the mover's opponent on three squares in a row strictly between the start and the end of "
            "the move, forward or back; the mover's own pieces never block it.",
            "Три фишки соперника ходящего на трёх клетках подряд строго между началом и концом хода, вперёд или "
            "назад; свои фишки ходящему не мешают.",
        ),
        _d(
            "extra-after-pass",
            "Does a 1, 4 or 6 that no piece can use still give another throw?",
            "Даёт ли 1, 4 или 6 ещё бросок, если ходить нечем?",
            "Yes: «Throws of 1, 4, and 6 grant the player another throw»: the throw grants it, not the move.",
            "Да: «Throws of 1, 4, and 6 grant the player another throw» — его даёт бросок, а не ход.",
        ),
        _d(
            "points",
            "What do the points decide?",
            "Что решают очки?",
            "The winner is the first to bear off every piece; the points (3, 2, 1 for each opposing piece left on "
            "the first, middle, last row) measure the win and are shown with the result.",
            "Побеждает первый, кто вывел все фишки; очки (3, 2, 1 за каждую фишку соперника в первом, среднем, "
            "последнем ряду) измеряют победу и показываются с результатом.",
        ),
    ),
    _HISTORY_EN
    + " Gustave Jéquier (1868-1946), a Swiss Egyptologist, proposed one of the earliest playable "
    "reconstructions of Senet. Our rules follow Ludii's summary of his proposal (the general game system's "
    "Senet ruleset «Jéquier», whose reference reads «Jéquier 1930»); his own text was not available to us. Its "
    "features are a blank throw worth 6, pieces sent back to the start when taken, blockades of three, and a last "
    "row to be reached by every piece before any may leave.",
    _HISTORY_RU
    + " Гюстав Жекье (1868–1946), швейцарский египтолог, предложил одну из первых играбельных "
    "реконструкций сенета. Наши правила следуют пересказу его предложения в Ludii (набор правил «Jéquier» "
    "универсальной системы игр, ссылка «Jéquier 1930»); его собственный текст нам недоступен. Её черты — бросок "
    "без простых сторон, равный 6, побитые фишки возвращаются к началу, блокады из трёх и последний ряд, куда "
    "должны прийти все фишки, прежде чем какая-либо уйдёт.",
    ludii=(
        LudiiDifference(
            "Safe squares",
            "Безопасные клетки",
            "Pieces on 15, 26, 28 and 29 cannot be sent back.",
            "Нельзя отправить назад фишки на 15, 26, 28 и 29.",
            "26, 28, 29 and 20, as its own rules text says (decision safe-20).",
            "26, 28, 29 и 20, как говорит его собственный текст правил (решение safe-20).",
        ),
        LudiiDifference(
            "Starting squares",
            "Начальные клетки",
            "Every piece on the first row (1-10) moves only if the square after it is empty.",
            "Любая фишка в первом ряду (1–10) ходит, только если следующая клетка пуста.",
            "Only pieces «in their starting spots» wait (decision waiting).",
            "Ждут только фишки «in their starting spots» (решение waiting).",
        ),
        LudiiDifference(
            "Three in a row",
            "Три подряд",
            "Only throws of 4 and more are checked, for a row of three pieces of either colour through the "
            "square halfway along the move.",
            "Проверяются только броски от 4, на ряд из трёх фишек любого цвета через клетку на середине хода.",
            "Any three of the opponent's pieces in a row on the way stop any move: «may not move past a group of "
            "the opponent's pieces which are resting in three squares in a row» (decision three-in-a-row).",
            "Любые три фишки соперника подряд на пути останавливают любой ход (решение three-in-a-row).",
        ),
        LudiiDifference(
            "Where a captured piece goes",
            "Куда уходит побитая фишка",
            "To the lowest-numbered empty square before the move is made, so the capturer's old square still "
            "counts as taken.",
            "На свободную клетку с наименьшим номером до хода, так что прежняя клетка побившей фишки ещё "
            "считается занятой.",
            "To the lowest-numbered empty square once the move is made, the capturer's old square free "
            "(decision send-back).",
            "На свободную клетку с наименьшим номером после хода, когда прежняя клетка побившей фишки уже "
            "свободна (решение send-back).",
        ),
        LudiiDifference(
            "Backward moves",
            "Ходы назад",
            "None: no piece ever moves backward, which contradicts the text: «A piece that cannot move forward "
            "must move backward to an open space» (jequier: backward). A throw that moves no piece forward is "
            "passed.",
            "Их нет: ни одна фишка никогда не идёт назад, вопреки тексту: «Фишка, которая не может идти вперёд, "
            "обязана идти назад на свободную клетку» (правило jequier: backward). Бросок, который не ведёт "
            "вперёд ни одну фишку, пропадает.",
            "Each piece that cannot go forward goes back, to an open space only (decision backward).",
            "Каждая фишка, которая не может вперёд, идёт назад, и только на свободную клетку (решение backward).",
        ),
        LudiiDifference(
            "Protection across the end of a row",
            "Защита на стыке рядов",
            "Pieces protect each other only within a row of the board: two pieces on 10 and 11, or on 20 and "
            "21, can be sent back, which contradicts the text: «two or more of the opponent's pieces in a row "
            "cannot be sent back» (jequier: capture).",
            "Фишки защищают друг друга только внутри ряда доски: две фишки на 10 и 11 или на 20 и 21 можно "
            "отправить назад, вопреки тексту: «две и более фишки соперника подряд отправить назад нельзя» "
            "(правило jequier: capture).",
            "Two pieces on consecutive squares of the track protect each other wherever they stand, across the "
            "turn of the track too.",
            "Две фишки на соседних клетках дорожки защищают друг друга где угодно, и на повороте дорожки тоже.",
        ),
        LudiiDifference(
            "The last piece and an extra throw",
            "Последняя фишка и дополнительный бросок",
            "A player who bears off his last piece with a 1, 4 or 6 (a throw that grants another) does not win: "
            "the game ends with no winner, which contradicts the text: «The first player to bear off all pieces "
            "wins» (jequier: winning).",
            "Игрок, выведший последнюю фишку броском 1, 4 или 6 (который даёт ещё бросок), не побеждает: партия "
            "кончается без победителя, вопреки тексту: «Побеждает первый, кто вывел все фишки» (правило "
            "jequier: winning).",
            "He wins, whatever the throw: the game ends with his last piece off.",
            "Он побеждает при любом броске: партия кончается, когда выведена его последняя фишка.",
        ),
    ),
)

KENDALL_1978 = Rulebook(
    "kendall-1978",
    "Timothy Kendall's published rules as Ludii summarises them: seven pieces a side, four sticks, every throw "
    "of a turn made before the moves, swaps with protection by neighbours, moves back when a throw cannot go "
    "forward, the House of Beauty on 26 and a House of Water on 27 where a piece waits for a 4 or goes back "
    "to 15.",
    "Опубликованные правила Тимоти Кендалла в пересказе Ludii: по семь фишек, четыре палочки, все броски хода "
    "до ходов, обмен местами с защитой соседями, ходы назад, когда бросок не ведёт вперёд, Дом красоты на 26 и "
    "Дом воды на 27, где фишка ждёт четвёрки или возвращается на 15.",
    (
        _c(
            "kendall-1978: pieces",
            "«Seven pieces per player, which begin on the board, alternating spaces from white to black along "
            "the track»: on squares 1-14.",
            "«Seven pieces per player, which begin on the board, alternating spaces from white to black along the "
            "track»: по семь фишек на клетках 1–14, через одну.",
        ),
        _c(
            "kendall-1978: throws",
            "«Four throwing sticks, marked on one side and blank on the other … The values of the throws are "
            "equal to the number of blank sides up, when no blank sides are up the throw = 5.»",
            "Четыре палочки, помеченные с одной стороны: бросок — число чистых сторон вверх, а если ни одной — 5.",
        ),
        _c(
            "kendall-1978: extra throws",
            "«Throws of 1, 4, and 5 grant the player another throw.»",
            "Броски 1, 4 и 5 дают ещё один бросок.",
        ),
        _c(
            "kendall-1978: throws first",
            "«All throws are made before moving, and a piece must move the full value of one throw at a time.»",
            "Все броски хода делаются до ходов, и фишка проходит целиком значение одного броска за раз.",
        ),
        _c(
            "kendall-1978: first throw",
            "«Players alternate turns throwing the sticks, and the first one to throw 1 plays as white and moves "
            "the white piece in front.»",
            "Игроки бросают по очереди; первый выбросивший 1 играет белыми и передвигает переднюю белую фишку.",
        ),
        _c(
            "kendall-1978: swap",
            "«When a piece lands on a space occupied by the opponent's piece, the opponent's piece is sent back "
            "to the space where the piece that captured it moved from.»",
            "Фишка, вставшая на фишку соперника, отправляет её на клетку, с которой пришла сама.",
        ),
        _c(
            "kendall-1978: protection",
            "«When a player has two or more pieces in consecutive spaces, these pieces cannot be sent backward in "
            "this way.»",
            "Две или больше фишек одного игрока на соседних клетках нельзя так отправить назад.",
        ),
        _c(
            "kendall-1978: backward",
            "«If a player cannot use a throw to move a piece forward, it must be used to move a piece backward.» "
            "A backward move onto an opponent sends it to where the move began.",
            "Бросок, которым нельзя пойти вперёд, нужно использовать для хода назад; ход назад на фишку "
            "соперника отправляет её туда, где начался ход.",
        ),
        _c(
            "kendall-1978: no move",
            "«If a player cannot move, the turn ends.»",
            "Если игрок не может ходить, его ход заканчивается.",
        ),
        _c(
            "kendall-1978: house of beauty",
            "«To move beyond square 26, the player must first land on it with an exact throw.» From 26 a 5 bears "
            "the piece off, a 4 goes to 30, a 3 to 29, a 2 to 28.",
            "Чтобы пройти дальше 26, нужно сначала встать на него точным броском. С 26 бросок 5 выводит фишку, "
            "4 ведёт на 30, 3 — на 29, 2 — на 28.",
        ),
        _c(
            "kendall-1978: last houses",
            "From 30 any later throw bears the piece off; a piece on 29 stays until a 2 bears it off, on 28 until "
            "a 3 does. «Pieces in squares 28 and 29 are never required to move backward and bearing off is not "
            "required from any space.»",
            "С 30 фишку выводит любой следующий бросок; фишка на 29 ждёт двойки, на 28 — тройки. Фишки на 28 и 29 "
            "никогда не обязаны ходить назад, и выводить фишку не обязательно ни с какой клетки.",
        ),
        _c(
            "kendall-1978: attack on 28-30",
            "«When a player lands on squares 28-30 and an opponent's piece is already there, the opponent's piece "
            "is sent to square 27 instead of 26.»",
            "Если фишка встаёт на 28–30, где стоит фишка соперника, та отправляется на 27, а не на 26.",
        ),
        _c(
            "kendall-1978: house of water",
            "A piece on 27 (sent there, or moved there by a 1) either goes back to 15 and its owner loses his "
            "next turn, or stays «until a 4 is thrown, bearing the piece off»; «The player in square 27 may "
            "decide to give up trying to throw a 4 on any turn».",
            "Фишка на 27 (отправленная туда или пришедшая с единицей) либо возвращается на 15, и её владелец "
            "пропускает следующий ход, либо стоит, пока четвёрка не выведет её; отказаться от ожидания можно в "
            "любой ход.",
        ),
        _c(
            "kendall-1978: waiting",
            "«A player cannot move any other piece on the board when one remains in square 27 or 15 after being "
            "sent back to it, and pieces which normally would be protected from being sent back because they "
            "are next to each other may now be sent back.»",
            "Пока фишка игрока стоит на 27 или на 15 после возврата, он не ходит другими фишками, а его соседние "
            "фишки теряют защиту.",
        ),
        _c(
            "kendall-1978: guarded",
            "«Pieces in squares 28-30 are safe as long as a piece is in square 27.»",
            "Фишки на 28–30 в безопасности, пока на 27 стоит фишка.",
        ),
        _c(
            "kendall-1978: winning",
            "«The first player to successfully bear off all their pieces wins.»",
            "Побеждает первый, кто вывел все свои фишки.",
        ),
    ),
    (
        _d(
            "source",
            "Is this Kendall's own text?",
            "Это собственный текст Кендалла?",
            "No. Kendall's rules book was not available to us; these rules follow Ludii's English summary of it "
            "(ruleset «Kendall», no. 922, reference «Kendall 1979: rules book»), and the quotations are its "
            "sentences.",
            "Нет. Книга правил Кендалла нам недоступна; эти правила следуют английскому пересказу Ludii (набор "
            "«Kendall», № 922, ссылка «Kendall 1979: rules book»), и цитаты — его предложения.",
        ),
        _d(
            "first-throw",
            "How does the game begin?",
            "Как начинается игра?",
            "After the opening: the player who threw the first 1 is seat A (white), his piece in front has gone "
            "from 14 to 15, and since «Throws of 1, 4, and 5 grant the player another throw» he throws again. "
            "The game starts there.",
            "После начала: выбросивший первую единицу — место A (белые), его передняя фишка перешла с 14 на 15, и, "
            "раз «Throws of 1, 4, and 5 grant the player another throw», он бросает снова. Отсюда игра и "
            "начинается.",
        ),
        _d(
            "order",
            "In which order are the throws of a turn used?",
            "В каком порядке используются броски хода?",
            "In any order the player chooses, one throw a move: «a piece must move the full value of one throw at "
            "a time» and nothing fixes the order. A bearing off from 30, which any throw allows, names its throw "
            "(30-off/2).",
            "В любом порядке по выбору игрока, по броску на ход: «a piece must move the full value of one throw at "
            "a time», а порядок не задан. Вывод с 30, который даёт любой бросок, называет свой бросок (30-off/2).",
        ),
        _d(
            "backward-when",
            "When is a throw «cannot be used to move a piece forward»?",
            "Когда бросок «нельзя использовать для хода вперёд»?",
            "When the player is about to use it: on the board as it stands then, no piece can go forward by it. "
            "Until then each throw is a forward throw if it moves any piece forward.",
            "Когда игрок собирается его использовать: на доске, как она стоит в этот момент, ни одна фишка не "
            "может пройти им вперёд. До того каждый бросок — бросок вперёд, если двигает вперёд хоть одну фишку.",
        ),
        _d(
            "unusable",
            "What happens to throws that no piece can use?",
            "Что с бросками, которые не может использовать ни одна фишка?",
            "When none of the throws left can move any piece, forward or back, they are all lost: «If a player "
            "cannot move, the turn ends.»",
            "Когда ни один из оставшихся бросков не двигает ни одной фишки ни вперёд, ни назад, они все "
            "пропадают: «If a player cannot move, the turn ends.»",
        ),
        _d(
            "water-safe",
            "Can a piece on 27 be attacked?",
            "Можно ли атаковать фишку на 27?",
            "No: its owner «may leave the piece in square 27 until a 4 is thrown»; only he moves it, by a 4 or "
            "by the return.",
            "Нет: владелец «may leave the piece in square 27 until a 4 is thrown»; двигает её только он — "
            "четвёркой или возвратом.",
        ),
        _d(
            "return",
            "Does the return to 15 use a throw, and what of the other throws?",
            "Тратит ли возврат на 15 бросок, и что с остальными бросками?",
            "It uses none: its price is named, «move this piece back to square 15 and lose their next turn». The "
            "turn's throws stay, and since no other piece moves while the returned one «remains in … 15», they "
            "move it first. The return may be chosen whenever its owner has thrown, «on any turn».",
            "Не тратит: его цена названа — «move this piece back to square 15 and lose their next turn». Броски "
            "хода остаются, и так как другие фишки не ходят, пока вернувшаяся «remains in … 15», сначала ходят "
            "ею. Вернуть фишку можно в любой ход, когда владелец уже бросил.",
        ),
        _d(
            "stay",
            "May the owner leave a piece on 27 when no 4 was thrown, and what does staying cost?",
            "Может ли владелец оставить фишку на 27, если четвёрки нет, и чего стоит ожидание?",
            "Yes: he «may leave the piece in square 27 until a 4 is thrown», and «may decide to give up trying "
            "to throw a 4 on any turn» — so waiting is his choice, turn after turn. Since no other piece of his "
            "moves meanwhile, staying is a pass: the turn's throws are given up and the piece waits for the next "
            "turn. A 4 among the turn's throws bears it off (or he returns it); it does not stay then: the text "
            "waits «until a 4 is thrown, bearing the piece off».",
            "Да: он «may leave the piece in square 27 until a 4 is thrown» и «may decide to give up trying to "
            "throw a 4 on any turn» — ждать или нет, он решает сам, ход за ходом. Другие его фишки тем временем "
            "не ходят, поэтому ожидание — это пропуск: броски хода пропадают, фишка ждёт следующего хода. "
            "Если среди бросков есть четвёрка, она выводит фишку (или владелец возвращает её); остаться тогда "
            "нельзя: текст ждёт «until a 4 is thrown, bearing the piece off».",
        ),
        _d(
            "return-occupied",
            "Where does a returned piece go when 15 is occupied?",
            "Куда идёт возвращаемая фишка, если 15 занято?",
            "To the nearest free square behind 15, as in the Kendall-style game: the text keeps the return open "
            "«on any turn», so an occupied 15 does not take it away. It is then the returned piece that waits.",
            "На ближайшую свободную клетку позади 15, как в игре в духе Кендалла: текст оставляет возврат "
            "открытым «on any turn», и занятое 15 его не отменяет. Ждёт тогда вернувшаяся фишка.",
        ),
        _d(
            "exposed",
            "Whose pieces lose their protection while a piece waits on 27 or a returned piece on 15?",
            "Чьи фишки теряют защиту, пока фишка ждёт на 27 или вернувшаяся — на 15?",
            "Its owner's: the sentence is about that player, «A player cannot move any other piece … and pieces "
            "which normally would be protected … may now be sent back».",
            "Её владельца: предложение говорит об этом игроке — «A player cannot move any other piece … and "
            "pieces which normally would be protected … may now be sent back».",
        ),
        _d(
            "bear-off-optional",
            "What does «bearing off is not required from any space» allow?",
            "Что разрешает «bearing off is not required from any space»?",
            "When bearing off is all the throws left allow, the player may decline and end his turn (pass).",
            "Когда оставшиеся броски позволяют только вывод, игрок может отказаться и закончить ход (пропуск).",
        ),
        _d(
            "last-back",
            "May pieces on 27-30 move back?",
            "Могут ли фишки на 27–30 ходить назад?",
            "No: 28 and 29 «are never required to move backward», a piece on 30 can always be borne off, and one "
            "on 27 moves only by a 4 or the return.",
            "Нет: 28 и 29 «are never required to move backward», фишку с 30 всегда можно вывести, а фишка на 27 "
            "ходит только четвёркой или возвратом.",
        ),
        _d(
            "passing",
            "May pieces pass over others?",
            "Можно ли перепрыгивать через фишки?",
            "Yes: the text names no blockade; pieces side by side protect only the squares they stand on.",
            "Да: текст не называет блокады; соседние фишки защищают только свои клетки.",
        ),
        _d(
            "options",
            "Ludii adds options to this ruleset: five pieces, a «trap» (overshooting 26 falls into 27), a «home "
            "row» to leave before bearing off, a starting throw of 1 for each player. Included?",
            "Ludii добавляет к набору варианты: пять фишек, «ловушку» (перелёт 26 ведёт в 27), «домашний ряд», "
            "который надо покинуть до вывода, стартовую единицу для каждого игрока. Включены ли они?",
            "No. They are Ludii's rulesets nos. 923-937, each a separate option; this variant is the standard one "
            "(no. 922).",
            "Нет. Это отдельные наборы Ludii № 923–937; этот вариант — основной (№ 922).",
        ),
    ),
    _HISTORY_EN
    + " Timothy Kendall, an Egyptologist, published his reconstruction in 1978 as Passing Through the "
    "Netherworld, with a boxed set of the game. Its rules are the best known of the modern reconstructions and "
    "the source of many later accounts, among them the Kendall-style summary played here as «kendall». Our rules "
    "follow Ludii's English summary of his rules book (Ludii ruleset «Kendall», no. 922, «Kendall 1979: rules "
    "book»), which gives the rules in full; his own text was not available to us.",
    _HISTORY_RU
    + " Египтолог Тимоти Кендалл опубликовал свою реконструкцию в 1978 году в книге «Passing Through the "
    "Netherworld» вместе с коробочным набором игры. Его правила — самые известные из современных реконструкций и "
    "источник многих позднейших пересказов, среди них сводка в духе Кендалла, которую здесь играют как "
    "«kendall». Наши правила следуют английскому пересказу его книги правил в Ludii (набор «Kendall», № 922, "
    "«Kendall 1979: rules book»), где правила даны полностью; его собственный текст нам недоступен.",
    ludii=(
        LudiiDifference(
            "Throws",
            "Броски",
            "Each throw is played as soon as it is thrown, and a 1, 4 or 5 then throws again (also after a pass).",
            "Каждый бросок играется сразу, и после 1, 4 или 5 игрок бросает снова (и после пропуска).",
            "«All throws are made before moving», then used one a move in the player's order (decision order).",
            "«All throws are made before moving», затем они тратятся по одному на ход в порядке игрока (решение "
            "order).",
        ),
        LudiiDifference(
            "The return from 27",
            "Возврат с 27",
            "Possible only when 15 is empty, and it costs no turn.",
            "Возможен, только если 15 свободно, и не стоит хода.",
            "The text names its price, «lose their next turn», and keeps it open «on any turn» (decisions "
            "return, return-occupied).",
            "Текст называет цену — «lose their next turn» — и оставляет возврат открытым «on any turn» (решения "
            "return, return-occupied).",
        ),
        LudiiDifference(
            "Protection",
            "Защита",
            "By adjacency on the 3x10 board, a piece in the same column of the next row included (20 is "
            "guarded by 1, and 11 by 30), and never lost.",
            "По соседству на доске 3×10, включая фишку в том же столбце соседнего ряда (20 защищено фишкой на "
            "1, а 11 — фишкой на 30), и никогда не теряется.",
            "By consecutive spaces of the track, lost while the player waits on 27 or 15 (kendall-1978: waiting).",
            "По соседним клеткам дорожки; теряется, пока игрок ждёт на 27 или 15 (правило об ожидании).",
        ),
        LudiiDifference(
            "Bearing off",
            "Вывод",
            "A bearing off is a move like the others: when it is the only one, it must be made.",
            "Вывод — обычный ход: если он единственный, его надо сделать.",
            "«bearing off is not required from any space»: the player may pass instead (decision "
            "bear-off-optional).",
            "«bearing off is not required from any space»: игрок может вместо него пропустить (решение "
            "bear-off-optional).",
        ),
        LudiiDifference(
            "Attack on 28-30",
            "Атака на 28–30",
            "A piece on 26 can never land on an opponent on 28-30, which contradicts the text: «When a player "
            "lands on squares 28-30 and an opponent's piece is already there, the opponent's piece is sent to "
            "square 27 instead of 26.» (kendall-1978: attack on 28-30).",
            "Фишка с 26 никогда не может встать на фишку соперника на 28–30, вопреки тексту: «When a player "
            "lands on squares 28-30 and an opponent's piece is already there, the opponent's piece is sent to "
            "square 27 instead of 26.» (правило kendall-1978: attack on 28-30).",
            "A piece from 26 lands on an opponent on 28-30 and sends it to 27, unless a piece is on 27 "
            "(kendall-1978: guarded).",
            "Фишка с 26 встаёт на фишку соперника на 28–30 и отправляет её на 27, если на 27 нет фишки "
            "(правило kendall-1978: guarded).",
        ),
    ),
)

PICCIONE = Rulebook(
    "piccione",
    "Peter Piccione's rules for the game «King Tut's Game» as Ludii summarises them: five pieces a side that "
    "start in the hand and enter on square 1 with a throw of 1, four sticks, a throw divided among the pieces "
    "as the player likes, all moving one way during a turn, no piece on another's square, extra throws for a 5 "
    "and on 15 and 26, the House of Water on 27 sending a piece back to the hand, and bearing off by the exact "
    "points.",
    "Правила Питера Пиччоне к коробочной игре о Тутанхамоне (1977) в пересказе Ludii: по пять фишек, которые начинают в руке "
    "и входят на клетку 1 броском 1, четыре палочки, бросок делится между фишками по выбору игрока, все "
    "фишки за ход идут в одну сторону, на занятую клетку не встают, дополнительный бросок за 5 и на 15 и 26, "
    "Дом воды на 27 возвращает фишку в руку, вывод точным числом очков.",
    (
        _c(
            "piccione: pieces",
            "«Five pieces per player.» They start off the board, in the hand (see entering).",
            "По пять фишек у каждого игрока: «Five pieces per player.» Они начинают вне доски, в "
            "руке (см. вход).",
        ),
        _c(
            "piccione: sticks",
            "«Four sticks, with one flat and one round side, used as dice.»",
            "Четыре палочки с плоской и круглой стороной служат костями.",
        ),
        _c(
            "piccione: throws",
            "«The value of the throw is equal to the number of flat sides up; when all round sides are up the "
            "throw = 5.»",
            "Бросок — число палочек плоской стороной вверх; если все вверх круглой — 5.",
        ),
        _c(
            "piccione: five",
            "«A throw of 5 grants the player another throw.»",
            "Бросок 5 даёт игроку ещё один бросок.",
        ),
        _c(
            "piccione: entering",
            "«Players may enter a piece onto the board with a throw of 1.» The piece enters on square 1.",
            "Игрок может ввести фишку на доску броском 1. Фишка входит на клетку 1.",
        ),
        _c(
            "piccione: entered piece",
            "«When a piece is entered, another throw is granted which must be used to move that piece.»",
            "Когда фишка введена, даётся ещё один бросок, которым нужно двигать эту фишку.",
        ),
        _c(
            "piccione: dividing",
            "«Throws may be divided among the pieces on the board as a player sees fit.»",
            "Бросок можно делить между фишками на доске, как игроку угодно.",
        ),
        _c(
            "piccione: dividing and entering",
            "«Splitting throws in this way cannot be used to enter a piece, but the throw which is granted to move "
            "an entered piece may be divided, as long as the entered pieces moves at least one space.»",
            "Часть разделённого броска не вводит фишку, но бросок, данный для хода введённой фишкой, можно "
            "делить, если введённая фишка проходит хотя бы одну клетку.",
        ),
        _c(
            "piccione: one per square",
            "«Pieces cannot land on the same space.»",
            "Фишки не встают на одну клетку.",
        ),
        _c(
            "piccione: backward",
            "«If a throw does not allow a piece to move forward, it must move backward.»",
            "Если бросок не позволяет пойти вперёд, фишка должна идти назад.",
        ),
        _c(
            "piccione: one direction",
            "«All pieces must move in the same direction during a turn.»",
            "За один ход все фишки идут в одном направлении.",
        ),
        _c(
            "piccione: stuck on 1",
            "«If it is impossible for a piece to move from square 1, it must be removed from the board and "
            "entered again.»",
            "Если фишка не может сойти с клетки 1, её снимают с доски, и она входит снова.",
        ),
        _c(
            "piccione: no move",
            "«If a player cannot move forward or backward, the turn ends.»",
            "Если игрок не может ходить ни вперёд, ни назад, ход заканчивается.",
        ),
        _c(
            "piccione: houses",
            "The House of Second Life (15) and the House of Beauty (26): «Squares 15 and 26 grant "
            "the player an extra throw.»",
            "Дом второй жизни (15) и Дом красоты (26) дают игроку дополнительный бросок.",
        ),
        _c(
            "piccione: deferred throw",
            "«If pieces land on these squares as a result of splitting a throw, that throw must be fully used "
            "before the new throw is taken.»",
            "Если фишка встала на такую клетку частью разделённого броска, этот бросок нужно использовать "
            "полностью, прежде чем бросать новый.",
        ),
        _c(
            "piccione: house of water",
            "«A piece which lands on square 27 is removed from the board and must enter again.»",
            "Фишка, вставшая на 27, снимается с доски и должна войти снова.",
        ),
        _c(
            "piccione: exact bearing off",
            "«Players must bear off the board by an exact throw.» From 30 a 1, from 29 a 2, from 28 a 3, from 26 "
            "a 5.",
            "Выводить фишки нужно точным броском: с 30 — 1, с 29 — 2, с 28 — 3, с 26 — 5.",
        ),
        _c(
            "piccione: last houses",
            "28, 29 and 30: «Pieces may not move backwards from squares 28, 29, or 30.»",
            "28, 29 и 30: с этих клеток назад не ходят.",
        ),
        _c(
            "piccione: bearing off optional",
            "«Pieces are not required to bear off unless no other forward move is possible.»",
            "Выводить фишку не обязательно, если возможен другой ход вперёд.",
        ),
        _c(
            "piccione: winning",
            "«The fist player to bear off all their pieces wins.»",
            "Побеждает первый, кто вывел все свои фишки.",
        ),
    ),
    (
        _d(
            "source",
            "Is this Piccione's own text, and of which year?",
            "Это собственный текст Пиччоне, и какого года?",
            "No. Piccione's rules for the «King Tut's Game» set were not available to us; these rules follow "
            "Ludii's English summary of them (ruleset «Piccione», no. 938, reference «Piccione 1977, King Tut's "
            "Game rules»), and the quotations are its sentences. Ludii dates them 1977; we found no Piccione "
            "rule text of 1980 (his article of that year describes the game's religious meaning, not rules we "
            "could read).",
            "Нет. Правила Пиччоне к набору «King Tut's Game» нам недоступны; эти правила следуют английскому "
            "пересказу Ludii (набор «Piccione», № 938, ссылка «Piccione 1977, King Tut's Game rules»), и цитаты — "
            "его предложения. Ludii датирует их 1977 годом; текста правил Пиччоне 1980 года мы не нашли.",
        ),
        _d(
            "start",
            "Who starts, and where are the pieces at the start?",
            "Кто начинает и где фишки в начале?",
            "Every piece is in its owner's hand (the text enters pieces «onto the board», so none is on it), and "
            "seat A (white) throws first, as in every variant here: the text names no opening.",
            "Все фишки в руке у владельца (текст вводит фишки «onto the board», значит, на доске их нет); первым "
            "бросает место A (белые), как во всех вариантах здесь: текст не описывает начала.",
        ),
        _d(
            "enter-optional",
            "Must a throw of 1 enter a piece?",
            "Обязан ли бросок 1 вводить фишку?",
            "No: players «may enter» with it; a whole 1 may instead move a piece on the board one square. But "
            "the 1 may not be declined: when entering is the only move, it is made, for a turn ends unmoved only "
            "when «a player cannot move forward or backward».",
            "Нет: игрок «may enter»; целой единицей можно вместо этого передвинуть фишку на доске на одну клетку. "
            "Но отказаться от единицы нельзя: если ввод — единственный ход, его делают, ведь ход кончается без "
            "движения, только когда «a player cannot move forward or backward».",
        ),
        _d(
            "enter-occupied",
            "Can a piece enter while square 1 is taken?",
            "Можно ли ввести фишку, когда клетка 1 занята?",
            "No: «Pieces cannot land on the same space», and an entered piece lands on 1.",
            "Нет: «Pieces cannot land on the same space», а введённая фишка встаёт на 1.",
        ),
        _d(
            "entered-first",
            "When does the entered piece move with the throw granted for it?",
            "Когда введённая фишка ходит броском, данным для неё?",
            "First: the throw «must be used to move that piece», and it may be divided only «as long as the "
            "entered pieces moves at least one space»; its first move (of any part of the throw) is the entered "
            "piece's, then the rest may go to any piece.",
            "Первой: бросок «must be used to move that piece», а делить его можно, «as long as the entered pieces "
            "moves at least one space»; первый ход (любой частью броска) делает введённая фишка, остаток — любая.",
        ),
        _d(
            "stuck-on-1",
            "When is it «impossible for a piece to move from square 1»?",
            "Когда фишка «не может сойти с клетки 1»?",
            "When the throw granted for the entered piece cannot move it by any part: only then must a piece on "
            "1 move. It goes back to the hand and that throw is lost («must be removed from the board and entered "
            "again»); a piece that stays on 1 afterwards waits like any other.",
            "Когда бросок, данный введённой фишке, не двигает её ни на какую часть: только тогда фишка на 1 "
            "обязана ходить. Она возвращается в руку, бросок пропадает; фишка, оставшаяся на 1 позже, ждёт, как "
            "любая другая.",
        ),
        _d(
            "use-all",
            "How is a throw divided, and must all of it be used?",
            "Как делится бросок и нужно ли использовать его целиком?",
            "Move by move: each move takes any number of the points left to one piece, and the player goes on "
            "while points are left and some piece can use them, since «that throw must be fully used».",
            "Ход за ходом: каждый ход отдаёт одной фишке любую часть оставшихся очков, и игрок продолжает, пока "
            "очки остались и какая-то фишка может их использовать, ведь «that throw must be fully used».",
        ),
        _d(
            "rest-lost",
            "What of points that no piece can use?",
            "Что с очками, которые не может использовать ни одна фишка?",
            "They are lost and the throw ends (a pass): «If a player cannot move forward or backward, the turn "
            "ends». Extra throws already earned are still taken.",
            "Они пропадают, и бросок заканчивается (пропуск): «If a player cannot move forward or backward, the "
            "turn ends». Уже заработанные дополнительные броски всё равно делаются.",
        ),
        _d(
            "direction",
            "What is «a turn» for «All pieces must move in the same direction during a turn»?",
            "Что такое «ход» в «All pieces must move in the same direction during a turn»?",
            "Everything until the other player throws, extra throws included («grants the player another "
            "throw»: the same player's turn goes on). The first move of the turn sets the direction; entering "
            "counts as forward. A throw with no move that way is passed.",
            "Всё до броска соперника, с дополнительными бросками («grants the player another throw»: ход того же "
            "игрока продолжается). Первый ход задаёт направление; ввод фишки считается ходом вперёд. Бросок без "
            "хода в этом направлении пропускается.",
        ),
        _d(
            "forward-first",
            "When does a throw «not allow a piece to move forward»?",
            "Когда бросок «не позволяет пойти вперёд»?",
            "When no part of it moves any piece forward (nor enters one): then, if the turn has no direction yet, "
            "the player moves back.",
            "Когда ни одна его часть не двигает вперёд ни одну фишку (и не вводит её): тогда, если у хода ещё нет "
            "направления, игрок идёт назад.",
        ),
        _d(
            "no-capture",
            "May a piece land on an opponent?",
            "Можно ли встать на фишку соперника?",
            "No: «Pieces cannot land on the same space» names no colour; there is no attack in this game.",
            "Нет: «Pieces cannot land on the same space» не называет цвета; атак в этой игре нет.",
        ),
        _d(
            "passing",
            "May pieces pass over others, and over 27?",
            "Можно ли перепрыгивать через фишки и через 27?",
            "Yes: the text forbids only landing; a piece passing over 27 does not land on it.",
            "Да: текст запрещает только вставать; фишка, проходящая через 27, на неё не встаёт.",
        ),
        _d(
            "extra-five",
            "Does a 5 that no piece can use still give another throw, and when is it taken?",
            "Даёт ли 5 ещё бросок, если ходить нечем, и когда он делается?",
            "Yes, «A throw of 5 grants the player another throw»: the throw grants it, not a move. It is taken "
            "once the 5 is used up or lost, as for 15 and 26.",
            "Да: «A throw of 5 grants the player another throw» — его даёт бросок, а не ход. Он делается, когда "
            "пятёрка использована или пропала, как для 15 и 26.",
        ),
        _d(
            "houses-count",
            "Two landings on 15 and 26 during one throw: one extra throw or two?",
            "Два попадания на 15 и 26 за один бросок — один дополнительный бросок или два?",
            "Two: each landing «grant[s] the player an extra throw», taken one after the other once the throw is "
            "used; a piece landing there going back earns one too.",
            "Два: каждое попадание «grant[s] the player an extra throw»; они делаются один за другим, когда бросок "
            "использован; фишка, пришедшая туда назад, тоже получает бросок.",
        ),
        _d(
            "entering-throw",
            "Does the throw granted for the entered piece wait for extra throws already earned?",
            "Ждёт ли бросок для введённой фишки уже заработанные дополнительные броски?",
            "No: it is made at once, since it «must be used to move that piece»; extra throws earned before wait "
            "until it is used.",
            "Нет: он делается сразу, раз «must be used to move that piece»; заработанные раньше броски ждут, пока "
            "он не использован.",
        ),
        _d(
            "bear-off-part",
            "Can part of a divided throw bear a piece off?",
            "Может ли часть разделённого броска вывести фишку?",
            "Yes, when that part is exactly the points to leave the board: «as a player sees fit» divides any "
            "throw, and «an exact throw» asks for the exact points, not an undivided throw.",
            "Да, если эта часть — ровно столько, сколько нужно до выхода: «as a player sees fit» делит любой "
            "бросок, а «an exact throw» требует точного числа очков, а не целого броска.",
        ),
    ),
    _HISTORY_EN
    + " Peter A. Piccione, an Egyptologist, wrote on the religious meaning of Senet (among others «In Search "
    "of the Meaning of Senet», Archaeology, 1980) and the rules of the boxed game «King Tut's Game» sold by "
    "Cadaco (Ludii dates them 1977). Their features are pieces that enter from the hand, throws divided among "
    "the pieces, one direction of play per turn, and the House of Water on 27 that sends a piece back to the "
    "hand. Our rules follow Ludii's English summary of those rules (Ludii ruleset «Piccione», no. 938, "
    "«Piccione 1977, King Tut's Game rules»); his own text was not available to us.",
    _HISTORY_RU
    + " Египтолог Питер А. Пиччоне писал о религиозном смысле сенета (среди прочего статья «In Search of the "
    "Meaning of Senet» в журнале «Archaeology», 1980) и составил правила коробочной игры о Тутанхамоне "
    "«King Tut's Game» (Ludii датирует их 1977 годом). Их черты — фишки, входящие из руки, броски, делимые между фишками, одно "
    "направление ходов за ход и Дом воды на 27, возвращающий фишку в руку. Наши правила следуют английскому "
    "пересказу этих правил в Ludii (набор «Piccione», № 938, «Piccione 1977, King Tut's Game rules»); его "
    "собственный текст нам недоступен.",
    ludii=(
        LudiiDifference(
            "A throw of 5",
            "Бросок 5",
            "Gives no other throw: only 15 and 26 earn one.",
            "Не даёт ещё броска: его дают только 15 и 26.",
            "«A throw of 5 grants the player another throw» (piccione: five; decision extra-five).",
            "«A throw of 5 grants the player another throw» (решение extra-five).",
        ),
        LudiiDifference(
            "Backward moves",
            "Ходы назад",
            "None: no piece ever moves backward, which contradicts the text: «If a throw does not allow a piece "
            "to move forward, it must move backward.» (piccione: backward). Every move of a turn goes forward, "
            "so the turn keeps one direction only because there is no other.",
            "Их нет: ни одна фишка никогда не идёт назад, вопреки тексту: «If a throw does not allow a piece to "
            "move forward, it must move backward.» (правило piccione: backward). Все ходы идут вперёд, так что "
            "направление хода одно лишь потому, что другого нет.",
            "A throw that moves no piece forward moves one back, and the first move of a turn sets the one "
            "direction of all its moves: «All pieces must move in the same direction during a turn» (decisions "
            "forward-first, direction).",
            "Бросок, который не ведёт вперёд ни одну фишку, ведёт фишку назад, а первый ход задаёт одно "
            "направление для всех ходов: «All pieces must move in the same direction during a turn» (решения "
            "forward-first, direction).",
        ),
        LudiiDifference(
            "An extra throw and a pass",
            "Дополнительный бросок и пропуск",
            "An extra throw earned on 15 or 26 is lost when the rest of the throw cannot be used and the player "
            "must pass, which contradicts the text: «Squares 15 and 26 grant the player an extra throw.» "
            "(piccione: houses).",
            "Дополнительный бросок, заработанный на 15 или 26, пропадает, если остаток броска использовать "
            "нельзя и игрок вынужден пропустить, вопреки тексту: «Squares 15 and 26 grant the player an extra "
            "throw.» (правило piccione: houses).",
            "It is still taken after the pass (decision rest-lost).",
            "Он всё равно делается после пропуска (решение rest-lost).",
        ),
        LudiiDifference(
            "Extra throws on 15 and 26",
            "Дополнительные броски на 15 и 26",
            "One flag: landings on 15 and 26 during one divided throw earn one extra throw in all.",
            "Один флаг: попадания на 15 и 26 за один разделённый бросок дают всего один дополнительный бросок.",
            "Each landing grants one (decision houses-count).",
            "Каждое попадание даёт свой (решение houses-count).",
        ),
    ),
)

RULEBOOKS: dict[str, Rulebook] = {
    rb.variant: rb
    for rb in (STANDARD, BELL, KENDALL, ADELAIDA, ADELAIDA_LONG, JEQUIER, KENDALL_1978, PICCIONE)
}
if set(RULEBOOKS) != set(VARIANTS):
    raise RuntimeError("every variant needs a rulebook")


def rulebook(variant: Variant | str) -> Rulebook:
    name = variant.name if isinstance(variant, Variant) else find_variant(variant).name
    return RULEBOOKS[name]
