"""MkDocs hook: a page of rules for every variant, written at build time from the engine's
rulebook (``senet.engine.rulebook``) and difference table (``senet.engine.differences``) -- the
same data the site's variant pages and ``senet rules`` show -- so the documentation can never
disagree with the rules the engine plays.  It adds ``variants/<name>.md`` for every variant and
lists them in the navigation, each by its name, right after ``variants/index.md``, the first
page of their section."""

from __future__ import annotations

import re
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from senet.engine import VARIANTS
from senet.engine.differences import describe, difference_table
from senet.engine.rulebook import Rulebook, rulebook

INDEX = "variants/index.md"

#: characters that Markdown would read as markup inside the rulebook's plain text
_MARKUP = re.compile(r"([\\`*_\[\]<>|#])")


def escape(text: str) -> str:
    """The rulebook's plain text as Markdown that renders it unchanged."""
    return _MARKUP.sub(r"\\\1", text)


def page_path(name: str) -> str:
    return f"variants/{name}.md"


#: the page's own words in each language (the rulebook's texts come in both already)
WORDS = {
    "en": {
        "tab": "English",
        "name": "Name",
        "title": "Title",
        "pieces": "Pieces a side: {pieces}",
        "throws": "Throws and their chances: {chances}",
        "aliases": "Other names",
        "rules": "Rules",
        "rules_note": "Each clause with the id that tests cite it by.",
        "aspects": "Every aspect of the rules",
        "aspects_note": "The other variants are compared with this one.",
        "aspect": "aspect",
        "diff": "Differences from the standard game",
        "nodiff": "No differences from the standard game.",
        "decisions": "Decisions on open points",
        "decisions_note": "Where the source is silent or ambiguous, our choice and why; each is "
        "pinned by a test named `test_decision_<variant>_<key>`.",
        "ludii": "Where Ludii's encoding (Senet.lud) differs",
        "topic": "topic",
        "ours": "ours",
        "history": "History",
    },
    "ru": {
        "tab": "Русский",
        "name": "Имя",
        "title": "Название",
        "pieces": "Фишек у каждого: {pieces}",
        "throws": "Броски и их вероятности: {chances}",
        "aliases": "Другие имена",
        "rules": "Правила",
        "rules_note": "Каждое правило — с именем, по которому на него ссылаются тесты.",
        "aspects": "Все стороны правил",
        "aspects_note": "Остальные варианты сравниваются с этим.",
        "aspect": "что",
        "diff": "Отличия от стандартной игры",
        "nodiff": "Отличий от стандартной игры нет.",
        "decisions": "Решения по открытым вопросам",
        "decisions_note": "Где источник молчит или неоднозначен — наш выбор и почему; каждое "
        "решение закреплено тестом `test_decision_<variant>_<key>`.",
        "ludii": "Кодировка Ludii (Senet.lud) здесь иная",
        "topic": "что",
        "ours": "у нас",
        "history": "История",
    },
}


def variant_body(name: str, lang: str) -> list[str]:
    """One language's account of a variant: summary, clauses, differences, decisions, Ludii,
    history, as Markdown lines."""
    variant = VARIANTS[name]
    book: Rulebook = rulebook(name)
    w = WORDS[lang]
    lines = [escape(book.summary(lang)), ""]
    lines.append(f"- {w['name']}: `{name}`")
    lines.append(f"- {w['title']}: {escape(variant.title(lang))}")
    chances = ", ".join(f"{value}: {chance}" for value, chance in variant.instrument.outcomes)
    lines.append("- " + w["pieces"].format(pieces=variant.pieces))
    lines.append("- " + w["throws"].format(chances=chances))
    if variant.aliases:
        lines.append(f"- {w['aliases']}: " + ", ".join(f"`{a}`" for a in variant.aliases))
    lines += ["", f"## {w['rules']}", "", w["rules_note"], ""]
    lines += [f"- **`{clause.id}`** — {escape(clause.text(lang))}" for clause in book.clauses]
    lines.append("")
    if name == "standard":
        lines += [f"## {w['aspects']}", "", w["aspects_note"], ""]
        lines += [f"| {w['aspect']} | {name} |", "|---|---|"]
        lines += [f"| {escape(label)} | {escape(text)} |" for label, text in describe(name, lang)]
    else:
        lines += [f"## {w['diff']}", ""]
        rows = difference_table(name, "standard", lang)
        if rows:
            lines += [f"| {w['aspect']} | {name} | standard |", "|---|---|---|"]
            lines += [f"| {escape(r.label)} | {escape(r.a)} | {escape(r.b)} |" for r in rows]
        else:
            lines.append(w["nodiff"])
    lines += ["", f"## {w['decisions']}", "", w["decisions_note"], ""]
    for decision in book.decisions:
        lines += [
            f"### `{decision.key}`",
            "",
            f"*{escape(decision.question(lang))}*",
            "",
            escape(decision.answer(lang)),
            "",
        ]
    if book.ludii:
        lines += [f"## {w['ludii']}", ""]
        lines += [f"| {w['topic']} | Ludii | {w['ours']} |", "|---|---|---|"]
        lines += [
            f"| {escape(d.topic(lang))} | {escape(d.ludii(lang))} | {escape(d.ours(lang))} |"
            for d in book.ludii
        ]
        lines.append("")
    lines += [f"## {w['history']}", ""]
    for paragraph in book.history(lang).split("\n"):
        if paragraph.strip():
            lines += [escape(paragraph), ""]
    return lines


def variant_page(name: str) -> str:
    """The Markdown page of one variant: a tab in English and one in Russian."""
    lines = [
        f"# {escape(VARIANTS[name].title('en'))}",
        "",
        "*Written from the engine's rulebook (`senet.engine.rulebook`) and difference table "
        f"when this site is built: `senet rules {name} [--lang ru]` prints the same, and the "
        "site's variant page shows it.*",
        "",
    ]
    for lang in ("en", "ru"):
        lines += [f'=== "{WORDS[lang]["tab"]}"', ""]
        lines += [("    " + line) if line else "" for line in variant_body(name, lang)]
        lines.append("")
    return "\n".join(lines) + "\n"


def _variants_section(nav: list[Any]) -> list[Any] | None:
    """The navigation's section whose first page is the variants' index, wherever it is."""
    for entry in nav:
        children = next(iter(entry.values())) if isinstance(entry, dict) else None
        if isinstance(children, list) and children:
            first = children[0]
            if (next(iter(first.values())) if isinstance(first, dict) else first) == INDEX:
                return children
            found = _variants_section(children)
            if found is not None:
                return found
    return None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    section = _variants_section(config.nav or [])
    if section is None:
        raise ValueError(f"mkdocs.yml: no navigation section starts with {INDEX}")
    section[1:1] = [{name: page_path(name)} for name in VARIANTS]
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for name in VARIANTS:
        files.append(File.generated(config, page_path(name), content=variant_page(name)))
    return files
