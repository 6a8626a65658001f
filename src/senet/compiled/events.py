"""The names of what the compiled kernel counts in each game (the keys of the statistics
files), apart from the kernel so that reading the figures never loads Numba."""

__all__ = ["EVENTS"]

#: What the kernel counts, per game.  Names are the keys of the statistics files.
EVENTS = (
    "swap",  # a move landed on an opponent and the two pieces changed places
    "capture",  # bell: a piece landed on removed an opponent from the game
    "blocked",  # a piece on the board had no move with the throw (summed over decisions)
    "pass",  # a decision with no move at all (the throw is lost)
    "backward",  # a move played backward
    "extra_throw",  # a throw taken again by the same seat (1, 4, 5 or a House)
    "skipped_turn",  # a turn skipped (House of the Net)
    "bear_off",  # a piece borne off
    "rebirth",  # a piece landed on the House of Rebirth (another throw)
    "net_skip",  # the House of the Net took a turn
    "net_cancel",  # the House of the Net cancelled a pending extra throw
    "ba",  # the House of Ba repeated a move
    "fate",  # a throw of fate was due
    "fate_forward",  # the fate throw carried the piece forward (1-4)
    "fate_back",  # the fate throw carried the piece back five squares
    "fate_lost",  # the fate move was impossible: the piece stays
    "drown",  # adelaida: a piece landed in the House of Water and left the board
    "revive",  # adelaida: a drowned piece came back on the House of Rebirth
    "send_back",  # standard: the House of Water sent a piece back to the 15 area
    "water",  # kendall: a piece came into the House of Water (by moving there)
    "water_attack",  # kendall: a piece attacked on 28-30 was sent into the House of Water
    "water_risk",  # kendall: the owner chose to risk
    "water_return",  # kendall: the owner chose to return to the 15 area
    "water_saved",  # kendall: the 4 came and the piece left the board
    "water_lost",  # kendall: a turn lost while the piece waits in the water
    "house_on_swap",  # a House acted on a piece swapped into it
    "early_end",  # bell: the game ended with pieces still on the board
    "attack_back",  # an attacked piece was sent to the free square nearest the start
)
