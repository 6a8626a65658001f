"""The controller's side: a match between two engine programs.

Games are played in pairs: both games of pair ``k`` use the same seeded sequence of throws
(:func:`pair_seed`), the first program seat A in one and seat B in the other, so the luck of the
throws cancels as far as the games run alike (``bench/ai_ladder.py`` plays its ladder so).
Before each of its decisions a program is sent the position where the last run of throws began
and the throws since (``position``, ``throw`` ...), then ``go movetime MS``.

A program loses the game, and the match goes on, when it

* answers later than its time (``--time`` a move, plus ``grace`` for the pipe): *time forfeit*;
* exits, closes its output or cannot be started again: *abandoned*;
* plays a move that is not legal, sends a line that is not a reply, or refuses a command:
  *rules infraction*.

Then it is stopped and started again for the next game.  Every game is written down in the
engine's record format (:mod:`senet.engine.record`), with the reason of a forfeit in its
``Reason`` tag.  The score is the first program's mean over the pairs, with a 95% interval
(normal approximation over the pairs' mean scores) and the Elo difference it corresponds to.
"""

from __future__ import annotations

import math
import queue
import random
import shlex
import statistics
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from senet.engine import Game, Move, Throw, draw_throw, find_variant
from senet.engine.record import GameRecord

from .messages import (
    BestMove,
    Command,
    EngineError,
    Go,
    Hello,
    HelloDone,
    Identity,
    Info,
    IsReady,
    NewGame,
    ProtocolError,
    Quit,
    ReadyOk,
    Reply,
    SetPosition,
    ThrowShown,
    Variants,
    format_command,
    parse_reply,
)

__all__ = [
    "Forfeit",
    "GameResult",
    "MatchError",
    "MatchResult",
    "MatchSettings",
    "Program",
    "elo_difference",
    "game_line",
    "record_path",
    "summary_lines",
    "pair_seed",
    "play_match",
    "score_interval",
]

TIME_FORFEIT = "time forfeit"
ABANDONED = "abandoned"
RULES_INFRACTION = "rules infraction"


class MatchError(Exception):
    """The match cannot be played (a program does not start, or does not play the variant)."""


class Forfeit(Exception):
    """A program lost the game by ``termination`` (a key of the record's TERMINATIONS)."""

    def __init__(self, termination: str, reason: str) -> None:
        super().__init__(reason)
        self.termination = termination
        self.reason = reason


@dataclass(frozen=True)
class MatchSettings:
    """``time``: seconds a move; ``grace``: seconds more before a late answer loses (the pipe,
    a busy machine); ``startup``: seconds to start, answer the handshake and get ready;
    ``first_pair``: the number of the first pair (its throws' seed); ``max_plies``: a game
    longer than this is stopped unfinished and scores a draw."""

    variant: str
    games: int
    time: float = 1.0
    grace: float = 0.5
    startup: float = 60.0
    first_pair: int = 0
    max_plies: int = 3000


def pair_seed(k: int) -> int:
    """The seed of the throws of game pair ``k`` (both games of the pair use it)."""
    return 1_000_003 * k + 7


