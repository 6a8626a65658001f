"""The tutorial: lessons found from every variant's rules, answers checked by the engine, and
a whole tutorial completed in Chromium by clicking (one wrong answer corrected on the way)."""

from __future__ import annotations

import httpx
import pytest

from senet.engine import VARIANTS, Position, parse_move
from senet.engine.explain import why_not
from senet.service.learning.tutorial import check_move, check_reason, lessons

from .test_browser import new_page


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_has_lessons_the_engine_can_answer(name) -> None:
    found = lessons(name)
    assert len(found) >= 5
    keys = {lesson.key for lesson in found}
    assert {"move", "bear_off"} <= keys
    # no lesson of an attack where no piece lands on another (piccione), which enters and divides
    assert ("attack" in keys) == (VARIANTS[name].capture != "none")
    assert ({"enter", "divide"} <= keys) == VARIANTS[name].divided_throws
    for lesson in found:
        position = Position.from_fen(lesson.position)
        legal = {m.text() for m in position.legal_moves()}
        if lesson.kind in ("move", "best"):
            assert lesson.goal and lesson.goal <= legal
            for move in legal:
                assert check_move(lesson, move).correct == (move in lesson.goal)
        elif lesson.kind == "quiz":
            assert lesson.goal and lesson.goal <= set(lesson.options) and len(lesson.options) >= 2
            for option in lesson.options:
                assert check_reason(lesson, option).correct == (option in lesson.goal)
        else:
            reason = why_not(position, lesson.focus)
            assert reason is not None
            assert lesson.answer in lesson.options and len(lesson.options) == 3
            for option in lesson.options:
                assert check_reason(lesson, option).correct == (option == lesson.answer)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_lessons_start_from_zero_with_answers_from_the_engine(name) -> None:
    """Before the rules of play: what wins, the throw and its chances, the path, the throws
    that give another throw, whose turn comes next; each answer found from the engine."""
    v = VARIANTS[name]
    found = lessons(name)
    assert [lesson.key for lesson in found[:5]] == ["goal", "sticks", "path", "again", "turns"]
    quiz = {lesson.key: lesson for lesson in found[:5]}
    assert quiz["goal"].goal == {"points" if v.scoring == "points" else "off_all"}
    # the most likely throw, from the throw model: 2 with the sticks (6 of 16), none with a die
    chances = dict(v.instrument.outcomes)
    top = max(chances.values())
    common = {f"v{n}" for n, p in chances.items() if p == top}
    assert quiz["sticks"].goal == (common if len(common) < len(chances) else {"equal"})
    assert quiz["again"].goal == ({f"v{n}" for n in v.extra_throws} or {"none"})
    # the path turns at 10: 9 with a 3 lands on 12, on the middle row
    path = Position.from_fen(quiz["path"].position)
    (move,) = [parse_move(m) for m in quiz["path"].goal]
    assert move.origin + path.throw == move.target and move.origin <= 10 < move.target
    # turn order: after the move, the engine's next turn
    turns = quiz["turns"]
    position = Position.from_fen(turns.position)
    after = position.apply(next(m for m in position.legal_moves() if m.is_step))
    assert turns.goal == {"you" if after.turn == position.decider else "other"}


def test_the_kendall_water_lesson_follows_the_solver() -> None:
    """kendall: risk or return, decided by the exact values of the endgame."""
    from senet.ai.solver import solve_many

    (lesson,) = [lesson for lesson in lessons("kendall") if lesson.key == "water"]
    position = Position.from_fen(lesson.position)
    solution = solve_many([position], max_states=60_000)
    assert {m.text() for m in solution.best_moves(position)} == set(lesson.goal)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_where_a_turns_throws_are_banked_a_lesson_plays_the_larger_first(name) -> None:
    """kendall-1978 makes every throw of a turn before moving, then plays them in any order:
    its lesson holds two throws, and only an attack by the larger, played first, answers it."""
    banked = [lesson for lesson in lessons(name) if lesson.key == "banked"]
    assert bool(banked) == VARIANTS[name].throws_first
    for lesson in banked:
        position = Position.from_fen(lesson.position)
        small, big = position.throws
        assert small < big == lesson.params["big"]
        assert {abs(m.target - m.origin) for m in position.legal_moves()} == {small, big}
        for text in lesson.goal:
            move = parse_move(text)
            assert position.is_capture(move) and abs(move.target - move.origin) == big


def test_the_banked_lesson_names_both_throws_in_both_languages(site) -> None:
    for lang, words in (
        ("en", "throws are 1, 3: you make them all before moving"),
        ("ru", "Броски этого хода: 1, 3."),
    ):
        html = httpx.get(f"{site.url}/learn/kendall-1978", params={"lang": lang}).text
        assert words in html, lang


