"""The examples in the package's docstrings run as tests: a docstring example that no longer
holds fails the suite like any other test."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import senet

# Migrations are scripts for alembic (they import its runtime context), not library modules.
_SKIP = ("senet.service.database.migrations",)


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(senet.__path__, "senet."):
        if info.name.startswith(_SKIP):
            continue
        tests = doctest.DocTestFinder().find(importlib.import_module(info.name))
        if any(test.examples for test in tests):
            names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_package_has_docstring_examples() -> None:
    assert {"senet.engine", "senet.engine.throws"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail"
