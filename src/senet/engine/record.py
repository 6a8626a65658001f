"""Game records in the spirit of PGN: tags, then every throw and move, one turn a line.

::

    [Variant "kendall"]
    [Date "2026.11.30"]
    [PlayerA "Nefertari"]
    [PlayerB "Ramesses"]
    [Result "A"]
    [Seed "9f2c..."]

    1. A: (3) 9-12
    2. B: (1) 10-11 (4) 8-12 (2) 6-8
    3. A: (5) 12-17 {a comment} (2) 5-7

The body is a sequence of tokens separated by white space:

* ``(3)``: chance shows 3 (a regular throw, or the Adelaida throw of fate);
* a move in the notation of :mod:`senet.engine.moves` (``12-15``, ``12x15``, ``28-off``,
  ``pass``, ``revive``, ``risk``, ``return``);
* ``7. B:``: turn number 7 begins, seat B on turn.  The writer puts one turn on a line; the
  reader checks each marker against the replay, and markers may be left out;
* ``{...}``: a comment (the writer notes skipped turns of the House of Net this way).

Tags: ``Variant`` is required; ``Result`` is ``A``, ``B``, ``draw`` or ``*`` (unfinished) and
must agree with the replay, unless ``Termination`` says that a player ended the game before
the rules did (``resignation``, ``time forfeit``, ``abandoned`` or ``rules infraction``, a
program's illegal move in ``senet match``: the replay is then not
over and ``Result`` names the winner; ``normal`` or no tag: the rules ended it); ``Start`` holds a start position in position notation when the
game did not start from the variant's initial position; ``Score`` (Bell) is ``a-b``; other
tags (``Event``, ``Site``, ``Date``, ``PlayerA``, ``PlayerB``, ``Seed``, ``Commitment``,
``PlayerSeeds``, ``Levels``...) are kept as they are.  Every error names the line and the
column and what was expected there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import IllegalMove, NotationError
from .game import Action, Game, Throw
from .moves import parse_move
from .notation import parse_position
from .position import Position, seat_letter
from .variants import Scoring, UnknownVariant, find_variant

__all__ = [
    "GameRecord",
    "TERMINATIONS",
    "parse_record",
    "read_tags",
    "write_record",
    "turn_lines",
    "turn_numbers",
]

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]\Z')
_TOKEN = re.compile(r"\s+|\{[^}]*\}|\([0-9]\)|[0-9]+\.|[AB]:|[^\s{}()]+|.", re.S)
_TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "Variant",
    "PlayerA",
    "PlayerB",
    "Result",
    "Termination",
    "Score",
    "Start",
)
_RESULTS = ("A", "B", "draw", "*")

#: How a game can end before the rules end it, as written in the ``Termination`` tag, with the
#: comment the writer closes the record with (``{}`` is the losing seat's letter).
TERMINATIONS = {
    "resignation": "{} resigns",
    "time forfeit": "{} loses on time",
    "abandoned": "{} left the game",
    "rules infraction": "{} broke the rules",
}


@dataclass
class GameRecord:
    """Tags, a start position and the actions played.  Build one from a :class:`Game` with
    :meth:`from_game`, or from text with :func:`parse_record`."""

    tags: dict[str, str]
    start: Position
    actions: list[Action] = field(default_factory=list)

    @classmethod
    def from_game(
        cls, game: Game, *, winner: int | None = None, termination: str | None = None, **tags: str
    ) -> GameRecord:
        """The record of ``game``.  ``winner`` and ``termination`` (a key of
        :data:`TERMINATIONS`) record a game that a player ended before the rules did."""
        all_tags = {"Variant": game.variant.name, **tags}
        outcome = game.outcome()
        all_tags["Result"] = outcome.result if outcome else "*"
        if termination is not None:
            if termination not in TERMINATIONS or winner not in (0, 1) or outcome is not None:
                raise ValueError(
                    f"termination {termination!r} needs a winner (0 or 1) and an unfinished game"
                )
            all_tags["Result"] = seat_letter(winner)
            all_tags["Termination"] = termination
        if outcome and game.variant.scoring is Scoring.POINTS:
            all_tags["Score"] = f"{outcome.score[0]}-{outcome.score[1]}"
        if game.start != Position.initial(game.variant):
            all_tags["Start"] = game.start.fen()
        return cls(all_tags, game.start, list(game.actions))

    def replay(self) -> Game:
        """Play the actions from the start; raises IllegalMove naming the first bad action."""
        game = Game(self.start)
        for index, action in enumerate(self.actions):
            try:
                game.push_action(action)
            except IllegalMove as exc:
                raise IllegalMove(f"action {index + 1} ({action}): {exc}") from None
        return game

    def text(self) -> str:
        return write_record(self)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _begins_turn(position: Position, first: bool) -> bool:
    """Does a new turn begin at this position?  Only at a regular throw (not a fate throw)."""
    return position.is_chance() and position.pending_name != "fate" and (first or position.new_turn)


def turn_numbers(positions: Iterable[Position]) -> list[int]:
    """The turn number of the action played in each of ``positions`` (the positions a game's
    actions were played in, in order), as the record numbers its lines: the first action
    opens turn 1, and a turn begins at the first regular throw after the turn was handed over.
    """
    numbers: list[int] = []
    for position in positions:
        number = numbers[-1] if numbers else 1
        if numbers and _begins_turn(position, False):
            number += 1
        numbers.append(number)
    return numbers


def turn_lines(start: Position, actions: list[Action]) -> list[tuple[int, int, list[str]]]:
    """Split actions into turns: (turn number, seat on turn, tokens).

    Turns are numbered by :func:`turn_numbers`; when the same seat is on turn again, the other
    seat's turn was skipped (House of Net), noted as a comment.
    """
    played: list[tuple[Position, Action]] = []
    position = start
    for action in actions:
        played.append((position, action))
        if isinstance(action, Throw):
            position = position.apply_throw(action.value)
        else:
            position = position.apply(action)
    turns: list[tuple[int, int, list[str]]] = []
    numbers = turn_numbers(pos for pos, _ in played)
    for number, (position, action) in zip(numbers, played, strict=True):
        if not turns or turns[-1][0] != number:
            tokens: list[str] = []
            if turns and turns[-1][1] == position.turn:
                tokens.append(f"{{{seat_letter(1 - position.turn)} skips a turn}}")
            turns.append((number, position.turn, tokens))
        if isinstance(action, Throw):
            turns[-1][2].append(str(action))
        else:
            turns[-1][2].append(position.move_text(action))
    return turns


def write_record(record: GameRecord) -> str:
    tags = dict(record.tags)
    ordered = [k for k in _TAG_ORDER if k in tags] + [k for k in tags if k not in _TAG_ORDER]
    lines = [f'[{key} "{_escape(tags[key])}"]' for key in ordered]
    lines.append("")
    for number, seat, tokens in turn_lines(record.start, record.actions):
        lines.append(f"{number}. {seat_letter(seat)}: " + " ".join(tokens))
    ending = TERMINATIONS.get(tags.get("Termination", ""))
    if ending and tags.get("Result") in ("A", "B"):
        loser = "B" if tags["Result"] == "A" else "A"
        lines.append("{" + ending.format(loser) + "}")
    return "\n".join(lines).rstrip() + "\n"


def read_tags(lines: list[str]) -> tuple[dict[str, str], int]:
    """The tags at the head of a record, and the index of the first line of its body."""
    tags: dict[str, str] = {}
    index = 0
    while index < len(lines) and (lines[index].startswith("[") or not lines[index].strip()):
        line = lines[index].strip()
        if line:
            match = _TAG.match(line)
            if not match:
                column = len(lines[index]) - len(lines[index].lstrip()) + 1
                raise NotationError(f"malformed tag {line!r}", index + 1, column, '[Name "value"]')
            if match.group(1) in tags:
                raise NotationError(
                    f"tag {match.group(1)} is repeated", index + 1, 1, "each tag once"
                )
            tags[match.group(1)] = _unescape(match.group(2))
        index += 1
    return tags, index


def parse_record(text: str) -> GameRecord:
    """Read, validate and replay a record; raise :class:`NotationError` at the first fault."""
    lines = text.splitlines()
    tags, index = read_tags(lines)
    if "Variant" not in tags:
        raise NotationError(
            "the record has no Variant tag", 1, 1, '[Variant "standard"] (or bell, kendall, ...)'
        )
    tag_line = {
        k: i + 1 for i, text in enumerate(lines[:index]) for k in re.findall(r"^\s*\[(\w+)", text)
    }
    try:
        variant = find_variant(tags["Variant"])
    except UnknownVariant as exc:
        raise NotationError(str(exc), tag_line["Variant"], 1, "a known variant name") from None
    if "Start" in tags:
        start = parse_position(tags["Start"], line=tag_line["Start"], column=len('[Start "') + 1)
        if start.variant is not variant:
            raise NotationError(
                "the Start position is of another variant", tag_line["Start"], 1, variant.name
            )
    else:
        start = Position.initial(variant)
    result = tags.get("Result", "*")
    if result not in _RESULTS:
        raise NotationError(f"Result {result!r}", tag_line.get("Result", 1), 1, "A, B, draw or *")
    game = Game(start)
    turn_number = 0
    marker: tuple[int, int, int] | None = None  # number, line, column awaiting its seat
    for line_no in range(index, len(lines)):
        line = lines[line_no]
        for match in _TOKEN.finditer(line):
            token = match.group(0)
            column = match.start() + 1
            where = (line_no + 1, column)
            if token.isspace() or token.startswith("{"):
                if token.startswith("{") and not token.endswith("}"):
                    raise NotationError("unclosed comment", *where, "}")
                continue
            if re.fullmatch(r"[0-9]+\.", token):
                if marker is not None:
                    raise NotationError(
                        "turn number without a seat", marker[1], marker[2], "A: or B: after it"
                    )
                marker = (int(token[:-1]), *where)
                continue
            if token in ("A:", "B:"):
                if marker is None:
                    raise NotationError(
                        f"seat {token} without a turn number", *where, "a turn number such as 3."
                    )
                position = game.position
                seat = "AB".index(token[0])
                if game.actions and not _begins_turn(position, False):
                    raise NotationError(
                        "a new turn cannot start here",
                        marker[1],
                        marker[2],
                        "more actions of the current turn",
                    )
                if marker[0] != turn_number + 1 or seat != position.turn:
                    raise NotationError(
                        f"turn marker {marker[0]}. {token}",
                        marker[1],
                        marker[2],
                        f"{turn_number + 1}. {seat_letter(position.turn)}:",
                    )
                marker = None
                continue
            if marker is not None:
                raise NotationError(f"{token!r} after a turn number", *where, "A: or B:")
            position = game.position
            if not game.actions or _begins_turn(position, False):
                turn_number += 1
            if token.startswith("("):
                try:
                    game.push_throw(int(token[1:-1]))
                except IllegalMove as exc:
                    raise NotationError(str(exc), *where, _expected(position)) from None
                continue
            move = parse_move(token, line=where[0], column=where[1])
            try:
                game.push(move)
            except IllegalMove as exc:
                raise NotationError(str(exc), *where, _expected(position)) from None
    if marker is not None:
        raise NotationError("turn number at the end of the record", marker[1], marker[2], "a turn")
    outcome = game.outcome()
    actual = outcome.result if outcome else "*"
    termination = tags.get("Termination", "normal")
    if termination in TERMINATIONS:
        termination_line = tag_line.get("Termination", len(lines))
        if outcome is not None:
            raise NotationError(
                f"Termination {termination!r} but the rules ended the game ({actual})",
                termination_line,
                1,
                '[Termination "normal"] or no Termination tag',
            )
        if result not in ("A", "B"):
            raise NotationError(
                f"Termination {termination!r} with Result {result!r}",
                tag_line.get("Result", termination_line),
                1,
                "the winner: A or B",
            )
        actual = result
    elif termination != "normal":
        raise NotationError(
            f"Termination {termination!r}",
            tag_line["Termination"],
            1,
            "normal, " + ", ".join(TERMINATIONS),
        )
    if result != actual:
        raise NotationError(
            f"the Result tag says {result!r} but the moves give {actual!r}",
            tag_line.get("Result", len(lines)),
            1,
            actual,
        )
    if outcome and "Score" in tags and tags["Score"] != f"{outcome.score[0]}-{outcome.score[1]}":
        raise NotationError(
            f"the Score tag says {tags['Score']!r}",
            tag_line["Score"],
            1,
            f"{outcome.score[0]}-{outcome.score[1]}",
        )
    return GameRecord(tags, start, list(game.actions))


def _expected(position: Position) -> str:
    if position.is_chance():
        values = ", ".join(f"({v})" for v, _ in position.chance_outcomes())
        return f"a throw: {values}"
    legal = position.legal_moves()
    if not legal:
        return "the end of the record (the game is over)"
    return "one of " + ", ".join(position.move_text(m) for m in legal)
