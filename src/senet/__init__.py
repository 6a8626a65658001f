"""Senet: the rules engine (``senet.engine``), a computer opponent (``senet.ai``), services and
a web site (``senet.service``, ``senet.web``) and a command line (``senet.cli``)."""

from .engine import *  # noqa: F403
from .engine import __all__ as _engine_all

__version__ = "0.1.0"
__all__ = list(_engine_all) + ["__version__"]
