"""The settings: read once from the environment, checked, and documented in one README table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from senet.settings import VARIABLES, RateLimits, SettingError, Settings

ROOT = Path(__file__).resolve().parents[1]


def readme_table() -> set[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("### Settings", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))


def test_the_readme_table_lists_every_variable_the_code_reads_and_no_other() -> None:
    read: set[str] = {v.name for v in VARIABLES}
    for path in (ROOT / "src" / "senet").rglob("*.py"):
        text = path.read_text()
        read |= set(re.findall(r'envvar="(\w+)"', text))
        read |= set(re.findall(r'os\.environ(?:\.get)?\(\s*"(\w+)"', text))
        read |= set(re.findall(r'os\.environ\[\s*"(\w+)"\s*\]', text))
    assert readme_table() == read


def test_every_variable_is_read_and_checked() -> None:
    env = {
        "DATABASE_URL": "postgresql+asyncpg://u@h:5432/db",
        "BROADCAST_URL": "redis://h:6379/0",
        "SENET_COMPUTER_DELAY": "0.05",
        "SENET_GAME_CACHE": "7",
        "SENET_DB_POOL": "0",
        "SENET_RATE_LIMITS": "1,2,3,4",
        "SENET_COMMIT": "abc",
    }
    settings = Settings.from_env(env)
    assert settings == Settings(
        "postgresql+asyncpg://u@h:5432/db",
        "redis://h:6379/0",
        0.05,
        7,
        0,
        RateLimits(1, 2, 3, 4),
        "abc",
    )
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"SENET_RATE_LIMITS": "off"}).rate_limits == RateLimits.off()
    for name, bad in [
        ("SENET_COMPUTER_DELAY", "soon"),
        ("SENET_GAME_CACHE", "-1"),
        ("SENET_RATE_LIMITS", "1,2,3"),
        ("DATABASE_URL", "mysql://x"),
    ]:
        with pytest.raises(SettingError, match=name):
            Settings.from_env({name: bad})


def test_the_rate_limits_are_defined_once() -> None:
    from senet.web.security import SecurityMiddleware

    defaults = SecurityMiddleware.__init__.__kwdefaults__ or {}
    assert defaults["limits"] == RateLimits() == Settings().rate_limits
