"""The analysis board: the values of ``senet solve``, moves and going back, a shared URL, a
record stepped through, and the reason for a tap on a stuck piece in both languages."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from urllib.parse import quote

import httpx
import pytest

from senet.engine import Game, NotationError, Position, find_variant, parse_move, parse_position
from senet.engine.record import GameRecord
from senet.web.i18n import translator

from .conftest import ROOT, SEARCH_WAIT
from .test_browser import new_page
from .test_learn_why import CASES

SOLVABLE = "standard ........../........../..A..A...B A 1"


def solve_cli(position: str) -> dict[str, float]:
    """``senet solve``'s value of every move, as it prints them (6 decimals)."""
    out = subprocess.run(
        [sys.executable, "-m", "senet.cli", "solve", "-p", position],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    return {m: float(v) for m, v in re.findall(r"^\s+(\S+)\s+([01]\.\d{6})", out, re.M)}


def wait_ready(page) -> None:
    """The board is ready once its first analysis came back from a worker (which may still be
    warming up: SEARCH_WAIT, not Playwright's 30 s)."""
    page.wait_for_function(
        "() => document.getElementById('analysis').dataset.ready === '1'",
        timeout=SEARCH_WAIT * 1000,
    )


def test_analysis_api_gives_the_solver_values(site) -> None:
    expected = solve_cli(SOLVABLE)
    assert len(expected) == 2
    data = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": SOLVABLE}, timeout=SEARCH_WAIT
    ).json()
    assert data["exact"] is True and data["decider"] == 0
    got = {m["move"]: round(m["chance"], 6) for m in data["moves"]}
    assert got == expected
    assert [m["move"] for m in data["moves"] if m["best"]] == [max(expected, key=expected.get)]
    for m in data["moves"]:
        after = Position.from_fen(SOLVABLE).apply(parse_move(m["move"]))
        assert Position.from_fen(m["after"]) == after


def test_analysis_api_of_a_throw_and_of_a_large_position(site) -> None:
    due = SOLVABLE.replace(" A 1", " A -")
    data = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": due}, timeout=SEARCH_WAIT
    ).json()
    assert data["decider"] is None and data["exact"] is True
    assert [t["throw"] for t in data["throws"]] == [1, 2, 3, 4, 5]
    assert abs(sum(t["probability"] for t in data["throws"]) - 1) < 1e-12
    one = next(t for t in data["throws"] if t["throw"] == 1)
    assert round(one["chance"], 6) == max(solve_cli(SOLVABLE).values())
    start = "standard ABABABABAB/........../.......... A 3"
    data = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": start}, timeout=SEARCH_WAIT
    ).json()
    assert data["exact"] is False and len(data["moves"]) == 5
    assert all(0 <= m["chance"] <= 1 for m in data["moves"])
    bad = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": "standard A"}, timeout=SEARCH_WAIT
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad_position"


MALFORMED = "standard ABABABABAB/.......X../.......... A 3"


def test_a_malformed_position_is_refused_with_its_line_and_column(site) -> None:
    """The answer says where the text went wrong, as the engine's error does, so that a page
    can say it in its own language."""
    with pytest.raises(NotationError) as engine:
        parse_position(MALFORMED)
    bad = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": MALFORMED}, timeout=SEARCH_WAIT
    )
    assert bad.status_code == 400
    answer = bad.json()
    assert answer["code"] == "bad_position"
    assert (answer["line"], answer["column"]) == (engine.value.line, engine.value.column)
    assert answer["column"] == MALFORMED.index("X") + 1
    record = httpx.post(f"{site.url}/api/learn/record", json={"record": "[Variant"}).json()
    assert record["code"] == "bad_record" and record["line"] == 1 and "column" in record
    unknown = httpx.get(f"{site.url}/api/games/no-such-game").json()
    assert unknown["code"] == "unknown_game" and "line" not in unknown and "column" not in unknown


def random_game(variant: str, seed: int, actions: int) -> Game:
    """The first ``actions`` throws and moves of a random game."""
    game = Game(find_variant(variant))
    rng = random.Random(seed)
    for _ in range(actions):
        position = game.position
        if position.is_chance():
            game.push_throw(rng.choice([v for v, _ in position.chance_outcomes()]))
        else:
            game.push(rng.choice(position.legal_moves()))
    return game


def test_record_steps(site) -> None:
    game = random_game("kendall", 7, 12)
    text = GameRecord.from_game(game).text()
    steps = httpx.post(f"{site.url}/api/learn/record", json={"record": text}).json()
    assert [s["position"] for s in steps] == [p.fen() for p in game.positions]
    assert steps[-1]["action"] is None and steps[0]["action"].startswith("(")
    bad = httpx.post(f"{site.url}/api/learn/record", json={"record": '[Variant "x"]'})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_record"