class Program:
    """A running engine program: start, handshake, ask for moves, stop.  A reader thread puts
    each line of its output on a queue, so every wait has a deadline."""

    def __init__(self, command: Sequence[str], label: str) -> None:
        self.command = list(command)
        self.label = label
        self.name = label
        self.variants: tuple[str, ...] = ()
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=5)
        #: seconds from each ``go`` to its ``bestmove`` (wall clock), over the whole match
        self.move_times: list[float] = []

    # ------------------------------------------------------------------ life
    def start(self, timeout: float) -> None:
        """Start the program and shake hands; raises :class:`Forfeit` (``abandoned``) if it
        cannot start or does not answer ``senet`` with ``senetok`` in time."""
        self.stop()
        self._lines = queue.Queue()
        self._stderr.clear()
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise Forfeit(ABANDONED, f"{self.label} cannot be started: {exc}") from None
        self._process = process
        threading.Thread(target=self._read, args=(process.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._read_errors, args=(process.stderr,), daemon=True).start()
        deadline = time.monotonic() + timeout
        self.send(Hello())
        variants: tuple[str, ...] = ()
        while True:
            reply = self._reply(deadline, "senet", ABANDONED)
            if isinstance(reply, Identity) and reply.key == "name":
                self.name = reply.value
            elif isinstance(reply, Variants):
                variants = reply.names
            elif isinstance(reply, HelloDone):
                break
        self.variants = variants

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        """``quit``, then end the process if it does not exit at once."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            try:
                if process.stdin is None:
                    raise RuntimeError("the program was started without a pipe to its input")
                process.stdin.write(format_command(Quit()) + "\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    # ------------------------------------------------------------------ talking
    def send(self, command: Command) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise Forfeit(ABANDONED, f"{self.label} is not running")
        try:
            process.stdin.write(format_command(command) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise Forfeit(ABANDONED, f"{self.label} exited{self._last_words()}") from None

    def new_game(self, variant: str, timeout: float) -> None:
        """``newgame``, then ``isready`` answered by ``readyok`` within ``timeout``."""
        self.send(NewGame(variant))
        self.send(IsReady())
        deadline = time.monotonic() + timeout
        while not isinstance(self._reply(deadline, "isready", ABANDONED), ReadyOk):
            pass

    def best_move(self, commands: Sequence[Command], seconds: float, grace: float) -> Move:
        """Send ``commands`` and ``go movetime``; the move must come within ``seconds`` plus
        ``grace``.  Raises :class:`Forfeit` otherwise."""
        for command in commands:
            self.send(command)
        self.send(Go(max(1, round(seconds * 1000))))
        sent = time.monotonic()
        deadline = sent + seconds + grace
        while True:
            reply = self._reply(deadline, "go", TIME_FORFEIT)
            if isinstance(reply, BestMove):
                self.move_times.append(time.monotonic() - sent)
                return reply.move

    def _reply(self, deadline: float, waiting_for: str, late: str) -> Reply:
        """The next reply (``info`` skipped); an ``error`` or a malformed line is a rules
        infraction, silence past ``deadline`` is ``late``, the end of output abandons."""
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Forfeit(late, f"{self.label} did not answer {waiting_for} in time") from None
            if line is None:
                raise Forfeit(ABANDONED, f"{self.label} exited{self._last_words()}")
            if not line.strip():
                continue
            try:
                reply = parse_reply(line)
            except ProtocolError as exc:
                raise Forfeit(
                    RULES_INFRACTION, f"{self.label} sent {line.strip()!r}: {exc}"
                ) from None
            if isinstance(reply, EngineError):
                raise Forfeit(RULES_INFRACTION, f"{self.label} refused: {reply.text}")
            if not isinstance(reply, Info):
                return reply

    @staticmethod
    def _read(stream: object, lines: queue.Queue[str | None]) -> None:
        try:
            for line in stream:  # type: ignore[attr-defined]
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _read_errors(self, stream: object) -> None:
        try:
            for line in stream:  # type: ignore[attr-defined]
                if line.strip():
                    self._stderr.append(line.strip())
        except (OSError, ValueError):
            pass

    def _last_words(self) -> str:
        process = self._process
        code = process.poll() if process is not None else None
        words = f" with code {code}" if code is not None else ""
        if self._stderr:
            words += f" ({self._stderr[-1]})"
        return words


@dataclass(frozen=True)
class GameResult:
    """One game: its number (from 1), its pair, which program sat at seat A (0: the first),
    the winning seat (None: a draw or unfinished), how it ended and its record."""

    number: int
    pair: int
    first_seat: int
    winner: int | None
    termination: str
    reason: str
    record: GameRecord

    @property
    def first_score(self) -> float:
        """The first program's score: 1, ½ or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.first_seat else 0.0

    @property
    def forfeiter(self) -> int | None:
        """Which program (0: the first) lost by forfeit, if one did."""
        if self.termination == "normal" or self.winner is None:
            return None
        seat = 1 - self.winner
        return 0 if seat == self.first_seat else 1


@dataclass
class MatchResult:
    """The games of a match between programs named ``names`` (the first one's view)."""

    names: tuple[str, str]
    settings: MatchSettings
    games: list[GameResult] = field(default_factory=list)
    #: each program's seconds from ``go`` to ``bestmove``, every move it answered in time
    move_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def pair_scores(self) -> list[float]:
        """The first program's mean score in each complete pair."""
        by_pair: dict[int, list[float]] = {}
        for game in self.games:
            by_pair.setdefault(game.pair, []).append(game.first_score)
        return [sum(s) / len(s) for s in by_pair.values() if len(s) == 2]

    def points(self) -> tuple[float, float]:
        first = sum(game.first_score for game in self.games)
        return first, len(self.games) - first


def score_interval(pair_scores: Sequence[float]) -> tuple[float, float, float]:
    """Mean score and its 95% interval (normal approximation over the pairs' mean scores; one
    pair alone, with no spread to measure, is given the widest spread a pair can have, ½)."""
    n = len(pair_scores)
    if n == 0:
        return 0.5, 0.0, 1.0
    mean = sum(pair_scores) / n
    var = sum((s - mean) ** 2 for s in pair_scores) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def elo_difference(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (±inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _commands_before(game: Game) -> list[Command]:
    """The position where the last run of throws began and the throws since."""
    positions, actions = game.positions, game.actions
    start = len(actions)
    while start > 0 and isinstance(actions[start - 1], Throw):
        start -= 1
    commands: list[Command] = [SetPosition(positions[start])]
    commands += [ThrowShown(a.value) for a in actions[start:] if isinstance(a, Throw)]
    return commands


def play_game(
    programs: tuple[Program, Program], settings: MatchSettings, seed: int
) -> tuple[Game, int | None, str, str]:
    """One game, ``programs[0]`` seat A; the throws come from ``random.Random(seed)``.
    Returns the game, the winning seat, the termination and the reason of a forfeit."""
    variant = find_variant(settings.variant)
    game = Game(variant)
    throws = random.Random(seed)
    for index, program in enumerate(programs):
        try:
            if not program.alive():
                program.start(settings.startup)
            program.new_game(variant.name, settings.startup)
        except Forfeit as forfeit:
            return game, 1 - index, forfeit.termination, forfeit.reason
    plies = 0
    while not game.is_over() and plies < settings.max_plies:
        position = game.position
        if position.is_chance():
            game.push_throw(draw_throw(throws, variant.instrument))
            continue
        decider = position.decider
        if decider is None:
            raise RuntimeError("no seat decides in a position that is neither over nor chance")
        program = programs[decider]
        try:
            move = program.best_move(_commands_before(game), settings.time, settings.grace)
            if move not in position.legal_moves():
                legal = ", ".join(m.text() for m in position.legal_moves())
                raise Forfeit(
                    RULES_INFRACTION,
                    f"{program.label} played {move.text()} in {position.fen()}; legal: {legal}",
                )
        except Forfeit as forfeit:
            return game, 1 - decider, forfeit.termination, forfeit.reason
        game.push(move)
        plies += 1
    outcome = game.outcome()
    if outcome is None:
        return game, None, "unterminated", f"stopped unfinished after {plies} moves"
    return game, outcome.winner, "normal", ""


def play_match(
    commands: tuple[Sequence[str], Sequence[str]],
    settings: MatchSettings,
    *,
    on_game: Callable[[GameResult, tuple[str, str]], None] | None = None,
) -> MatchResult:
    """Play ``settings.games`` games (pairs of two) between the programs ``commands`` (each an
    argument list).  Raises :class:`MatchError` if a program cannot start or does not play the
    variant; after that, every failure costs its game only."""
    if settings.games < 2 or settings.games % 2:
        raise MatchError(f"--games is {settings.games}: give an even number (pairs of games)")
    variant = find_variant(settings.variant).name
    programs = (
        Program(commands[0], "the first program"),
        Program(commands[1], "the second program"),
    )
    try:
        for program in programs:
            try:
                program.start(settings.startup)
            except Forfeit as failure:
                raise MatchError(failure.reason) from None
            if variant not in program.variants:
                raise MatchError(
                    f"{program.name} ({shlex.join(program.command)}) does not play {variant};"
                    f" it plays: {', '.join(program.variants) or 'nothing'}"
                )
        names = (programs[0].name, programs[1].name)
        if names[0] == names[1]:
            names = (f"{names[0]} #1", f"{names[1]} #2")
        for program, name in zip(programs, names):
            program.label = name
        result = MatchResult(
            names, settings, move_times=(programs[0].move_times, programs[1].move_times)
        )
        date = datetime.now(UTC).strftime("%Y.%m.%d")
        for index in range(settings.games):
            pair = settings.first_pair + index // 2
            first_seat = index % 2
            seated = (programs[0], programs[1]) if first_seat == 0 else (programs[1], programs[0])
            seed = pair_seed(pair)
            game, winner, termination, reason = play_game(seated, settings, seed)
            for seat, program in enumerate(seated):
                if winner is not None and termination != "normal" and seat != winner:
                    program.stop()  # whatever state it is in, the next game starts it afresh
            tags = {
                "Event": f"senet match, {settings.time:g} s a move",
                "Date": date,
                "Round": str(index + 1),
                "PlayerA": seated[0].label,
                "PlayerB": seated[1].label,
                "Seed": str(seed),
            }
            if reason:
                tags["Reason"] = " ".join(reason.split())
            forfeited = termination not in ("normal", "unterminated")
            record = GameRecord.from_game(
                game,
                winner=winner if forfeited else None,
                termination=termination if forfeited else None,
                **tags,
            )
            outcome = GameResult(index + 1, pair, first_seat, winner, termination, reason, record)
            result.games.append(outcome)
            if on_game:
                on_game(outcome, names)
        return result
    finally:
        for program in programs:
            program.stop()


def game_line(game: GameResult, names: tuple[str, str]) -> str:
    """One line of a game: who sat where, the result and how it ended."""
    seated = (names[0], names[1]) if game.first_seat == 0 else (names[1], names[0])
    if game.winner is None:
        result = "½-½"
    else:
        result = "1-0" if game.winner == 0 else "0-1"
    how = "" if game.termination == "normal" else f" ({game.termination}: {game.reason})"
    return (
        f"game {game.number:>3} (pair {game.pair}): {seated[0]} (A) - {seated[1]} (B) {result}{how}"
    )


def summary_lines(result: MatchResult) -> list[str]:
    """The score with its 95% interval and Elo difference, and the forfeits of each program."""
    first, second = result.names
    points = result.points()
    mean, low, high = score_interval(result.pair_scores())
    pairs = len(result.pair_scores())
    lines = [
        f"{first} {points[0]:g} - {points[1]:g} {second} in {len(result.games)} games "
        f"({result.settings.variant}, {result.settings.time:g} s a move)",
        f"{first}'s score {mean:.1%}, 95% interval [{low:.1%}, {high:.1%}] over "
        f"{pairs} pair{'' if pairs == 1 else 's'}; Elo difference {_elo(mean)} "
        f"[{_elo(low)}, {_elo(high)}]",
    ]
    for index, name in enumerate(result.names):
        counts = {TIME_FORFEIT: 0, ABANDONED: 0, RULES_INFRACTION: 0}
        for game in result.games:
            if game.forfeiter == index:
                counts[game.termination] += 1
        lines.append(
            f"forfeits of {name}: {counts[RULES_INFRACTION]} by a rules infraction, "
            f"{counts[ABANDONED]} by abandoning (exit, crash), {counts[TIME_FORFEIT]} on time"
        )
    for name, times in zip(result.names, result.move_times):
        if times:
            lines.append(
                f"time per move of {name}: median {statistics.median(times) * 1000:.1f} ms, "
                f"max {max(times) * 1000:.1f} ms over {len(times)} moves"
            )
    return lines


def _elo(score: float) -> str:
    value = elo_difference(score)
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value + 0.0:+.0f}"  # (+ 0.0: no "-0")


def record_path(directory: Path, game: GameResult) -> Path:
    """Where the record of ``game`` is written: ``game-001.senet`` and so on."""
    return directory / f"game-{game.number:03d}.senet"
