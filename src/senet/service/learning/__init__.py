"""The tutorial: short lessons per variant, each answer checked by the engine (:mod:`.tutorial`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .tutorial import (
    REASON_OPTIONS,
    Lesson,
    Verdict,
    check_move,
    check_reason,
    find_lesson,
    lessons,
    throw_chances,
)

__all__ = [
    "Lesson",
    "REASON_OPTIONS",
    "Verdict",
    "check_move",
    "check_reason",
    "find_lesson",
    "lessons",
    "throw_chances",
]
