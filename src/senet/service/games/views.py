"""What a viewer may see of a game: the state message, what changed between two of them (the
delta), and the downloadable game record.

The state is the same for everyone except the legal moves (sent only to whoever holds the
deciding seat), the seats the viewer holds, and the invitation (only to a seat holder).
A live viewer gets the state once, then deltas: :func:`delta_message` finds what changed
between the state it was sent and the current one, :func:`apply_delta` (and the page's
``static/delta.js``, the same rule) rebuilds the current state from the two.
The fairness secret appears only once the game is over.  The commitment, each seat's own
seed and which seats must still give one are public from the start:
``phase`` is ``"seeding"`` until the first throw, then ``"playing"``, then ``"over"``.
"""

from __future__ import annotations

from datetime import UTC
from typing import Literal

from senet.engine import OFF, Game, parse_move
from senet.engine.state import BACKWARD, FORWARD, NO_DIRECTION
from senet.service.fairness.throws import encode_player_seeds
from senet.service.messages import (
    AbandonRecord,
    ActionKind,
    ClockRecord,
    DeltaMessage,
    EventsMessage,
    ForcedPassRecord,
    HistoryEntry,
    Phase,
    PresenceSummary,
    StateMessage,
    outcome_record,
)

from .commands import ABANDONED_AFTER, abandoned_since
from .live_games import LiveGame
from .seeding import seed_needed, seeds_of

#: the direction of a turn's moves as the state message names it
DIRECTION_NAMES = {NO_DIRECTION: "", FORWARD: "forward", BACKWARD: "backward"}

__all__ = [
    "apply_delta",
    "delta_message",
    "events_message",
    "game_record",
    "history_entries",
    "state_message",
]


def history_entries(live: LiveGame, start: int = 0) -> list[HistoryEntry]:
    """Every action (from ply ``start`` on) with who did it and, for moves, the squares."""
    out: list[HistoryEntry] = []
    positions = live.game.positions
    for action in live.history[start:]:
        entry: HistoryEntry = {"ply": action.ply, "kind": action.kind, "seat": action.seat}
        if action.kind == ActionKind.END:  # the last action: no position follows it
            entry["text"] = action.notation
            out.append(entry)
            continue
        before, after = positions[action.ply], positions[action.ply + 1]
        if action.kind == ActionKind.THROW:
            entry["value"] = int(action.notation)
            entry["pattern"] = action.pattern
            entry["fate"] = before.pending_name == "fate"
        else:
            move = parse_move(action.notation)
            entry["text"] = before.move_text(move)
            entry["kind"] = move.kind
            entry["origin"] = move.origin
            entry["target"] = move.target
            entry["off"] = move.target == OFF
            seat = action.seat if action.seat is not None else before.turn
            other = 1 - seat
            entry["skipped"] = other if after.skip(other) < before.skip(other) else None
            if "x" in entry["text"]:
                entry["sent"] = _sent(before.pieces(other), after.pieces(other))
        out.append(entry)
    return out


def _sent(before: tuple[int, ...], after: tuple[int, ...]) -> int | None:
    """Where the piece a move landed on went: the square new to its side (the mover's old
    square in a swap, the lowest free square in jequier, the House of Water after an attack on
    28-30), or None when it left the board (bell)."""
    new = set(after) - set(before)
    return min(new) if new else None


def cached_history(live: LiveGame, start: int = 0) -> list[HistoryEntry]:
    """:func:`history_entries` of the game (from ply ``start`` on), kept with the cached game
    and extended incrementally: every viewer of every update needs them, and a game's past
    never changes (a game read again is a new copy, and starts over).  The entries are
    shared: read them, never change them."""
    entries = live.shown_history
    if len(entries) > live.ply:  # not a continuation (never, but for safety): start over
        del entries[:]
    if len(entries) < live.ply:
        entries.extend(history_entries(live, len(entries)))
    return entries[start:]


def phase(live: LiveGame) -> Phase:
    if live.over:
        return Phase.OVER
    return Phase.SEEDING if live.seeding else Phase.PLAYING


def clock_record(live: LiveGame) -> ClockRecord | None:
    clock = live.clock
    if not clock.control.timed:
        return None
    return {
        "kind": clock.control.kind,
        "seconds": clock.control.seconds,
        "increment": clock.control.increment,
        "remaining": list(clock.remaining),
        "running": clock.running,
        "deadline": clock.deadline,
    }


def abandon_record(live: LiveGame, seats: tuple[int, ...]) -> AbandonRecord | None:
    """For a player whose opponent has gone: since when, and when the win may be claimed."""
    if len(seats) != 1:
        return None
    opponent = 1 - seats[0]
    claimable = abandoned_since(live, opponent, 0)
    if claimable is None:
        return None
    return {"seat": opponent, "since": claimable - ABANDONED_AFTER, "claimable_at": claimable}


