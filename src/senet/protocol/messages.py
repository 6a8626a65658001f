"""The lines of the engine protocol, both ways, as typed values: one parser and one writer each.

A controller (``senet match``, a GUI, a test) sends *commands*; an engine answers with
*replies*.  Every line is one message; words are separated by single spaces (runs of white
space are forgiven on input).  The grammar is written out in ``docs/engine-protocol.md``:

=============================  ==================================================================
controller → engine            engine → controller
=============================  ==================================================================
``senet``                      ``id name NAME``, ``id author TEXT``, ``variants V1 V2 ...``,
                               ``senetok``
``isready``                    ``readyok`` (once everything it must load is loaded)
``newgame VARIANT``            nothing (a new game of ``VARIANT`` begins; forget the last one)
``position NOTATION``          nothing (the position, in :mod:`senet.engine.notation`)
``throw N``                    nothing (chance showed ``N`` in the current position)
``move M``                     nothing (``M`` was played in the current position)
``go [movetime MS]``           ``info TEXT`` lines (optional), then ``bestmove M``
``quit``                       nothing: the engine exits
=============================  ==================================================================

A line the engine cannot accept is answered with ``error MESSAGE (expected EXPECTATION)`` and
changes nothing.  :func:`parse_command` raises :class:`ProtocolError` naming the column and what
was expected; :func:`parse_reply` does the same for the controller's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.engine import Move, NotationError, Position, find_variant, parse_move, parse_position
from senet.engine.variants import UnknownVariant

__all__ = [
    "COMMAND_WORDS",
    "Command",
    "Reply",
    "ProtocolError",
    "Hello",
    "IsReady",
    "NewGame",
    "SetPosition",
    "ThrowShown",
    "MovePlayed",
    "Go",
    "Quit",
    "Identity",
    "Variants",
    "HelloDone",
    "ReadyOk",
    "BestMove",
    "Info",
    "EngineError",
    "parse_command",
    "parse_reply",
    "format_command",
    "format_reply",
]


class ProtocolError(ValueError):
    """A line that is not a message: names the column (1-based) and what was expected there."""

    def __init__(self, message: str, column: int = 1, expected: str = "") -> None:
        self.message = message
        self.column = column
        self.expected = expected
        detail = f"column {column}: {message}"
        if expected:
            detail += f" (expected {expected})"
        super().__init__(detail)


# ----------------------------------------------------------------------------- commands
@dataclass(frozen=True)
class Hello:
    """``senet``: the controller asks who the engine is."""


@dataclass(frozen=True)
class IsReady:
    """``isready``: answer ``readyok`` once ready to move at once."""


@dataclass(frozen=True)
class NewGame:
    """``newgame VARIANT``: a new game begins."""

    variant: str


@dataclass(frozen=True)
class SetPosition:
    """``position NOTATION``: the current position."""

    position: Position


@dataclass(frozen=True)
class ThrowShown:
    """``throw N``: chance showed ``N`` in the current position."""

    value: int


@dataclass(frozen=True)
class MovePlayed:
    """``move M``: ``M`` was played in the current position."""

    move: Move


@dataclass(frozen=True)
class Go:
    """``go [movetime MS]``: choose a move for the seat that decides now, within ``movetime``
    milliseconds if given."""

    movetime: int | None = None


@dataclass(frozen=True)
class Quit:
    """``quit``: exit."""


Command = Hello | IsReady | NewGame | SetPosition | ThrowShown | MovePlayed | Go | Quit

#: the first word of each command, in the order the documentation lists them
COMMAND_WORDS = ("senet", "isready", "newgame", "position", "throw", "move", "go", "quit")


# ----------------------------------------------------------------------------- replies
@dataclass(frozen=True)
class Identity:
    """``id name NAME`` or ``id author TEXT``."""

    key: str
    value: str


@dataclass(frozen=True)
class Variants:
    """``variants V1 V2 ...``: the variants the engine plays."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class HelloDone:
    """``senetok``: the end of the answer to ``senet``."""


@dataclass(frozen=True)
class ReadyOk:
    """``readyok``."""


@dataclass(frozen=True)
class BestMove:
    """``bestmove M``: the move chosen (checked by the controller, not here)."""

    move: Move


@dataclass(frozen=True)
class Info:
    """``info TEXT``: anything the engine wants to say while thinking; controllers may ignore it."""

    text: str


@dataclass(frozen=True)
class EngineError:
    """``error TEXT``: the engine refused a line; it changed nothing."""

    text: str


Reply = Identity | Variants | HelloDone | ReadyOk | BestMove | Info | EngineError

_REPLY_WORDS = ("id", "variants", "senetok", "readyok", "bestmove", "info", "error")
_ID_KEYS = ("name", "author")


def _words(line: str) -> list[tuple[int, str]]:
    """The words of ``line`` with their 1-based columns."""
    words: list[tuple[int, str]] = []
    column = 0
    for part in line.split(" "):
        stripped = part.strip()
        if stripped:
            words.append((column + 1 + part.index(stripped[0]), stripped))
        column += len(part) + 1
    return words


def _no_more(words: list[tuple[int, str]], count: int, what: str) -> None:
    if len(words) > count:
        column, word = words[count]
        raise ProtocolError(f"unexpected {word!r} after {what}", column, "the end of the line")


def _rest(line: str, words: list[tuple[int, str]], index: int) -> tuple[int, str]:
    """The text of ``line`` from word ``index`` on (spaces inside kept), with its column."""
    column = words[index][0]
    return column, line[column - 1 :].rstrip()


