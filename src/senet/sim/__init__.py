"""The rule-balance laboratory: many games of every variant on the compiled rules
(:mod:`senet.compiled`), their statistics, and the charts of the site.

* :mod:`.reference` plays the same seeded games on the pure engine (the tests compare them),
  and :mod:`.differential` compares the compiled rules with the engine position by position;
* :mod:`.runner` spreads games over processes; :mod:`.stats` turns totals into figures with
  95 % intervals; :mod:`.alternatives` builds the other readings of our decisions.
"""