def test_answers_through_the_api(site) -> None:
    url = f"{site.url}/api/learn/lessons/standard"
    wrong = httpx.post(f"{url}/protection?lang=ru", json={"reason": "safe"}).json()
    assert wrong["correct"] is False and wrong["outcome"] == "wrong_reason"
    right = httpx.post(f"{url}/protection?lang=en", json={"reason": "protected"}).json()
    assert right["correct"] is True and right["reason"].startswith("A pair protects")
    moved = httpx.post(f"{url}/move", json={"move": "3-5"}).json()
    assert moved["correct"] and Position.from_fen(moved["after"]).owner(5) == 0
    illegal = httpx.post(f"{url}/move", json={"move": "3-4"})
    assert illegal.json()["outcome"] == "illegal"
    assert httpx.post(f"{url}/move", json={"reason": "safe"}).status_code == 400
    assert httpx.post(f"{url}/nothing", json={"move": "3-5"}).status_code == 404
    assert httpx.post(f"{url}/move", json={"move": "x"}).status_code == 400


@pytest.mark.slow  # solves a position on the server, in both languages: more than a few seconds
def test_the_chances_after_a_best_move_are_written_in_the_answers_language(site) -> None:
    """kendall's Water lesson lists the exact chance of every move once it is answered:
    "61.3%" in English, "61,3%" in Russian, the same figures."""
    import re

    (lesson,) = [lesson for lesson in lessons("kendall") if lesson.key == "water"]
    url = f"{site.url}/api/learn/lessons/kendall/water"
    texts = {
        # the answer solves the position on the server: slow on a loaded machine, not late
        lang: httpx.post(
            f"{url}?lang={lang}", json={"move": sorted(lesson.goal)[0]}, timeout=120
        ).json()
        for lang in ("en", "ru")
    }
    assert all(answer["correct"] for answer in texts.values())
    english = re.findall(r"(\d+(?:[.,]\d+)?)%", texts["en"]["text"])
    russian = re.findall(r"(\d+(?:[.,]\d+)?)%", texts["ru"]["text"])
    assert len(english) == len(Position.from_fen(lesson.position).legal_moves()) >= 2
    assert all(re.fullmatch(r"\d+\.\d", figure) for figure in english)
    assert [figure.replace(".", ",") for figure in english] == russian


def complete(page, name: str, lang: str, artifacts) -> None:
    page.goto(f"/learn/{name}?lang={lang}")
    page.wait_for_selector("#tutorial[data-ready='1']")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.wait_for_selector("#tutorial[data-ready='1']")
    found = lessons(name)
    corrected = moved_wrong = False
    for i, lesson in enumerate(found):
        page.wait_for_selector(f"#tutorial[data-lesson='{lesson.key}'][data-state='asking']")
        position = Position.from_fen(lesson.position)
        others = [m for m in position.legal_moves() if m.is_step and m.text() not in lesson.goal]
        if lesson.kind == "move" and others and not moved_wrong:
            # a legal move that is not the task: answered, shown on the board, then undone
            page.click(f"#board .piece[data-square='{others[0].origin}']")
            page.click(f"#board .target[data-target='{others[0].target}']")
            page.wait_for_selector(f"#tutorial[data-lesson='{lesson.key}'][data-state='wrong']")
            assert "correct" not in page.get_attribute("#tu-feedback", "class")
            # the move stays on the board until the button the feedback names sets it back
            piece_on = (  # the mover's piece (an attack swaps the other seat's onto the origin)
                f"#board .piece[data-square='{others[0].origin}'][data-seat='{position.decider}']"
            )
            assert page.locator(piece_on).count() == 0
            assert page.text_content("#tu-again").strip() in page.text_content("#tu-feedback")
            page.click("#tu-again")
            page.wait_for_selector(f"#tutorial[data-lesson='{lesson.key}'][data-state='asking']")
            assert page.locator(piece_on).count() == 1
            moved_wrong = True
        if lesson.kind == "why":
            if not corrected:  # one wrong answer first, then the right one
                wrong = next(o for o in lesson.options if o != lesson.answer)
                page.click(f"#tu-answers button[data-reason='{wrong}']")
                page.wait_for_selector("#tu-feedback:not([hidden]):not(.correct)")
                page.screenshot(path=str(artifacts / f"tutorial-{name}-{lang}-wrong.png"))
                corrected = True
            page.click(f"#tu-answers button[data-reason='{lesson.answer}']")
        elif lesson.kind == "quiz":
            if not corrected:  # a wrong answer first: the teacher asks for another
                wrong = next(o for o in lesson.options if o not in lesson.goal)
                page.click(f"#tu-answers button[data-reason='{wrong}']")
                page.wait_for_selector("#tu-feedback:not([hidden]):not(.correct)")
                assert page.text_content("#tu-feedback").startswith(
                    "Not that one" if lang == "en" else "Не это"
                )
                corrected = True
            page.click(f"#tu-answers button[data-reason='{sorted(lesson.goal)[0]}']")
        elif lesson.kind == "best":
            page.click(f"#tu-answers button[data-move='{sorted(lesson.goal)[0]}']")
        elif not parse_move(sorted(lesson.goal)[0]).is_step:  # a word move: entering a piece
            page.click(f"#tu-answers button[data-move='{sorted(lesson.goal)[0]}']")
        else:
            move = parse_move(sorted(lesson.goal)[0])
            page.click(f"#board .piece[data-square='{move.origin}']")
            page.click(f"#board .target[data-target='{move.target}']")
        page.wait_for_selector(f"#tutorial[data-lesson='{lesson.key}'][data-state='done']")
        assert "correct" in page.get_attribute("#tu-feedback", "class")
        # a teacher's answer, not a program's
        said = page.text_content("#tu-feedback")
        assert said.startswith("Yes" if lang == "en" else "Да"), said
        assert "engine" not in said and "движ" not in said, said
        if i < len(found) - 1:
            page.click("#tu-next")
    assert corrected and moved_wrong, "no lesson allowed a wrong answer"
    page.wait_for_selector("#tu-complete:not([hidden])")
    assert page.is_visible("#first-game")
    page.screenshot(path=str(artifacts / f"tutorial-{name}-{lang}-complete.png"), full_page=True)
    # progress is remembered on this device
    page.reload()
    page.wait_for_selector("#tutorial[data-ready='1']")
    assert page.get_attribute("#tutorial", "data-done") == str(len(found))
    assert page.locator(".tu-done:not([hidden])").count() == len(found)
    # then the first game: against the computer, of this variant
    page.click("#first-game")
    page.wait_for_selector("#game[data-mode='computer'][data-ply]")
    assert f"/variants/{name}#" in page.get_attribute("#game-rules", "href")


