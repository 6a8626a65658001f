"""Variants as data: every rule system of our sources, with a registry.

A :class:`Variant` is a frozen bundle of facts (pieces, start squares, throwing instrument,
extra-throw values, capture kind, protection, safe squares, Houses, passing rules, backward
moves, bearing-off conditions, scoring).  The move generator in :mod:`senet.engine.rules`
reads these facts; nothing in it tests a variant's *name*.  Where a source needs behaviour
that is not a simple fact (the Adelaida fate throw, the Kendall House of Water choice), the
variant names a House *kind* and the generator implements that kind once.

Squares are numbered 1-30 along the snake track; ``OFF`` (31) stands for "borne off".
Seat 0 ("A") always moves first; in Adelaida it plays the spools (§3), elsewhere the first
player.  The rule-difference table of the site is computed from these definitions by
:mod:`senet.engine.differences`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Protocol

from .throws import DIE4, STICKS, STICKS6, Instrument

__all__ = [
    "OFF",
    "SQUARES",
    "House",
    "HouseKind",
    "Capture",
    "Protection",
    "Passing",
    "Backward",
    "Scoring",
    "Variant",
    "VARIANTS",
    "find_variant",
    "variant_names",
    "UnknownVariant",
    "StartPosition",
    "build_start_positions_with",
]

SQUARES = 30
OFF = 31


class HouseKind(str, Enum):
    """What a marked square does.  One kind, one behaviour in the move generator."""

    PLAIN = "plain"  # named and marked, no effect beyond the variant's safe/bear-off data
    REBIRTH = "rebirth"  # adelaida §20: landing earns another throw; drowned pieces return here
    NET = "net"  # adelaida §23-24: skip a turn, or cancel one pending extra throw
    BA = "ba"  # adelaida §25-26: the move repeats itself once more from here
    FATE = "fate"  # adelaida §27: a throw of fate decides where this piece goes
    DROWN = "drown"  # adelaida §28-30: the piece leaves the board and waits to be revived
    SEND_BACK = "send-back"  # standard: the piece is sent to the House of Rebirth (15)
    WATER_CHOICE = "water-choice"  # kendall: the owner chooses to risk or to return to 15
    #: kendall-1978: the piece waits here for a 4 or is returned to 15 at a cost of a turn; while
    #: it waits (or the returned piece has not moved) its owner moves no other piece
    WATER_WAIT = "water-wait"
    #: piccione: a piece that lands here leaves the board for its owner's hand, to enter again
    TO_HAND = "to-hand"
    #: piccione: landing here earns an extra throw, taken once the throw in play is used up
    EXTRA_THROW = "extra-throw"


class Capture(StrEnum):
    """What happens to a piece that is attacked."""

    SWAP = "swap"  # it goes to the attacker's square
    REMOVE = "remove"  # bell: it leaves the game
    SEND_BACK = "send-back"  # jequier: it goes to the free square nearest the start
    NONE = "none"  # piccione: "pieces cannot land on the same space"


class Protection(StrEnum):
    """Which pieces cannot be attacked because of their neighbours."""

    NONE = "none"
    NEIGHBOUR = "neighbour"  # a piece with a neighbour of its colour
    NEIGHBOUR_BUT_TRIPLE_MIDDLE = (
        "neighbour-but-triple-middle"  # adelaida §13: not the middle of three
    )


class Passing(StrEnum):
    """Which pieces a move may pass over."""

    FREE = "free"  # anything
    SINGLES = "singles"  # single pieces only, never two side by side
    NOT_PAST_THREE = "not-past-three"  # jequier: anything but three opponents in a row


class Backward(StrEnum):
    """When a piece moves back."""

    NONE = "none"
    PLAYER = "player"  # kendall rule 4: only if no forward move exists at all
    PIECE = "piece"  # adelaida §16: each piece that cannot go forward goes back
    PIECE_TO_EMPTY = "piece-to-empty"  # jequier: the same, but only onto an empty square


class Scoring(StrEnum):
    """How a game is won."""

    RACE = "race"  # first to bear off every piece
    POINTS = "points"  # bell: one point per piece borne off


#: The option fields of a :class:`Variant` and their types, checked at construction.
_OPTIONS: dict[str, type[StrEnum]] = {
    "capture": Capture,
    "protection": Protection,
    "passing": Passing,
    "backward": Backward,
    "scoring": Scoring,
}


@dataclass(frozen=True)
class House:
    """A named square: its names, its symbol on the board, and its kind of effect."""

    square: int
    kind: HouseKind
    name_en: str
    name_ru: str
    symbol: str

    def name(self, lang: str = "en") -> str:
        return self.name_ru if lang == "ru" else self.name_en


def _squares(*items: int | range) -> frozenset[int]:
    out: set[int] = set()
    for item in items:
        out.update(item if isinstance(item, range) else (item,))
    return frozenset(out)


def _alternating(count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Start squares for ``count`` pieces a side alternating from square 1, seat A on the odd ones."""
    return tuple(range(1, 2 * count, 2)), tuple(range(2, 2 * count + 1, 2))


