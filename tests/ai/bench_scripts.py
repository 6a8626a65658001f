"""The bench scripts (``bench/*.py``) loaded as modules for their tests: they are scripts, not a
package, and import their neighbours by name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py`` as the module ``name`` (registered in ``sys.modules``, where its
    dataclasses look their module up)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))  # the bench imports its neighbours by name
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
