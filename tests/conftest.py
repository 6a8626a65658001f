"""Settings for the whole suite.

Servers started by tests share the loopback address, so the per-address rate limits of
:mod:`senet.web.security` would throttle one test's many bots together; they are switched off
here, and tests/trust checks them with limits of their own.

``slow`` marks what the edit-test loop leaves out (``bash scripts/test -m "not slow"``): every
browser test and every multi-process test (tests/multiprocess) is slow by definition (marked
here), other long tests carry ``@pytest.mark.slow`` themselves.
"""

import os
from pathlib import Path

import pytest

os.environ.setdefault("SENET_RATE_LIMITS", "off")

_MULTIPROCESS = Path(__file__).parent / "multiprocess"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        uses_browser = item.get_closest_marker("browser") or "browser" in getattr(
            item, "fixturenames", ()
        )
        if uses_browser or item.path.is_relative_to(_MULTIPROCESS):
            item.add_marker(pytest.mark.slow)