@pytest.mark.browser
def test_the_board_shows_the_solver_values_plays_and_goes_back(browser, site, artifacts) -> None:
    expected = solve_cli(SOLVABLE)
    for width, height, size in ((1280, 900, "desktop"), (390, 844, "phone")):
        page = new_page(browser, site, width, height)
        page.goto(f"/analysis?position={quote(SOLVABLE)}")
        wait_ready(page)
        rows = page.eval_on_selector_all(
            "#an-moves tr[data-move]",
            "rs => rs.map(r => [r.dataset.move, Number(r.dataset.chance), r.textContent])",
        )
        assert {m: round(c, 6) for m, c, _ in rows} == expected
        assert all("exact" in text for _, _, text in rows)
        page.screenshot(path=str(artifacts / f"analysis-{size}.png"), full_page=True)
        # play the best move on the board: tap the piece, then its target
        best = max(expected, key=expected.get)
        origin, target = best.split("-")
        page.click(f'#board .piece[data-square="{origin}"]')
        page.click(f'#board .target[data-target="{target}"]')
        page.wait_for_function(
            f"() => document.getElementById('analysis').dataset.position !== {SOLVABLE!r}"
        )
        wait_ready(page)
        after = Position.from_fen(SOLVABLE).apply(Position.from_fen(SOLVABLE).legal_moves()[1])
        assert page.get_attribute("#analysis", "data-position") == after.fen()
        assert page.eval_on_selector_all("#an-moves tr[data-throw]", "rs => rs.length") == 5
        page.click("#an-back")
        page.wait_for_function(
            f"() => document.getElementById('analysis').dataset.position === {SOLVABLE!r}"
        )
        wait_ready(page)
        assert page.url.endswith(quote(SOLVABLE, safe="")) or "position=" in page.url
        assert not page.js_errors  # type: ignore[attr-defined]
        page.context.close()
    # in Russian the chances are written with a decimal comma
    page = new_page(browser, site, 390, 844)
    page.goto(f"/analysis?position={quote(SOLVABLE)}&lang=ru")
    wait_ready(page)
    rows = page.eval_on_selector_all(
        "#an-moves tr[data-move]", "rs => rs.map(r => [Number(r.dataset.chance), r.textContent])"
    )
    assert rows
    for chance, text in rows:
        assert f"{chance * 100:.1f}".replace(".", ",") + "%" in text, text
    page.context.close()


@pytest.mark.browser
def test_a_position_set_up_by_tapping_reopens_from_its_url(browser, site) -> None:
    page = new_page(browser, site)
    page.goto(f"/analysis?position={quote('adelaida A.B......./........../.......... A -')}")
    wait_ready(page)
    # no throw chosen: the status line says nothing and shows no empty box
    assert page.eval_on_selector("#an-status", "e => [e.textContent, e.offsetHeight]") == ["", 0]
    page.click("#an-edit")
    # empty square 12 -> a spool, 13 -> a cone (two taps), 1 (a spool) -> a cone
    for square, taps in ((12, 1), (13, 2), (1, 1)):
        for _ in range(taps):
            before = page.get_attribute("#analysis", "data-position")
            page.click(f'#board [data-square="{square}"] >> nth=-1')
            page.wait_for_function(
                f"() => document.getElementById('analysis').dataset.position !== {before!r}"
            )
            wait_ready(page)
    page.click('#an-throws button[data-throw="4"]')
    page.wait_for_function(
        "() => / A 4/.test(document.getElementById('analysis').dataset.position)"
    )
    wait_ready(page)
    shown = page.get_attribute("#analysis", "data-position")
    assert page.eval_on_selector("#an-status", "e => e.textContent && e.offsetHeight > 0")
    position = Position.from_fen(shown)
    assert position.owner(12) == 0 and position.owner(13) == 1 and position.owner(1) == 1
    assert position.throw == 4
    url = page.url
    other = new_page(browser, site, 390, 844)
    other.goto(url)
    wait_ready(other)
    assert other.get_attribute("#analysis", "data-position") == shown
    pieces = other.eval_on_selector_all(
        "#board .piece", "ps => ps.map(p => [Number(p.dataset.seat), Number(p.dataset.square)])"
    )
    assert sorted(pieces) == sorted(
        [[0, sq] for sq in position.pieces(0)] + [[1, sq] for sq in position.pieces(1)]
    )
    other.context.close()
    page.context.close()


