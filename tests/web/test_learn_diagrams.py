"""Rule diagrams on the variant pages: drawn from the engine, every arrow a legal move and
every legal move an arrow; the same board geometry as the game page's board.js."""

from __future__ import annotations

import re

import httpx
import pytest

from senet.engine import OFF, VARIANTS, Position, find_variant
from senet.web.render import board_svg
from senet.web.render.diagrams import rule_diagrams

from .conftest import ROOT
from .helpers import unfold
from .test_browser import new_page

BOARD_JS = (ROOT / "src/senet/web/static/board.js").read_text(encoding="utf-8")


def drawings(svg: str) -> dict[str, str]:
    """A diagram's drawings by layout (the wide one, the upright one)."""
    found = re.findall(r'(<svg class="diagram-board (wide|upright)".*?</svg>)', svg, re.S)
    assert len(found) == len({layout for _, layout in found}), "a layout drawn twice"
    return {layout: drawing for drawing, layout in found}


def svg_moves(svg: str) -> list[str]:
    return re.findall(r'class="diag-move" data-move="([^"]+)"', svg)


def legal_steps(position: Position) -> list[str]:
    return [m.text() for m in position.legal_moves() if m.is_step]


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_arrow_is_a_legal_move_and_every_legal_move_an_arrow(name, lang) -> None:
    diagrams = rule_diagrams(name, lang)
    assert diagrams
    for d in diagrams:
        position = Position.from_fen(d.position)
        # drawn twice, wide and upright (a phone held upright), each with every legal move
        assert set(drawings(d.svg)) == {"wide", "upright"}
        for layout, svg in drawings(d.svg).items():
            assert f'data-position="{d.position}"' in svg
            assert sorted(svg_moves(svg)) == sorted(legal_steps(position)), (d.key, layout)
        assert list(d.moves) == [position.move_text(m) for m in position.legal_moves()]
        assert d.title and d.text and "{" not in d.text + d.title, (d.key, d.text)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_rule_of_the_variant_has_its_diagram(name) -> None:
    """The topics follow the variant's data: a rule the variant has is shown; one it lacks is not."""
    v = find_variant(name)
    keys = {d.key for d in rule_diagrams(name, "en")}
    assert {"move", "jump", "bear_off"} <= keys
    assert ("attack" in keys) == (v.capture != "none")  # piccione: no piece lands on another
    assert ("enter" in keys) == v.divided_throws  # piccione: pieces enter from the hand
    for sq in v.gates:
        assert f"gate-{sq}" in keys
    assert ("protection" in keys) == (v.protection != "none")
    assert ("triple" in keys) == (v.protection == "neighbour-but-triple-middle")
    assert ("blocked" in keys) == (v.passing == "singles")
    assert ("backward" in keys) == (v.backward != "none")
    assert ("extra_throw" in keys) == bool(v.extra_throws)
    assert ("priority" in keys) == bool(v.priority)
    assert ("drown_attack" in keys) == bool(v.drown_on_attack)
    assert any(k.startswith("safe-") for k in keys) == bool(v.safe)
    for sq in v.houses:
        assert f"house-{sq}" in keys, (name, sq)
    for sq in v.must_stop:
        assert f"must_stop-{sq}" in keys


def test_stuck_pieces_are_crossed_out_with_the_engines_reason() -> None:
    protection = next(d for d in rule_diagrams("standard", "en") if d.key == "protection")
    assert 'class="diag-stuck" data-square="4"' in protection.svg
    assert 'class="diag-illegal" data-attempt="4-6"' in protection.svg
    assert any("A pair protects 6" in r for r in protection.reasons)
    ba = next(d for d in rule_diagrams("adelaida", "ru") if d.key == "house-21")
    # adelaida §25: the move through the House of Ba is written origin to final square
    assert ba.moves == ("19-23",) and "«Дом Ба» (21)" in ba.text
    assert 'class="diag-move" data-move="19-23"' in ba.svg


