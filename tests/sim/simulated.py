"""The variants the compiled simulator plays: every registered one (a rule it does not know
would be refused by :func:`senet.sim.tables.compile_rules` with an error naming the rule,
never played with other rules; ``test_differential`` holds that refusal)."""

from __future__ import annotations

from senet.engine import VARIANTS

#: every variant the compiled simulator plays, in the registry's order
SIMULATED = tuple(VARIANTS)