@dataclass(frozen=True)
class Variant:
    """One precise rule system.  Every field is a rule; see the module docstring."""

    name: str
    title_en: str
    title_ru: str
    source: str
    pieces: int
    start: tuple[tuple[int, ...], tuple[int, ...]]
    instrument: Instrument
    extra_throws: frozenset[int]
    capture: Capture
    protection: Protection
    #: squares whose pieces do not protect each other (kendall rule 5); a piece on one of them
    #: still protects, and is protected by, a neighbour outside them.
    unprotected: frozenset[int]
    #: squares on which no piece can be attacked.
    safe: frozenset[int]
    passing: Passing
    backward: Backward
    #: squares that no forward move may pass over (every piece must stop there first).
    must_stop: frozenset[int]
    #: squares whose pieces may only leave the board (with a throw listed in ``bear_off``).
    exit_only: frozenset[int]
    #: square -> throws that bear a piece off from it.
    bear_off: Mapping[int, frozenset[int]]
    houses: Mapping[int, House]
    #: if any piece on these squares can move, one of them must (bell).
    priority: frozenset[int]
    scoring: Scoring
    #: squares where a piece attacked is sent to the House of Water instead (kendall).
    drown_on_attack: frozenset[int] = frozenset()
    #: gates: a piece on one of these squares must move on as soon as it can, before any other
    #: piece, those of ``priority`` included (bell: the House of Beauty).
    gates: frozenset[int] = frozenset()
    #: does a throw of ``extra_throws`` that no piece can use still earn its extra throw?
    extra_after_pass: bool = False
    #: pieces bear off only while all of the player's pieces stand on these squares (jequier:
    #: the last row); empty: no such condition.
    bear_off_home: frozenset[int] = frozenset()
    #: per seat, squares whose piece may not move while the square just ahead of it is
    #: occupied (jequier: a piece on its starting square waits for the one in front to move).
    waiting: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    #: points a winner scores for each of the loser's pieces left on rows 1, 2, 3 (jequier).
    margin_points: tuple[int, int, int] | None = None
    #: are all the throws of a turn made before any move, each then moving one piece by its
    #: whole value in the order the player chooses (kendall-1978)?
    throws_first: bool = False
    #: squares that are safe while a piece waits in the House of Water (kendall-1978: 28-30).
    guarded_by_water: frozenset[int] = frozenset()
    #: may a player decline to bear off when bearing off is all that the throws allow
    #: (kendall-1978: "bearing off is not required from any space")?
    bear_off_optional: bool = False
    #: do pieces start in the hand and enter on square 1 with a whole throw of ``enter_throw``
    #: (the entering earning a throw that must move the entered piece), is every throw divided
    #: among the pieces as the player likes, all moving in one direction during a turn, and is
    #: an extra throw taken only once the throw in play is used up (piccione)?
    divided_throws: bool = False
    #: the throw that enters a piece from the hand (piccione: 1)
    enter_throw: int = 0
    #: squares from which no piece moves back (piccione: 28-30)
    no_backward_from: frozenset[int] = frozenset()
    aliases: tuple[str, ...] = ()
    #: seat names (en, ru) for seat A and seat B.
    seat_names_en: tuple[str, str] = ("spools", "cones")
    seat_names_ru: tuple[str, str] = ("катушки", "конусы")
    #: where revived or returned pieces go, and the direction to look when it is taken.
    rebirth_square: int = 15
    #: the seat whose pieces are dark (adelaida §1: the spools are black, the cones white).
    dark_seat: int = 1
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        """Every option is one of its enum's values: a misspelt option is an error here, never
        a silent default later.  Plain strings of a valid value are accepted and converted."""
        for f in fields(self):
            kind = _OPTIONS.get(f.name)
            if kind is None:
                continue
            value = getattr(self, f.name)
            if isinstance(value, kind):
                continue
            try:
                object.__setattr__(self, f.name, kind(value))
            except ValueError:
                choices = ", ".join(repr(member.value) for member in kind)
                raise ValueError(
                    f"variant {self.name!r}: {f.name}={value!r} is not one of {choices}"
                ) from None

    def title(self, lang: str = "en") -> str:
        return self.title_ru if lang == "ru" else self.title_en

    def seat_name(self, seat: int, lang: str = "en") -> str:
        return (self.seat_names_ru if lang == "ru" else self.seat_names_en)[seat]

    def house_kind(self, square: int) -> HouseKind | None:
        house = self.houses.get(square)
        return house.kind if house else None

    def squares_of(self, kind: HouseKind) -> tuple[int, ...]:
        return tuple(sq for sq, house in sorted(self.houses.items()) if house.kind is kind)

    def start_position(self) -> StartPosition:
        """The position before the first throw: a :class:`senet.engine.position.Position`,
        which :func:`build_start_positions_with` is given when its module loads (the
        positions are built on the variants, so this module imports none of them)."""
        if _start_position is None:
            raise RuntimeError("no module builds positions: import senet.engine")
        return _start_position(self)

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


