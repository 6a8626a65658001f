"""MkDocs hook: the command-line page's reference, every ``senet`` command with its ``--help``,
written at build time by the commands themselves, so the page lists exactly the commands and
options the program has."""

from __future__ import annotations

import io
import os
from contextlib import redirect_stdout
from typing import Any

import click

from senet.cli import COMMAND_MODULES, find_command

#: where cli.md wants the reference
MARKER = "<!-- every command's help -->"


def help_text(command: Any, args: list[str], prog_name: str) -> str:
    """What ``PROG_NAME ARGS --help`` prints, 100 columns wide."""
    out = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        with redirect_stdout(out):
            command.main([*args, "--help"], prog_name=prog_name)
    except SystemExit:
        pass  # --help ends the program
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue().rstrip()


def reference() -> str:
    """Every command's help; a group's (``senet bench``) and then each of its commands'."""
    parts = []
    for name in sorted(COMMAND_MODULES):
        command = find_command(name)
        if command is None:
            raise ValueError(f"senet {name}: no such command")
        calls: list[tuple[str, list[str]]] = [(f"senet {name}", [])]
        if isinstance(command, click.Group):
            calls += [(f"senet {name} {sub}", [sub]) for sub in sorted(command.commands)]
        for title, args in calls:
            text = help_text(command, args, f"senet {name}")
            parts += [f"### `{title}`", "", "```text", text, "```", ""]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri != "cli.md":
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"cli.md: the marker {MARKER!r} is missing")
    return markdown.replace(MARKER, reference())
