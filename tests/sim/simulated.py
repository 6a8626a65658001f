"""The variants the compiled simulator plays, and those it refuses by name.

A variant whose rules :func:`senet.compiled.tables.compile_rules` does not know (piccione: throws
divided among pieces that enter from the hand) is refused with an error naming the rule, never
played with other rules; the simulator's tests run on the others, and
``test_differential`` holds the refusal."""

from __future__ import annotations

from senet.compiled.tables import compile_rules
from senet.engine import VARIANTS, find_variant


def _compiles(name: str) -> bool:
    try:
        compile_rules(find_variant(name))
    except ValueError:
        return False
    return True


#: every variant the compiled simulator plays, in the registry's order
SIMULATED = tuple(name for name in VARIANTS if _compiles(name))
#: every variant it refuses
REFUSED = tuple(name for name in VARIANTS if name not in SIMULATED)