class StartPosition(Protocol):
    """What this module says of the start position it returns: its raw state
    (:mod:`senet.engine.state`); the object is a :class:`senet.engine.position.Position`."""

    @property
    def state(self) -> tuple[int, ...]: ...


_start_position: Callable[[Variant], StartPosition] | None = None


def build_start_positions_with(build: Callable[[Variant], StartPosition]) -> None:
    """Make ``build`` (``Position.initial``) the maker of :meth:`Variant.start_position`:
    the positions' module, above this one, calls it once when it loads."""
    global _start_position
    _start_position = build


def _houses(*houses: House) -> Mapping[int, House]:
    return MappingProxyType({house.square: house for house in houses})


def _bear(**by_square: tuple[int, ...]) -> Mapping[int, frozenset[int]]:
    return MappingProxyType({int(sq[1:]): frozenset(throws) for sq, throws in by_square.items()})


ALL_THROWS = (1, 2, 3, 4, 5)

STANDARD = Variant(
    name="standard",
    title_en="Senet (standard)",
    title_ru="Сенет (стандарт)",
    source="002_06e4c6456ad7fdb1.txt, «Сенет (стандарт)» column",
    pieces=5,
    start=_alternating(5),
    instrument=STICKS,
    extra_throws=frozenset({1, 4, 5}),
    capture=Capture.SWAP,
    protection=Protection.NEIGHBOUR,
    unprotected=frozenset(),
    safe=_squares(range(27, 31)),
    passing=Passing.FREE,
    backward=Backward.NONE,
    must_stop=frozenset(),
    exit_only=frozenset(),
    # "from 27 on by a throw that takes the piece past 30, from 29 only with a 3, from 30 only with a 2"
    bear_off=_bear(s27=(4, 5), s29=(3,), s30=(2,)),
    houses=_houses(
        House(27, HouseKind.PLAIN, "House of Beauty", "Дом красоты", "𓄤"),
        House(28, HouseKind.SEND_BACK, "House of Water", "Дом воды", "𓈗"),
        House(29, HouseKind.PLAIN, "House of Three Truths", "Дом трёх истин", "III"),
        House(30, HouseKind.PLAIN, "House of Ra-Atum", "Дом Ра-Атума", "𓇳"),
    ),
    priority=frozenset(),
    scoring=Scoring.RACE,
    aliases=("std", "стандарт"),
)

