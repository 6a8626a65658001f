"""The computer players behind one adapter (:mod:`.players`): the built-in ``random`` and
``greedy``, and the levels of :mod:`senet.ai`, imported when first asked for (an engine
command never loads numpy).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .players import (
    BUILTIN,
    AIUnavailable,
    ComputerFailed,
    Player,
    ai_levels,
    choose_move,
    default_level,
    greedy_player,
    level_options,
    levels,
    player,
    player_names,
    random_player,
    require_ai,
    warm_up,
)

__all__ = [
    "AIUnavailable",
    "BUILTIN",
    "ComputerFailed",
    "Player",
    "ai_levels",
    "choose_move",
    "default_level",
    "greedy_player",
    "level_options",
    "levels",
    "player",
    "player_names",
    "random_player",
    "require_ai",
    "warm_up",
]
