"""Live play: the WebSocket of a game (:mod:`.connection`)."""
