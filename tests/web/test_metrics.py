"""Without SENET_METRICS_TOKEN there is no /metrics; /readyz on the embedded default asks the
database only (no Redis to ask); the token setting is checked at start-up."""

from __future__ import annotations

import httpx
import pytest

from senet.settings import SettingError, Settings


def test_no_metrics_without_a_token_and_readiness_asks_the_database(site) -> None:
    assert httpx.get(f"{site.url}/metrics").status_code == 404
    ready = httpx.get(f"{site.url}/readyz")
    assert ready.status_code == 200 and ready.json() == {"ready": True, "database": "ok"}


@pytest.mark.parametrize("token", ["short", "with a space in it ok", "tökenтокенtokentoken"])
def test_a_weak_or_malformed_token_is_refused_at_start_up(token: str) -> None:
    with pytest.raises(SettingError, match="SENET_METRICS_TOKEN"):
        Settings.from_env({"SENET_METRICS_TOKEN": token})


def test_a_token_is_read_once() -> None:
    assert Settings.from_env({"SENET_METRICS_TOKEN": "a" * 16}).metrics_token == "a" * 16
    assert Settings.from_env({}).metrics_token is None
