"""The lock files (requirements/<extra>.txt, made by ``bash scripts/lock``): every package is
pinned to one version with hashes, they cover every dependency that pyproject.toml declares
for their extra (a dependency added without refreshing the lock fails here, not on a fresh
machine), and the virtualenv that ``scripts/bootstrap test`` made holds exactly the locked
versions, nothing more."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$")

#: the installer and the project itself are not locked
NOT_LOCKED = {"pip", "senet"}


def locked(extra: str) -> dict[str, str]:
    """The lock file of ``extra``: canonical name -> version; each entry carries hashes."""
    text = (LOCKS / f"{extra}.txt").read_text()
    pins: dict[str, str] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line and not line.startswith((" ", "#")):
            found = PINNED.match(line)
            assert found, f"{extra}.txt line {i + 1}: not a pinned requirement: {line!r}"
            assert lines[i + 1].strip().startswith("--hash=sha256:"), (
                f"{extra}.txt: {line} has no hash"
            )
            pins[canonicalize_name(found.group(1))] = found.group(2)
    return pins


def declared(extra: str) -> list[Requirement]:
    """The third-party requirements of ``extra`` in pyproject.toml, its senet[...] extras
    followed."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    seen: set[str] = set()
    found: list[Requirement] = []

    def walk(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        for spec in extras[name]:
            req = Requirement(spec)
            if canonicalize_name(req.name) == "senet":
                for inner in req.extras:
                    walk(inner)
            else:
                found.append(req)

    walk(extra)
    return found


@pytest.mark.parametrize("extra", ["web", "test"])
def test_the_lock_pins_every_declared_dependency_within_its_bounds(extra: str) -> None:
    pins = locked(extra)
    for req in declared(extra):
        name = canonicalize_name(req.name)
        assert name in pins, (
            f"{req} is declared but not in requirements/{extra}.txt: bash scripts/lock"
        )
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"requirements/{extra}.txt has {name}=={pins[name]}, outside {req}: bash scripts/lock"
        )


def test_the_test_environment_holds_exactly_the_locked_versions() -> None:
    pins = locked("test")
    installed = {
        canonicalize_name(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()
    }
    wrong = {n: (v, pins[n]) for n, v in installed.items() if n in pins and pins[n] != v}
    assert not wrong, f"installed (version, locked): {wrong}; run bash scripts/bootstrap"
    extra = set(installed) - set(pins) - NOT_LOCKED
    assert not extra, f"installed but not locked: {sorted(extra)}"
    missing = {n for n in pins if n not in installed}
    assert not missing, f"locked but not installed: {sorted(missing)}"
