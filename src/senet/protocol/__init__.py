"""The engine protocol: programs play Senet over standard input and output, line by line.

* :mod:`.messages` — the lines both ways as typed values, one parser and one writer each;
* :mod:`.engine` — the engine's side: a session answering a controller, and the built-in levels
  as engines (``senet engine``);
* :mod:`.match` — the controller's side: a match between two programs with shared throws,
  time enforced, forfeits caught, the score with its interval and every game's record
  (``senet match``).

The protocol is documented, with a transcript, in ``docs/engine-protocol.md``.
"""
