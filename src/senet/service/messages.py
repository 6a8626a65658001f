"""The records and messages that cross a layer or a process: one typed definition and one
constructor each.

* kinds: :class:`ActionKind`, :class:`SeatKind`, :class:`Mode`, :class:`Phase` (string enums:
  they are stored and sent as their plain values);
* records: :class:`Finish` (a finished game's result columns), :class:`OutcomeRecord` (the
  outcome as a viewer sees it);
* between server processes, on a game's channel: :class:`UpdateMessage` (made by
  :func:`update_message`, :func:`refresh_message`, :func:`unannounced_message`),
  :class:`ResyncMessage` (:func:`resync_message`); the presence messages are
  :mod:`senet.service.infrastructure.presence`'s;
* to the browser: :class:`StateMessage`, :class:`DeltaMessage` and :class:`EventsMessage` (built
  by :mod:`senet.service.games.views`), with :class:`HistoryEntry`, :class:`SeatRecord`,
  :class:`FairnessRecord`; the WebSocket protocol around them is :mod:`senet.web.protocol`
  and docs/protocol.md.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NotRequired, Self, TypeAlias, TypedDict

from senet.engine import Outcome

__all__ = [
    "AbandonRecord",
    "ActionKind",
    "CancelledMessage",
    "cancelled_message",
    "ClockColumns",
    "ClockRecord",
    "ActionRow",
    "DeltaMessage",
    "EventsMessage",
    "FairnessRecord",
    "Finish",
    "ForcedPassRecord",
    "HistoryEntry",
    "LobbyMessage",
    "lobby_changed",
    "Mode",
    "OutcomeRecord",
    "Phase",
    "PresenceSummary",
    "ResyncMessage",
    "SeatKind",
    "SeatPass",
    "Holder",
    "SeatRecord",
    "StateMessage",
    "UpdateMessage",
    "outcome_record",
    "refresh_message",
    "resync_message",
    "unannounced_message",
    "update_message",
]


class ActionKind(StrEnum):
    """What a stored action is: a throw of the sticks (or die), a player's move, or the end of
    the game before the rules end it (its notation the termination — ``resignation``, ``time
    forfeit``, ``abandoned`` — and its seat the player who lost)."""

    THROW = "throw"
    MOVE = "move"
    END = "end"


class SeatKind(StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"


class Mode(StrEnum):
    """Who plays: a friend by invitation, the computer, or two people on one screen."""

    FRIEND = "friend"
    COMPUTER = "computer"
    LOCAL = "local"


class Phase(StrEnum):
    """``seeding`` (no throw yet: waiting for the players' seeds), ``playing`` or ``over``."""

    SEEDING = "seeding"
    PLAYING = "playing"
    OVER = "over"


# ---------------------------------------------------------------------- records
class ClockColumns(TypedDict):
    """The server's clock as stored with a game (see :mod:`senet.service.games.clocks`)."""

    clock_a: int | None
    clock_b: int | None
    clock_seat: int | None
    deadline: int | None


@dataclass(frozen=True, slots=True)
class SeatPass:
    """The seats of one game that a device holds through its signed-in player rather than a
    seat secret: the seats linked to the player of the device's session, found by the server
    (:meth:`senet.service.players.accounts.Players.holder`) from the session secret's digest, never
    from anything the browser says.  Only the service makes one."""

    game_id: str
    seats: tuple[int, ...]


#: who acts in or looks at a game: a seat secret, a :class:`SeatPass`, or None (a spectator)
Holder: TypeAlias = str | SeatPass | None


@dataclass(frozen=True, slots=True)
class Finish:
    """A finished game's result columns (``games.result``, ``reason``, ``score_a``,
    ``score_b``), stored in the transaction of the action that ends it."""

    result: str  # A | B | draw
    reason: str
    score_a: int
    score_b: int
    termination: str | None = None  # how a player ended it (records.TERMINATIONS), if not the rules

    @classmethod
    def of(cls, outcome: Outcome, termination: str | None = None) -> Self:
        return cls(outcome.result, outcome.reason, outcome.score[0], outcome.score[1], termination)


class OutcomeRecord(TypedDict):
    winner: int | None
    score: list[int]
    reason: str
    result: str


def outcome_record(outcome: Outcome | None) -> OutcomeRecord | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "score": list(outcome.score),
        "reason": outcome.reason,
        "result": outcome.result,
    }


