"""The HTML pages over real HTTP: variant pages in both languages, home, errors, serve output."""

from __future__ import annotations

import re
import subprocess

import httpx
import pytest
from markupsafe import escape as html_escape

from senet import __version__
from senet.engine import VARIANTS, find_variant
from senet.engine.differences import difference_table
from senet.engine.rulebook import rulebook
from senet.web.app import HERE, commit_id
from senet.web.routes.pages import house_legend, house_meanings, house_parts, rule_text

from .helpers import give_seed


def _in_git() -> bool:
    """Is the served code a git checkout (so that its commit can be named)?"""
    try:
        found = subprocess.run(["git", "rev-parse", "--git-dir"], cwd=HERE, capture_output=True)
    except OSError:
        return False
    return found.returncode == 0


def test_serve_prints_the_address_to_open(site) -> None:
    assert f"Senet is served at http://127.0.0.1:{site.port}/" in site.log.read_text()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_variant_page_lists_its_sections_and_each_link_leads_to_one(
    site, name: str, lang: str
) -> None:
    """A long page on a phone: "On this page" links every section the variant has (piccione
    has no simulated figures yet, so no link to them) and nothing else."""
    html = httpx.get(f"{site.url}/variants/{name}", params={"lang": lang}, timeout=60).text
    toc = re.search(r'<nav class="page-toc".*?</nav>', html, re.S)
    assert toc is not None
    targets = re.findall(r'href="#([\w-]+)"', toc.group(0))
    section_ids = re.findall(r'<h2 id="([\w-]+)"', html)
    wanted = ["rules-h", "diagrams-h", "diff-h", "dec-h", "ludii-h", "hist-h", "how-h"]
    assert targets == [i for i in wanted if i in section_ids]
    assert "rules-h" in targets and "diff-h" in targets and "hist-h" in targets
    assert ("how-h" in targets) == (name != "piccione")
    assert ("ludii-h" in targets) == (rulebook(name).ludii != ())


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_has_its_page_in_both_languages(site, name: str, lang: str) -> None:
    page = httpx.get(f"{site.url}/variants/{name}", params={"lang": lang})
    assert page.status_code == 200
    html = page.text
    v = VARIANTS[name]
    book = rulebook(name)
    assert f'<html lang="{lang}">' in html
    assert v.title(lang).replace("«", "&laquo;")[:8] in html or v.title(lang)[:8] in html
    assert (
        'action="/games"' in html and f'name="variant" value="{name}"' in html
    )  # the start button
    rows = difference_table(name, "standard", lang)
    if name != "standard":
        assert len(rows) >= 2 and html.count('<th scope="row">') >= len(rows)
        for row in rows:
            assert row.label in html
    assert html.count("<dt") == len(book.decisions) + len(book.ludii)
    # where Ludii encodes the same reconstruction, each difference is shown with our reason
    assert (
        "Кодировка Ludii здесь иная:" if lang == "ru" else "Ludii&#39;s encoding differs here:"
    ) in (html) or not book.ludii
    for difference in book.ludii:
        assert str(html_escape(difference.topic(lang))) in html
        for text in (difference.ludii(lang), difference.ours(lang)):
            shown = rule_text(text, book, lang)
            # references to decisions by key became numbered links to them
            assert str(shown) in html and not re.search(r"\((decisions?|решени[ея]) [a-z]", shown)
    first_clause = book.clauses[0].text(lang)
    assert (
        first_clause[:30].replace("'", "&#39;").replace('"', "&#34;") in html
        or first_clause[:30] in html
    )
    assert ("Перейти к содержимому" if lang == "ru" else "Skip to main content") in html
    assert page.cookies.get("lang") == lang  # the choice is remembered


def test_home_lists_every_variant_and_the_footer_names_version_and_commit(site) -> None:
    html = httpx.get(site.url + "/", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).text
    assert '<html lang="ru">' in html  # the browser's language, until the visitor chooses
    for name in VARIANTS:
        assert f'href="/variants/{name}"' in html
    # the version and the commit served: this checkout's, as the server (same checkout) finds it
    commit = commit_id()
    assert re.fullmatch(r"[0-9a-f]{7,12}", commit) or (commit == "unknown" and not _in_git())
    assert f'v{__version__} · <span class="commit">{commit}</span>' in html
    assert 'class="skip-link" href="#main"' in html and 'id="main"' in html


@pytest.mark.parametrize(
    ("lang", "choose_variant"), [("en", "Pick a variant"), ("ru", "Выберите вариант")]
)
def test_quick_pairing_asks_for_a_variant_only_where_there_is_a_choice(
    site, lang: str, choose_variant: str
) -> None:
    """The home page's pairing form has a variant list; a variant page's has the variant fixed."""
    home = httpx.get(site.url + "/", params={"lang": lang}).text
    variant_page = httpx.get(f"{site.url}/variants/kendall", params={"lang": lang}).text
    assert choose_variant in home and 'id="pn-variant"' in home
    assert 'id="pn-variant"' not in variant_page
    assert choose_variant not in variant_page
    assert ("this variant" if lang == "en" else "этот вариант") in variant_page


def test_aliases_redirect_and_unknown_pages_are_404(site) -> None:
    alias = httpx.get(f"{site.url}/variants/std", follow_redirects=False)
    assert alias.status_code == 301 and alias.headers["location"] == "/variants/standard"
    listing = httpx.get(f"{site.url}/variants", follow_redirects=False)
    assert listing.status_code == 301 and listing.headers["location"] == "/#variants-h"
    missing = httpx.get(f"{site.url}/variants/chess")
    assert missing.status_code == 404 and "chess" in missing.text
    assert httpx.get(f"{site.url}/no/such/page").status_code == 404


