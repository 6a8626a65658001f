"""The server's log as JSON lines (``SENET_LOG_FORMAT=json``), for a log collector.

Every record is one JSON object on one line: ``time`` (ISO 8601, UTC), ``level``, ``logger``,
``message``; an access line also has ``client``, ``method``, ``path`` and ``status``; an error
with a traceback has ``exception``.  The secrets that :class:`senet.web.security.RedactSecrets`
takes out of the server's records are out before a record is formatted (the filter runs on
the logger, the formatter on the handler), so JSON lines carry no more than the text ones.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonLines", "log_config"]


class JsonLines(logging.Formatter):
    """One JSON object per record."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if (
            record.name == "uvicorn.access"
            and isinstance(record.args, tuple)
            and len(record.args) == 5
        ):
            client, method, path, _version, status = record.args
            line.update(client=client, method=method, path=path, status=status)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration with every line as JSON: its own loggers and the
    site's (``senet.*``), on standard error."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonLines}},
        "handlers": {"json": handler},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper},
            "uvicorn.access": {"handlers": ["json"], "level": upper, "propagate": False},
            "senet": {"handlers": ["json"], "level": upper, "propagate": False},
        },
    }
