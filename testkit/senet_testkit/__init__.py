"""Helpers shared by the test suite and the benchmarks (not part of the library's API).

:mod:`senet_testkit.servers` starts real PostgreSQL, Redis and ``senet serve`` processes on
free loopback ports; :mod:`senet_testkit.wsbots` holds WebSocket bots that play through them.
They live in the source tree, installed with the project, so that ``tests/`` and ``bench/``
import them by name (no path manipulation); they need the ``test`` extras.
"""