def legal_moves_for(live: LiveGame, seats: tuple[int, ...]) -> list[str]:
    """The legal moves, in notation, if one of ``seats`` decides now; else none (none either
    once the game is over)."""
    decider = live.decider
    if decider is None or decider not in seats:
        return []
    return list(live.legal_texts())


def forced_pass_record(live: LiveGame, server_passes: bool) -> ForcedPassRecord | None:
    """The forced pass the server is about to play (None if there is none, or the server
    does not play them): the same for every viewer, spectators included."""
    pos = live.position
    if not server_passes or not live.forced_pass or pos.decider is None:
        return None
    reason: Literal["no_move", "fate", "stuck", "rest"] = "no_move"
    if pos.pending_name == "fate":
        reason = "fate"
    elif pos.entered:
        reason = "stuck"
    elif pos.divided:
        reason = "rest"
    return {"ply": live.ply, "seat": pos.decider, "throw": pos.throw, "reason": reason}


def player_seeds(live: LiveGame) -> str:
    """What the throws are (or will be) derived with: stored with the first throw."""
    return live.stored.player_seeds if not live.seeding else encode_player_seeds(seeds_of(live))


def state_message(
    live: LiveGame,
    seats: tuple[int, ...],
    presence: PresenceSummary,
    now: int,
    server_passes: bool,
) -> StateMessage:
    """Everything the holder of ``seats`` (() for a spectator) may see of the game, with who is
    connected (``presence``, summed over the server processes), the server's time ``now``
    (ms since the epoch) and whether the server plays forced passes (``server_passes``)."""
    pos = live.position
    v = pos.variant
    outcome = live.outcome
    history = cached_history(live)
    last_throw = next((h for h in reversed(history) if h["kind"] == ActionKind.THROW), None)
    last_move = next((h for h in reversed(history) if h["kind"] == "move"), None)
    stored = live.stored
    return {
        "type": "state",
        "game": live.id,
        "variant": v.name,
        "instrument": v.instrument.name,
        "mode": stored.mode,
        "level": stored.level,
        "ply": live.ply,
        "phase": phase(live),
        "fen": live.fen(),
        "turn": pos.turn,
        "decider": live.decider,
        "throw": pos.throw,
        "throws": list(pos.throws),
        "pending": pos.pending_name,
        "pieces": [list(pos.pieces(0)), list(pos.pieces(1))],
        "off": [pos.off(0), pos.off(1)],
        "captured": [pos.captured(0), pos.captured(1)],
        "drowned": [pos.drowned(0), pos.drowned(1)],
        "hand": [pos.hand(0), pos.hand(1)],
        "divided": pos.divided,
        "entered": pos.entered,
        "direction": DIRECTION_NAMES[pos.direction],
        "extra": [pos.extra(0), pos.extra(1)],
        "skip": [pos.skip(0), pos.skip(1)],
        "scoring": v.scoring,
        "pieces_per_side": v.pieces,
        "legal": legal_moves_for(live, seats),
        "you": list(seats),
        "seats": [
            {"seat": s.seat, "kind": s.kind, "taken": s.claimed, "seeded": s.seed is not None}
            for s in stored.seats
        ],
        "presence": presence,
        "last_throw": last_throw,
        "last_move": last_move,
        "history": history,
        "outcome": outcome_record(outcome),
        "fairness": {
            "commitment": stored.commitment,
            "seeds": seeds_of(live),  # per seat: its own seed, None if not given (or a computer's)
            "seed_needed": seed_needed(live),
            "player_seeds": player_seeds(live),
            "secret": stored.secret if outcome else None,
            "throws": [h.get("pattern") for h in history if h["kind"] == ActionKind.THROW],
        },
        "rematch": stored.rematch_id,
        "rematch_of": stored.rematch_of,
        "invite": live.invite_for(seats),
        "listed": stored.listed and live.free_seat() is not None,
        "termination": stored.termination if live.ending else None,
        "clock": clock_record(live),
        "abandon": abandon_record(live, seats),
        "now": now,
        "forced_pass": forced_pass_record(live, server_passes),
    }


#: The fields of a state that a delta does not carry among its changed fields: what names the
#: state (``type``, ``game``, ``ply``: the delta's own) and the history (the delta's new entries).
_FRAME = frozenset({"type", "game", "ply", "history"})


def _throw_patterns(entries: list[HistoryEntry]) -> list[int | None]:
    return [h.get("pattern") for h in entries if h["kind"] == ActionKind.THROW]


def _without_throws(fairness: object) -> object:
    if not isinstance(fairness, dict):
        return fairness
    return {k: v for k, v in fairness.items() if k != "throws"}


