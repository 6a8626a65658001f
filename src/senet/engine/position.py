"""Positions: the complete state of a game between two decisions, immutable and hashable.

A position knows whose decision comes next: *chance* (a throw is due: the regular throw, or
the Adelaida throw of fate) or a *player* (a move with the pending throw; the Kendall House of
Water choice, which may fall to the player who is not on turn).  Everything that affects the
future is part of the state: the board, the pending throw, extra throws owed, turns to skip,
pieces borne off, captured (Bell) and drowned (Adelaida), and a pending House decision.

Applying a decision returns a new position; :class:`senet.engine.game.Game` keeps the stack
for push/pop.  The state is a flat tuple of small integers so that copying a position costs
one tuple, not a tree of objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from . import fen
from . import state as raw
from .errors import IllegalMove, InvalidPosition
from .flow import DRAW, legal_moves, play, throw_of, thrown, winner
from .moves import MOVE, Move
from .rules import Tables, bit, iter_squares, tables_for
from .state import RawState, bank_values, raw_state, throw_due
from .state import decider as raw_decider
from .variants import OFF, HouseKind, Variant, build_start_positions_with

__all__ = [
    "Position",
    "Outcome",
    "SEATS",
    "seat_letter",
]

SEATS = (0, 1)
_PENDING_NAMES = {raw.NO_PENDING: "", raw.PENDING_FATE: "fate", raw.PENDING_WATER: "water"}


def seat_letter(seat: int) -> str:
    return "AB"[seat]


#: Houses that send a piece on at once (Ba, the Adelaida Water, the standard Water): never occupied.
_TRANSIT = (HouseKind.BA, HouseKind.DROWN, HouseKind.SEND_BACK, HouseKind.TO_HAND)


@dataclass(frozen=True)
class Outcome:
    """How a game ended.  ``winner`` is 0, 1 or None (a draw); ``score`` counts borne-off pieces;
    ``points`` is the margin where the variant scores one (jequier: 3, 2, 1 for each of the
    loser's pieces left on rows 1, 2, 3), else 0."""

    winner: int | None
    score: tuple[int, int]
    reason: str
    points: int = 0

    @property
    def result(self) -> str:
        """The record's Result tag: ``A``, ``B`` or ``draw``."""
        return "draw" if self.winner is None else seat_letter(self.winner)


class Position:
    """An immutable game state.  Build one with :meth:`initial`, :meth:`from_fen` or by applying
    throws and moves to another."""

    __slots__ = ("variant", "_t", "_s", "_hash", "new_turn", "_outcome")

    def __init__(
        self,
        variant: Variant,
        state: tuple[int, ...],
        tables: Tables | None = None,
        new_turn: bool = True,
    ) -> None:
        self.variant = variant
        self._t = tables or tables_for(variant)
        self._s = state
        self._hash: int | None = None
        #: True when this position begins a turn (the seat on turn is about to make its first
        #: throw of the turn), False within a turn.  History, not state: it takes no part in
        #: equality, and a position read from notation assumes a turn begins at its throw.
        self.new_turn = new_turn
        self._outcome: Outcome | None | bool = False  # False: not computed yet

    # ----------------------------------------------------------------- construction
    @classmethod
    def initial(cls, variant: Variant) -> Position:
        a = sum(bit(sq) for sq in variant.start[0])
        b = sum(bit(sq) for sq in variant.start[1])
        # piccione: the pieces not placed at the start wait in the hand to enter
        hand = (variant.pieces - a.bit_count(), variant.pieces - b.bit_count())
        return cls(variant, raw_state((a, b), hand=hand))

    @classmethod
    def from_fen(cls, text: str, *, line: int = 1, column: int = 1) -> Position:
        """Read a position from its one-line notation (:mod:`senet.engine.notation`); raise
        :class:`NotationError` naming the line, the column and what was expected there.
        ``line`` and ``column`` say where ``text`` starts in a larger document (a record)."""
        reading = fen.read(text, line=line, column=column)
        try:
            return cls.from_parts(
                reading.variant,
                reading.pieces,
                turn=reading.turn,
                throw=reading.throw,
                extra=reading.extra,
                skip=reading.skip,
                off=reading.off,
                captured=reading.captured,
                drowned=reading.drowned,
                pending=reading.pending,
                bank=reading.bank,
                returned=reading.returned,
                hand=reading.hand,
                direction=reading.direction,
                divided=reading.divided,
                entered=reading.entered,
            )
        except InvalidPosition as exc:
            raise reading.impossible(exc) from None

    @classmethod
    def from_parts(
        cls,
        variant: Variant,
        pieces: tuple[Iterable[int], Iterable[int]],
        *,
        turn: int = 0,
        throw: int = 0,
        extra: tuple[int, int] = (0, 0),
        skip: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
        captured: tuple[int, int] = (0, 0),
        drowned: tuple[int, int] = (0, 0),
        pending: int = raw.NO_PENDING,
        bank: tuple[int, ...] = (),
        returned: Iterable[int] = (),
        hand: tuple[int, int] = (0, 0),
        direction: int = raw.NO_DIRECTION,
        divided: bool = False,
        entered: bool = False,
    ) -> Position:
        """Build any position; ``off`` defaults to the pieces not accounted for elsewhere;
        ``bank`` lists the throws banked besides ``throw``, ``returned`` the squares of pieces
        back from the House of Water (kendall-1978); ``hand`` the pieces waiting to enter,
        ``direction`` the turn's direction, ``divided`` whether ``throw`` is the rest of a
        divided throw and ``entered`` whether the piece on 1 must move first (piccione).

        Raises :class:`InvalidPosition` (a ValueError) for an inconsistent position (overlapping
        pieces, too many pieces, ...), naming the field and square at fault.
        """
        masks = []
        for squares in pieces:
            mask = 0
            for sq in squares:
                if not 1 <= sq <= 30:
                    raise InvalidPosition("off_track", field="board", number=sq)
                if mask & bit(sq):
                    raise InvalidPosition("listed_twice", field="board", square=sq)
                mask |= bit(sq)
            masks.append(mask)
        if off is None:
            off = (
                variant.pieces - masks[0].bit_count() - captured[0] - drowned[0] - hand[0],
                variant.pieces - masks[1].bit_count() - captured[1] - drowned[1] - hand[1],
            )
        returned_mask = 0
        for sq in returned:
            if not 1 <= sq <= 30:
                raise InvalidPosition("off_track", field="returned", number=sq)
            returned_mask |= bit(sq)
        if any(not 1 <= n <= 6 for n in bank):
            raise InvalidPosition("bank_range", field="bank")
        state = raw_state(
            (masks[0], masks[1]),
            turn=turn,
            throw=throw,
            extra=extra,
            skip=skip,
            off=off,
            captured=captured,
            drowned=drowned,
            pending=pending,
            bank=tuple(bank),
            returned=returned_mask,
            hand=hand,
            direction=direction,
            divided=int(divided),
            entered=int(entered),
        )
        position = cls(variant, state)
        position.validate()
        return position

    def validate(self) -> None:
        """Raise :class:`InvalidPosition` (a ValueError naming the field and square at fault)
        unless the state is one the rules can reach or start from."""
        s, v, t = self._s, self.variant, self._t
        a, b = s[raw.MASK], s[raw.MASK + 1]
        if both := a & b:
            raise InvalidPosition(
                "two_on_square", field="board", square=(both & -both).bit_length()
            )
        # a piece passes through these Houses, never stays on them
        for sq, house in v.houses.items():
            if house.kind in _TRANSIT and (a | b) & bit(sq):
                raise InvalidPosition(
                    "transit_house", field="board", square=sq, house=house.name_en, variant=v.name
                )
        if s[raw.TURN] not in SEATS:
            raise InvalidPosition("turn", field="turn")
        if s[raw.THROW] and s[raw.THROW] not in t.throws:
            raise InvalidPosition(
                "impossible_throw", field="throw", throw=s[raw.THROW], variant=v.name
            )
        for seat in SEATS:
            total = (
                s[raw.MASK + seat].bit_count()
                + s[raw.BORNE_OFF + seat]
                + s[raw.CAPTURED + seat]
                + s[raw.DROWNED + seat]
                + s[raw.HAND + seat]
            )
            if total != v.pieces:
                raise InvalidPosition(
                    "piece_count",
                    field="board",
                    side=seat_letter(seat),
                    total=total,
                    variant=v.name,
                    pieces=v.pieces,
                )
            for counter, name in ((raw.EXTRA, "extra"), (raw.SKIP, "skip")):
                if s[counter + seat] < 0:
                    raise InvalidPosition("negative_counter", field=name)
            if s[raw.CAPTURED + seat] and not t.capture_remove:
                raise InvalidPosition("never_captured", field="captured", variant=v.name)
            if s[raw.HAND + seat] < 0 or s[raw.HAND + seat] and not t.divided:
                raise InvalidPosition("never_in_hand", field="hand", variant=v.name)
            if s[raw.DROWNED + seat] and not t.revival:
                raise InvalidPosition("never_drowned", field="drowned", variant=v.name)
            if s[raw.EXTRA + seat] and not v.extra_throws:
                raise InvalidPosition("never_extra", field="extra", variant=v.name)
            if s[raw.SKIP + seat] and not (t.wait_bit or v.squares_of(HouseKind.NET)):
                raise InvalidPosition("never_skipped", field="skip", variant=v.name)
        pending = s[raw.PENDING]
        if pending == raw.PENDING_FATE and not (t.fate_bit and (a | b) & t.fate_bit):
            raise InvalidPosition("fate_without_piece", field="pending")
        if pending == raw.PENDING_WATER and not (t.water_bit and (a | b) & t.water_bit):
            raise InvalidPosition("water_without_piece", field="pending")
        if pending == raw.PENDING_WATER and s[raw.THROW]:
            raise InvalidPosition("water_before_throw", field="throw")
        if pending not in _PENDING_NAMES:
            raise InvalidPosition("unknown_pending", field="pending")
        bank = bank_values(s[raw.BANK])
        if bank and not t.throws_first:
            raise InvalidPosition("never_banked", field="bank", variant=v.name)
        if any(n not in t.throws for n in bank):
            raise InvalidPosition("impossible_bank", field="bank", variant=v.name)
        if bank and not s[raw.THROW] and any(n not in v.extra_throws for n in bank):
            raise InvalidPosition("bank_while_throwing", field="bank")
        if s[raw.THROW] and bank and bank[0] < s[raw.THROW]:
            raise InvalidPosition("bank_lowest", field="bank")
        if s[raw.RETURNED] and not t.wait_bit:
            raise InvalidPosition("never_returned", field="returned", variant=v.name)
        if stray := s[raw.RETURNED] & ~(a | b):
            raise InvalidPosition("returned_empty", field="returned", square=stray.bit_length())
        self._validate_divided()

    def _validate_divided(self) -> None:
        """piccione's fields: the direction, a divided throw, the entered piece."""
        s, v, t = self._s, self.variant, self._t
        direction, divided, entered = s[raw.DIRECTION], s[raw.DIVIDED], s[raw.ENTERED]
        if not t.divided:
            if direction or divided or entered:
                field = "direction" if direction else "divided" if divided else "entered"
                raise InvalidPosition("never_divided", field=field, variant=v.name)
            return
        if direction not in (raw.NO_DIRECTION, raw.FORWARD, raw.BACKWARD):
            raise InvalidPosition("unknown_direction", field="direction")
        if divided not in (0, 1) or entered not in (0, 1):
            raise InvalidPosition("flag_range", field="divided" if divided > 1 else "entered")
        if divided and not s[raw.THROW]:
            raise InvalidPosition("divided_needs_points", field="divided")
        if divided and direction == raw.NO_DIRECTION:
            raise InvalidPosition("divided_one_way", field="divided")
        if entered and not s[raw.MASK + s[raw.TURN]] & 1:
            raise InvalidPosition("entered_on_1", field="entered", square=1)
        if entered and (divided or direction != raw.FORWARD):
            raise InvalidPosition("entered_moves_first", field="entered")

    # ----------------------------------------------------------------- reading the state
    @property
    def turn(self) -> int:
        """The seat whose turn it is (0 = A, who starts; 1 = B)."""
        return self._s[raw.TURN]

    @property
    def throw(self) -> int:
        """The throw waiting to be used (a fate throw while one is pending); 0 if none."""
        return self._s[raw.THROW]

    @property
    def pending(self) -> int:
        return self._s[raw.PENDING]

    @property
    def pending_name(self) -> str:
        return _PENDING_NAMES[self._s[raw.PENDING]]

    def mask(self, seat: int) -> int:
        return self._s[seat]

    def pieces(self, seat: int) -> tuple[int, ...]:
        """Squares of ``seat``'s pieces on the board, lowest first."""
        return tuple(iter_squares(self._s[seat]))

    def owner(self, square: int) -> int | None:
        b = bit(square)
        return 0 if self._s[raw.MASK] & b else 1 if self._s[raw.MASK + 1] & b else None

    def extra(self, seat: int) -> int:
        return self._s[raw.EXTRA + seat]

    def skip(self, seat: int) -> int:
        return self._s[raw.SKIP + seat]

    @property
    def banked(self) -> tuple[int, ...]:
        """The other throws of this turn waiting to be used besides :attr:`throw`, lowest
        first (kendall-1978: all throws are made before moving); () elsewhere."""
        return bank_values(self._s[raw.BANK])

    @property
    def throws(self) -> tuple[int, ...]:
        """Every throw of this turn not yet used, lowest first: :attr:`throw` and the bank."""
        throw = self._s[raw.THROW]
        return tuple(sorted(((throw,) if throw else ()) + self.banked))

    @property
    def returned(self) -> tuple[int, ...]:
        """Squares of the pieces that came back from the House of Water and have not moved
        since (kendall-1978: their owner moves no other piece)."""
        return tuple(iter_squares(self._s[raw.RETURNED]))

    def hand(self, seat: int) -> int:
        """Pieces of ``seat`` waiting in the hand to enter on square 1 (piccione)."""
        return self._s[raw.HAND + seat]

    @property
    def direction(self) -> int:
        """The direction of this turn's moves (piccione): ``state.NO_DIRECTION`` before the
        first move of the turn, then ``state.FORWARD`` or ``state.BACKWARD``."""
        return self._s[raw.DIRECTION]

    @property
    def divided(self) -> bool:
        """Is :attr:`throw` the rest of a throw already divided (piccione)?"""
        return bool(self._s[raw.DIVIDED])

    @property
    def entered(self) -> bool:
        """Must the throw in play (or due) first move the piece entered on 1 (piccione)?"""
        return bool(self._s[raw.ENTERED])

    def off(self, seat: int) -> int:
        return self._s[raw.BORNE_OFF + seat]

    def captured(self, seat: int) -> int:
        return self._s[raw.CAPTURED + seat]

    def drowned(self, seat: int) -> int:
        return self._s[raw.DROWNED + seat]

    @property
    def state(self) -> RawState:
        """The raw state (layout and helpers in :mod:`senet.engine.state`)."""
        return self._s

    # ----------------------------------------------------------------- whose decision
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None (computed once per position)."""
        if self._outcome is False:
            self._outcome = self._compute_outcome()
        return self._outcome  # type: ignore[return-value]

    def _compute_outcome(self) -> Outcome | None:
        s, t = self._s, self._t
        result = winner(t, s)
        if result is None:
            return None
        score = (s[raw.BORNE_OFF], s[raw.BORNE_OFF + 1])
        if t.race:
            margin = self.variant.margin_points
            if margin is None:
                return Outcome(result, score, "all pieces borne off")
            points = sum(margin[(sq - 1) // 10] for sq in self.pieces(1 - result))
            return Outcome(result, score, f"all pieces borne off; {points} points", points)
        if result == DRAW:
            return Outcome(None, score, "equal scores with an empty board")
        return Outcome(result, score, f"{seat_letter(1 - result)} can no longer catch up")

    def is_over(self) -> bool:
        return self.outcome() is not None

    def is_chance(self) -> bool:
        """True when the next event is a throw (regular or of fate)."""
        return throw_due(self._s) and self.outcome() is None

    @property
    def decider(self) -> int | None:
        """The seat that must decide now, or None when chance is next or the game is over."""
        if self.outcome() is not None:
            return None
        return raw_decider(self._t, self._s)

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Every possible throw with its exact probability; empty unless chance is next."""
        return self.variant.instrument.outcomes if self.is_chance() else ()

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> list[Move]:
        """Every legal decision for :attr:`decider`, in a fixed order; empty at chance nodes.

        When no piece can move the only move is ``pass``: a pass is a decision like any other,
        so that every turn of a record has a move.
        """
        if self.outcome() is not None:
            return []
        return legal_moves(self._t, self._s)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def is_capture(self, move: Move) -> bool:
        """Does ``move`` land on an opponent (a swap, a capture, or a Kendall drowning)?"""
        if move.kind != MOVE or move.target == OFF:
            return False
        mover = self.decider
        return mover is not None and self.owner(move.target) == 1 - mover

    def throw_used(self, move: Move) -> int:
        """The throw ``move`` plays: where several throws of the turn wait (kendall-1978, all
        thrown before moving) the one of them it uses, by its length or the throw it names;
        elsewhere the throw in play (for a divided throw, the whole of what is left)."""
        if self.banked and move.kind == MOVE:
            return throw_of(self._t, move)
        return self.throw

    def move_text(self, move: Move) -> str:
        """Notation of ``move`` in this position (``x`` when it lands on an opponent)."""
        return move.text(capture=self.is_capture(move))

    def apply(self, move: Move) -> Position:
        """The position after ``move``; raises IllegalMove (naming the legal moves) otherwise."""
        legal = self.legal_moves()
        if move not in legal:
            if not legal:
                why = "a throw is due" if self.is_chance() else "the game is over"
                raise IllegalMove(f"{move} is not possible now: {why}")
            raise IllegalMove(
                f"{move} is not legal here; legal: {', '.join(m.text() for m in legal)}"
            )
        return self.apply_unchecked(move)

    def apply_throw(self, value: int) -> Position:
        """The position after chance shows ``value``."""
        if not self.is_chance():
            raise IllegalMove("no throw is due now" if not self.is_over() else "the game is over")
        if value not in self._t.throws:
            raise IllegalMove(
                f"{value} is not a possible throw; possible: {', '.join(map(str, sorted(self._t.throws)))}"
            )
        return Position(self.variant, thrown(self._t, self._s, value), self._t, False)

    def apply_unchecked(self, move: Move) -> Position:
        """The position after ``move``, a move of :meth:`legal_moves` (not checked again):
        searches and playouts, which play only moves the generator gave, skip the second
        generation that :meth:`apply` makes."""
        s = list(self._s)
        new_turn = play(self._t, s, move)
        return Position(self.variant, tuple(s), self._t, new_turn)

    # ----------------------------------------------------------------- notation and identity
    def fen(self) -> str:
        """The one-line notation of this position (see :mod:`senet.engine.notation`)."""
        return fen.write(self.variant.name, self._s)

    def copy(self) -> Position:
        return self  # immutable: a copy is the same value

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self._s == other._s
            and self.variant.name == other.variant.name
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.variant.name, self._s))
        return self._hash

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def __str__(self) -> str:
        return self.fen()


# Variant.start_position() builds its position here (the variants are below the positions).
build_start_positions_with(Position.initial)
