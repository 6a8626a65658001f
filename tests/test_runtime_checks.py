"""The package checks at run time with exceptions, never with ``assert``: ``python -O`` strips
every assert statement, so a check written as one would vanish in an optimised run (ruff's
S101 keeps new ones out of src/; this test reads the tree itself)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def test_no_module_of_the_package_checks_with_assert() -> None:
    found = [
        f"{path.relative_to(SRC)}:{node.lineno}"
        for path in sorted(SRC.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Assert)
    ]
    assert found == []