BELL = Variant(
    name="bell",
    title_en="Senet after R. C. Bell (1960)",
    title_ru="Сенет по Беллу (1960)",
    source="002_06e4c6456ad7fdb1.txt, «Сенет по Беллу»",
    pieces=10,
    start=_alternating(10),
    instrument=DIE4,
    extra_throws=frozenset(),
    capture=Capture.REMOVE,
    protection=Protection.NONE,
    unprotected=frozenset(),
    safe=_squares(range(26, 31)),
    passing=Passing.FREE,
    backward=Backward.NONE,
    must_stop=frozenset(),
    exit_only=_squares(range(27, 31)),
    bear_off=_bear(s27=(4,), s28=(3,), s29=(2,), s30=(1,)),
    houses=_houses(
        House(26, HouseKind.PLAIN, "House of Beauty", "Дом красоты", "𓄤"),
        House(27, HouseKind.PLAIN, "X", "X", "X"),
        House(28, HouseKind.PLAIN, "III", "III", "III"),
        House(29, HouseKind.PLAIN, "II", "II", "II"),
        House(30, HouseKind.PLAIN, "I", "I", "I"),
    ),
    priority=_squares(range(26, 31)),
    gates=frozenset({26}),
    scoring=Scoring.POINTS,
    aliases=("r.c.bell", "белл"),
    seat_names_en=("first player", "second player"),
    seat_names_ru=("первый игрок", "второй игрок"),
)

KENDALL = Variant(
    name="kendall",
    title_en="Kendall-style Senet",
    title_ru="Сенет в духе Кендалла",
    source="001_c5b7b048a63617b4.txt",
    pieces=5,
    start=_alternating(5),
    instrument=STICKS,
    extra_throws=frozenset({1, 4, 5}),
    capture=Capture.SWAP,
    protection=Protection.NEIGHBOUR,
    unprotected=_squares(range(27, 31)),
    # rule 1 has no exception but rule 3: no square is safe (28-30 are handled by drown_on_attack).
    safe=frozenset(),
    passing=Passing.FREE,
    backward=Backward.PLAYER,
    must_stop=frozenset({26}),
    exit_only=_squares(range(27, 31)),
    bear_off=_bear(s26=(5,), s27=(4,), s28=(3,), s29=(2,), s30=ALL_THROWS),
    houses=_houses(
        House(15, HouseKind.PLAIN, "House of Second Life", "Дом второй жизни", "𓋹"),
        House(26, HouseKind.PLAIN, "House of Beauty", "Дом красоты", "𓄤"),
        House(27, HouseKind.WATER_CHOICE, "House of Water", "Дом воды", "𓈗"),
        House(28, HouseKind.PLAIN, "House of Three Judges", "Дом трёх судей", "III"),
        House(29, HouseKind.PLAIN, "House of Two Judges", "Дом двух судей", "II"),
        House(30, HouseKind.PLAIN, "House of Horus", "Дом Хоруса", "𓂀"),
    ),
    priority=frozenset(),
    scoring=Scoring.RACE,
    drown_on_attack=_squares(range(28, 31)),
    aliases=("кендалл",),
    seat_names_en=("dark stones", "light stones"),
    seat_names_ru=("тёмные камни", "светлые камни"),
    dark_seat=0,
)


