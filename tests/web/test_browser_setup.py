"""A missing Chromium skips the browser tests on a developer's machine and fails them in CI."""

from __future__ import annotations

import sys

import pytest

from .conftest import require_chromium

MISSING = "/nonexistent/chromium"


def test_a_missing_chromium_fails_in_ci() -> None:
    for value in ("true", "TRUE", "1"):
        with pytest.raises(pytest.fail.Exception, match="CI runs every browser test"):
            require_chromium(MISSING, {"CI": value})


def test_a_missing_chromium_skips_outside_ci() -> None:
    for env in ({}, {"CI": ""}, {"CI": "false"}):
        with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
            require_chromium(MISSING, env)


def test_an_installed_chromium_runs_the_tests() -> None:
    require_chromium(sys.executable, {"CI": "true"})  # any existing file: nothing is raised