@pytest.mark.browser
def test_a_record_is_imported_and_stepped_through(browser, site) -> None:
    game = random_game("standard", 3, 8)
    page = new_page(browser, site)
    page.goto("/analysis")
    wait_ready(page)
    page.click("#an-record-box summary")
    page.fill("#an-record-text", GameRecord.from_game(game).text())
    page.click("#an-import")
    page.wait_for_selector("#an-stepper:not([hidden])")
    positions = [p.fen() for p in game.positions]
    for index in (0, 1, 2, 3):
        page.wait_for_function(
            f"() => document.getElementById('analysis').dataset.position === {positions[index]!r}"
        )
        page.click("#an-rec-next")
    page.click("#an-rec-last")
    page.wait_for_function(
        f"() => document.getElementById('analysis').dataset.position === {positions[-1]!r}"
    )
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "where"), [("en", "(line 1, column {})"), ("ru", "(строка 1, столбец {})")]
)
def test_a_malformed_position_is_shown_with_its_column_in_words(browser, site, lang, where) -> None:
    page = new_page(browser, site, 390, 844)
    page.goto(f"/analysis?lang={lang}")
    wait_ready(page)
    page.click("#an-notation-box summary")
    page.fill("#an-fen", MALFORMED)
    page.click("#an-load")
    page.wait_for_selector("#an-error:not([hidden])")
    shown = page.text_content("#an-error") or ""
    assert shown.endswith(where.format(MALFORMED.index("X") + 1)), shown
    assert translator(lang)("err.bad_position") in shown
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_tap_reasons_for_every_rule_family(browser, site, artifacts, lang) -> None:
    """A tap on a piece that cannot move, for each rule family: the engine's reason in words."""
    page = new_page(browser, site, 390, 844)
    for family, position, square, en, ru in CASES:
        page.goto(f"/analysis?position={quote(position)}&lang={lang}")
        wait_ready(page)
        page.click(f'#board .piece[data-square="{square}"]')
        page.wait_for_selector("#why:not([hidden])")
        assert page.text_content("#why") == (en if lang == "en" else ru), family
        assert page.get_attribute("#why", "data-kind") == family
        if family == "ba":
            page.screenshot(path=str(artifacts / f"analysis-why-ba-{lang}.png"))
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.browser
def test_piccione_pieces_set_up_by_tapping_come_from_the_hand(browser, site) -> None:
    """piccione: a piece tapped onto the board leaves its owner's hand, one tapped off returns
    to it, so the position always holds five pieces a side."""
    start = "piccione ........../........../.......... A - hand=5/5"
    page = new_page(browser, site)
    page.goto(f"/analysis?position={quote(start)}")
    wait_ready(page)
    page.click("#an-edit")
    for square, taps in ((12, 1), (13, 2), (14, 3)):  # A on 12, B on 13, 14 back to empty
        for _ in range(taps):
            before = page.get_attribute("#analysis", "data-position")
            page.click(f'#board [data-square="{square}"] >> nth=-1')
            page.wait_for_function(
                f"() => document.getElementById('analysis').dataset.position !== {before!r}"
            )
            wait_ready(page)
    shown = page.get_attribute("#analysis", "data-position")
    assert shown == "piccione ........../.AB......./.......... A - hand=4/4"
    assert Position.from_fen(shown).hand(0) == 4
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_move_buttons_name_moves_as_the_game_does(browser, site) -> None:
    """The analysis board's buttons say "28 → 30" (and "⚔" onto an opponent), as the game's
    move buttons do; the notation stays in the row's data for programs and links."""
    page = new_page(browser, site, 390, 844)
    page.goto(f"/analysis?position={quote(SOLVABLE)}")
    wait_ready(page)
    rows = page.eval_on_selector_all(
        "#an-moves tr[data-move]",
        "rs => rs.map(r => [r.dataset.move, r.querySelector('button').textContent])",
    )
    assert rows
    for move, label in rows:
        origin, target = move.replace("x", "-").split("-")
        arrow = f"{origin} → {'off' if target == 'off' else target}"
        assert label == arrow + (" ⚔" if "x" in move else ""), (move, label)
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "status"),
    [
        ("en", "White to move: throws 1, 3, one per move, in any order."),
        ("ru", "Решают белые: броски 1, 3, по одному на ход, в любом порядке."),
    ],
)
def test_banked_throws_are_all_named_and_every_line_begins_with_a_capital(
    browser, site, lang, status
) -> None:
    """A kendall-1978 position with a throw banked: the status names both throws (a move by
    either may come first, and the table lists both kinds), not "to move with a 1"; the status
    and the verdict begin with a capital though a seat's name does not."""
    banked = "kendall-1978 ..A...A..B/.........B/.......... A 1 bank=3"
    page = new_page(browser, site, 390, 844)
    page.goto(f"/analysis?position={quote(banked)}&lang={lang}")
    wait_ready(page)
    assert page.text_content("#an-status") == status
    verdict = page.text_content("#an-verdict") or ""
    assert verdict[:1].isupper(), verdict
    moves = page.eval_on_selector_all(
        "#an-moves tr[data-move]", "rs => rs.map(r => r.dataset.move)"
    )
    steps = {abs(int(b) - int(a)) for a, b in (m.replace("x", "-").split("-") for m in moves)}
    assert steps == {1, 3}
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Wait in the House of Water"), ("ru", "Ждать в Доме воды")]
)
def test_a_piece_in_kendall_1978s_house_of_water_waits_there(browser, site, lang, words) -> None:
    # kendall-1978: the piece in the House of Water stays until a 4; its pass is a wait, not
    # "no move possible"
    position = Position.from_parts(find_variant("kendall-1978"), ((27, 5), (10,)), throw=2)
    assert "pass" in {position.move_text(m) for m in position.legal_moves()}
    page = new_page(browser, site, 390, 844)
    page.goto(f"/analysis?lang={lang}&position={quote(position.fen())}")
    wait_ready(page)
    page.wait_for_selector("#an-moves tr[data-move='pass'] button")
    assert page.text_content("#an-moves tr[data-move='pass'] button") == words
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