def parse_command(line: str) -> Command:
    """Read one controller line; raise :class:`ProtocolError` naming the column and expectation."""
    line = line.rstrip("\r\n").replace("\t", " ")
    words = _words(line)
    if not words:
        raise ProtocolError("empty line", 1, "a command: " + ", ".join(COMMAND_WORDS))
    column, word = words[0]
    if word in ("senet", "isready", "quit"):
        _no_more(words, 1, word)
        simple: dict[str, Command] = {"senet": Hello(), "isready": IsReady(), "quit": Quit()}
        return simple[word]
    if word == "newgame":
        if len(words) < 2:
            raise ProtocolError("newgame names no variant", len(line) + 1, "a variant name")
        _no_more(words, 2, "the variant")
        try:
            variant = find_variant(words[1][1])
        except UnknownVariant as exc:
            raise ProtocolError(str(exc), words[1][0], "a variant name") from None
        return NewGame(variant.name)
    if word == "position":
        if len(words) < 2:
            raise ProtocolError(
                "position gives no position", len(line) + 1, "a position in notation"
            )
        start, text = _rest(line, words, 1)
        text = " ".join(text.split())
        try:
            return SetPosition(parse_position(text, column=start))
        except NotationError as exc:
            raise ProtocolError(exc.message, exc.column, exc.expected) from None
        except ValueError as exc:  # an inconsistent position (InvalidPosition)
            raise ProtocolError(str(exc), start, "a position the rules allow") from None
    if word == "throw":
        if len(words) < 2:
            raise ProtocolError("throw gives no value", len(line) + 1, "a throw such as 3")
        _no_more(words, 2, "the throw")
        if not words[1][1].isdigit() or not words[1][1].isascii():
            raise ProtocolError(f"not a throw: {words[1][1]!r}", words[1][0], "a number 1-6")
        return ThrowShown(int(words[1][1]))
    if word == "move":
        if len(words) < 2:
            raise ProtocolError("move gives no move", len(line) + 1, "a move such as 12-15")
        _no_more(words, 2, "the move")
        return MovePlayed(_move(words[1]))
    if word == "go":
        if len(words) == 1:
            return Go()
        if words[1][1] != "movetime":
            raise ProtocolError(
                f"unknown go option {words[1][1]!r}", words[1][0], "movetime MS or nothing"
            )
        if len(words) < 3 or not (words[2][1].isascii() and words[2][1].isdigit()):
            where = words[2][0] if len(words) > 2 else len(line) + 1
            raise ProtocolError("movetime needs milliseconds", where, "a whole number of ms")
        _no_more(words, 3, "the movetime")
        return Go(int(words[2][1]))
    raise ProtocolError(f"unknown command {word!r}", column, "one of " + ", ".join(COMMAND_WORDS))


def _move(word: tuple[int, str]) -> Move:
    column, text = word
    try:
        return parse_move(text, column=column)
    except NotationError as exc:
        raise ProtocolError(exc.message, exc.column, exc.expected) from None


def parse_reply(line: str) -> Reply:
    """Read one engine line; raise :class:`ProtocolError` naming the column and expectation."""
    line = line.rstrip("\r\n").replace("\t", " ")
    words = _words(line)
    if not words:
        raise ProtocolError("empty line", 1, "a reply: " + ", ".join(_REPLY_WORDS))
    column, word = words[0]
    if word in ("senetok", "readyok"):
        _no_more(words, 1, word)
        return HelloDone() if word == "senetok" else ReadyOk()
    if word == "id":
        if len(words) < 3 or words[1][1] not in _ID_KEYS:
            where = words[1][0] if len(words) > 1 else len(line) + 1
            raise ProtocolError(
                "id needs a key and a value", where, "id name NAME or id author TEXT"
            )
        return Identity(words[1][1], _rest(line, words, 2)[1])
    if word == "variants":
        return Variants(tuple(w for _, w in words[1:]))
    if word == "bestmove":
        if len(words) < 2:
            raise ProtocolError("bestmove gives no move", len(line) + 1, "a move such as 12-15")
        _no_more(words, 2, "the move")
        return BestMove(_move(words[1]))
    if word in ("info", "error"):
        text = _rest(line, words, 1)[1] if len(words) > 1 else ""
        return Info(text) if word == "info" else EngineError(text)
    raise ProtocolError(f"unknown reply {word!r}", column, "one of " + ", ".join(_REPLY_WORDS))


def format_command(command: Command) -> str:
    """The line of ``command`` (without its newline), as :func:`parse_command` reads it back."""
    match command:
        case Hello():
            return "senet"
        case IsReady():
            return "isready"
        case NewGame(variant):
            return f"newgame {variant}"
        case SetPosition(position):
            return f"position {position.fen()}"
        case ThrowShown(value):
            return f"throw {value}"
        case MovePlayed(move):
            return f"move {move.text()}"
        case Go(movetime):
            return "go" if movetime is None else f"go movetime {movetime}"
        case Quit():
            return "quit"
    raise TypeError(f"not a command: {command!r}")


def format_reply(reply: Reply) -> str:
    """The line of ``reply`` (without its newline), as :func:`parse_reply` reads it back."""
    match reply:
        case Identity(key, value):
            return f"id {key} {value}"
        case Variants(names):
            return "variants " + " ".join(names)
        case HelloDone():
            return "senetok"
        case ReadyOk():
            return "readyok"
        case BestMove(move):
            return f"bestmove {move.text()}"
        case Info(text):
            return f"info {text}"
        case EngineError(text):
            return f"error {text}"
    raise TypeError(f"not a reply: {reply!r}")
