"""Shared fixtures for the command-line tests: a CliRunner on the real ``senet`` group (so the
commands are tested as registered, not in isolation) and the installed console script."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from senet.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run():
    """``run("moves", "--position", ..., input="...")`` -> click Result (stderr kept apart)."""
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:  # click >= 8.2 always keeps stderr apart
        runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture
def senet_exe() -> Path:
    """The console script installed in the virtualenv running the tests."""
    exe = Path(sys.executable).parent / "senet"
    if not exe.exists():
        exe = ROOT / ".venv" / "bin" / "senet"
    if not exe.exists():
        pytest.skip("the senet console script is not installed (run scripts/bootstrap)")
    return exe
