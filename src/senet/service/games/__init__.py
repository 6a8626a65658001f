"""The games: their time controls (:mod:`.clocks`), storage (:mod:`.storage`), the games held in
memory (:mod:`.live_games`), a move as one pure step (:mod:`.steps`), the commands that change
them (:mod:`.commands`, with the checked fields of a request in :mod:`.requests` and the
players' seeds in :mod:`.seeding`), what a viewer sees (:mod:`.views`), the server's own turns
(:mod:`.scheduler`), the deadlines (:mod:`.deadlines`) and the fair-play limits
(:mod:`.fair_play`).

The face offers neither the games in memory nor the stored rows, only the store the
application opens (``Storage``): the site reads games through the service's queries
(:mod:`senet.service.reading`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .clocks import (
    DAY,
    PRESETS,
    TURN_BASED,
    UNTIMED,
    ClockState,
    ManualClock,
    SystemClock,
    TimeControl,
    parse_time_control,
    requested_time_control,
)
from .commands import (
    LOBBY_CHANNEL,
    MODES,
    Created,
    GameCommands,
    command,
    new_game_rows,
    resigning_seat,
)
from .deadlines import DeadlineWatcher
from .fair_play import FairPlay, client_key
from .requests import MAX_MOVE_LENGTH, checked_move, checked_ply, checked_seat, parsed_move
from .scheduler import ServerTurns, Turn
from .seeding import checked_seed, seed_needed, seeds_of
from .steps import (
    Dice,
    GameState,
    StepResult,
    ending_finish,
    finish_of,
    is_forced_pass,
    replay,
    step,
    timed_seat,
)
from .storage import Storage
from .views import (
    apply_delta,
    delta_message,
    events_message,
    game_record,
    history_entries,
    state_message,
)

__all__ = [
    "ClockState",
    "Created",
    "DAY",
    "DeadlineWatcher",
    "Dice",
    "FairPlay",
    "GameCommands",
    "GameState",
    "LOBBY_CHANNEL",
    "MAX_MOVE_LENGTH",
    "MODES",
    "ManualClock",
    "PRESETS",
    "ServerTurns",
    "StepResult",
    "Storage",
    "SystemClock",
    "TURN_BASED",
    "TimeControl",
    "Turn",
    "UNTIMED",
    "apply_delta",
    "checked_move",
    "checked_ply",
    "checked_seat",
    "checked_seed",
    "client_key",
    "command",
    "delta_message",
    "ending_finish",
    "events_message",
    "finish_of",
    "game_record",
    "history_entries",
    "is_forced_pass",
    "new_game_rows",
    "parse_time_control",
    "parsed_move",
    "replay",
    "requested_time_control",
    "resigning_seat",
    "seed_needed",
    "seeds_of",
    "state_message",
    "step",
    "timed_seat",
]
