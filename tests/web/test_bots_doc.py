"""The bot of docs/bots.md, run as the page prints it against a real server: a whole game
against the computer through the HTTP API, to its result."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, SiteServer

PAGE = ROOT / "docs" / "bots.md"


def the_bot() -> str:
    """The page's one Python program."""
    (program,) = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    return program


@pytest.mark.slow
def test_the_documented_bot_plays_a_whole_game(site: SiteServer, tmp_path: Path) -> None:
    program = the_bot()
    address = 'BASE = "http://127.0.0.1:8000"'
    assert address in program
    script = tmp_path / "bot.py"
    script.write_text(program.replace(address, f"BASE = {site.url!r}"))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    outcome = done.stdout.strip().splitlines()[-1]
    assert re.search(r"'result': '[AB]'", outcome), outcome


def test_the_bot_api_page_shows_examples_bot_py_as_it_is() -> None:
    """docs/bots.md prints examples/bot.py whole; the example is what the tests run."""
    shown = re.search(r'```python title="examples/bot.py"\n(.*?)```', PAGE.read_text(), re.S)
    assert shown is not None
    assert shown.group(1) == (ROOT / "examples" / "bot.py").read_text()
