"""The engine's commands for the ``senet`` command line.

:mod:`senet.cli` collects :data:`COMMANDS` from here.  Each command lives in its own module so
that a change to, say, the terminal game cannot break the rule listing; shared pieces (variant
and position parsing that turn engine errors into one-line messages, the board drawing) live
in :mod:`senet.cli_engine.common`.
"""

from __future__ import annotations

from .info import rules_command, variants_command
from .moves import moves_command
from .play import play_command
from .replay import replay_command
from .simulate import simulate_command

COMMANDS = [
    variants_command,
    rules_command,
    moves_command,
    play_command,
    replay_command,
    simulate_command,
]

__all__ = ["COMMANDS"]
