"""Every decision button shows its whole label on a phone: the game page's move buttons stand in
the narrow column beside the upright board, where a label cut at the button's edge ("Return to",
"Wait in th", "22 → 23" without its ⚔) would leave a player guessing what the button does; a
label too long for the column wraps onto more lines instead.  Each variant's every kind of
decision is staged on the page (tests/web/staged.py) and every button is measured; so are the
analysis board's buttons, which play each move of the same positions."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from senet import Position

from .staged import stage
from .test_browser import new_page

pytestmark = pytest.mark.browser

#: Positions offering each kind of decision of each variant (found by playing random games
#: and keeping, per kind, the position with the most choices): steps, captures (two-digit
#: squares), moves backward, bearing off (naming the throw used), passes (also among other
#: choices), the Kendall House of Water choice (risk, return; in kendall-1978 return or wait
#: there), Adelaida's revival and throws of fate, Piccione's entering.
POSITIONS = {
    "standard": [
        "standard .B.ABA.BA./.A..B.AB../.......... B 2",
        "standard ....A.AB.B/.....A.B.A/.A.B....B. B 3",
        "standard ........../......B.../.B....A.A. A 2",
    ],
    "bell": [
        "bell ABABABABAB/ABABABABAB/.......... A 1",
        "bell .A...A..AA/B.B.B..BB./.......AB. B 2 captured=5/4",
        "bell ........../....A....A/.....BB... B 1 captured=6/4",
    ],
    "kendall": [
        "kendall ..A..B.BA./B...AA..../.B.A...B.. A 2",
        "kendall ...A...AA./BB...BA.../.A...B.B.. B 3",
        "kendall ........../.....B.B../.AAAAB.BA. A 5",
        "kendall .........A/.A.....BA./BBB.A.AB.. A - extra=1/0 pending=water",
        "kendall .........A/.A.....BA./BBB.A.AB.. A 1",
    ],
    "adelaida": [
        "adelaida ......A.../.BA...A.../.AB....B.. A 1 drowned=1/0",
        "adelaida ..B..ABAA./B...B...../...A...B.. B 3 drowned=1/0",
        "adelaida ABBBAAAB.B/......A.../.......... A 2",
        "adelaida ........../.AB.B.AABB/.....A.... A 3 extra=1/0 pending=fate",
        "adelaida ........../.BAB..AB../.A...B.A.. B 2 extra=0/1 drowned=1/0 pending=fate",
    ],
    "adelaida-long": [
        "adelaida-long ABABABAB.B/.A....BAA./.......... B 1 drowned=0/1",
        "adelaida-long ABAAB.BBA./..B....AB./.......AAB B 1",
        "adelaida-long ABAABB..AB/B..B.A...B/.....A.... A 1 pending=fate",
    ],
    "jequier": [
        "jequier BA.BA..A../...BB...../...AA...B. A 2",
        "jequier BA..BBAB../.....AB.../..A.....A. A 2",
        "jequier BABABBBAA./.......A../.......... B 3",
    ],
    "kendall-1978": [
        "kendall-1978 .....A...A/.B....BB.B/BAB.A.B... B 3",
        "kendall-1978 ........../.........B/.B..B..ABA A 1 bank=1,3",
        "kendall-1978 ...B.BA..A/B..A.A...A/BA..B...BB B 1 bank=1,1,2,4,4,5,5",
        "kendall-1978 ........AB/.AA..BB.BA/.BAAB..... A 1 bank=2,4",
    ],
    "piccione": [
        "piccione ..B.A...../.B..A...../.A...A.... A 1 hand=1/2",
        "piccione .A..B...B./A.......BA/..A..A.... A 5 extra=1/0 hand=0/1",
        "piccione ..A......./....B..BAA/.......... B 3 direction=backward",
        "piccione ..A......./........../.......... B 3 hand=4/5",
    ],
}

#: Each move button's label against its box: whether the text runs past the button's inner
#: width, and whether the button runs past its column (the game's moves, the analysis board's
#: table of moves).
BUTTONS = """([column, selector]) => {
  const box = document.getElementById(column).getBoundingClientRect();
  return [...document.querySelectorAll(selector)].map((b) => {
    const range = document.createRange();
    range.selectNodeContents(b);
    const text = range.getBoundingClientRect();
    const own = b.getBoundingClientRect();
    return {move: b.dataset.move || b.closest('[data-move]').dataset.move, label: b.textContent,
            overflows: b.scrollWidth > b.clientWidth + 0.5,
            text_outside: text.left < own.left - 0.5 || text.right > own.right + 0.5,
            outside_column: own.left < box.left - 0.5 || own.right > box.right + 0.5};
  });
}"""


def test_the_positions_offer_every_kind_of_decision() -> None:
    """The staged positions are real decisions, and between them every kind named above."""
    kinds: set[str] = set()
    for variant, fens in POSITIONS.items():
        for fen in fens:
            pos = Position.from_fen(fen)
            assert pos.variant.name == variant and pos.decider is not None, fen
            kinds.update(_kind(text) for text in _legal(fen))
    assert kinds >= {"step", "x", "off", "off/n", "pass", "risk", "return", "revive", "enter"}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("variant", list(POSITIONS))
def test_every_decision_button_shows_its_whole_label_at_360_px(
    browser, site, artifacts, variant, lang
) -> None:
    page = new_page(browser, site, 360, 740, touch=True)
    for index, fen in enumerate(POSITIONS[variant]):
        stage(page, site, fen, lang)
        buttons = page.evaluate(BUTTONS, ["moves", "#moves button[data-move]"])
        assert [b["move"] for b in buttons] == _legal(fen), fen
        page.screenshot(path=str(artifacts / f"decisions-{variant}-{index}-{lang}-360.png"))
        assert not (cut := _cut(buttons)), (fen, cut)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, fen

        page.goto(f"/analysis?position={quote(fen)}&lang={lang}")
        page.wait_for_selector("#analysis[data-ready='1'] #an-moves tr[data-move] button")
        buttons = page.evaluate(BUTTONS, ["an-moves", "#an-moves tr[data-move] button"])
        assert sorted(b["move"] for b in buttons) == sorted(_legal(fen)), fen
        assert not (cut := _cut(buttons)), (fen, cut)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, fen
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


def _cut(buttons: list[dict]) -> list[dict]:
    return [b for b in buttons if b["overflows"] or b["text_outside"] or b["outside_column"]]


def _legal(fen: str) -> list[str]:
    pos = Position.from_fen(fen)
    return [pos.move_text(m) for m in pos.legal_moves()]


def _kind(text: str) -> str:
    if not text[0].isdigit():
        return text  # pass, risk, return, revive, enter
    if "off/" in text:
        return "off/n"
    return "off" if "off" in text else "x" if "x" in text else "step"
