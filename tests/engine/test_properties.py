"""Property tests over reachable positions: games driven by hypothesis-chosen throws and moves.

For every position reached: pieces are neither lost nor duplicated, the notation round-trips,
the decision structure is consistent; every game ends; throws have their sources' exact odds.
"""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine import (
    DIE4,
    STICKS,
    STICKS6,
    VARIANTS,
    Position,
    draw_throw,
    find_variant,
    sticks_value,
)

from .conftest import ALL_VARIANTS, PURPOSEFUL_SHARE, random_game

STICK_ODDS = (
    (1, Fraction(4, 16)),
    (2, Fraction(6, 16)),
    (3, Fraction(4, 16)),
    (4, Fraction(1, 16)),
    (5, Fraction(1, 16)),
)
DIE_ODDS = tuple((n, Fraction(1, 4)) for n in (1, 2, 3, 4))


# ------------------------------------------------------------------ exact throw distributions
@pytest.mark.parametrize(
    "name,odds",
    [
        ("standard", STICK_ODDS),
        ("kendall", STICK_ODDS),
        ("adelaida", STICK_ODDS),
        ("adelaida-long", STICK_ODDS),
        ("bell", DIE_ODDS),
    ],
)
def test_throw_distribution_equals_the_source(name, odds):
    """standard: throws; kendall: throws; adelaida §4; bell: throws."""
    v = find_variant(name)
    assert v.instrument.outcomes == odds
    assert sum(p for _, p in odds) == 1
    assert Position.initial(v).chance_outcomes() == odds


def test_sticks_counted_from_the_sixteen_patterns():
    """Four two-sided sticks: the count of marked sides up, none up = 5, each pattern 1/16."""
    counts = {}
    for pattern in range(16):
        ups = sum(pattern >> k & 1 for k in range(4))
        value = sticks_value(pattern)
        assert value == (ups if ups else 5)
        counts[value] = counts.get(value, 0) + 1
    assert counts == {1: 4, 2: 6, 3: 4, 4: 1, 5: 1}
    assert STICKS.outcomes == STICK_ODDS and DIE4.outcomes == DIE_ODDS
    with pytest.raises(ValueError):
        sticks_value(16)


class _EveryPattern(random.Random):
    """A generator whose ``randrange(n)`` returns 0, 1, ..., n - 1 in turn: one full cycle
    draws every raw pattern of an instrument exactly once."""

    def __init__(self) -> None:
        super().__init__(0)
        self.next = 0

    def randrange(self, n, *args, **kwargs):  # type: ignore[override]
        value, self.next = self.next % n, self.next + 1
        return value


@pytest.mark.parametrize("instrument", [STICKS, STICKS6, DIE4], ids=lambda i: i.name)
def test_drawn_throws_have_the_instruments_exact_odds(instrument):
    """A drawn throw reads one uniformly drawn raw pattern: over one cycle of every pattern the
    throws counted are exactly the instrument's odds (no float rounding, no bias)."""
    rng = _EveryPattern()
    throws = [draw_throw(rng, instrument) for _ in range(instrument.patterns)]
    counts = {value: Fraction(throws.count(value), len(throws)) for value in set(throws)}
    assert tuple(sorted(counts.items())) == instrument.outcomes
    assert throws == [instrument.value_of(pattern) for pattern in range(instrument.patterns)]


def test_drawn_throws_repeat_with_the_seed():
    """The same seed draws the same throws; every value of the instrument turns up."""
    first, second = random.Random(7), random.Random(7)
    a = [draw_throw(first, STICKS) for _ in range(400)]
    b = [draw_throw(second, STICKS) for _ in range(400)]
    assert a == b and set(a) == set(STICKS.values)


def test_fate_throw_has_the_same_odds():
    """adelaida §27: the throw of fate is a throw of the same sticks."""
    p = Position.from_fen("adelaida A........./........../.....B.... B - pending=fate")
    assert p.is_chance() and p.chance_outcomes() == STICK_ODDS