# ---------------------------------------------------------------------- between processes
#: An action in an update message: ``[kind, seat, notation, pattern]``.
ActionRow = list[str | int | None]

UpdateMessage = TypedDict(
    "UpdateMessage",
    {
        "type": Literal["update"],
        "ply": int,  # the number of actions stored now (the event number)
        "from": NotRequired[int],  # the first action carried: actions[i] is action from + i
        "actions": NotRequired[list[ActionRow]],
        "refresh": NotRequired[bool],  # seats or seeds changed: read the game again
        "clock": NotRequired[ClockColumns],  # the server's clock after the actions (timed games)
    },
)
UpdateMessage.__doc__ = """A game changed.  With ``from`` and ``actions`` it carries the new
actions themselves (another process applies them without reading the database); with
``refresh`` something besides actions changed; with neither, read up to ``ply``."""


def update_message(
    start: int, actions: list[ActionRow], clock: ClockColumns | None = None
) -> UpdateMessage:
    """Actions ``start`` .. ``start + len(actions) - 1`` were stored (with the clock they set)."""
    message: UpdateMessage = {
        "type": "update",
        "ply": start + len(actions),
        "from": start,
        "actions": actions,
    }
    if clock is not None:
        message["clock"] = clock
    return message


def refresh_message(ply: int) -> UpdateMessage:
    """A seat was taken, a seed given or a rematch linked: read the game again."""
    return {"type": "update", "ply": ply, "refresh": True}


def unannounced_message(ply: int) -> UpdateMessage:
    """Actions up to ``ply`` were found in the database that nobody announced here."""
    return {"type": "update", "ply": ply}


class LobbyMessage(TypedDict):
    """The open games' listing changed (on the ``lobby`` channel): read it again."""

    type: Literal["lobby"]


def lobby_changed() -> LobbyMessage:
    return {"type": "lobby"}


class CancelledMessage(TypedDict):
    """The game was cancelled before anyone took its free seat, or (``reason`` ``aborted``)
    called off because a seed did not come by the seeding deadline: it no longer exists (on
    the game's channel, and passed on to every browser showing it)."""

    type: Literal["cancelled"]
    reason: NotRequired[Literal["aborted"]]


def cancelled_message(reason: Literal["aborted"] | None = None) -> CancelledMessage:
    if reason is None:
        return {"type": "cancelled"}
    return {"type": "cancelled", "reason": reason}


class ResyncMessage(TypedDict):
    """Messages may have been lost (the broadcast came back after an outage): read again."""

    type: Literal["resync"]


def resync_message() -> ResyncMessage:
    return {"type": "resync"}


# ---------------------------------------------------------------------- to the browser
class PresenceSummary(TypedDict):
    online: list[bool]  # per seat: is its holder connected (on any process)?
    spectators: int


class HistoryEntry(TypedDict):
    """One action as a viewer sees it: throws with their value and pattern, moves with their
    squares."""

    ply: int
    kind: str  # "throw", or the move's kind ("move" for a step, "pass", "revive", ...)
    seat: int | None
    value: NotRequired[int]  # throws
    pattern: NotRequired[int | None]
    fate: NotRequired[bool]
    text: NotRequired[str]  # moves
    origin: NotRequired[int | None]
    target: NotRequired[int | None]
    off: NotRequired[bool]
    skipped: NotRequired[int | None]
    sent: NotRequired[int | None]  # a move onto an opponent: where that piece went (None: off)


class SeatRecord(TypedDict):
    seat: int
    kind: SeatKind
    taken: bool
    seeded: bool


class FairnessRecord(TypedDict):
    commitment: str
    seeds: list[str | None]  # per seat: its own seed, None if not given (or a computer's)
    seed_needed: list[bool]
    player_seeds: str
    secret: str | None  # revealed once the game is over
    throws: list[int | None]  # the patterns


class ClockRecord(TypedDict):
    """The server's clock as a viewer sees it (times in ms; ``deadline`` since the epoch)."""

    kind: str  # move | clock | days (turn-based: ``seconds`` is the days per move in seconds)
    seconds: int
    increment: int
    remaining: list[int]
    running: int | None
    deadline: int | None


