"""Pieces shared by the engine's commands: the command type and its one-line errors, input
parsing that turns engine errors into one-line messages, the text board, and plain-text tables.

The engine's commands use the standard library's :mod:`argparse`, so that ``pip install senet``
(no extras, no third-party package) gives a working ``senet`` command for them; the commands
of the layers that need third-party packages anyway (the AI, the site) stay on click.  Each
command is an :class:`EngineCommand`: its arguments, a function that runs it, and the same
``name``/``main``/``get_short_help_str`` that :mod:`senet.cli` uses on a click command.

Every command reads variants and positions through :func:`get_variant` and :func:`get_position`
so that a typo gives ``Error: ...`` naming the column, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from senet.engine import (
    HouseKind,
    NotationError,
    Outcome,
    Position,
    UnknownVariant,
    Variant,
    find_variant,
)
from senet.engine.position import seat_letter

__all__ = [
    "CommandError",
    "EngineCommand",
    "add_lang_option",
    "echo",
    "get_variant",
    "get_position",
    "render_board",
    "status_lines",
    "outcome_text",
    "notation_error_text",
    "format_table",
]


class CommandError(Exception):
    """A mistake in the command's input: printed as ``Error: message``, exit status 1."""


@dataclass(frozen=True)
class EngineCommand:
    """One ``senet`` command on argparse: ``arguments`` declares its options on a parser,
    ``run`` does the work (the parsed namespace in, the exit status out, None for 0).  The
    description under ``--help`` is ``run``'s docstring."""

    name: str
    short_help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int | None]

    def get_short_help_str(self, limit: int = 45) -> str:
        return self.short_help

    def parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(
            prog=prog_name,
            description=" ".join((self.run.__doc__ or self.short_help).split()),
        )
        self.arguments(parser)
        return parser

    def main(self, args: Sequence[str], prog_name: str) -> int:
        """Parse ``args`` and run; usage errors exit with status 2 (argparse), a
        :class:`CommandError` prints one line and returns 1."""
        namespace = self.parser(prog_name).parse_args(list(args))
        try:
            return self.run(namespace) or 0
        except CommandError as exc:
            print(f"Error: {exc}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("\nAborted!", file=sys.stderr)
            return 1


def echo(text: str = "", err: bool = False) -> None:
    """One line on stdout (or stderr), flushed: a terminal game shows each line as it comes."""
    print(text, file=sys.stderr if err else sys.stdout, flush=True)


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """``--lang en|ru``: every text the engine has exists in both languages."""
    parser.add_argument(
        "--lang",
        choices=["en", "ru"],
        default="en",
        help="Language of titles and rule texts (default: en).",
    )


def get_variant(name: str) -> Variant:
    """The variant by name or alias; a one-line error listing the known names otherwise."""
    try:
        return find_variant(name)
    except UnknownVariant as exc:
        raise CommandError(str(exc)) from None


def format_table(rows: Sequence[Sequence[str]]) -> str:
    """Rows of cells under a header row and a rule: the first column left-aligned, the others
    right-aligned (figures), each as wide as its widest cell."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for index, row in enumerate(rows):
        cells = (c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
        lines.append("  ".join(cells))
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def notation_error_text(exc: NotationError, prefix: str = "") -> str:
    """``[prefix]line L, column C: message (expected ...)`` in one line."""
    return f"{prefix}line {exc.line}, column {exc.column}: {exc.message}" + (
        f" (expected {exc.expected})" if exc.expected else ""
    )


def get_position(text: str) -> Position:
    """Read a position in notation; the error names the column (1-based) and what was expected.

    Space around the text (a pasted line with its newline) is forgiven; columns still count
    from the start of the text as given."""
    lead = len(text) - len(text.lstrip())
    try:
        return Position.from_fen(text.strip())
    except NotationError as exc:
        column = exc.column + lead
        where = f"column {column}" if exc.line == 1 else f"line {exc.line}, column {column}"
        detail = f" (expected {exc.expected})" if exc.expected else ""
        raise CommandError(f"bad position at {where}: {exc.message}{detail}") from None


# ----------------------------------------------------------------------------- the board

#: Short ASCII marks for empty Houses; the legend under the board gives their names.  ASCII
#: because hieroglyph symbols have unreliable widths in terminals and would break the grid.
_HOUSE_TAGS = {
    HouseKind.REBIRTH: "R",
    HouseKind.NET: "N",
    HouseKind.BA: "Ba",
    HouseKind.FATE: "F",
    HouseKind.DROWN: "~",
    HouseKind.SEND_BACK: "~",
    HouseKind.WATER_CHOICE: "~",
}

#: The rows as they lie on the real board: row 2 runs right to left, so it is drawn reversed.
_ROWS = (list(range(1, 11)), list(range(20, 10, -1)), list(range(21, 31)))
_ARROWS = ("->", "<-", "-> off")


def _house_tag(variant: Variant, square: int) -> str:
    house = variant.houses[square]
    tag = _HOUSE_TAGS.get(house.kind)
    if tag:
        return tag
    return house.symbol if house.symbol.isascii() else "H"


def render_board(position: Position, lang: str = "en", legend: bool = True) -> str:
    """The 3×10 snake as on the real board, with square numbers ([n] marks a House), the
    pieces of A and B, and a status line: whose decision, the throw, pieces off and counters."""
    variant = position.variant
    lines = []
    for row, arrow in zip(_ROWS, _ARROWS):
        numbers = "   " + " ".join(
            (f"[{sq}]" if sq in variant.houses else str(sq)).center(4) for sq in row
        )
        cells = []
        for sq in row:
            owner = position.owner(sq)
            if owner is not None:
                mark = seat_letter(owner)
            elif sq in variant.houses:
                mark = _house_tag(variant, sq)
            else:
                mark = ""
            cells.append(mark.center(4))
        lines.append(numbers.rstrip())
        lines.append("  |" + "|".join(cells) + "|  " + arrow)
    if legend:
        houses = ", ".join(
            f"{sq} {house.name(lang)} ({_house_tag(variant, sq)})"
            for sq, house in sorted(variant.houses.items())
        )
        lines.append(f"  Houses: {houses}")
    lines.extend(status_lines(position, lang))
    return "\n".join(lines)


def status_lines(position: Position, lang: str = "en") -> list[str]:
    """Pieces off and every non-zero counter per seat, then what happens next."""
    variant = position.variant
    out = []
    for seat in (0, 1):
        parts = [f"{position.off(seat)} off"]
        for label, value in (
            ("extra throws", position.extra(seat)),
            ("turns to skip", position.skip(seat)),
            ("lost to captures", position.captured(seat)),
            ("drowned", position.drowned(seat)),
            ("in hand", position.hand(seat)),
        ):
            if value:
                parts.append(f"{value} {label}")
        out.append(f"  {seat_letter(seat)} ({variant.seat_name(seat, lang)}): " + ", ".join(parts))
    out.append("  " + next_text(position))
    return out


def next_text(position: Position) -> str:
    """What happens next, in one phrase."""
    outcome = position.outcome()
    if outcome is not None:
        return "Game over: " + outcome_text(outcome, position.variant)
    turn = seat_letter(position.turn)
    if position.pending_name == "water":
        return f"{seat_letter(position.decider or 0)} chooses for the piece in the House of Water (risk or return)"
    if position.pending_name == "fate":
        if position.throw:
            return f"fate throw {position.throw} moves the piece on the House of Rejuvenation ({turn} on turn)"
        return f"a throw of fate is due for the piece on the House of Rejuvenation ({turn} on turn)"
    if position.throw and position.divided:
        n = position.throw
        return f"{turn} to move with {n} point{'s' if n > 1 else ''} left of a divided throw"
    if position.throw and position.entered:
        return f"{turn} to move the entered piece on 1 with a throw of {position.throw}"
    if position.throw:
        return f"{turn} to move with a throw of {position.throw}"
    if position.entered:
        return f"{turn} to throw for the entered piece on 1"
    return f"{turn} to throw"


def outcome_text(outcome: Outcome, variant: Variant) -> str:
    """``A wins (5-3, all pieces borne off)`` or ``draw (...)``."""
    score = f"{outcome.score[0]}-{outcome.score[1]}"
    who = "draw" if outcome.winner is None else f"{seat_letter(outcome.winner)} wins"
    return f"{who} ({score}, {outcome.reason})"