# ------------------------------------------------------------------ invariants on reachable positions
def invariants(p: Position) -> None:
    v = p.variant
    for seat in (0, 1):
        total = (
            len(p.pieces(seat)) + p.off(seat) + p.captured(seat) + p.drowned(seat) + p.hand(seat)
        )
        assert total == v.pieces, p.fen()
        assert (
            min(
                p.off(seat),
                p.captured(seat),
                p.drowned(seat),
                p.hand(seat),
                p.extra(seat),
                p.skip(seat),
            )
            >= 0
        )
    assert not set(p.pieces(0)) & set(p.pieces(1))
    text = p.fen()
    back = Position.from_fen(text)
    assert back == p and back.fen() == text and hash(back) == hash(p)
    legal = p.legal_moves()
    assert len(legal) == len(set(legal))
    if p.is_over():
        assert not p.is_chance() and legal == [] and p.decider is None
    elif p.is_chance():
        assert legal == [] and p.decider is None and sum(f for _, f in p.chance_outcomes()) == 1
    else:
        assert legal and p.decider in (0, 1)


def drive(name: str, choices: list[int]) -> Position:
    """Play a game where each choice picks the throw or the move (by index) at its step."""
    p = Position.initial(find_variant(name))
    invariants(p)
    for c in choices:
        if p.is_over():
            break
        if p.is_chance():
            values = [value for value, _ in p.chance_outcomes()]
            q = p.apply_throw(values[c % len(values)])
        else:
            legal = p.legal_moves()
            q = p.apply(legal[c % len(legal)])
        assert p.fen() == Position.from_fen(p.fen()).fen()  # applying left p as it was
        p = q
        invariants(p)
    return p


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(ALL_VARIANTS),
    choices=st.lists(st.integers(0, 2**16), min_size=50, max_size=900),
)
def test_pieces_conserved_and_notation_round_trips(name, choices):
    drive(name, choices)


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_invariants_through_whole_games(name):
    """The same invariants through ten complete games per variant (endgames included)."""
    if name in PURPOSEFUL_SHARE:  # uniformly random choices do not finish these games
        for seed in range(10):
            for p, action in random_game(name, random.Random(f"whole {name} {seed}")):  # noqa: B007 (the last pair is checked after the loop)
                invariants(p)
            assert action is None and p.is_over()
        return
    rng = random.Random(f"whole {name}")
    for _ in range(10):
        p = drive(name, [rng.randrange(2**16) for _ in range(20000)])
        assert p.is_over()


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(ALL_VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_every_random_game_ends(name, seed):
    """A full random game ends well within 20000 actions, with a result the variant allows."""
    last = None
    for last, _action in random_game(name, random.Random(seed), max_actions=20000):  # noqa: B007 (the last position is used after the loop)
        pass
    outcome = last.outcome()
    assert outcome is not None
    if VARIANTS[name].scoring == "race":
        assert outcome.winner in (
            0,
            1,
        )  # adelaida §19: no draws; standard/kendall: first off wins
        assert outcome.score[outcome.winner] == VARIANTS[name].pieces
    else:
        a, b = outcome.score
        assert (outcome.winner == 0) == (a > b) and (outcome.winner is None) == (a == b)


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_many_games_end(name):
    """Fifty seeded random games per variant all end; none comes near the bound."""
    longest = 0
    for seed in range(50):
        n = sum(1 for _ in random_game(name, random.Random(seed), max_actions=20000))
        longest = max(longest, n)
    assert longest < 5000


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(ALL_VARIANTS),
    choices=st.lists(st.integers(0, 2**16), min_size=1, max_size=300),
)
def test_positions_are_values(name, choices):
    """Positions reached by the same actions are equal and hash equal; apply never mutates."""
    a, b = drive(name, choices), drive(name, choices)
    assert a == b and hash(a) == hash(b) and a.state == b.state


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(ALL_VARIANTS), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_a_game_extended_by_its_continuation_equals_the_game_played_through(name, seed, cut):
    """Game.extend (the server adopts a batch built on a scratch game) gives exactly the game
    that pushes every action itself: the same actions, the same positions, pop still works."""
    from senet.engine import Game

    actions = [
        a for _, a in random_game(name, random.Random(seed), max_actions=20000) if a is not None
    ]
    cut = min(cut, len(actions))
    whole, head = Game(name), Game(name)
    for a in actions:
        whole.push_throw(a) if isinstance(a, int) else whole.push(a)
    for a in actions[:cut]:
        head.push_throw(a) if isinstance(a, int) else head.push(a)
    tail = Game(head.position)
    for a in actions[cut:]:
        tail.push_throw(a) if isinstance(a, int) else tail.push(a)
    head.extend(tail)
    assert head.actions == whole.actions and head.positions == whole.positions
    if actions:
        head.pop()
        assert head.position == whole.positions[-2]
    with pytest.raises(ValueError):
        head.extend(Game(Position.initial(find_variant(name)).apply_throw(5)))
