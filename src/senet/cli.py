"""The ``senet`` command line: one click group; each layer contributes its own commands.

Engine commands live in :mod:`senet.cli_engine`; the computer opponent's (``solve``,
``review``) in :mod:`senet.ai.cli`; the site's (``serve``) in :mod:`senet.web.cli`; trust
(``verify``) in :mod:`senet.service.cli`.  A layer that is not importable simply contributes
nothing, so the engine's commands work even where the web stack is not installed.
"""

from __future__ import annotations

import importlib

import click

from . import __version__

_COMMAND_MODULES = ("senet.cli_engine", "senet.ai.cli", "senet.web.cli", "senet.service.cli")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="senet")
def main() -> None:
    """Senet, the game of passing: rules, play, analysis and the web site."""


def _register() -> None:
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that layer is not written or not installed
            raise
        for command in getattr(module, "COMMANDS", ()):
            main.add_command(command)


_register()

if __name__ == "__main__":  # pragma: no cover
    main()