def test_language_switch_only_redirects_locally(site) -> None:
    switch = httpx.get(
        f"{site.url}/lang/ru", params={"next": "https://evil.example/"}, follow_redirects=False
    )
    assert (
        switch.status_code == 303
        and switch.headers["location"] == "/"
        and switch.cookies.get("lang") == "ru"
    )
    back = httpx.get(
        f"{site.url}/lang/en", params={"next": "/variants/bell"}, follow_redirects=False
    )
    assert back.headers["location"] == "/variants/bell"


def test_start_form_creates_a_game_and_seats_its_creator(site) -> None:
    response = httpx.post(
        f"{site.url}/games",
        data={"variant": "bell", "mode": "local", "colour": "random"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    game_id = response.headers["location"].rsplit("/", 1)[-1]
    token = response.cookies.get(f"senet_seat_{game_id}")
    state = httpx.get(f"{site.url}/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
    assert state["variant"] == "bell" and state["you"] == [0, 1] and state["phase"] == "seeding"
    assert state["legal"] == [] and state["fairness"]["seed_needed"] == [
        True,
        True,
    ]
    for seed in ("first", "second"):  # one secret holds both seats: each seed goes to the next seat
        state = give_seed(site.url, game_id, token, seed).json()
    assert (
        state["phase"] == "playing"
        and state["legal"]
        and state["fairness"]["seeds"] == ["first", "second"]
    )
    bad = httpx.post(f"{site.url}/games", data={"variant": "bell", "mode": "solitaire"})
    assert bad.status_code == 400 and "mode" in bad.text


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_house_says_what_it_does_not_the_whole_list_of_houses(name: str, lang: str) -> None:
    """The game page's legend: a clause that lists every House by name is cut to the House's
    own entry, followed by the other clauses about its square."""
    houses = find_variant(name).houses
    meanings = house_meanings(name, lang)
    for sq in houses:
        meaning = meanings.get(sq, "")
        listed = [  # another House by its number and name, as in a list of Houses
            q
            for q, h in houses.items()
            if q != sq and re.search(rf"\b{q} (?:— )?{re.escape(h.name(lang))}", meaning)
        ]
        assert not listed, (sq, meaning)
        assert meaning[:1] == meaning[:1].upper()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_house_named_only_in_another_squares_rule_says_whose_rule_it_is(
    name: str, lang: str
) -> None:
    """kendall: House of Water — 15, the House of Second Life, is named only in the rule of 27:
    its legend must not read like 27's rule (a trap) told of 15."""
    meanings = house_meanings(name, lang)
    for sq, meaning in meanings.items():  # no legend opens with another square's rule
        lead = re.match(r"(\d+): ", meaning)
        assert lead is None or int(lead.group(1)) == sq, (sq, meaning)
    if name == "kendall":
        water = "House of Water" if lang == "en" else "«Дом воды»"
        rule = "From the rule of square 27" if lang == "en" else "Из правила поля 27"
        assert meanings[15].startswith(rule) and water in meanings[15]
        assert ("to 15" if lang == "en" else "на поле 15") in meanings[15]
        assert not meanings[27].startswith(rule)  # 27's own legend is its rule as it stands


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_legend_says_each_rule_once_and_leaves_none_out(name: str, lang: str) -> None:
    """A rule that several Houses share (standard: the safe squares 27-30; bell: how pieces
    leave 27-30) is said once under the list, not under each House; each House keeps what
    only it does, and nothing a House's full meaning says is missing from the legend."""
    legend = house_legend(name, lang)
    assert [sq for sq, _, _ in legend.rows] == sorted(VARIANTS[name].houses)
    said = [text for _, _, text in legend.rows if text] + legend.shared
    for parts in house_parts(name, lang).values():
        for part in parts:
            assert sum(part in text for text in said) == 1, part
    assert len(set(legend.shared)) == len(legend.shared)


def test_the_standard_and_bell_legends_share_their_last_row_rules() -> None:
    standard = house_legend("standard", "en")
    assert dict((sq, text) for sq, _, text in standard.rows) == {
        27: "",
        28: "Sends the piece to 15.",
        29: "",
        30: "",
    }
    assert [rule.split(":")[0] for rule in standard.shared] == [
        "The four Houses on 27-30 are safe",
        "Pieces bear off from 27 on by a throw that takes them past 30; from 29 only with a 3, "
        "from 30 only with a 2.",
    ]
    bell = house_legend("bell", "ru")
    assert [text for sq, _, text in bell.rows if sq >= 27] == ["", "", "", ""]
    assert bell.shared == [house_meanings("bell", "ru")[27]]  # one line for the four


def test_the_standard_houses_legend_takes_each_house_from_the_list() -> None:
    """standard: houses, safe squares, bearing off."""
    en, ru = house_meanings("standard", "en"), house_meanings("standard", "ru")
    assert en[28].startswith("Sends the piece to 15. ") and ru[28].startswith("Отправляет фишку")
    for sq in (27, 28, 29, 30):
        assert "safe" in en[sq] and "безопасны" in ru[sq]
    for sq in (27, 29, 30):  # the bearing-off clause names them, not 28
        assert "only with a 3" in en[sq] and "только при 3" in ru[sq]
    assert "bear off" not in en[28]
