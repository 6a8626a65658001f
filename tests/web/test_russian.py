"""The site in Russian: every page and every message, no English word left and every count in
the right form.

The walk reads each page of the site in ``ru`` as a visitor's browser gets it (text, and the
attributes read aloud or shown: ``title``, ``aria-label``, ``alt``, ``placeholder``, the texts
handed to scripts in ``data-texts`` and the variant's names in ``data-variant``), and every text
the scripts get (the catalog of ``GET /api/i18n/ru``, error texts included).  A Latin word is a
failure unless it is notation or a name in :data:`ALLOWED`; notation is marked as such in the
page (``code``, ``kbd``, ``samp``, ``pre``, ``textarea`` or ``translate="no"``, the HTML way to
say "not to be translated"), and a token with a digit in it (``28-off``, ``SHA-256``, a commit
id) is notation too.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest

from senet.engine import VARIANTS
from senet.engine.record import TERMINATIONS
from senet.web.i18n import (
    PLURAL_SAMPLES,
    catalog,
    client_catalog,
    error_text,
    plural_category,
    plural_table,
    translator,
)

from .helpers import friend_game, give_seed, play_out

ROOT = Path(__file__).resolve().parents[2]

#: Latin words a Russian page may show: names of people, programs, formats and keys, and the
#: name of the other language in the language switch.  Roman numerals and single letters
#: (Bell's marks X, III, II, I; seats A and B; the n of a formula) are allowed by rule.
ALLOWED = {
    "Ludii",  # the general game system, a name
    "Jéquier",  # Gustave Jéquier, as Ludii's ruleset and the bibliography write him
    "API",
    "OpenAPI",
    "JavaScript",
    "JSON",
    "HMAC",
    "Tab",  # keys of the keyboard
    "Enter",
    "Esc",
    "Home",
    "End",
}

NOT_TRANSLATED = {"code", "kbd", "samp", "pre", "textarea", "script", "style"}
SHOWN_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "data-empty"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr", "path", "circle", "rect", "line", "polygon", "polyline", "use"}

WORD = re.compile(r"[0-9A-Za-zÀ-ÿ'’_-]+")


def english_words(text: str) -> list[str]:
    """The Latin words of ``text`` that are neither allowed names nor notation."""
    found = []
    for token in WORD.findall(text):
        token = token.strip("'’_-")
        if not re.search(r"[A-Za-zÀ-ÿ]", token) or re.search(r"\d", token):
            continue  # no letter, or notation with digits (9-12, 28-off, 1x4, SHA-256)
        if len(token) == 1 or re.fullmatch(r"[IVX]+", token) or token in ALLOWED:
            continue
        found.append(token)
    return found


class ShownText(HTMLParser):
    """The texts of a page a reader sees or hears, without notation."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # for each open element: is its content notation?
        self.texts: list[str] = []

    @property
    def notation(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        notation = self.notation or tag in NOT_TRANSLATED or values.get("translate") == "no"
        # a passage marked as another language: a quotation of an English source, or the
        # name of the other language in the language switch
        notation = notation or (tag != "html" and values.get("lang", "ru") != "ru")
        if not notation:
            for name, value in values.items():
                if name in SHOWN_ATTRIBUTES or (name == "value" and values.get("type") == "submit"):
                    self.texts.append(value)
            if "data-texts" in values:
                self.texts.extend(strings(json.loads(values["data-texts"])))
            if "data-variant" in values and values["data-variant"].startswith("{"):
                variant = json.loads(values["data-variant"])
                self.texts.extend([variant["title"], *variant["seatNames"]])
                for house in variant["houses"].values():
                    self.texts.extend([house["name"], house["meaning"]])
        if tag not in VOID:
            self.stack.append(notation)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.notation and data.strip():
            self.texts.append(data.strip())


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def untranslated(html: str) -> list[tuple[str, list[str]]]:
    parser = ShownText()
    parser.feed(html)
    return [(text[:160], words) for text in parser.texts if (words := english_words(text))]


@pytest.fixture(scope="module")
def russian_pages(site) -> dict[str, str]:
    """Every page of the site, as a Russian visitor gets it: path -> HTML."""
    base = site.url
    playing = friend_game(base, "adelaida")
    finished = friend_game(base, "standard")
    play_out(base, finished)
    created = httpx.post(f"{base}/api/games", json={"variant": "kendall", "mode": "friend"})
    waiting = created.json()
    join = waiting["invite_url"].removeprefix(base)
    paths = ["/", "/learn", "/compare", "/games/mine", "/games/live", "/analysis"]
    paths += ["/analysis?position=nonsense", "/no-such-page", "/variants/no-such-variant"]
    for name in VARIANTS:
        paths += [f"/variants/{name}", f"/learn/{name}"]
    paths += [f"/g/{waiting['id']}", join, f"/g/{playing.game_id}", f"/g/{finished.game_id}"]
    paths += [f"/g/{finished.game_id}/review", f"/g/{playing.game_id}/review"]
    paths += [f"/g/{finished.game_id}/verify", f"/g/{playing.game_id}/verify"]
    pages = {}
    with httpx.Client(base_url=base, cookies={"lang": "ru"}, timeout=120) as client:
        # this visitor holds a seat in each game, so that "my games" lists them
        for game in (playing, finished):
            client.cookies.set(f"senet_seat_{game.game_id}", game.tokens[0])
        for path in paths:
            response = client.get(path)
            assert response.status_code in (200, 404, 409), (path, response.status_code)
            assert '<html lang="ru">' in response.text, path
            pages[path] = response.text
        # the review was being judged when walked above; once it is ready, the review itself
        assert client.get(f"/api/games/{finished.game_id}/review").status_code == 200
        pages[f"/g/{finished.game_id}/review (ready)"] = client.get(
            f"/g/{finished.game_id}/review"
        ).text
        # the start form and the quick pairing lead to a game page, which is walked above
        assert client.post("/play-now", data={"variant": "standard"}).status_code == 303
        # "my games" is read again by its script: the same words from the API
        client.cookies.set(f"senet_seat_{waiting['id']}", waiting["token"])
        mine = client.get("/api/mine").json()
        assert len(mine) >= 3
        pages["/api/mine"] = "".join(
            f"<p>{g['title']} · {g['time_label']} · {g['label']}</p>" for g in mine
        )
    # two named players: one challenges the other (the form, the challenge on both sides, the
    # home page that lists it, the setting of whom one takes challenges from)
    named = {}
    for name in ("Вера", "Гоша"):
        client = httpx.Client(base_url=base, cookies={"lang": "ru"}, timeout=120)
        assert client.post("/name", data={"name": name}).status_code == 303
        named[name] = client
    vera, gosha = named["Вера"], named["Гоша"]
    pages["/challenge/Вера"] = gosha.get("/challenge/Вера").text
    sent = gosha.post("/challenge/Вера", data={"variant": "kendall", "time_control": "days:3"})
    challenge = sent.headers["location"]
    pages[f"{challenge} (challenger)"] = gosha.get(challenge).text
    for path in ("/", challenge, "/name", "/@/Гоша"):
        pages[f"{path} (challenged)"] = vera.get(path).text
    for client in (vera, gosha):
        client.close()
    return pages


@pytest.mark.slow  # a real server walked page by page: the full suite runs it
def test_no_page_shows_an_english_word_in_russian(russian_pages: dict[str, str]) -> None:
    found = {path: words for path, html in russian_pages.items() if (words := untranslated(html))}
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


@pytest.mark.slow
def test_the_walk_reaches_every_kind_of_page(russian_pages: dict[str, str]) -> None:
    """Each state of a game and each error page is among the pages walked."""
    texts = "\n".join(russian_pages.values())
    ru = translator("ru")
    assert ru("err.not_over") in texts  # a review asked for before the end: 409
    assert ru("review.wait") in texts and ru("review.caption") in texts  # judged, then ready
    assert ru("err.not_found") in texts and ru("err.unknown_variant") in texts  # 404s
    assert ru("challenge.challenges_you") in texts and ru("challenge.accept") in texts
    assert ru("challenge.form_title", name="Вера") in texts and ru("challenge.cancel") in texts
    assert ru("err.bad_position") in texts  # the analysis board given a malformed position
    assert sum(1 for path in russian_pages if path.startswith("/variants/")) == len(VARIANTS) + 1


def test_every_text_handed_to_scripts_is_russian() -> None:
    """The catalog the scripts get (status lines, the move list, events, errors) has no
    English word in Russian, whatever form a message takes."""
    found = {}
    for key, entry in client_catalog("ru").items():
        if key.startswith(("noun.", "plural.")):
            continue  # grammar, not text
        forms = (
            {k: v for k, v in entry.items() if k not in ("count", "agree")}
            if isinstance(entry, dict)
            else entry
        )
        for text in strings(forms):
            if words := english_words(re.sub(r"\{\w+\}", "", text)):  # not the {parameters}
                found[key] = words
    assert not found, found


def test_every_error_code_has_words_in_both_languages() -> None:
    """Every code the service, the API or the WebSocket refuses with is explained to a person
    in both languages (the English ``message`` of an error is for programs)."""
    codes = set()
    pattern = re.compile(r"(?:GameError|cls|error_message|error_json)\(\s*\"([a-z_]+)\"")
    refusal = re.compile(r"return \d{3}, \"([a-z_]+)\",")
    for path in (ROOT / "src" / "senet").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(pattern.findall(text)) | set(refusal.findall(text))
    assert {"not_over", "illegal", "stale", "unknown_game", "cross_origin"} <= codes
    for lang in ("en", "ru"):
        assert {code for code in codes if f"err.{code}" not in catalog(lang)} == set(), lang
    assert error_text("ru", "not_over") == "Разбор будет готов, когда партия закончится."


def test_every_early_ending_has_words_for_the_seat_and_for_the_viewer() -> None:
    """However a game ends before the rules end it, a page can say it of a seat ("the cones
    resigned") and to the player who lost so ("you resigned"), in both languages."""
    for lang in ("en", "ru"):
        words = catalog(lang)
        for termination in TERMINATIONS:
            assert f"end.{termination}" in words and f"end.{termination}_you" in words, lang
    assert catalog("ru")["end.resignation_you"] == "вы сдались"


def test_every_seat_name_has_its_gender_or_number() -> None:
    """A message about a seat agrees with its name (Победил второй игрок, Победили катушки):
    every seat name of every variant is in the grammar of both languages."""
    for lang in ("en", "ru"):
        for v in VARIANTS.values():
            for seat in (0, 1):
                assert f"noun.{v.seat_name(seat, lang)}" in catalog(lang), (v.name, seat, lang)


def test_messages_agree_with_the_seat_they_name() -> None:
    ru, en = translator("ru"), translator("en")
    assert ru("g.won", seat="второй игрок") == "Победил второй игрок."
    assert ru("g.won", seat="катушки") == "Победили катушки."
    assert ru("end.resignation", loser="первый игрок") == "сдался первый игрок"
    assert ru("end.resignation", loser="конусы") == "сдались конусы"
    assert ru("g.skipped", seat="тёмные камни") == "ход пропускают тёмные камни"
    assert en("g.skipped", seat="second player") == "second player skips a turn"
    assert en("g.skipped", seat="cones") == "cones skip a turn"
    swap = {"seat": "first player", "from": 14, "to": 18}
    assert en("play.ev_swap", **swap, other="second player").endswith(
        "the second player's piece swapped back to 14"
    )
    assert en("play.ev_swap", **swap, other="cones").endswith("the cones' piece swapped back to 14")
    assert en("play.ev_sent", **swap, sent=3, other="cones").endswith("the cones' piece sent to 3")
    assert ru("play.ev_sent", **swap, sent=3, other="белые").endswith("отправлена на 3")
    assert en("play.ev_removed", **swap, other="spools").endswith("piece leaves the game")


#: the Russian category of each sample, as a grammar book gives it (not taken from Babel)
RUSSIAN = {0: "many", 1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 124: "few"}


def plural_messages(lang: str) -> dict[str, dict[str, str]]:
    return {k: v for k, v in catalog(lang).items() if isinstance(v, dict) and "count" in v}


def test_plural_rules_are_the_languages_own() -> None:
    assert {n: plural_category("ru", n) for n in RUSSIAN} == RUSSIAN
    assert [plural_category("en", n) for n in PLURAL_SAMPLES] == [
        "other" if n != 1 else "one" for n in PLURAL_SAMPLES
    ]
    # the table the browser gets gives Babel's category for every count
    for lang in ("en", "ru"):
        table = plural_table(lang)
        for n in range(100_000):
            assert table[n if n < len(table) else 100 + n % 100] == plural_category(lang, n)


def test_every_plural_message_takes_the_right_form() -> None:
    """Each message with a count, rendered with 1, 2, 5, 11, 21 and 124, is its form for that
    count; and a Russian message's forms differ (one from many at least: after «из» few and
    many are alike, «из 2 фишек», «из 5 фишек»)."""
    ru = plural_messages("ru")
    assert {"verify.all_good", "verify.throws_bad", "g.spectators", "diagram.move"} <= set(ru)
    assert set(ru) == set(plural_messages("en"))
    for key, forms in ru.items():
        assert forms["one"] != forms["many"], key
        t = translator("ru")
        for n in (1, 2, 5, 11, 21, 124):
            params = {forms["count"]: n, "games": n, "seat": "катушки", "first": 1, "last": 3}
            params |= {"a": 4}
            expected = forms[RUSSIAN[n]].format(**params)
            assert t(key, **params) == expected, (key, n)
    t = translator("ru")
    assert "124 броска" in t("verify.all_good", n=124)
    assert "21 бросок" in t("verify.all_good", n=21)
    assert "11 бросков" in t("verify.all_good", n=11)
    assert "на 2 клетки" in t("diagram.move", n=2) and "на 5 клеток" in t("diagram.move", n=5)
    assert translator("en")("verify.throws_bad", n=1).startswith("NOT verified: 1 throw differs")


def test_no_hand_made_plural_endings() -> None:
    """Counts take their form from the plural rules, never from "(s)" or a test of n == 1."""
    for lang in ("en", "ru"):
        for key, entry in catalog(lang).items():
            assert not any("(s)" in text or "(ов)" in text for text in strings(entry)), key
    scripts = ROOT / "src" / "senet" / "web" / "static"
    for script in scripts.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"\b(?:n|count|total|length) [=!]==? 1 \?", text), script.name


