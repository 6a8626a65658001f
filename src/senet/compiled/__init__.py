"""The engine's rules and the simple players compiled by Numba, on the engine's raw state.

The layer between :mod:`senet.engine` (which it compiles and never changes) and
:mod:`senet.ai` (whose self-play, rollouts, fitted values and solver run on it) and
:mod:`senet.sim` (the rule-balance laboratory that plays millions of games on it).

* :mod:`.tables` lays the engine's rule tables of a variant out as NumPy arrays;
* :mod:`.kernel` is the engine's flow of play compiled, with the random, greedy and expert
  players and the counters of every rule event;
* :mod:`.expert` is what the compiled expert reads of an evaluation (no Numba: the AI imports
  it without compiling anything).

It imports nothing but the engine: an evaluation reaches the expert as arrays passed in.
"""
