"""Programs for the match tests: the installed ``senet engine`` and the broken engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BROKEN = Path(__file__).with_name("broken_engine.py")


@pytest.fixture
def senet_exe() -> Path:
    exe = Path(sys.executable).parent / "senet"
    if not exe.exists():
        exe = ROOT / ".venv" / "bin" / "senet"
    if not exe.exists():
        pytest.skip("the senet console script is not installed (run scripts/bootstrap)")
    return exe


@pytest.fixture
def level(senet_exe: Path):
    """``level("beginner")``: the argument list of a built-in level as an engine program."""

    def command(name: str) -> list[str]:
        return [str(senet_exe), "engine", "--level", name]

    return command


@pytest.fixture
def broken():
    """``broken("crash", at=2)``: the argument list of the broken engine."""

    def command(mode: str, at: int = 1, variants: tuple[str, ...] = ()) -> list[str]:
        plays = ["--variants", *variants] if variants else []
        return [sys.executable, str(BROKEN), mode, "--at", str(at), *plays]

    return command
