"""``senet play``: a game in the terminal against a computer player or a second person.

Everything goes through ``input`` and ``print`` on stdin/stdout, so tests (and scripts)
can feed moves through a pipe.  Throws come from ``random.Random(seed)`` with the instrument's
exact odds: with the same seed and the same moves the game is the same, which makes a game
reported by a player reproducible.  (The site's fair-throw service is for games against
people who must trust the throws; a terminal game against yourself needs no commitment.)
"""

from __future__ import annotations

import argparse
import random

from senet.engine import (
    Game,
    IllegalMove,
    Move,
    NotationError,
    Position,
    Scoring,
    draw_throw,
    parse_move,
)
from senet.engine.position import seat_letter
from senet.engine.record import GameRecord, write_record

from .common import (
    CommandError,
    EngineCommand,
    add_lang_option,
    echo,
    get_position,
    get_variant,
    outcome_text,
    render_board,
)
from .players import default_opponent, player_names, resolve_player

__all__ = ["play_command", "HELP_TEXT", "hint_text"]

HELP_TEXT = """\
Type the number of a move from the list, or the move itself (12-15, 12x15, 28-off, pass,
revive, risk, return).  Other commands:
  hint    the computer's chance to win after each of your moves, best first
  undo    take back your last decision (and everything played after it)
  record  print the game record so far
  board   draw the board again
  help    this text
  quit    leave the game"""


class _Session:
    """The game being played, plus which actions were people's decisions (undo points)."""

    def __init__(
        self, start: Position, humans: set[int], opponent_name: str, seed: int, lang: str
    ) -> None:
        self.game = Game(start)
        self.humans = humans
        computer_seats = {0, 1} - humans
        self.opponent = resolve_player(opponent_name) if computer_seats else None
        self.opponent_name = opponent_name
        self.seed = seed
        self.lang = lang
        self.rng = random.Random(seed)
        self.decisions: list[int] = []  # game lengths just before each human decision

    def player_label(self, seat: int) -> str:
        return (
            "you"
            if seat in self.humans and len(self.humans) == 1
            else ("human" if seat in self.humans else self.opponent_name)
        )

    def record_text(self) -> str:
        record = GameRecord.from_game(
            self.game,
            Event="senet play",
            PlayerA=self.player_label(0),
            PlayerB=self.player_label(1),
            Seed=str(self.seed),
        )
        return write_record(record)

    def undo(self) -> str:
        if not self.decisions:
            return "nothing to undo: you have not decided anything yet"
        length = self.decisions.pop()
        while len(self.game) > length:
            self.game.pop()
        position = self.game.position
        return f"undone: back to {seat_letter(position.decider or 0)}'s decision with the throw {position.throw}"


def _legal_list(position: Position, legal: list[Move]) -> str:
    return "  ".join(f"{i}) {position.move_text(m)}" for i, m in enumerate(legal, 1))


def hint_text(position: Position, legal: list[Move]) -> str:
    """Every legal move with the decider's chance to win after it (the analysis board's and
    the site's hints' judgement: exact where the endgame solver reaches, else the master
    level's estimate), best first, numbered as the move list numbers them."""
    if len(legal) == 1:
        return f"  only one move: {position.move_text(legal[0])}"
    try:  # the computer player and numpy load only when a hint is asked for
        from senet.service.analysis import analyse
    except ImportError as exc:
        return f"  no hints: the computer player cannot be loaded ({exc})"
    result = analyse(position)
    numbers = {position.move_text(m): i for i, m in enumerate(legal, 1)}
    points = position.variant.scoring is Scoring.POINTS
    what = "expected result (a draw counts half)" if points else "chance to win"
    how = "exact" if result.exact else "the master level's estimate"
    lines = [f"  your {what} after each move ({how}):"]
    for m in sorted(result.moves, key=lambda m: -m.chance):
        best = "  <- best" if m.best else ""
        lines.append(f"  {numbers[m.move]}) {m.move:<8} {100 * m.chance:5.1f}%{best}")
    return "\n".join(lines)


_UNDONE = "undone"


