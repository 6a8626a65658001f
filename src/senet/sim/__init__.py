"""The rule-balance laboratory: a compiled batch simulator of every variant, its statistics,
and the charts of the site.

* :mod:`.tables` lays the engine's compiled rule tables out as arrays;
* :mod:`.kernel` is the engine's flow of play compiled by Numba, with players and counters;
* :mod:`.reference` plays the same seeded games on the pure engine (the tests compare them);
* :mod:`.runner` spreads games over processes; :mod:`.stats` turns totals into figures with
  95 % intervals; :mod:`.alternatives` builds the other readings of our decisions.
"""
