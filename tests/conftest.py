"""Settings for the whole suite.

Servers started by tests share the loopback address, so the per-address rate limits of
:mod:`senet.web.security` would throttle one test's many bots together; they are switched off
here, and tests/trust checks them with limits of their own.
"""

import os

os.environ.setdefault("SENET_RATE_LIMITS", "off")