class AbandonRecord(TypedDict):
    """The opponent's seat has had no connection since ``since``; the win may be claimed from
    ``claimable_at`` on (ms since the epoch)."""

    seat: int
    since: int
    claimable_at: int


class ForcedPassRecord(TypedDict):
    """The decision due is a pass, the only legal one, and the server plays it for the player
    shortly (paced, so that everyone reads why): who, with what throw, and why.  ``reason``:
    ``no_move`` (no piece can move with the throw), ``fate`` (the throw of fate's move is
    impossible: the piece stays), ``stuck`` (piccione: the piece just entered on 1 cannot move
    and goes back to the hand) or ``rest`` (piccione: no piece can use the points left of a
    divided throw, which ``throw`` holds)."""

    ply: int  # the ply the pass will be stored at
    seat: int
    throw: int
    reason: Literal["no_move", "fate", "stuck", "rest"]


class StateMessage(TypedDict):
    """Everything a viewer may see of a game (see :func:`senet.service.games.views.state_message`)."""

    type: Literal["state"]
    game: str
    variant: str
    instrument: str
    mode: Mode
    level: str | None
    ply: int
    phase: Phase
    fen: str
    turn: int
    decider: int | None
    throw: int | None
    #: every throw of the turn not yet used, lowest first (several where all throws are made
    #: before moving, kendall-1978; else the throw alone, or none)
    throws: list[int]
    pending: str
    pieces: list[list[int]]
    off: list[int]
    captured: list[int]
    drowned: list[int]
    #: pieces waiting in the hand to enter (piccione; else zeros)
    hand: list[int]
    #: piccione: is ``throw`` the rest of a divided throw, must the piece entered on 1 move
    #: first, and the direction of the turn's moves once one is made ("forward", "backward" or "")
    divided: bool
    entered: bool
    direction: str
    extra: list[int]
    skip: list[int]
    scoring: str
    pieces_per_side: int
    legal: list[str]
    you: list[int]
    seats: list[SeatRecord]
    presence: PresenceSummary
    last_throw: HistoryEntry | None
    last_move: HistoryEntry | None
    history: list[HistoryEntry]
    outcome: OutcomeRecord | None
    fairness: FairnessRecord
    rematch: str | None
    rematch_of: str | None
    invite: str | None
    listed: bool  # waiting among the lobby's open games for any taker
    termination: str | None  # how a player ended the game, if the rules did not
    clock: ClockRecord | None  # timed games
    abandon: AbandonRecord | None  # to a player whose opponent has gone (untimed games)
    now: int  # the server's time (ms since the epoch), to draw clocks and countdowns
    forced_pass: ForcedPassRecord | None  # the server is about to pass for the decider


class EventsMessage(TypedDict):
    """The events a client that has seen ``since`` of them missed, and what it needs to act
    (see :func:`senet.service.games.views.events_message`)."""

    type: Literal["events"]
    game: str
    since: int
    ply: int
    phase: Phase
    seed_needed: list[bool]
    events: list[HistoryEntry]
    fen: str
    turn: int
    decider: int | None
    legal: list[str]
    you: list[int]
    outcome: OutcomeRecord | None
    forced_pass: ForcedPassRecord | None  # the server is about to pass for the decider


class DeltaMessage(TypedDict):
    """What changed since the state a viewer holds (see
    :func:`senet.service.games.views.delta_message` and :func:`~senet.service.games.views.apply_delta`).

    It applies to a state at ply ``since`` of game ``game`` and brings it to ``ply``:
    ``history`` holds the new entries (numbered ``since`` to ``ply - 1``), appended to the
    state's history; ``changed`` every other field of the state whose value changed, whole
    (``fairness`` without its ``throws``, which grow by the patterns of the new throws).
    ``seq`` numbers the deltas a connection got since its last full state (1, 2, ...): a
    client that finds one missing (or ``since`` not its ply) asks for the state again."""

    type: Literal["delta"]
    game: str
    seq: int
    since: int
    ply: int
    history: list[HistoryEntry]
    changed: dict[str, object]  # a part of a StateMessage: its fields that changed