def _read_move(session: _Session, position: Position, legal: list[Move]) -> Move | str | None:
    """Ask until the player gives a legal move.  Returns the move; :data:`_UNDONE` after an undo
    (the position changed, so the caller starts over); None when the player quits or input ends."""
    seat = position.decider
    if seat is None:
        raise RuntimeError("a move is asked for where no seat decides")
    echo()
    echo(render_board(position, session.lang))
    echo(f"  moves: {_legal_list(position, legal)}")
    while True:
        try:
            answer = input(f"{seat_letter(seat)}> ")
        except (EOFError, KeyboardInterrupt):
            echo("\n(input ended: game left unfinished)")
            return None
        word = answer.strip().lower()
        if not word:
            continue
        if word in ("quit", "exit", "q"):
            echo("game left unfinished")
            return None
        if word in ("help", "?", "h"):
            echo(HELP_TEXT)
            continue
        if word == "record":
            echo(session.record_text())
            continue
        if word in ("hint", "hints"):
            echo(hint_text(position, legal))
            continue
        if word == "board":
            echo(render_board(position, session.lang))
            echo(f"  moves: {_legal_list(position, legal)}")
            continue
        if word == "undo":
            message = session.undo()
            echo(message)
            if message.startswith("undone"):
                return _UNDONE
            continue
        if word.isascii() and word.isdigit():
            index = int(word)
            if 1 <= index <= len(legal):
                return legal[index - 1]
            echo(f"no move number {index}; choose 1-{len(legal)}")
            continue
        try:
            move = parse_move(word)
        except NotationError as exc:
            echo(f"{exc.message}; type a number 1-{len(legal)}, a move, or help")
            continue
        if move in legal:
            return move
        echo(f"{position.move_text(move)} is not legal here; legal: {_legal_list(position, legal)}")


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", default=None, help="Variant name or alias (default: standard)."
    )
    parser.add_argument(
        "--opponent",
        default=None,
        help="human (two people at one terminal), random, greedy, or an AI level; 'list' shows "
        "them (default: the level the site offers first, expert).",
    )
    parser.add_argument(
        "--seat",
        type=str.upper,
        choices=["A", "B"],
        default="A",
        help="Your seat; A moves first (default: A).",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="Seed of the throws (default: a fresh one, printed)."
    )
    parser.add_argument(
        "--position",
        dest="start_text",
        metavar="POSITION",
        default=None,
        help="Start from this position (notation) instead of the initial one.",
    )
    add_lang_option(parser)


def _play(args: argparse.Namespace) -> None:
    """Play a game in the terminal: numbered legal moves, hint, undo, record, help, quit."""
    variant: str | None = args.variant
    opponent: str | None = args.opponent
    seed: int | None = args.seed
    start_text: str | None = args.start_text
    lang: str = args.lang
    if opponent is None:
        opponent = default_opponent()
    if opponent.strip().lower() == "list":
        echo("opponents: " + ", ".join(["human"] + player_names()))
        return
    if start_text is not None:
        start = get_position(start_text)
        if variant is not None and get_variant(variant) is not start.variant:
            raise CommandError(
                f"--variant {variant} disagrees with the position's variant {start.variant.name}"
            )
    else:
        start = Position.initial(get_variant(variant or "standard"))
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    human_seat = "AB".index(args.seat)
    humans = {0, 1} if opponent.strip().lower() == "human" else {human_seat}
    session = _Session(start, humans, opponent, seed, lang)
    v = start.variant
    echo(f"{v.title(lang)} — seed {seed}")
    for s in (0, 1):
        echo(f"  {seat_letter(s)} ({v.seat_name(s, lang)}): {session.player_label(s)}")
    echo("Type help for commands.")
    game = session.game
    while True:
        position = game.position
        outcome = position.outcome()
        if outcome is not None:
            echo()
            echo(render_board(position, lang))
            echo(f"Result: {outcome_text(outcome, v)}")
            echo()
            echo(session.record_text())
            return
        if position.is_chance():
            value = draw_throw(session.rng, v.instrument)
            game.push_throw(value)
            what = (
                "throw of fate"
                if position.pending_name == "fate"
                else f"{seat_letter(position.turn)} throws"
            )
            echo(f"{what}: {value}")
            continue
        decider = position.decider
        if decider is None:
            raise RuntimeError("no seat decides in a position that is neither over nor chance")
        legal = position.legal_moves()
        if decider not in session.humans:
            if session.opponent is None:
                raise RuntimeError("the computer is on turn in a game without one")
            move = session.opponent(position, session.rng)
            try:
                game.push(move)
            except IllegalMove as exc:  # a buggy AI must not take the game down silently
                raise CommandError(
                    f"the {session.opponent_name} player chose an illegal move: {exc}"
                ) from None
            echo(
                f"{seat_letter(decider)} ({session.opponent_name}) plays {position.move_text(move)}"
            )
            continue
        if legal == [Move("pass")]:
            game.push(legal[0])
            echo(f"{seat_letter(decider)} cannot move with {position.throw}: pass")
            continue
        answer = _read_move(session, position, legal)
        if answer is None:
            return
        if isinstance(answer, str):  # undone: the position changed
            continue
        session.decisions.append(len(game))
        game.push(answer)
        echo(f"{seat_letter(decider)} plays {position.move_text(answer)}")


play_command = EngineCommand(
    "play", "Play a game in the terminal (with hints on request).", _arguments, _play
)