def _adelaida(
    pieces: int, name: str, title_en: str, title_ru: str, aliases: tuple[str, ...]
) -> Variant:
    houses = _squares(15, 16, 21, range(26, 31))
    return Variant(
        name=name,
        title_en=title_en,
        title_ru=title_ru,
        source="000_b98b112805fe9d06.txt, clauses 1-34",
        pieces=pieces,
        start=_alternating(pieces),
        instrument=STICKS,
        extra_throws=frozenset({1, 4, 5}),
        capture=Capture.SWAP,
        protection=Protection.NEIGHBOUR_BUT_TRIPLE_MIDDLE,
        unprotected=frozenset(),
        safe=houses,  # §21: no capture on any of the eight Houses
        passing=Passing.SINGLES,
        backward=Backward.PIECE,
        must_stop=frozenset(),
        exit_only=_squares(range(28, 31)),
        bear_off=_bear(s28=(3,), s29=(2,), s30=(1,)),
        houses=_houses(
            House(15, HouseKind.REBIRTH, "House of Rebirth", "Дом Возрождения", "𓋹"),
            House(16, HouseKind.NET, "House of the Net", "Дом Сетки", "𓆛"),
            House(21, HouseKind.BA, "House of Ba", "Дом Ба", "𓅽"),
            House(26, HouseKind.FATE, "House of Rejuvenation", "Дом Омоложения", "𓄤"),
            House(27, HouseKind.DROWN, "House of Water", "Дом Воды", "𓈗"),
            House(28, HouseKind.PLAIN, "House of Three Truths", "Дом Трёх Истин", "III"),
            House(29, HouseKind.PLAIN, "House of Isis and Nephthys", "Дом Исиды и Нефтиды", "II"),
            House(30, HouseKind.PLAIN, "House of the Rising Sun", "Дом Восходящего Солнца", "𓇳"),
        ),
        priority=frozenset(),
        scoring=Scoring.RACE,
        extra_after_pass=True,  # §4 gives it with the throw; only §24 and §29 cancel it
        aliases=aliases,
        dark_seat=0,
    )


ADELAIDA = _adelaida(
    5, "adelaida", "Senet of the «Adelaida» club", "Сенет клуба «Аделаида»", ("аделаида",)
)
ADELAIDA_LONG = _adelaida(
    7,
    "adelaida-long",
    "Long Senet of the «Adelaida» club",
    "Долгий Сенет клуба «Аделаида»",
    ("long", "долгий", "adelaida-7"),
)

JEQUIER = Variant(
    name="jequier",
    title_en="Senet after G. Jéquier",
    title_ru="Сенет по Жекье",
    source="Ludii Senet ruleset «Jéquier» (no. 939), citing Jéquier 1930",
    pieces=5,
    # "the first player to throw a 1 plays as black, moves the black piece in front of the line
    # of pieces one space, and then continues to play": the game starts after that move.
    start=((2, 4, 6, 8, 11), (1, 3, 5, 7, 9)),
    instrument=STICKS6,
    extra_throws=frozenset({1, 4, 6}),
    capture=Capture.SEND_BACK,
    protection=Protection.NEIGHBOUR,
    unprotected=frozenset(),
    safe=frozenset({20, 26, 28, 29}),
    passing=Passing.NOT_PAST_THREE,
    backward=Backward.PIECE_TO_EMPTY,
    must_stop=frozenset(),
    exit_only=frozenset(),
    # "pieces moving beyond the final space are borne off": any throw past 30
    bear_off=MappingProxyType(
        {sq: frozenset(n for n in range(1, 7) if sq + n > SQUARES) for sq in range(25, 31)}
    ),
    houses=_houses(
        House(26, HouseKind.PLAIN, "House of Beauty", "Дом красоты", "𓄤"),
        House(27, HouseKind.SEND_BACK, "House of Water", "Дом воды", "𓈗"),
        House(28, HouseKind.PLAIN, "III", "III", "III"),
        House(29, HouseKind.PLAIN, "II", "II", "II"),
    ),
    priority=frozenset(),
    scoring=Scoring.RACE,
    extra_after_pass=True,
    bear_off_home=_squares(range(21, 31)),
    waiting=(frozenset({2, 4, 6, 8, 10}), frozenset({1, 3, 5, 7, 9})),
    margin_points=(3, 2, 1),
    rebirth_square=1,
    aliases=("jéquier", "жекье"),
    seat_names_en=("black", "white"),
    seat_names_ru=("чёрные", "белые"),
    dark_seat=0,
)

