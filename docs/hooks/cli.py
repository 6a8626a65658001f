"""MkDocs hook: the command-line page's reference, every ``senet`` command with its ``--help``,
written at build time from the click commands themselves, so the page lists exactly the
commands and options the program has."""

from __future__ import annotations

from typing import Any

import click

from senet.cli import COMMAND_MODULES, main

#: where cli.md wants the reference
MARKER = "<!-- every command's help -->"


def help_text(command: click.Command, path: str) -> str:
    """``PATH --help`` as the terminal shows it, 100 columns wide."""
    context = click.Context(command, info_name=path, terminal_width=100, max_content_width=100)
    return command.get_help(context)


def reference() -> str:
    """Every command's help; a group's (``senet bench``) and then each of its commands'."""
    parts = []
    for name in sorted(COMMAND_MODULES):
        command = main.get_command(click.Context(main), name)
        if command is None:
            raise ValueError(f"senet {name}: the command is not importable here")
        commands = [(f"senet {name}", command)]
        if isinstance(command, click.Group):
            commands += [
                (f"senet {name} {sub}", command.commands[sub]) for sub in sorted(command.commands)
            ]
        for path, each in commands:
            parts += [f"### `{path}`", "", "```text", help_text(each, path), "```", ""]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri != "cli.md":
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"cli.md: the marker {MARKER!r} is missing")
    return markdown.replace(MARKER, reference())