def delta_message(before: StateMessage, after: StateMessage, seq: int = 1) -> DeltaMessage | None:
    """What changed from ``before`` (the state a viewer holds) to ``after``: the new history
    entries, and every other field whose value changed, whole (``fairness`` without its
    ``throws``: they grow by the new throws' patterns).  None when ``after`` does not continue
    ``before`` (another game, a history that is not an extension, a field gone): then the
    viewer needs ``after`` whole.  ``apply_delta(before, delta)`` equals ``after``.  ``seq``:
    the delta's number since the viewer's last full state."""
    old, new = before["history"], after["history"]
    if (
        before["game"] != after["game"]
        or len(new) < len(old)
        or new[: len(old)] != old
        or not before.keys() <= after.keys()
    ):
        return None
    added = new[len(old) :]
    if after["fairness"]["throws"] != before["fairness"]["throws"] + _throw_patterns(added):
        return None
    previous: dict[str, object] = dict(before)
    changed: dict[str, object] = {}
    for key, value in after.items():
        if key in _FRAME:
            continue
        if key == "fairness":
            if _without_throws(value) != _without_throws(previous[key]):
                changed[key] = _without_throws(value)
        elif key not in previous or previous[key] != value:
            changed[key] = value
    return {
        "type": "delta",
        "game": after["game"],
        "seq": seq,
        "since": before["ply"],
        "ply": after["ply"],
        "history": added,
        "changed": changed,
    }


def apply_delta(state: StateMessage, delta: DeltaMessage) -> StateMessage | None:
    """The state ``delta`` brings ``state`` to, or None if it does not apply to it (another
    game, or ``state`` is not at the delta's ``since``: a delta was missed, ask for the state)."""
    if delta["game"] != state["game"] or delta["since"] != state["ply"]:
        return None
    if delta["ply"] != delta["since"] + len(delta["history"]):
        return None
    merged: dict[str, object] = dict(state)
    merged.update(delta["changed"])
    fairness = dict(delta["changed"].get("fairness", state["fairness"]))  # type: ignore[call-overload]
    fairness["throws"] = state["fairness"]["throws"] + _throw_patterns(delta["history"])
    merged.update(fairness=fairness, history=state["history"] + delta["history"], ply=delta["ply"])
    return merged  # type: ignore[return-value]


def events_message(
    live: LiveGame, seats: tuple[int, ...], since: int, server_passes: bool
) -> EventsMessage:
    """The events (actions) numbered ``since`` to ``ply - 1``: what a client that has seen
    ``since`` of them missed, with what it needs to act (the decider, its legal moves, and
    whether the server is about to play the decider's forced pass: ``server_passes``)."""
    pos = live.position
    outcome = live.outcome
    return {
        "type": "events",
        "game": live.id,
        "since": since,
        "ply": live.ply,
        "phase": phase(live),
        "seed_needed": seed_needed(live),
        "events": cached_history(live, since),
        "fen": live.fen(),
        "turn": pos.turn,
        "decider": live.decider,
        "legal": legal_moves_for(live, seats),
        "you": list(seats),
        "outcome": outcome_record(outcome),
        "forced_pass": forced_pass_record(live, server_passes),
    }


def game_record(live: LiveGame, site: str = "") -> str:
    """The game in the record format of :mod:`senet.engine.record` (with the fairness tags)."""
    stored = live.stored
    game: Game = live.game
    outcome = live.outcome
    names = {s.seat: s.kind.value for s in stored.seats}
    tags = {
        "Event": "Senet game " + stored.id,
        "GameId": stored.id,
        "Site": site,
        "Date": stored.created_at.astimezone(UTC).strftime("%Y.%m.%d")
        if stored.created_at.tzinfo
        else stored.created_at.strftime("%Y.%m.%d"),
        "PlayerA": names.get(0, "?"),
        "PlayerB": names.get(1, "?"),
        "Commitment": stored.commitment,
        "PlayerSeeds": player_seeds(live),  # seat A's seed ":" seat B's (see fairness.py)
    }
    if stored.level:
        tags["Levels"] = stored.level
    if outcome is not None:
        tags["Seed"] = stored.secret
    try:
        from senet.engine.record import GameRecord

        ending = live.ending
        if ending is not None and ending.seat is not None:
            return GameRecord.from_game(
                game, winner=1 - ending.seat, termination=ending.notation, **tags
            ).text()
        return GameRecord.from_game(game, winner=None, termination=None, **tags).text()
    except ImportError:  # pragma: no cover - the record module is part of the engine now
        lines = [f'[{k} "{v}"]' for k, v in tags.items()]
        lines.append(f'[Result "{outcome.result if outcome else "*"}"]')
        lines.append("")
        lines.append(" ".join(str(a) for a in game.actions))
        return "\n".join(lines) + "\n"
