"""Fixtures shared by the AI's benchmark tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from senet.ai.tables import build, save, three_a_side_file
from senet.engine import find_variant


@pytest.fixture(scope="session")
def three_a_side_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-a-side truth table of standard seeded on the last seven squares (and everything
    they reach: some two million positions, seconds compiled), saved where the benches'
    ``--three-a-side DIR`` reads it.  The whole board's is built by hand, not shipped."""
    region = (24, 3, 6)
    hi, lo, values = build(find_variant("standard"), [region], max_states=10_000_000)
    folder = tmp_path_factory.mktemp("three-a-side")
    save(folder / three_a_side_file("standard"), hi, lo, values, [region])
    return folder
