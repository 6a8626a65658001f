"""Without SENET_METRICS_TOKEN there is no /metrics; /readyz on the embedded default asks the
database only (no Redis to ask); the token setting is checked at start-up."""

from __future__ import annotations

import time

import httpx
import pytest

from senet.settings import SettingError, Settings


def test_no_metrics_without_a_token_and_readiness_asks_the_database(site) -> None:
    assert httpx.get(f"{site.url}/metrics").status_code == 404
    deadline = time.monotonic() + 300  # the workers warm up first (compiling, on a new install)
    while (ready := httpx.get(f"{site.url}/readyz")).status_code == 503:
        assert ready.json() == {"ready": False, "database": "ok", "workers": "warming up"}
        assert time.monotonic() < deadline, "the workers never warmed up"
        time.sleep(0.1)
    assert ready.json() == {"ready": True, "database": "ok", "workers": "ok"}


@pytest.mark.parametrize("token", ["short", "with a space in it ok", "tökenтокенtokentoken"])
def test_a_weak_or_malformed_token_is_refused_at_start_up(token: str) -> None:
    with pytest.raises(SettingError, match="SENET_METRICS_TOKEN"):
        Settings.from_env({"SENET_METRICS_TOKEN": token})


def test_a_token_is_read_once() -> None:
    assert Settings.from_env({"SENET_METRICS_TOKEN": "a" * 16}).metrics_token == "a" * 16
    assert Settings.from_env({}).metrics_token is None
