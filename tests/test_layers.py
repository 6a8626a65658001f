"""The import layers of docs/architecture.md, as scripts/test checks them (import-linter, the
contracts in pyproject.toml): the real tree keeps them, and a copy of the tree with one
forbidden import added — at the top of a module, or inside a function — fails the check."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def layer_check_line() -> str:
    """The line of scripts/test that checks the layers (so that this test runs exactly it)."""
    lines = [
        line
        for line in (ROOT / "scripts" / "test").read_text().splitlines()
        if "lint-imports" in line
    ]
    assert len(lines) == 1, lines
    return lines[0]


def run_layer_check(tree: Path) -> subprocess.CompletedProcess[str]:
    """scripts/test's layer check, run in ``tree`` on the package under ``tree/src``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + layer_check_line()],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package and its contracts, checked with this checkout's virtualenv."""
    shutil.copytree(
        ROOT / "src" / "senet",
        tmp_path / "src" / "senet",
        ignore=shutil.ignore_patterns("__pycache__", "static", "templates", "locales", "data"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parent.parent)
    return tmp_path


def add_line(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n\n" + text + "\n")


def test_the_tree_keeps_its_layers(tree: Path) -> None:
    result = run_layer_check(tree)
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_engine_module_importing_the_ai_fails_the_check(tree: Path) -> None:
    add_line(tree / "src/senet/engine/moves.py", "from senet.ai import search  # noqa")
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "senet.engine.moves -> senet.ai.search" in result.stderr
    assert "an import crosses the layers" in result.stderr


def test_an_import_inside_a_function_counts(tree: Path) -> None:
    """The compiled rules reaching up to the AI only when called is still a violation."""
    add_line(
        tree / "src/senet/compiled/tables.py",
        "def _late():\n    from senet.ai.evaluation import weights_for\n\n    return weights_for",
    )
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "senet.compiled.tables -> senet.ai.evaluation" in result.stderr


def test_a_router_importing_the_application_fails_the_check(tree: Path) -> None:
    add_line(tree / "src/senet/web/routes/stats.py", "from ..app import create_app  # noqa")
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "senet.web.routes.stats -> senet.web.app" in result.stderr


def test_the_laboratory_reading_the_settings_fails_the_check(tree: Path) -> None:
    add_line(tree / "src/senet/sim/stats.py", "from senet import settings  # noqa")
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "senet.sim.stats -> senet.settings" in result.stderr


def test_a_new_package_must_have_its_place(tree: Path) -> None:
    """The top contract is exhaustive: a package of senet that no layer names fails it."""
    (tree / "src/senet/newcomer").mkdir()
    (tree / "src/senet/newcomer/__init__.py").write_text('"""Not in the diagram."""\n')
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "senet.newcomer" in result.stderr


def test_a_circle_inside_a_package_fails_the_check(tree: Path) -> None:
    """Two modules of one layer that import each other (here the board drawing and the
    translations, the one through a function) are a circle, whichever way it is hidden."""
    add_line(
        tree / "src/senet/web/i18n.py",
        "def _late():\n    from .render import board_svg\n\n    return board_svg",
    )
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "No cycles are allowed in senet.web" in result.stderr
    assert ".i18n -> .render" in result.stderr


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        ("live.connection", "from senet.service.live_games import LiveGame  # noqa"),
        (
            "routes.pages",
            "def _late():\n    from senet.service.game_database import Storage\n\n    return Storage",
        ),
    ],
)
def test_the_site_reaching_into_the_store_or_the_tables_fails_the_check(
    tree: Path, module: str, forbidden: str
) -> None:
    """The site reads games through the service's queries (``GameService.queries``): a
    router importing the store's games or the games' tables fails the check."""
    add_line(tree / f"src/senet/web/{module.replace('.', '/')}.py", forbidden)
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "never its store or its" in result.stdout + result.stderr
    assert f"senet.web.{module} -> senet.service." in result.stderr


def test_a_web_process_does_not_load_the_compiled_rules() -> None:
    """Search runs in worker processes, so a web process never runs compiled code: building the
    site (which shows the laboratory's figures) loads neither Numba nor the kernel."""
    probe = (
        "import sys, senet.web.app; "
        "print(sorted(m for m in ('numba', 'senet.compiled.kernel', 'senet.sim.runner') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
