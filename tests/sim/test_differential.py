"""The compiled simulator plays the engine's rules: the same legal moves and the same state
after every move, on positions of random games of every variant and of every simulated
alternative reading (the full 100,000 positions a variant run in bench/sim_differential.py);
and the same seeded games, move for move, as the pure engine with the same random numbers."""

from __future__ import annotations

import pytest

from senet.engine import Backward, HouseKind, Passing, Variant, find_variant
from senet.sim.alternatives import ALTERNATIVES
from senet.sim.differential import SPECIAL, compare
from senet.sim.kernel import EXPERT, G_DECISIONS, G_THROWS, G_TURNS, G_WINNER, GREEDY, RANDOM
from senet.sim.reference import reference_game
from senet.sim.runner import game_rows
from senet.sim.tables import compile_rules

from .simulated import REFUSED, SIMULATED

POSITIONS = 4_000
CAP = 3_000  # decisions after which a seeded game is stopped


def reachable_specials(v: Variant) -> set[str]:
    """The special states the variant's data says random play will meet."""
    kinds = {house.kind for house in v.houses.values()}
    out = set()
    if HouseKind.REBIRTH in kinds:
        out.add("extra")  # adelaida §20: a Rebirth throw on top of the throw's own
    if HouseKind.NET in kinds:
        out.add("skip")
    if HouseKind.DROWN in kinds:
        out.add("drowned")
    if v.capture == "remove":
        out.add("captured")
    if HouseKind.FATE in kinds:
        out.add("fate")
    if HouseKind.WATER_CHOICE in kinds:
        out.add("water")
    if any(v.waiting):
        out.add("waiting")  # jequier: a piece on its starting square waits
    if v.bear_off_home:
        out.add("home")  # jequier: bearing off once every piece is on the last row
    if v.passing is Passing.NOT_PAST_THREE:
        out.add("three")  # jequier: no move past three opponents in a row
    if v.backward is not Backward.NONE:
        out.add("back")
    out.add("attack")  # every variant lets a piece land on an opponent
    return out


@pytest.mark.parametrize("name", SIMULATED)
def test_same_moves_and_positions_as_the_engine(name: str) -> None:
    v = find_variant(name)
    cover = compare(v, POSITIONS, seed=17)
    assert cover.positions == POSITIONS and cover.moves >= POSITIONS
    for special in reachable_specials(v):
        assert cover.special[special] >= 5, (special, dict(cover.special))


def test_reachable_specials_cover_every_kind() -> None:
    """Every special state is reachable in some variant, so each is compared somewhere."""
    met = set().union(*(reachable_specials(find_variant(name)) for name in SIMULATED))
    assert met == set(SPECIAL)


@pytest.mark.parametrize("alt", ALTERNATIVES, ids=lambda a: f"{a.variant}~{a.key}")
def test_alternative_readings_play_the_engine_rules(alt) -> None:
    compare(alt.build(), 600, seed=5)


@pytest.mark.parametrize("name", SIMULATED)
@pytest.mark.parametrize(
    "players",
    [(RANDOM, RANDOM), (GREEDY, RANDOM), (EXPERT, GREEDY)],
    ids=["random", "greedy-random", "expert-greedy"],
)
def test_seeded_games_identical_on_both_paths(name: str, players: tuple[int, int]) -> None:
    """Both paths stop a game after the same number of decisions (uniformly random games of
    jequier last far longer), so a stopped game is compared up to there."""
    v = find_variant(name)
    count = 12 if players[0] == RANDOM else 3
    rows = game_rows(compile_rules(v), 99, 40, count, players, max_decisions=CAP)
    finished = 0
    for g in range(count):
        ref = reference_game(v, 99, 40 + g, players, max_decisions=CAP)
        finished += ref.winner in (0, 1, 2)
        assert ref.winner in (0, 1, 2) or ref.decisions == CAP
        got = (rows[g, G_WINNER], rows[g, G_TURNS], rows[g, G_DECISIONS], rows[g, G_THROWS])
        assert got == (ref.winner, ref.turns, ref.decisions, ref.throws), g
    assert finished == count or (v.bear_off_home and RANDOM in players)


@pytest.mark.parametrize("name", REFUSED)
def test_rules_it_does_not_know_are_refused_by_name(name: str) -> None:
    """A variant the simulator cannot play is refused, naming the rule (never played otherwise)."""
    with pytest.raises(ValueError, match="does not know"):
        compile_rules(find_variant(name))
