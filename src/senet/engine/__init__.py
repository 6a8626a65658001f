"""The Senet rules engine: pure Python, no I/O, no randomness of its own, no dependencies.

>>> from senet.engine import Game, find_variant
>>> game = Game(find_variant("standard"))
>>> _ = game.push_throw(3)
>>> [m.text() for m in game.position.legal_moves()][:3]
['1-4', '3-6', '5-8']
"""

from .errors import IllegalMove, InvalidPosition, NotationError, SenetError
from .game import Action, Game, Throw
from .moves import Move, parse_move
from .notation import format_position, parse_position
from .position import Outcome, Position, seat_letter
from .throws import DIE4, STICKS, STICKS6, Instrument, draw_throw, sticks_value
from .variants import (
    OFF,
    VARIANTS,
    Backward,
    Capture,
    House,
    HouseKind,
    Passing,
    Protection,
    Scoring,
    UnknownVariant,
    Variant,
    find_variant,
    variant_names,
)

__all__ = [
    "Action",
    "Backward",
    "Capture",
    "DIE4",
    "Game",
    "House",
    "HouseKind",
    "IllegalMove",
    "Instrument",
    "InvalidPosition",
    "Move",
    "NotationError",
    "OFF",
    "Outcome",
    "Passing",
    "Position",
    "STICKS",
    "STICKS6",
    "Protection",
    "Scoring",
    "SenetError",
    "Throw",
    "UnknownVariant",
    "VARIANTS",
    "Variant",
    "find_variant",
    "draw_throw",
    "format_position",
    "parse_move",
    "parse_position",
    "seat_letter",
    "sticks_value",
    "variant_names",
]
