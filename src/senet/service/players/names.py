"""Player names: which may be taken, and the key that makes look-alikes one name.  Pure.

A name is 3–20 characters: letters of one script (Latin or Cyrillic), digits, ``_`` and ``-``;
it begins with a letter and has no two of ``_``/``-`` in a row nor one at its end.  Two names
are the same name when their :func:`name_key` is equal: case does not count, and neither do
the letters that look alike across the scripts (Cyrillic «а» and Latin «a», «О» and «0»…), so
nobody can take ``Аnna`` (Cyrillic А) beside ``Anna``, nor ``adm1n`` for ``admin``.

:func:`check_name` returns the name as it will be shown, or raises :class:`NameRefused`
whose ``code`` says why (the site words each code in both languages).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "NameRefused",
    "check_name",
    "name_key",
    "look_alike_keys",
    "probe_keys",
    "RESERVED",
    "MIN_LENGTH",
    "MAX_LENGTH",
]

MIN_LENGTH = 3
MAX_LENGTH = 20

_LATIN = set("abcdefghijklmnopqrstuvwxyz")
_CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
_SEPARATORS = set("_-")

#: letters and digits folded to the one they look like (after case folding), so that names
#: differing only by these are one name: Cyrillic look-alikes of Latin letters, digits that
#: read as letters, and Latin letters that read as one another
_CONFUSABLE = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "з": "3",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "п": "n",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ь": "b",
        "ч": "4",
        "б": "6",
        "г": "r",
        "и": "u",
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        "5": "s",
        "8": "b",
        "ы": "bl",
        "_": "-",
    }
)

#: letters that read as a pair of letters, written as the pair after :data:`_CONFUSABLE`
#: (``Kim``/``Kirn``, ``wolf``/``vvolf``, ``Dana``/``Clana``): a letter becomes its pair,
#: never the other way, so that every spelling of a run such as ``vvv``/``wv``/``vw`` meets
_AS_PAIRS = str.maketrans({"m": "rn", "w": "vv", "d": "cl"})


#: names nobody may take (compared by key): the site's own words, the staff's, the
#: computer's levels (they are players of their own) and what a page shows for nobody
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "moderator",
        "mod",
        "root",
        "system",
        "senet",
        "support",
        "staff",
        "official",
        "anonymous",
        "anon",
        "guest",
        "nobody",
        "null",
        "none",
        "undefined",
        "player",
        "computer",
        "bot",
        "api",
        "static",
        "beginner",
        "casual",
        "expert",
        "master",
        "random",
        "greedy",
        "админ",
        "администратор",
        "модератор",
        "аноним",
        "гость",
        "игрок",
        "компьютер",
        "бот",
        "сенет",
        "система",
    }
)


class NameRefused(ValueError):
    """A name that may not be taken; ``code`` says why (``name.refused.<code>`` in the
    catalogs)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def name_key(name: str) -> str:
    """The key two names must not share: compatibility forms and case folded, look-alike
    letters and digits folded to one, and the letters that read as a pair of letters written
    as the pair (``Anna``, ``АNNA`` with a Cyrillic А and ``anna`` are one key; so are
    ``Kirn`` and ``Kim``)."""
    return (
        unicodedata.normalize("NFKC", name).casefold().translate(_CONFUSABLE).translate(_AS_PAIRS)
    )


def look_alike_keys(name: str) -> frozenset[str]:
    """Every key ``name`` may be read as: its :func:`name_key`, and for a Cyrillic name with a
    small «т» (which reads as an "m" beside capitals: «Тот» and "Tom") the key with those
    read as "m".  Two names look alike when their sets meet."""
    keys = {name_key(name)}
    if "т" in name:
        keys.add(name_key(name.replace("т", "m")))
    return frozenset(keys)


def probe_keys(name: str) -> frozenset[str]:
    """The keys under which a name that looks like ``name`` may be stored: its own
    :func:`look_alike_keys`, and for a name with an "m" (``rn`` in its key) the key with
    "t" for it (a Cyrillic «Тот» is stored as ``tot``; a look-alike "Tom" must find it)."""
    keys = set(look_alike_keys(name))
    own = name_key(name)
    if "rn" in own:
        keys.add(own.replace("rn", "t"))
    return frozenset(keys)


_RESERVED_KEYS = frozenset(name_key(n) for n in RESERVED)


def _allowed(ch: str) -> bool:
    return ch in _LATIN or ch in _CYRILLIC or ch in _SEPARATORS or ch in "0123456789"


def check_name(raw: object) -> str:
    """The name as it will be stored and shown, if it may be taken (its uniqueness among the
    names already taken is the storage's to check); :class:`NameRefused` if not."""
    if not isinstance(raw, str):
        raise NameRefused("length", "a name is a text")
    name = unicodedata.normalize("NFC", raw.strip())
    # the length as read: a ligature such as «ﬃ» is three letters
    shown = unicodedata.normalize("NFKC", name)
    if not MIN_LENGTH <= len(shown) <= MAX_LENGTH:
        raise NameRefused(
            "length", f"a name has {MIN_LENGTH} to {MAX_LENGTH} characters, not {len(shown)}"
        )
    for ch in name:
        # a compatibility form (long s «ſ», ligatures, full-width letters) or a letter whose
        # small form is not one of the alphabets' (ß, ẞ, the dotted İ) is not allowed
        if unicodedata.normalize("NFKC", ch) != ch or not _allowed(ch.lower()):
            raise NameRefused(
                "characters",
                f"{ch!r} is not allowed: letters (Latin or Cyrillic), digits, _ and - only",
            )
    folded = name.lower()
    if any(ch in _LATIN for ch in folded) and any(ch in _CYRILLIC for ch in folded):
        raise NameRefused("mixed", "a name is written in one script: Latin or Cyrillic, not both")
    if not (folded[0] in _LATIN or folded[0] in _CYRILLIC):
        raise NameRefused("start", "a name begins with a letter")
    if folded[-1] in _SEPARATORS or re.search(r"[_-]{2}", folded):
        raise NameRefused("separators", "no _ or - at the end, nor two in a row")
    key = name_key(name)
    if key in _RESERVED_KEYS or any(
        key.startswith(r) and key[len(r) :].strip("-").isdigit()
        for r in _RESERVED_KEYS
        if len(r) >= 4
    ):
        raise NameRefused("reserved", "this name is reserved")
    return name
