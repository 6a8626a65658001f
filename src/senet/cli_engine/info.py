"""``senet variants`` and ``senet rules``: what each rule system is, straight from the engine's
data (variants, rulebook, difference table), so the terminal can never disagree with the game."""

from __future__ import annotations

import textwrap

import click

from senet.engine import VARIANTS
from senet.engine.differences import difference_table
from senet.engine.rulebook import rulebook

from .common import LANG_OPTION, get_variant

__all__ = ["variants_command", "rules_command"]

_WIDTH = 100

_HEAD = {
    "en": ("name", "title", "pieces", "instrument", "aliases"),
    "ru": ("имя", "название", "фишки", "бросок", "другие имена"),
}


@click.command("variants", short_help="List the variants.")
@LANG_OPTION
def variants_command(lang: str) -> None:
    """List the variants: name, title, pieces a side, throwing instrument, aliases."""
    rows = [_HEAD[lang]]
    for v in VARIANTS.values():
        rows.append(
            (v.name, v.title(lang), str(v.pieces), v.instrument.name, ", ".join(v.aliases) or "—")
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for index, row in enumerate(rows):
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        if index == 0:
            click.echo("  ".join("-" * width for width in widths))


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


@click.command(
    "rules", short_help="A variant's rules, differences from standard, decisions, history."
)
@click.argument("variant")
@LANG_OPTION
def rules_command(variant: str, lang: str) -> None:
    """Print a variant's rules: summary, every clause with its id, the differences from the
    standard game, every decision on an open point, and history."""
    v = get_variant(variant)
    book = rulebook(v)
    L = _LABELS[lang]
    title = f"{v.title(lang)} ({v.name})"
    click.echo(title)
    click.echo("=" * len(title))
    click.echo(f"\n{L['summary']}:")
    click.echo(_wrap(book.summary(lang)))
    click.echo(f"\n{L['clauses']}:")
    for clause in book.clauses:
        click.echo(f"  [{clause.id}]")
        click.echo(_wrap(clause.text(lang), "    "))
    click.echo(f"\n{L['diff']}:")
    if v.name == "standard":
        click.echo(_wrap(L["same"]))
    else:
        rows = difference_table(v, "standard", lang)
        if not rows:
            click.echo(_wrap(L["nodiff"]))
        for row in rows:
            click.echo(f"  {row.label}")
            click.echo(_wrap(f"{L['this']}: {row.a}", "    "))
            click.echo(_wrap(f"{L['standard']}: {row.b}", "    "))
    click.echo(f"\n{L['decisions']}:")
    for decision in book.decisions:
        click.echo(f"  [{decision.key}]")
        click.echo(_wrap(f"{L['q']}: {decision.question(lang)}", "    "))
        click.echo(_wrap(f"{L['a']}: {decision.answer(lang)}", "    "))
    if book.ludii:
        click.echo(f"\n{L['ludii']}:")
        for difference in book.ludii:
            click.echo(f"  [{difference.topic(lang)}]")
            click.echo(_wrap(f"Ludii: {difference.ludii(lang)}", "    "))
            click.echo(_wrap(f"{L['ours']}: {difference.ours(lang)}", "    "))
    click.echo(f"\n{L['history']}:")
    for paragraph in book.history(lang).split("\n"):
        if paragraph.strip():
            click.echo(_wrap(paragraph))
