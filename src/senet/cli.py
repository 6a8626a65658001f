"""The ``senet`` command line: one command per word; each layer contributes its own commands.

Engine commands live in :mod:`senet.cli_engine`; the computer opponent's (``solve``,
``review``, ``train``) in :mod:`senet.ai.cli`; the site's (``serve``, ``migrate``) in :mod:`senet.web.cli`;
trust (``verify``) and the search workers (``worker``) in
:mod:`senet.service.cli`; the engine protocol's (``engine``,
``match``) in :mod:`senet.protocol.cli`; the simulator's (``stats``) in
:mod:`senet.sim.cli`; the measurements of speed (``bench``, engine and levels) in
:mod:`senet.cli_engine.bench`.  Each module lists its commands in ``COMMANDS``; this module
imports a module only when one of its commands runs (the web stack and numpy cost most of a
second to import, an engine command needs neither).  A test checks that
:data:`COMMAND_MODULES` names exactly what the modules list.

This front door is the standard library only, and so are the engine's commands (argparse):
``pip install senet`` without extras installs no third-party package, and its engine commands
work there.  The other layers' commands are click commands, since those layers need
third-party packages anyway; a command whose layer is not installed says which extra brings
it.  Both kinds of command offer ``name``, ``main(args, prog_name=...)`` and
``get_short_help_str()``, which is all this module uses.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Protocol

from . import __version__

#: command name -> the module whose ``COMMANDS`` has it
COMMAND_MODULES: dict[str, str] = {
    **dict.fromkeys(
        ("variants", "rules", "moves", "play", "replay", "simulate"), "senet.cli_engine"
    ),
    **dict.fromkeys(("solve", "review", "train"), "senet.ai.cli"),
    "bench": "senet.cli_engine.bench",
    **dict.fromkeys(("serve", "migrate"), "senet.web.cli"),
    **dict.fromkeys(("verify", "worker", "backup", "restore", "export"), "senet.service.cli"),
    "stats": "senet.sim.cli",
    **dict.fromkeys(("engine", "match"), "senet.protocol.cli"),
}

#: command module -> the extra (``pip install 'senet[EXTRA]'``) that installs what it needs;
#: a module not named here needs ``all``.  The engine's commands need none.
EXTRAS: dict[str, str] = {
    "senet.ai.cli": "ai",
    "senet.cli_engine.bench": "ai",
    "senet.sim.cli": "ai",
    "senet.web.cli": "web",
    "senet.service.cli": "web",
    "senet.protocol.cli": "ai",
}


class Command(Protocol):
    """What the front door needs of a command (a click command or an engine command)."""

    @property
    def name(self) -> str | None: ...

    def get_short_help_str(self, limit: int = 45) -> str: ...

    def main(self, args: Sequence[str], prog_name: str) -> object: ...


class LayerMissing(Exception):
    """A command's layer needs a third-party package that is not installed."""

    def __init__(self, module_name: str, package: str) -> None:
        extra = EXTRAS.get(module_name, "all")
        super().__init__(
            f"needs the package {package!r}, which is not installed: pip install 'senet[{extra}]'"
        )


def _commands_of(module_name: str) -> dict[str, Command]:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing and missing != "senet":
            raise LayerMissing(module_name, missing) from exc
        raise
    return {command.name: command for command in getattr(module, "COMMANDS", ()) if command.name}


def find_command(name: str) -> Command | None:
    """The command called ``name``, its module imported now; None for an unknown name.
    Raises :class:`LayerMissing` when its layer's packages are not installed."""
    module_name = COMMAND_MODULES.get(name)
    return _commands_of(module_name).get(name) if module_name else None


def help_text() -> str:
    """``senet --help``: usage and every command with its one-line help (a command whose
    layer is not installed says which extra brings it)."""
    lines = [
        "Usage: senet [--version] [-h] COMMAND [ARGS]...",
        "",
        "  Senet, the game of passing: rules, play, analysis and the web site.",
        "  'senet COMMAND --help' describes a command.",
        "",
        "Commands:",
    ]
    width = max(map(len, COMMAND_MODULES))
    for name in sorted(COMMAND_MODULES):
        try:
            command = find_command(name)
            text = command.get_short_help_str(limit=70) if command else ""
        except LayerMissing as exc:
            text = f"(not installed: {exc})"
        lines.append(f"  {name.ljust(width)}  {text}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``senet ARGS`` (``argv`` defaults to the process's arguments); returns the exit
    status (0 success, 1 a command's error, 2 a usage error)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(help_text(), file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] == "--version":
        print(f"senet, version {__version__}")
        return 0
    name = args[0]
    try:
        command = find_command(name)
    except LayerMissing as exc:
        print(f"senet {name}: {exc}", file=sys.stderr)
        return 1
    if command is None:
        known = ", ".join(sorted(COMMAND_MODULES))
        print(f"senet: no such command {name!r} (commands: {known})", file=sys.stderr)
        return 2
    try:
        status = command.main(args[1:], prog_name=f"senet {name}")
    except SystemExit as exc:  # click's commands (and argparse's usage errors) exit
        status = exc.code
    if status is None:
        return 0
    if isinstance(status, int):
        return status
    print(status, file=sys.stderr)  # SystemExit("message"), as sys.exit("message") gives
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
