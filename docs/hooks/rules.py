"""MkDocs hook: a page of rules for every variant, written at build time from the engine's
rulebook (``senet.engine.rulebook``) and difference table (``senet.engine.differences``) -- the
same data the site's variant pages and ``senet rules`` show -- so the documentation can never
disagree with the rules the engine plays.  It adds ``variants/<name>.md`` for every variant and
lists them in the navigation right after ``variants/index.md``, the first page of their section."""

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


def variant_page(name: str) -> str:
    """The Markdown page of one variant: summary, clauses, differences, decisions, Ludii, history."""
    variant = VARIANTS[name]
    book: Rulebook = rulebook(name)
    lines = [f"# {escape(variant.title('en'))} (`{name}`)", ""]
    lines += [
        "*Generated from the engine's rulebook (`senet.engine.rulebook`) and difference table "
        f"when the documentation is built; `senet rules {name}` prints the same, and "
        f"`senet rules {name} --lang ru` in Russian, as the site's variant page shows it.*",
        "",
        escape(book.summary("en")),
        "",
    ]
    russian = variant.title("ru")
    aliases = ", ".join(f"`{alias}`" for alias in variant.aliases)
    lines += [
        f"- Russian title: {escape(russian)}",
        f"- Pieces a side: {variant.pieces}; throws: {escape(variant.instrument.name)}",
    ]
    if aliases:
        lines.append(f"- Other names: {aliases}")
    lines += ["", "## Rules", ""]
    lines.append("Each clause with the id that tests cite it by.")
    lines.append("")
    for clause in book.clauses:
        lines += [f"- **`{clause.id}`** — {escape(clause.text('en'))}"]
    if name == "standard":
        lines += ["", "## Every aspect of the rules", ""]
        lines += ["The other variants are compared with this one.", ""]
        lines += ["| aspect | standard |", "|---|---|"]
        lines += [f"| {escape(label)} | {escape(text)} |" for label, text in describe(name)]
    else:
        lines += ["", "## Differences from the standard game", ""]
        rows = difference_table(name, "standard", "en")
        if rows:
            lines += [f"| aspect | {name} | standard |", "|---|---|---|"]
            lines += [f"| {escape(r.label)} | {escape(r.a)} | {escape(r.b)} |" for r in rows]
        else:
            lines.append("No differences from the standard game.")
    lines += ["", "## Decisions on open points", ""]
    lines.append(
        "Where the source is silent or ambiguous, our choice and why; each is pinned by a test "
        "named `test_decision_<variant>_<key>`."
    )
    lines.append("")
    for decision in book.decisions:
        lines += [
            f"### `{decision.key}`",
            "",
            f"*{escape(decision.question('en'))}*",
            "",
            escape(decision.answer("en")),
            "",
        ]
    if book.ludii:
        lines += ["## Where Ludii's encoding (Senet.lud) differs", ""]
        lines += ["| topic | Ludii | ours |", "|---|---|---|"]
        lines += [
            f"| {escape(d.topic('en'))} | {escape(d.ludii('en'))} | {escape(d.ours('en'))} |"
            for d in book.ludii
        ]
        lines.append("")
    lines += ["## History", ""]
    lines += [escape(p) + "\n" for p in book.history("en").split("\n") if p.strip()]
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
    section[1:1] = [page_path(name) for name in VARIANTS]
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for name in VARIANTS:
        files.append(File.generated(config, page_path(name), content=variant_page(name)))
    return files
