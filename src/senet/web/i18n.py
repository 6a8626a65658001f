"""Russian and English: JSON catalogs, the one way the site turns a key into words (pages,
Python messages, and the browser's scripts, which receive the same catalog), and the choice of
language (``?lang=`` > the ``lang`` cookie > Accept-Language > English).

A language's catalog is every ``locales/<lang>/*.json`` file merged, one file per part of the
site (``site.json``, and one per feature), so that features keep their texts apart.  A key
defined in two files of one language is an error.

A catalog entry is one of three shapes:

- a text with ``{name}`` parameters: ``"Your move: you threw {n}."``;
- a *plural* message, ``{"count": "n", "one": "…", "few": "…", "many": "…", "other": "…"}``:
  the form is chosen by the value of the parameter ``count`` names, by CLDR's plural rules
  for the language (Babel's; Russian: 1, 21 → one; 2, 124 → few; 5, 11 → many);
- an *agreeing* message, ``{"agree": "seat", "m": "…", "f": "…", "n": "…", "pl": "…",
  "other": "…"}``: the form agrees with the gender or number of the noun phrase given as the
  parameter ``agree`` names, looked up as the entry ``noun.<phrase>`` (``"noun.катушки":
  "pl"``); a phrase without such an entry takes ``other``.

The browser gets the catalog (``GET /api/i18n/{lang}``) with :func:`plural_table` under the
key ``plural.table``, so that ``static/i18n.js`` picks the same forms without a rules engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.numbers import format_decimal

__all__ = [
    "LANGS",
    "DEFAULT_LANG",
    "LANG_COOKIE",
    "PLURAL_SAMPLES",
    "catalog",
    "client_catalog",
    "error_text",
    "translator",
    "pick_lang",
    "plural_category",
    "plural_table",
    "number",
    "decimal",
    "percent",
]

LANGS = ("en", "ru")
DEFAULT_LANG = "en"
LANG_COOKIE = "lang"
_DIR = Path(__file__).parent / "locales"

#: the counts every plural message is checked with (each Russian category, and 11 and 124,
#: whose last digits mislead a rule written by hand)
PLURAL_SAMPLES = (0, 1, 2, 5, 11, 21, 124)

#: a plural table covers 0..TABLE_SIZE-1; a larger count n uses the entry 100 + n % 100
_TABLE_SIZE = 200

Entry = str | dict[str, str]


@cache
def catalog(lang: str) -> dict[str, Entry]:
    """Every entry of ``lang``'s catalog files, checked for shape."""
    merged: dict[str, Entry] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        with open(path, encoding="utf-8") as fh:
            part = json.load(fh)
        twice = merged.keys() & part.keys()
        if twice:
            raise ValueError(
                f"{path}: keys already defined in another {lang} catalog: {sorted(twice)}"
            )
        for key, entry in part.items():
            _check_entry(path, lang, key, entry)
        merged.update(part)
    return merged


def _check_entry(path: Path, lang: str, key: str, entry: Any) -> None:
    if isinstance(entry, str):
        return
    where = f"{path}: {key!r}"
    if not isinstance(entry, dict) or not all(isinstance(v, str) for v in entry.values()):
        raise ValueError(f"{where}: an entry is a text or an object of texts")
    if "count" in entry:
        needed = set(_plural_categories(lang))
        forms = set(entry) - {"count"}
        if forms != needed:
            raise ValueError(
                f"{where}: plural forms {sorted(forms)}, {lang} needs {sorted(needed)}"
            )
    elif "agree" in entry:
        if "other" not in entry or not set(entry) <= {"agree", "m", "f", "n", "pl", "other"}:
            raise ValueError(f"{where}: agreeing forms are m, f, n, pl and other (required)")
    else:
        raise ValueError(f"{where}: an object entry names its 'count' or 'agree' parameter")


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@cache
def _plural_categories(lang: str) -> tuple[str, ...]:
    """The categories the language's integers fall into (ru: one, few, many, other — other
    only for fractions, which no message counts; so a Russian message gives one, few, many)."""
    rule = _locale(lang).plural_form
    return tuple(sorted({rule(n) for n in range(_TABLE_SIZE)}))


def plural_category(lang: str, n: int) -> str:
    """CLDR's plural category of the integer ``n`` in ``lang`` (Babel's rules)."""
    return str(_locale(lang).plural_form(abs(n)))


@cache
def plural_table(lang: str) -> list[str]:
    """The category of 0..199; a count n ≥ 200 has the category of 100 + n % 100.  True for
    English and Russian, whose integer rules look at n == 1 and at n % 100 only (a test checks
    it against Babel up to 100,000)."""
    return [plural_category(lang, n) for n in range(_TABLE_SIZE)]


def number(value: float, lang: str) -> str:
    """A number written as the language writes it (ru: 1 000 000; en: 1,000,000)."""
    return str(format_decimal(value, locale=lang))


def decimal(value: float, digits: int, lang: str) -> str:
    """A number with ``digits`` decimals, written as the language writes it (ru: 1234.5 →
    "1 234,5"; en: "1,234.5")."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return str(format_decimal(value, format=pattern, locale=lang))


def percent(fraction: float, lang: str) -> str:
    """A fraction as a percentage with one decimal, in the language's digits and without the
    sign, which the sentence around it places (ru: 0.017 → "1,7"; en: "1.7")."""
    return decimal(fraction * 100, 1, lang)


def _form(
    own: Mapping[str, Entry], lang: str, entry: dict[str, str], params: dict[str, Any]
) -> str:
    if "count" in entry:
        value = params.get(entry["count"])
        category = plural_category(lang, int(value)) if isinstance(value, int) else "other"
        return entry.get(category) or entry.get("many") or entry.get("other", "")
    phrase = params.get(entry["agree"])
    grammar = own.get(f"noun.{phrase}")
    return entry.get(grammar if isinstance(grammar, str) else "other") or entry["other"]


def translator(lang: str) -> Callable[..., str]:
    """``t(key, **params)``: the text in ``lang`` (falling back to English, then to the key),
    its form chosen by its count or its subject, its parameters filled in."""
    own, fallback = catalog(lang), catalog(DEFAULT_LANG)

    def t(key: str, **params: Any) -> str:
        entry = own.get(key)
        source_lang = lang
        if entry is None:
            entry, source_lang = fallback.get(key), DEFAULT_LANG
        if entry is None:
            return key
        text = entry if isinstance(entry, str) else _form(own, source_lang, entry, params)
        return text.format(**params) if params else text

    return t


def error_text(lang: str, code: str, **params: Any) -> str:
    """A refused request's code in words for a person (``err.<code>``, with ``params`` such as
    ``seconds`` for ``busy``; the message a :class:`~senet.service.errors.GameError` carries is
    English, for programs)."""
    key = f"err.{code}"
    return translator(lang)(key if key in catalog(DEFAULT_LANG) else "err.unknown", **params)


@cache
def client_catalog(lang: str) -> dict[str, Any]:
    """What the browser's scripts get: the catalog and the plural table (``static/i18n.js``)."""
    return {**catalog(lang), "plural.table": plural_table(lang)}


def pick_lang(query: str | None, cookie: str | None, accept: str | None) -> str:
    for candidate in (query, cookie):
        if candidate in LANGS:
            return candidate
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return DEFAULT_LANG
