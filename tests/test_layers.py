"""The import layers of docs/architecture.md, as scripts/test checks them (import-linter, the
contracts in pyproject.toml): the real tree keeps them, and a copy of the tree with one
forbidden import added — at the top of a module, or inside a function — fails the check."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
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
        ("live.connection", "from senet.service.games.live_games import LiveGame  # noqa"),
        (
            "routes.pages",
            "def _late():\n    from senet.service.games.storage import Storage\n\n    return Storage",
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
    assert "never a module inside a package" in result.stdout + result.stderr
    assert f"senet.web.{module} -> senet.service." in result.stderr


@pytest.mark.parametrize(
    ("module", "forbidden", "arrow"),
    [
        (
            "challenges/offers.py",
            "from senet.service.push.storage import PushStorage  # noqa",
            "senet.service.challenges.offers -> senet.service.push.storage",
        ),
        (
            "games/commands.py",
            "def _late():\n    from senet.service.players.accounts import Players\n\n    return Players",
            "senet.service.games.commands -> senet.service.players.accounts",
        ),
        (
            "database/schema.py",
            "from senet.service.players import names  # noqa",
            "senet.service.database.schema -> senet.service.players.names",
        ),
    ],
)
def test_a_service_domain_reaching_up_fails_the_check(
    tree: Path, module: str, forbidden: str, arrow: str
) -> None:
    """The service's domains stand on the ones below them: challenges knowing Web Push's
    storage, the games knowing the players, the database knowing a domain each fail."""
    add_line(tree / f"src/senet/service/{module}", forbidden)
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "The service: its domains" in result.stdout + result.stderr
    assert arrow in result.stderr


@pytest.mark.parametrize(
    ("module", "forbidden", "arrow"),
    [
        (
            "chat/quick_chat.py",
            "from senet.service.lobby.opponents import Lobby  # noqa",
            "senet.service.chat.quick_chat -> senet.service.lobby.opponents",
        ),
        (
            "challenges/offers.py",
            "from senet.service.chat import QuickChat  # noqa",
            "senet.service.challenges.offers -> senet.service.chat",
        ),
    ],
)
def test_domains_beside_the_games_importing_each_other_fail_the_check(
    tree: Path, module: str, forbidden: str, arrow: str
) -> None:
    """The chat, the challenges, the lobby, the reviews and the lessons know nothing of each
    other, whichever layer each stands in."""
    add_line(tree / f"src/senet/service/{module}", forbidden)
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "know nothing of each other" in result.stdout + result.stderr
    assert arrow in result.stderr


def test_a_new_service_module_must_have_its_place(tree: Path) -> None:
    """The service's contract is exhaustive: a module of senet.service that no layer names
    fails it."""
    (tree / "src/senet/service/newcomer.py").write_text('"""Not in the diagram."""\n')
    result = run_layer_check(tree)
    assert result.returncode != 0
    assert "senet.service.newcomer" in result.stdout + result.stderr


def test_every_service_package_has_a_face() -> None:
    """Each package of the service says what it offers: an ``__init__`` with ``__all__``,
    every name of which it holds, none of them the name of one of its modules (which the name
    would hide)."""
    service = ROOT / "src" / "senet" / "service"
    packages = sorted(p for p in service.iterdir() if (p / "__init__.py").exists())
    assert len(packages) >= 14
    for package in packages:
        face = importlib.import_module(f"senet.service.{package.name}")
        names = getattr(face, "__all__", None)
        assert names, package.name
        assert all(hasattr(face, name) for name in names), package.name
        modules = {m.name for m in pkgutil.iter_modules(face.__path__)}
        assert not modules & set(names), package.name


def test_the_games_face_offers_the_site_no_game_in_memory_nor_stored_row() -> None:
    """The site reads games through the service's queries: the games' face, the only way the
    site reaches the games, offers neither the games in memory nor the stored rows, only the
    store the application opens and hands to the service."""
    games = importlib.import_module("senet.service.games")
    held = {"GameStore", "LiveGame", "Decision", "StoredGame", "StoredSeat", "StoredAction"}
    assert not held & set(games.__all__)
    assert not any(hasattr(games, name) for name in held)
    assert "Storage" in games.__all__


def test_no_module_loads_the_project_by_name() -> None:
    """Every import of the project is a statement the layer check sees: no module of senet
    calls importlib or __import__ on the project's own modules, except the senet command,
    which names each layer's commands by their module (and imports none of them, its own
    contract)."""
    loaders = []
    for path in sorted((ROOT / "src" / "senet").rglob("*.py")):
        if path == ROOT / "src" / "senet" / "cli.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                name = getattr(func, "attr", None) or getattr(func, "id", None)
                if name in ("import_module", "__import__"):
                    loaders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert loaders == []


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


def test_the_engine_modules_import_each_other_one_way_without_exceptions() -> None:
    """No contract over the engine tolerates an import: its modules form no circle, not even
    through the conveniences that point up (Variant.start_position(), Position.fen())."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    ignored = [
        line
        for contract in contracts
        for line in contract.get("ignore_imports", [])
        if line.startswith("senet.engine.")
    ]
    assert ignored == []