# Kendall's own rules book as Ludii reads it: the variant above with these differences only.
KENDALL_1978 = replace(
    KENDALL,
    name="kendall-1978",
    title_en="Senet after T. Kendall (1978)",
    title_ru="Сенет по Кендаллу (1978)",
    source="Ludii Senet ruleset «Kendall» (no. 922), citing Kendall 1979: rules book",
    pieces=7,
    # "the first one to throw 1 plays as white and moves the white piece in front": the game
    # starts after that move (14 to 15), with white to throw again.
    start=((2, 4, 6, 8, 10, 12, 15), (1, 3, 5, 7, 9, 11, 13)),
    unprotected=frozenset(),
    # the piece in the House of Water stays "until a 4 is thrown": it cannot be attacked there
    safe=frozenset({27}),
    houses=_houses(
        *(
            replace(house, kind=HouseKind.WATER_WAIT) if house.square == 27 else house
            for house in KENDALL.houses.values()
        )
    ),
    throws_first=True,
    guarded_by_water=_squares(range(28, 31)),
    bear_off_optional=True,
    aliases=("kendall1978", "кендалл-1978"),
    seat_names_en=("white", "black"),
    seat_names_ru=("белые", "чёрные"),
    dark_seat=1,
)

PICCIONE = Variant(
    name="piccione",
    title_en="Senet after P. Piccione (King Tut's Game, 1977)",
    title_ru="Сенет по Пиччоне (1977)",
    source="Ludii Senet ruleset «Piccione» (no. 938), citing Piccione 1977, King Tut's Game rules",
    pieces=5,
    # "players may enter a piece onto the board with a throw of 1": every piece starts in hand
    start=((), ()),
    instrument=STICKS,
    extra_throws=frozenset({5}),
    capture=Capture.NONE,
    protection=Protection.NONE,
    unprotected=frozenset(),
    safe=frozenset(),
    passing=Passing.FREE,
    backward=Backward.PLAYER,
    must_stop=frozenset(),
    exit_only=frozenset(),
    # "players must bear off the board by an exact throw": exactly the points to square 31
    # (27 never holds a piece: landing there sends it to the hand)
    bear_off=MappingProxyType({sq: frozenset({SQUARES + 1 - sq}) for sq in (26, 28, 29, 30)}),
    houses=_houses(
        House(15, HouseKind.EXTRA_THROW, "House of Second Life", "Дом второй жизни", "𓋹"),
        House(26, HouseKind.EXTRA_THROW, "House of Beauty", "Дом красоты", "𓄤"),
        House(27, HouseKind.TO_HAND, "House of Water", "Дом воды", "𓈗"),
        House(28, HouseKind.PLAIN, "House of Three Judges", "Дом трёх судей", "III"),
        House(29, HouseKind.PLAIN, "House of Two Judges", "Дом двух судей", "II"),
        House(30, HouseKind.PLAIN, "House of Horus", "Дом Хоруса", "𓂀"),
    ),
    priority=frozenset(),
    scoring=Scoring.RACE,
    extra_after_pass=True,
    divided_throws=True,
    enter_throw=1,
    no_backward_from=_squares(range(28, 31)),
    aliases=("пиччоне", "king-tut"),
    seat_names_en=("white", "black"),
    seat_names_ru=("белые", "чёрные"),
    dark_seat=1,
)

#: Every variant, in the order the site and the command line list them.
VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {
        v.name: v
        for v in (
            STANDARD,
            BELL,
            KENDALL,
            ADELAIDA,
            ADELAIDA_LONG,
            JEQUIER,
            KENDALL_1978,
            PICCIONE,
        )
    }
)


class UnknownVariant(KeyError):
    """Raised by :func:`find_variant` for a name that is neither a variant nor an alias."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence
        return str(self.args[0])


def variant_names() -> tuple[str, ...]:
    return tuple(VARIANTS)


def find_variant(name: str) -> Variant:
    """Look a variant up by name or alias, ignoring case and surrounding space."""
    key = name.strip().lower()
    if key in VARIANTS:
        return VARIANTS[key]
    for variant in VARIANTS.values():
        if (
            key in variant.aliases
            or key == variant.title_en.lower()
            or key == variant.title_ru.lower()
        ):
            return variant
    raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
