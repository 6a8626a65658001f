"""``pip install senet`` without extras: the wheel, installed alone into a bare virtualenv (no
network, no other package), plays a game through the engine's API and runs the engine's
commands, and never imports numpy; the other layers' commands name the extra they need."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # builds a wheel and a virtualenv: about ten seconds

#: Played in the bare virtualenv: a whole game through the engine's API, then the modules that
#: are loaded and the package's declared requirements, as JSON on the last line.
GAME = """
import importlib.metadata, json, random, sys
from senet.engine import Game, Position, draw_throw, find_variant

game = Game(Position.initial(find_variant("kendall")))
rng = random.Random(7)
while not game.is_over():
    position = game.position
    if position.is_chance():
        game.push_throw(draw_throw(rng, position.variant.instrument))
    else:
        game.push(rng.choice(position.legal_moves()))
third_party = sorted(
    {name.split(".")[0] for name in sys.modules} - set(sys.stdlib_module_names) - {"senet"}
)
print(json.dumps({
    "actions": len(game),
    "winner": game.outcome().winner,
    "numpy": "numpy" in sys.modules,
    "third_party": [name for name in third_party if not name.startswith("_")],
    "requires": importlib.metadata.requires("senet"),
    "file": __import__("senet").__file__,
}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The senet wheel, built from a copy of the checkout."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"  # a copy, so the build leaves nothing in the working tree
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    dist = work / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-index", "--no-build-isolation", "-w", dist, source],
        check=True,
        capture_output=True,
    )
    (built,) = dist.glob("senet-*.whl")
    return built


def test_the_wheel_holds_the_package_and_not_the_tests_helpers(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "senet/py.typed" in names  # type checkers read the package's annotations
    assert "senet/engine/position.py" in names
    packages = {name.split("/")[0] for name in names if not name.startswith("senet-")}
    assert packages == {"senet"}  # no senet_testkit: the tests' servers and bots stay home


@pytest.fixture(scope="module")
def bare_env(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with the standard library and the senet wheel, nothing else."""
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    env = tmp_path_factory.mktemp("bare") / "env"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    subprocess.run(
        [*pip, "--python", python, "install", "--no-deps", "--no-index", wheel],
        check=True,
        capture_output=True,
    )
    return env


def _run(env: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args), capture_output=True, text=True, input=input, cwd=env, timeout=120
    )


def test_the_engine_plays_a_game_without_any_third_party_package(bare_env: Path) -> None:
    done = _run(bare_env, str(bare_env / "bin" / "python"), "-c", GAME)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["file"].startswith(str(bare_env))  # the installed wheel, not the source tree
    assert report["actions"] > 20 and report["winner"] in (0, 1)
    assert report["numpy"] is False and report["third_party"] == []
    # every requirement belongs to an extra: the bare install needs nothing
    assert report["requires"] and all("extra ==" in r for r in report["requires"])
    extras = {r.split("extra ==")[1].strip().strip("\"'") for r in report["requires"]}
    assert {"ai", "web", "all", "test"} <= extras


def test_the_engine_commands_run_from_the_bare_install(bare_env: Path) -> None:
    senet = str(bare_env / "bin" / "senet")
    fen = "standard ABABABABAB/........../.......... A 3"
    moves = _run(bare_env, senet, "moves", "--position", fen, "--json")
    assert moves.returncode == 0, moves.stderr
    from senet.cli_engine.moves import moves_report
    from senet.engine import Position

    # the same answer as the engine in this (full) environment gives
    assert json.loads(moves.stdout) == moves_report(Position.from_fen(fen))
    simulated = _run(bare_env, senet, "simulate", "--games", "3", "--seed", "1", "--json")
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["games"] == 3
    near_end = "standard ........../........../........AB A -"
    played = _run(
        bare_env,
        senet,
        "play",
        "--position",
        near_end,
        "--seed",
        "1",
        "--opponent",
        "greedy",
        input="1\n" * 20,
    )
    assert played.returncode == 0 and "Result: " in played.stdout, played.stderr
    rules = _run(bare_env, senet, "rules", "kendall", "--lang", "ru")
    assert rules.returncode == 0 and "(kendall)" in rules.stdout, rules.stderr


def test_the_other_layers_name_the_extra_they_need(bare_env: Path) -> None:
    senet = str(bare_env / "bin" / "senet")
    serve = _run(bare_env, senet, "serve")
    assert serve.returncode == 1
    assert "pip install 'senet[web]'" in serve.stderr and "Traceback" not in serve.stderr
    solve = _run(bare_env, senet, "solve")
    assert solve.returncode == 1 and "pip install 'senet[ai]'" in solve.stderr
    listing = _run(bare_env, senet, "--help")
    assert listing.returncode == 0
    assert "  moves " in listing.stdout and "not installed" in listing.stdout
