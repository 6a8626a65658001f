"""The ``senet`` command line: one click group; each layer contributes its own commands.

Engine commands live in :mod:`senet.cli_engine`; the computer opponent's (``solve``,
``review``) in :mod:`senet.ai.cli`; the site's (``serve``, ``migrate``) in :mod:`senet.web.cli`;
trust (``verify``) in :mod:`senet.service.cli`; the engine protocol's (``engine``,
``match``) in :mod:`senet.protocol.cli`; the simulator's (``stats``) in
:mod:`senet.sim.cli`; the measurements of speed (``bench``, engine and levels) in
:mod:`senet.cli_engine.bench`.
Each module lists its commands in
``COMMANDS``; this group imports a module only when one of its commands runs (the web stack
and numpy cost most of a second to import, an engine command needs neither).  A layer that is
not importable contributes nothing, so the engine's commands work where the web stack is not
installed.  A test checks that :data:`COMMAND_MODULES` names exactly what the modules list.
"""

from __future__ import annotations

import importlib

import click

from . import __version__

#: command name -> the module whose ``COMMANDS`` has it
COMMAND_MODULES: dict[str, str] = {
    **dict.fromkeys(
        ("variants", "rules", "moves", "play", "replay", "simulate"), "senet.cli_engine"
    ),
    **dict.fromkeys(("solve", "review"), "senet.ai.cli"),
    "bench": "senet.cli_engine.bench",
    **dict.fromkeys(("serve", "migrate"), "senet.web.cli"),
    "verify": "senet.service.cli",
    "stats": "senet.sim.cli",
    **dict.fromkeys(("engine", "match"), "senet.protocol.cli"),
}


def _commands_of(module_name: str) -> dict[str, click.Command]:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return {}  # that layer is not installed
        raise
    return {command.name: command for command in getattr(module, "COMMANDS", ()) if command.name}


class LazyGroup(click.Group):
    """A group that imports a command's module when the command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module_name = COMMAND_MODULES.get(cmd_name)
        return _commands_of(module_name).get(cmd_name) if module_name else None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="senet")
def main() -> None:
    """Senet, the game of passing: rules, play, analysis and the web site."""


if __name__ == "__main__":  # pragma: no cover
    main()
