"""Shared fixtures for the command-line tests: the real ``senet`` front door run in-process with
its standard streams captured (so the commands are tested as registered, not in isolation),
and the installed console script."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from senet.cli import main

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Result:
    """What a run of ``senet`` left: its exit status, stdout, stderr, and both as a terminal
    shows them (``output``, in the order written)."""

    exit_code: int
    stdout: str
    stderr: str
    output: str


class _Tee(io.StringIO):
    """A stream that also copies what it is given to the shared terminal view."""

    def __init__(self, terminal: io.StringIO) -> None:
        super().__init__()
        self.terminal = terminal

    def write(self, text: str) -> int:
        self.terminal.write(text)
        return super().write(text)


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch):
    """``run("moves", "--position", ..., input="...")`` -> :class:`Result`."""

    def invoke(*args: str, input: str | None = None) -> Result:
        terminal = io.StringIO()
        out, err = _Tee(terminal), _Tee(terminal)
        with monkeypatch.context() as patch:
            patch.setattr(sys, "stdin", io.StringIO(input or ""))
            patch.setattr(sys, "stdout", out)
            patch.setattr(sys, "stderr", err)
            code = main(list(args))
        return Result(code, out.getvalue(), err.getvalue(), terminal.getvalue())

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
