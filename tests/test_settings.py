"""The settings: read once from the environment, checked, and documented in one table (docs/deployment.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from senet.settings import VARIABLES, BotLimits, RateLimits, SettingError, Settings

ROOT = Path(__file__).resolve().parents[1]


def documented_table() -> set[str]:
    text = (ROOT / "docs" / "deployment.md").read_text()
    section = text.split("\n## Settings", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))


def documented_defaults() -> dict[str, str]:
    text = (ROOT / "docs" / "deployment.md").read_text()
    section = text.split("\n## Settings", 1)[1].split("\n#", 1)[0]
    return dict(re.findall(r"^\| `(\w+)` \| ([^|]*?) \|", section, flags=re.M))


def test_the_documented_defaults_are_the_defaults() -> None:
    defaults = Settings.from_env({})
    documented = documented_defaults()
    for variable in VARIABLES:
        written = re.fullmatch(r"`([^`]*)`", documented[variable.name])
        if written is None:  # SENET_COMMIT: "(git's)", the commit checked out
            continue
        assert variable.parse(written.group(1)) == getattr(defaults, variable.field), variable.name


def test_the_documented_table_lists_every_variable_the_code_reads_and_no_other() -> None:
    read: set[str] = {v.name for v in VARIABLES}
    for path in (ROOT / "src" / "senet").rglob("*.py"):
        text = path.read_text()
        read |= set(re.findall(r'envvar="(\w+)"', text))
        read |= set(re.findall(r'os\.environ(?:\.get)?\(\s*"(\w+)"', text))
        read |= set(re.findall(r'os\.environ\[\s*"(\w+)"\s*\]', text))
    assert documented_table() == read


def test_every_variable_is_read_and_checked() -> None:
    env = {
        "DATABASE_URL": "postgresql+asyncpg://u@h:5432/db",
        "BROADCAST_URL": "redis://h:6379/0",
        "SENET_COMPUTER_DELAY": "0.05",
        "SENET_GAME_CACHE": "7",
        "SENET_DB_POOL": "0",
        "SENET_RATE_LIMITS": "1,2,3,4",
        "SENET_COMMIT": "abc",
        "SENET_MANUAL_CLOCK": "1",
        "SENET_REQUEST_TIMEOUT": "2.5",
        "SENET_IDLE_TIMEOUT": "0",
        "SENET_CONNECTIONS_PER_ADDRESS": "0",
        "FORWARDED_ALLOW_IPS": "10.0.0.1, 10.1.0.0/16",
        "SENET_FORCED_PASS_DELAY": "0.25",
        "JOB_QUEUE_URL": "redis://h:6379/1",
        "SENET_WORKERS": "3",
        "SENET_ABANDON_GRACE": "60",
        "SENET_LISTING_LIFETIME": "300",
        "SENET_LISTING_CAP": "2",
        "SENET_SEEDING_DEADLINE": "90.5",
        "SENET_CHALLENGES_PER_PAIR": "4",
        "SENET_CHALLENGES_RECEIVED": "6",
        "SENET_CHALLENGE_NOTIFY_INTERVAL": "600",
        "SENET_NAMES_PER_HOUR": "50",
        "SENET_UNUSED_NAME_DAYS": "7.5",
        "SENET_PUSH_SERVICES": "https://push.example, http://127.0.0.1:8123/",
        "SENET_PUSH_CONTACT": "mailto:ops@senet.example",
        "SENET_BOT_LIMITS": "30,2,5",
        "SENET_GC_SWEEP": "600",
        "SENET_METRICS_TOKEN": "scrape-token-0123456789",
        "SENET_LOG_FORMAT": "json",
    }
    assert set(env) == {v.name for v in VARIABLES}
    settings = Settings.from_env(env)
    assert settings == Settings(
        "postgresql+asyncpg://u@h:5432/db",
        "redis://h:6379/0",
        0.05,
        7,
        0,
        RateLimits(1, 2, 3, 4),
        "abc",
        True,
        2.5,
        0.0,
        0,
        "10.0.0.1,10.1.0.0/16",
        0.25,
        "redis://h:6379/1",
        3,
        60.0,
        300.0,
        2,
        90.5,
        4,
        6,
        600.0,
        50,
        7.5,
        ("https://push.example", "http://127.0.0.1:8123"),
        "mailto:ops@senet.example",
        BotLimits(30, 2, 5),
        600.0,
        "scrape-token-0123456789",
        "json",
    )
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"SENET_BOT_LIMITS": "30,2,5,6"}).bot_limits == BotLimits(30, 2, 5, 6)
    assert Settings.from_env({"SENET_RATE_LIMITS": "off"}).rate_limits == RateLimits.off()
    for name, bad in [
        ("SENET_COMPUTER_DELAY", "soon"),
        ("SENET_FORCED_PASS_DELAY", "31"),
        ("SENET_FORCED_PASS_DELAY", "-0.5"),
        ("SENET_GAME_CACHE", "-1"),
        ("SENET_CHALLENGES_PER_PAIR", "-2"),
        ("SENET_UNUSED_NAME_DAYS", "soon"),
        ("SENET_RATE_LIMITS", "1,2,3"),
        ("DATABASE_URL", "mysql://x"),
        ("SENET_REQUEST_TIMEOUT", "-1"),
        ("SENET_IDLE_TIMEOUT", "never"),
        ("SENET_CONNECTIONS_PER_ADDRESS", "1.5"),
        ("FORWARDED_ALLOW_IPS", "10.0.0.1,,10.0.0.2"),
        ("JOB_QUEUE_URL", "amqp://x"),
        ("SENET_WORKERS", "0"),
        ("SENET_PUSH_SERVICES", "push.example"),
        ("SENET_PUSH_SERVICES", "https://push.example/path"),
        ("SENET_PUSH_SERVICES", "https://a.example,,https://b.example"),
        ("SENET_PUSH_CONTACT", "ops@senet.example"),
        ("SENET_BOT_LIMITS", "30,2"),
        ("SENET_BOT_LIMITS", "30,0,5"),
        ("SENET_BOT_LIMITS", "30,2,5,0"),
        ("SENET_BOT_LIMITS", "30,2,5,6,7"),
        ("SENET_BOT_LIMITS", "３０,2,5"),
        ("SENET_GC_SWEEP", "5"),
        ("SENET_GC_SWEEP", "hourly"),
    ]:
        with pytest.raises(SettingError, match=name):
            Settings.from_env({name: bad})


def test_the_rate_limits_are_defined_once() -> None:
    from senet.web.security import SecurityMiddleware

    defaults = SecurityMiddleware.__init__.__kwdefaults__ or {}
    assert defaults["limits"] == RateLimits() == Settings().rate_limits


def test_serve_reads_its_connection_guards_from_the_settings_and_its_options_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``senet serve``: the environment through :class:`Settings`, each option over it; a bad
    value stops the start naming the variable."""
    from click.testing import CliRunner

    import senet.web.app
    import senet.web.cli
    import senet.web.connections

    seen: dict[str, object] = {}

    def guarded(limits: object) -> tuple[str, str]:
        seen["limits"] = limits
        return "http", "ws"

    monkeypatch.setattr(senet.web.app, "create_app", lambda settings: settings)
    monkeypatch.setattr(senet.web.connections, "guarded_protocols", guarded)
    monkeypatch.setattr(senet.web.cli, "_tune_gc", lambda sweep: seen.update(sweep=sweep))
    monkeypatch.setattr("uvicorn.run", lambda app, **options: seen.update(options, app=app))
    env = {
        "SENET_IDLE_TIMEOUT": "7",
        "FORWARDED_ALLOW_IPS": "10.0.0.1",
        "SENET_COMMIT": "abc",
        "SENET_GC_SWEEP": "120",
    }
    done = CliRunner().invoke(
        senet.web.cli.serve, ["--connections-per-address", "3"], env=env, catch_exceptions=False
    )
    assert done.exit_code == 0, done.output
    assert seen["limits"] == senet.web.connections.ConnectionLimits(10.0, 7.0, 3, "10.0.0.1")
    assert seen["timeout_keep_alive"] == 7 and seen["forwarded_allow_ips"] == "10.0.0.1"
    assert seen["sweep"] == 120.0  # the collector's sweep (senet.web.collector)
    settings = seen["app"]
    assert isinstance(settings, Settings) and settings.commit == "abc"

    done = CliRunner().invoke(senet.web.cli.serve, [], env={"SENET_REQUEST_TIMEOUT": "soon"})
    assert done.exit_code != 0 and "SENET_REQUEST_TIMEOUT='soon'" in done.output
    done = CliRunner().invoke(senet.web.cli.serve, ["--idle-timeout", "-1"])
    assert done.exit_code != 0 and "--idle-timeout" in done.output


def test_numbers_in_settings_are_ascii_digits() -> None:
    for name, text in (
        ("SENET_GAME_CACHE", "５０"),
        ("SENET_COMPUTER_DELAY", "٠.5"),
        ("SENET_RATE_LIMITS", "1,2,3,４"),
    ):
        with pytest.raises(SettingError, match=name):
            Settings.from_env({name: text})
