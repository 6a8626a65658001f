"""MkDocs hook: the engine's docstrings are written for Sphinx-style readers (``:class:`Game```,
a literal block after ``::``); on the API reference these read as plain code and a colon."""

from __future__ import annotations

import re
from typing import Any

#: a cross-reference role before the code it names: :class:<code>Game</code>
_ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):(?=<code>)")
#: a paragraph that introduces a literal block ends in "::"; one colon reads right
_LITERAL = re.compile(r"::</p>")


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    return _LITERAL.sub(":</p>", _ROLE.sub("", html))