@pytest.mark.browser
@pytest.mark.parametrize(
    "name,lang,size",
    [
        ("standard", "en", (390, 844)),
        ("adelaida", "ru", (1280, 900)),
        ("kendall-1978", "ru", (390, 844)),
        ("bell", "ru", (360, 740)),
        ("kendall", "en", (360, 740)),
        ("adelaida-long", "en", (1280, 800)),
        ("jequier", "ru", (1280, 800)),
        ("piccione", "en", (390, 844)),
    ],
)
def test_a_tutorial_is_completed_by_clicking(browser, site, artifacts, name, lang, size) -> None:
    page = new_page(browser, site, *size)
    complete(page, name, lang, artifacts)
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.browser
def test_the_tutorial_is_reachable_from_home_variant_and_game_pages(browser, site) -> None:
    page = new_page(browser, site)
    page.goto("/")
    page.click("#home-learn")
    page.wait_for_url("**/learn")
    page.click("a[data-variant='kendall']")
    page.wait_for_selector("#tutorial[data-ready='1']")
    page.goto("/variants/adelaida")
    page.click("#variant-learn")
    page.wait_for_url("**/learn/adelaida")
    created = httpx.post(f"{site.url}/api/games", json={"variant": "bell", "mode": "local"}).json()
    page.goto(f"/g/{created['id']}")
    page.click("#game-learn")
    page.wait_for_url("**/learn/bell")
    page.wait_for_selector("#tutorial[data-ready='1']")
    page.context.close()


def test_an_answer_names_the_move_as_the_move_buttons_do(site) -> None:
    """The feedback names a move the way the game page's buttons do ("8 → 10", "⚔" onto an
    opponent), not in notation, in both languages."""
    url = f"{site.url}/api/learn/lessons/standard"
    english = httpx.post(f"{url}/move?lang=en", json={"move": "8-10"}).json()
    assert english["outcome"] == "legal_not_goal"
    assert english["text"].startswith("8 → 10 is legal, but it is not the task.")
    russian = httpx.post(f"{url}/move?lang=ru", json={"move": "8-10"}).json()
    assert russian["text"].startswith("Ход 8 → 10 разрешён")
    (attack,) = [lesson for lesson in lessons("standard") if lesson.key == "attack"]
    position = Position.from_fen(attack.position)
    far = max(sq for sq in range(1, 31) if position.owner(sq) == 1)  # out of the throw's reach
    origin = min(sq for sq in range(1, 31) if position.owner(sq) == 0)
    onto = httpx.post(f"{url}/attack?lang=en", json={"move": f"{origin}-{far}"}).json()
    assert onto["outcome"] == "illegal"
    assert onto["text"].startswith(f"{origin} → {far} ⚔ is not possible here.")