def test_the_geometry_and_glyphs_are_board_js_ones() -> None:
    constants = re.search(r"const CELL = (\d+), X0 = (\d+), Y0 = (\d+), OFF_GAP = (\d+);", BOARD_JS)
    assert constants, "board.js no longer declares its geometry in one line"
    assert tuple(map(int, constants.groups())) == (
        board_svg.CELL,
        board_svg.X0,
        board_svg.Y0,
        board_svg.OFF_GAP,
    )
    glyphs = dict(re.findall(r'"\\u\{([0-9A-F]+)\}": "([^"]+)"', BOARD_JS))
    assert {chr(int(k, 16)): d for k, d in glyphs.items()} == board_svg.GLYPHS
    # the snake: the middle row runs right to left, as board.js's squareXY
    assert board_svg.square_xy(11)[0] == board_svg.square_xy(10)[0]
    assert board_svg.square_xy(20)[0] == board_svg.square_xy(1)[0]
    # upright, as board.js on a phone held upright: the rows run down as three columns of ten
    cell, x0, y0 = board_svg.CELL, board_svg.X0, board_svg.Y0
    assert board_svg.square_xy(1, upright=True) == (x0, y0)
    assert board_svg.square_xy(10, upright=True) == (x0, y0 + 9 * cell)
    assert board_svg.square_xy(11, upright=True) == (x0 + cell, y0 + 9 * cell)
    assert board_svg.square_xy(30, upright=True) == (x0 + 2 * cell, y0 + 9 * cell)
    off = board_svg.square_xy(OFF, upright=True)
    assert off == (x0 + 2 * cell, y0 + 10 * cell + board_svg.OFF_GAP)
    # and the screens that show the upright drawing are the ones board.js draws upright on
    query = re.search(r'export const UPRIGHT_QUERY = "([^"]+)";', BOARD_JS)
    assert query and query.group(1) == board_svg.UPRIGHT_QUERY
    learn_css = (ROOT / "src/senet/web/static/learn.css").read_text(encoding="utf-8")
    assert (
        f"@media {board_svg.UPRIGHT_QUERY} {{\n  .diagram-board.wide {{ display: none; }}"
        in learn_css
    )


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_diagrams_on_every_variant_page_match_legal_moves(browser, site, artifacts, lang) -> None:
    for width, height, size in ((390, 844, "phone"), (1280, 900, "desktop")):
        page = new_page(browser, site, width, height)
        for name in VARIANTS:
            page.goto(f"/variants/{name}?lang={lang}")
            unfold(page)
            figures = page.eval_on_selector_all(
                "figure.diagram",
                """fs => fs.map(f => {
                  // the drawing shown: upright on a phone held upright, wide elsewhere
                  const [svg, ...more] = [...f.querySelectorAll('svg.diagram-board')]
                    .filter((s) => s.getBoundingClientRect().width > 0);
                  return {position: f.dataset.position, shown: 1 + more.length,
                    upright: svg.classList.contains('upright'),
                    box: svg.getBoundingClientRect().width,
                    moves: [...svg.querySelectorAll('.diag-move')].map(a => a.dataset.move)};
                })""",
            )
            assert len(figures) == len(rule_diagrams(name, lang))
            for figure in figures:
                position = Position.from_fen(figure["position"])
                assert sorted(figure["moves"]) == sorted(legal_steps(position)), figure
                assert 0 < figure["box"] <= width
                assert figure["shown"] == 1 and figure["upright"] == (size == "phone")
            no_sideways = page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
            assert no_sideways, f"{name} scrolls sideways at {width}px"
            if name in ("standard", "adelaida"):
                page.locator("section.diagrams").screenshot(
                    path=str(artifacts / f"diagrams-{name}-{lang}-{size}.png")
                )
        assert not page.js_errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_moves_under_a_diagram_are_written_in_words(site) -> None:
    # a sentence writes a move in words ("28 → off"), never in notation ("28-off")
    for name in VARIANTS:
        for lang in ("en", "ru"):
            html = httpx.get(f"{site.url}/variants/{name}", params={"lang": lang}).text
            lines = re.findall(r'<p class="diagram-moves">(.*?)</p>', html, re.S)
            assert lines, name
            for line in lines:
                words = re.sub(r"<[^>]+>", "", re.sub(r'data-move="[^"]*"', "", line))
                assert not re.search(r"\d+[-x](\d+|off)", words), (name, lang, words)
