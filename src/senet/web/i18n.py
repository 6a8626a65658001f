"""Russian and English: JSON catalogs and the choice of language (``?lang=`` > the ``lang``
cookie > Accept-Language > English).

A language's catalog is every ``locales/<lang>/*.json`` file merged, one file per part of the
site (``site.json``, and one per feature), so that features keep their texts apart.  A key
defined in two files of one language is an error."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["LANGS", "DEFAULT_LANG", "catalog", "translator", "pick_lang", "LANG_COOKIE"]

LANGS = ("en", "ru")
DEFAULT_LANG = "en"
LANG_COOKIE = "lang"
_DIR = Path(__file__).parent / "locales"


@cache
def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        with open(path, encoding="utf-8") as fh:
            part = json.load(fh)
        twice = merged.keys() & part.keys()
        if twice:
            raise ValueError(
                f"{path}: keys already defined in another {lang} catalog: {sorted(twice)}"
            )
        merged.update(part)
    return merged


def translator(lang: str) -> Callable[..., str]:
    """``t(key, **params)``: the text in ``lang``, falling back to English, then to the key."""
    own, fallback = catalog(lang), catalog(DEFAULT_LANG)

    def t(key: str, **params: Any) -> str:
        text = own.get(key) or fallback.get(key) or key
        return text.format(**params) if params else text

    return t


def pick_lang(query: str | None, cookie: str | None, accept: str | None) -> str:
    for candidate in (query, cookie):
        if candidate in LANGS:
            return candidate
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return DEFAULT_LANG