def test_a_catalog_entry_of_the_wrong_shape_is_refused(tmp_path, monkeypatch) -> None:
    from senet.web import i18n

    for bad in (
        {"x": {"count": "n", "one": "a", "other": "b"}},  # Russian needs one, few, many
        {"x": {"agree": "seat", "m": "a"}},  # no "other" form
        {"x": {"one": "a"}},  # neither count nor agree
        {"x": 3},
    ):
        (tmp_path / "ru").mkdir(exist_ok=True)
        (tmp_path / "ru" / "a.json").write_text(json.dumps(bad), encoding="utf-8")
        monkeypatch.setattr(i18n, "_DIR", tmp_path)
        i18n.catalog.cache_clear()
        try:
            with pytest.raises(ValueError, match="'x'"):
                i18n.catalog("ru")
        finally:
            monkeypatch.undo()
            i18n.catalog.cache_clear()


def test_the_games_to_watch_count_actions_and_spectators_in_the_right_form(site) -> None:
    """A game against the computer is listed for spectators with its actions and watchers
    counted («1 действие», «2 действия», «5 действий»; «0 зрителей»), not «1 действий»."""
    import time

    body = {"variant": "standard", "mode": "computer", "public": True}
    created = httpx.post(f"{site.url}/api/games", json=body).json()
    game = created["id"]
    assert give_seed(site.url, game, created["token"], "a spectator's game").status_code == 200
    deadline = time.monotonic() + 30  # listed once its first throw is stored
    while f'data-game="{game}"' not in httpx.get(f"{site.url}/games/live").text:
        assert time.monotonic() < deadline, "the game never appeared among the games to watch"
    forms = {"one": "действие", "few": "действия", "many": "действий"}
    watchers = {"one": "зритель", "few": "зрителя", "many": "зрителей"}
    for lang, pattern in (
        ("ru", r"(\d+) (\w+) (\d+) (\w+)"),  # the dot between them is drawn by the style
        ("en", r"(\d+) (\w+) (\d+) (\w+)"),
    ):
        page = httpx.get(f"{site.url}/games/live", cookies={"lang": lang}).text
        row = re.search(rf'<li class="watch-game" data-game="{game}">(.*?)</li>', page, re.S)
        assert row is not None, lang
        text = html.unescape(re.sub(r"<[^>]+>", "", row.group(1)))
        found = re.search(pattern, " ".join(text.split()))
        assert found is not None, text
        actions, noun, spectators, watcher = found.groups()
        if lang == "ru":
            assert noun == forms[plural_category("ru", int(actions))], text
            assert watcher == watchers[plural_category("ru", int(spectators))], text
        else:
            assert noun == ("action" if actions == "1" else "actions"), text
            assert watcher == "watching", text
