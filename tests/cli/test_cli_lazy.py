"""The ``senet`` group loads a layer only when one of its commands runs."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

from senet.cli import COMMAND_MODULES, EXTRAS


def test_the_command_table_names_exactly_what_each_layer_lists() -> None:
    listed = {}
    for module_name in set(COMMAND_MODULES.values()):
        for command in importlib.import_module(module_name).COMMANDS:
            listed[command.name] = module_name
    assert listed == COMMAND_MODULES


def test_an_engine_command_imports_neither_numpy_nor_the_web_stack() -> None:
    code = (
        "import json, sys\n"
        "from senet.cli import main\n"
        "from senet.engine import Position, find_variant\n"
        "fen = Position.initial(find_variant('standard')).apply_throw(3).fen()\n"
        "main(['moves', '--position', fen])\n"
        "print(json.dumps([m in sys.modules for m in ('numpy', 'fastapi', 'sqlalchemy', 'senet.ai')]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert json.loads(done.stderr.strip().splitlines()[-1]) == [False, False, False, False], (
        done.stderr
    )


def test_every_command_is_reachable_through_the_group() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "senet.cli", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    for name in COMMAND_MODULES:
        assert f"  {name} " in done.stdout


def test_every_layer_with_third_party_packages_names_its_extra() -> None:
    """The engine's commands need no extra; every other command module names the extra that a
    bare install lacks (the message of a command whose layer is missing quotes it)."""
    needing = set(COMMAND_MODULES.values()) - {"senet.cli_engine"}
    assert set(EXTRAS) == needing
    assert set(EXTRAS.values()) <= {"ai", "web", "env", "all"}
