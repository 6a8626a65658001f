"""``senet variants`` and ``senet rules``: what each rule system is, straight from the engine's
data (variants, rulebook, difference table), so the terminal can never disagree with the game."""

from __future__ import annotations

import argparse
import textwrap

from senet.engine import VARIANTS
from senet.engine.differences import difference_table
from senet.engine.rulebook import rulebook

from .common import EngineCommand, add_lang_option, echo, get_variant

__all__ = ["variants_command", "rules_command"]

_WIDTH = 100

_HEAD = {
    "en": ("name", "title", "pieces", "instrument", "aliases"),
    "ru": ("имя", "название", "фишки", "бросок", "другие имена"),
}


def _variants(args: argparse.Namespace) -> None:
    """List the variants: name, title, pieces a side, throwing instrument, aliases."""
    lang = args.lang
    rows = [_HEAD[lang]]
    for v in VARIANTS.values():
        rows.append(
            (v.name, v.title(lang), str(v.pieces), v.instrument.name, ", ".join(v.aliases) or "—")
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for index, row in enumerate(rows):
        echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        if index == 0:
            echo("  ".join("-" * width for width in widths))


def _wrap(text: str, indent: str = "  ") -> str:
    # never break inside a hyphenated word ("throw-off"): the text reads back as written
    return textwrap.fill(
        text, _WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )


_LABELS = {
    "en": {
        "summary": "Summary",
        "clauses": "Rules",
        "diff": "Differences from the standard game",
        "same": "This is the standard game; other variants are compared with it.",
        "nodiff": "No differences from the standard game.",
        "decisions": "Decisions on open points",
        "history": "History",
        "q": "Q",
        "a": "A",
        "this": "this variant",
        "standard": "standard",
        "ludii": "Ludii's encoding (Senet.lud) differs here",
        "ours": "ours",
    },
    "ru": {
        "summary": "Кратко",
        "clauses": "Правила",
        "diff": "Отличия от стандартной игры",
        "same": "Это стандартная игра; остальные варианты сравниваются с ней.",
        "nodiff": "Отличий от стандартной игры нет.",
        "decisions": "Решения по открытым вопросам",
        "history": "История",
        "q": "В",
        "a": "О",
        "this": "этот вариант",
        "standard": "стандарт",
        "ludii": "Кодировка Ludii (Senet.lud) здесь иная",
        "ours": "у нас",
    },
}


def _rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="Variant name or alias.")
    add_lang_option(parser)


def _rules(args: argparse.Namespace) -> None:
    """Print a variant's rules: summary, every clause with its id, the differences from the
    standard game, every decision on an open point, and history."""
    lang = args.lang
    v = get_variant(args.variant)
    book = rulebook(v)
    L = _LABELS[lang]
    title = f"{v.title(lang)} ({v.name})"
    echo(title)
    echo("=" * len(title))
    echo(f"\n{L['summary']}:")
    echo(_wrap(book.summary(lang)))
    echo(f"\n{L['clauses']}:")
    for clause in book.clauses:
        echo(f"  [{clause.id}]")
        echo(_wrap(clause.text(lang), "    "))
    echo(f"\n{L['diff']}:")
    if v.name == "standard":
        echo(_wrap(L["same"]))
    else:
        rows = difference_table(v, "standard", lang)
        if not rows:
            echo(_wrap(L["nodiff"]))
        for row in rows:
            echo(f"  {row.label}")
            echo(_wrap(f"{L['this']}: {row.a}", "    "))
            echo(_wrap(f"{L['standard']}: {row.b}", "    "))
    echo(f"\n{L['decisions']}:")
    for decision in book.decisions:
        echo(f"  [{decision.key}]")
        echo(_wrap(f"{L['q']}: {decision.question(lang)}", "    "))
        echo(_wrap(f"{L['a']}: {decision.answer(lang)}", "    "))
    if book.ludii:
        echo(f"\n{L['ludii']}:")
        for difference in book.ludii:
            echo(f"  [{difference.topic(lang)}]")
            echo(_wrap(f"Ludii: {difference.ludii(lang)}", "    "))
            echo(_wrap(f"{L['ours']}: {difference.ours(lang)}", "    "))
    echo(f"\n{L['history']}:")
    for paragraph in book.history(lang).split("\n"):
        if paragraph.strip():
            echo(_wrap(paragraph))


variants_command = EngineCommand("variants", "List the variants.", add_lang_option, _variants)
rules_command = EngineCommand(
    "rules",
    "A variant's rules, differences from standard, decisions, history.",
    _rules_arguments,
    _rules,
)
