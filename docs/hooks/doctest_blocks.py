"""A griffe extension (mkdocstrings loads it for the API reference): a docstring's interactive
examples (``>>>`` lines and the output under them) become Python console code blocks, instead
of Markdown quotes that would swallow the prompts."""

from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    """The docstring with every run of ``>>>``/``...`` lines and their output, up to a blank
    line, inside a ``pycon`` fence (indentation kept)."""
    out: list[str] = []
    in_example = False
    indent = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not in_example and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            in_example = True
        elif in_example and not stripped:
            out.append(f"{indent}```")
            in_example = False
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_examples(obj.docstring.value)
