"""The fast (raw-state) solver against the Position-based reference, and the shipped endgame
tables against fresh solves."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from senet.ai import choose_move, find_level, searcher_for
from senet.ai.compiled_solver import solve_compiled, solve_compiled_keys
from senet.ai.packing import pack_state
from senet.ai.solver import ExactMoves, TooLarge, _enumerate_positions, _enumerate_raw, solve_many
from senet.ai.tables import (
    BOTH_SEATS,
    FORMAT,
    TABLE_SPECS,
    EndgameTable,
    StaleTable,
    build,
    canonical,
    load,
    mirror,
    save,
    seed_keys,
    seeds,
    table_for,
)
from senet.engine import VARIANTS, HouseKind, Position, Scoring, Variant, find_variant
from senet.engine.rules import bit
from senet.engine.state import LAYOUT_VERSION, TURN


def _random_endgames(name: str, count: int, seed: int) -> list[Position]:
    """Positions with one or two pieces a side on the last squares, any throw or none."""
    variant = find_variant(name)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        k = (rng.randint(1, 2), rng.randint(1, 2))
        cells = rng.sample(range(20, 31), k[0] + k[1])
        captured = (
            (variant.pieces - k[0] - 1, variant.pieces - k[1] - 1)
            if variant.scoring is Scoring.POINTS
            else (0, 0)
        )
        throw = rng.choice((0,) + variant.instrument.values)
        try:
            pos = Position.from_parts(
                variant,
                (cells[: k[0]], cells[k[0] :]),
                turn=rng.randint(0, 1),
                throw=throw,
                captured=captured,
            )
        except ValueError:
            continue
        if not pos.is_over():
            out.append(pos)
    return out


def _assert_agrees(table: EndgameTable, pos: Position, fresh: ExactMoves) -> None:
    """The table's value of the chance position ``pos`` and of every move after each of its
    throws (through one lookup per move) are the fresh solution's."""
    assert table.value_of_state(pos.state) == pytest.approx(fresh.value(pos), abs=1e-9), pos.fen()
    for throw, _ in pos.chance_outcomes():
        decision = pos.apply_throw(throw)
        looked_up = table.move_values(decision)
        assert looked_up is not None, decision.fen()
        for (m1, v1), (m2, v2) in zip(looked_up, fresh.move_values(decision)):
            assert m1 == m2 and v1 == pytest.approx(v2, abs=1e-9)


def _assert_agrees_on_roots(
    table: EndgameTable,
    roots: Iterable[Position],
    solve: Callable[[Position], ExactMoves],
    wanted: int,
) -> None:
    """:func:`_assert_agrees` on the first ``wanted`` roots whose future ``solve`` can solve
    (a future too large for a test's time is skipped: other roots cover the board); the
    checked roots must reach into the first third of the board."""
    checked, lowest = 0, 30
    for pos in roots:
        try:
            fresh = solve(pos)
        except TooLarge:
            continue
        _assert_agrees(table, pos, fresh)
        checked += 1
        lowest = min(lowest, *pos.pieces(0), *pos.pieces(1))
        if checked == wanted:
            break
    assert checked == wanted
    assert lowest <= 10


@pytest.mark.slow  # builds every variant's endgame graph twice
@pytest.mark.parametrize("name", list(VARIANTS))
def test_raw_enumeration_builds_the_same_graph_and_values_as_the_position_path(name: str) -> None:
    variant = find_variant(name)
    if variant.throws_first:
        # banked throws: the reachable positions are unbounded, and both paths say so at once
        for enumerate_ in (_enumerate_raw, _enumerate_positions):
            with pytest.raises(TooLarge, match="banked throws"):
                enumerate_(variant, [variant.start_position().state], 6_000)
        return
    checked = 0
    for pos in _random_endgames(name, 20, seed=5):
        try:
            raw = _enumerate_raw(variant, [pos.state], 6_000)
        except TooLarge:
            with pytest.raises(TooLarge):
                _enumerate_positions(variant, [pos.state], 6_000)
            continue
        assert raw == _enumerate_positions(variant, [pos.state], 6_000), pos.fen()
        fast, slow = solve_many([pos]), solve_many([pos], raw=False)
        assert fast.index == slow.index
        assert np.array_equal(fast.values, slow.values)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(
    "fen, expected",
    [
        ("standard ........../........../........BA A -", 12 / 17),
        ("standard ........../........../........BA B -", 1 - 8 / 17),
        ("kendall ........../........../......A.B. A - pending=water", 5 / 53),
        ("bell ........../........../........BA A - captured=1/1", 0.5),
    ],
)
def test_both_paths_give_the_hand_worked_values(fen: str, expected: float) -> None:
    pos = Position.from_fen(fen)
    for raw in (True, False):
        assert solve_many([pos], raw=raw).value(pos) == pytest.approx(expected, abs=1e-12)


def _random_small_endgames(name: str, count: int, seed: int) -> list[Position]:
    """Chance positions with at most three pieces left in all, anywhere on the board (each
    side one or two; Bell: also none, with a random score that keeps the game open), and
    random owed extra throws or skipped turns where the variant has them."""
    variant = find_variant(name)
    squares = [sq for sq in range(1, 31) if sq in _resting(variant)]
    rng = random.Random(seed)
    points = variant.scoring is Scoring.POINTS
    out: list[Position] = []
    while len(out) < count:
        ka = rng.randint(0 if points else 1, 2)
        kb = rng.randint(0 if points else 1, 3 - ka if ka < 2 else 1)
        if ka + kb == 0:
            continue
        cells = rng.sample(squares, ka + kb)
        n = variant.pieces
        if points:
            off_a = rng.randint(0, 3)
            off_b = max(0, off_a + rng.randint(-ka, kb))
            captured = (n - ka - off_a, n - kb - off_b)
        else:
            captured = (0, 0)
        try:
            pos = Position.from_parts(
                variant, (cells[:ka], cells[ka:]), turn=rng.randint(0, 1), captured=captured
            )
        except ValueError:
            continue
        if not pos.is_over():
            out.append(pos)
    return out


def _resting(variant: Variant) -> set[int]:
    return set(range(1, 31)) - _moving_squares(variant)


def _moving_squares(variant: Variant) -> set[int]:
    moving = {HouseKind.SEND_BACK, HouseKind.BA, HouseKind.DROWN, HouseKind.WATER_CHOICE}
    return {sq for sq in range(1, 31) if variant.house_kind(sq) in moving | {HouseKind.FATE}}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLE_SPECS))
def test_shipped_table_agrees_with_fresh_solves_across_the_whole_board(name: str) -> None:
    variant = find_variant(name)
    table = table_for(variant)
    assert table is not None and len(table) > 10_000
    roots = _random_small_endgames(name, 40, seed=3)
    _assert_agrees_on_roots(table, roots, lambda pos: solve_many([pos], max_states=30_000), 8)


@pytest.mark.parametrize(
    "name",
    # the kendall, standard, jequier and bell tables take the longest to solve afresh
    [
        pytest.param(n, marks=pytest.mark.slow)
        if n in ("kendall", "standard", "jequier", "bell")
        else n
        for n in TABLE_SPECS
    ],
)
def test_stored_entries_agree_with_fresh_solves(name: str) -> None:
    # stored entries with at most three pieces left, against the reference solver
    variant = find_variant(name)
    table = table_for(variant)
    assert table is not None
    rng = random.Random(7)
    small = [s for s in table.stored_states() if (s[0] | s[1]).bit_count() <= 3]
    checked = 0
    for state in rng.sample(small, 300):
        pos = Position(variant, state)
        try:
            fresh = solve_many([pos], max_states=20_000)
        except TooLarge:
            continue
        assert table.value_of_state(state) == pytest.approx(fresh.value(pos), abs=1e-9)
        checked += 1
        if checked == 10:
            break
    assert checked == 10


def _two_against_two(variant: Variant, count: int, seed: int) -> list[Position]:
    """Chance positions with two pieces a side, every resting square of the whole board
    equally likely, either seat on turn (Bell: a random score that keeps the game open)."""
    squares = sorted(_resting(variant))
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        cells = rng.sample(squares, 4)
        gone = variant.pieces - 2
        captured = (
            (rng.randint(0, gone), rng.randint(0, gone))
            if variant.scoring is Scoring.POINTS
            else (0, 0)
        )
        pos = Position.from_parts(
            variant, (cells[:2], cells[2:]), turn=rng.randint(0, 1), captured=captured
        )
        if not pos.is_over():
            out.append(pos)
    return out


#: the variants whose tables hold two against two
TWO_A_SIDE = [name for name, regions in TABLE_SPECS.items() if max(r[2] for r in regions) >= 4]


@pytest.mark.slow  # each root's own future: up to 400,000 positions, solved compiled
@pytest.mark.parametrize("name", TWO_A_SIDE)
def test_shipped_table_agrees_with_fresh_solves_on_two_against_two_across_the_whole_board(
    name: str,
) -> None:
    # The compiled solver is held to the reference by tests/ai/test_compiled_solver.py; the
    # reference itself cannot solve these roots in a test's time (hundreds of thousands to
    # millions of positions each).
    variant = find_variant(name)
    table = table_for(variant)
    assert table is not None
    roots = _two_against_two(variant, 60, seed=4)
    _assert_agrees_on_roots(table, roots, lambda pos: solve_compiled([pos], max_states=400_000), 4)


def test_mirror_images_read_one_minus_the_value() -> None:
    # Only seat A's chance positions are stored; B's are read through their mirror image.
    variant = find_variant("kendall")
    table = table_for(variant)
    assert table is not None
    pos = Position.from_parts(variant, ([3, 17], [9, 26]), turn=0)
    image = Position.from_parts(variant, ([9, 26], [3, 17]), turn=1)
    assert mirror(pos.state) == image.state
    value, other = table.value_of_state(pos.state), table.value_of_state(image.state)
    assert value is not None and other is not None
    assert value == pytest.approx(1.0 - other, abs=1e-9)
    assert all(s[TURN] == 0 for s in random.Random(2).sample(table.stored_states(), 200))


@pytest.mark.parametrize(
    "name",
    # bell's table is the largest to walk
    [pytest.param(n, marks=pytest.mark.slow) if n == "bell" else n for n in TABLE_SPECS],
)
def test_table_covers_its_seed_regions_and_nothing_larger(name: str) -> None:
    variant = find_variant(name)
    table = table_for(variant)
    assert table is not None
    for region in TABLE_SPECS[name]:
        for state in random.Random(1).sample(seeds(variant, *region), 50):
            assert table.value_of_state(state) is not None
    captured = (variant.pieces - 3,) * 2 if variant.scoring is Scoring.POINTS else (0, 0)
    three_a_side = Position.from_parts(
        variant, ([22, 24, 26], [21, 23, 25]), turn=0, throw=0, captured=captured
    )
    assert table.value_of_state(three_a_side.state) is None


def test_bell_table_stores_one_representative_per_lead() -> None:
    # bell: the future depends on the score only through the lead, so two positions with the
    # same pieces and the same lead, reached by different captures, read the same value.
    variant = find_variant("bell")
    table = table_for(variant)
    assert table is not None
    one = Position.from_parts(variant, ([12, 20], [25]), turn=0, captured=(6, 7))
    other = Position.from_parts(variant, ([12, 20], [25]), turn=0, captured=(7, 8))
    assert one.off(0) - one.off(1) == other.off(0) - other.off(1)
    assert table.value_of_state(one.state) == table.value_of_state(other.state)
    assert table.value_of_state(one.state) == pytest.approx(solve_many([other]).value(other))


@pytest.mark.parametrize(
    "name, region",
    [
        # standard's and bell's seeds are solved the longest
        pytest.param("standard", (1, 2, 4), marks=pytest.mark.slow),
        pytest.param("bell", (1, 2, 4), marks=pytest.mark.slow),
        ("jequier", (1, 2, 3)),
        ("kendall", (20, 3, 6)),
    ],
)
def test_seed_keys_are_the_packed_seeds_in_their_order(
    name: str, region: tuple[int, int, int]
) -> None:
    """The numpy seeds that feed the large builds are the Python seeds, packed, in order (the
    order the solver discovers them in); each is its own canonical representative (Bell)."""
    variant = find_variant(name)
    states = seeds(variant, *region)
    hi, lo = seed_keys(variant, *region)
    packed = [pack_state(canonical(variant, s)) for s in states]
    assert len(set(packed)) == len(packed) == len(hi)
    assert [(int(h), int(low)) for h, low in zip(hi, lo)] == packed


def test_a_solve_from_packed_keys_is_the_solve_from_states() -> None:
    variant = find_variant("standard")
    states = seeds(variant, 24, 2, 3)
    hi, lo = seed_keys(variant, 24, 2, 3)
    by_states = solve_compiled(states, variant)
    by_keys = solve_compiled_keys(hi, lo, variant)
    assert np.array_equal(by_states.hi, by_keys.hi) and np.array_equal(by_states.lo, by_keys.lo)
    assert np.array_equal(by_states.values, by_keys.values)
    with pytest.raises(ValueError, match="nothing to solve"):
        solve_compiled_keys(hi[:0], lo[:0], variant)
    with pytest.raises(TooLarge, match="banked throws"):
        solve_compiled_keys(hi, lo, find_variant("kendall-1978"))


def test_overlapping_regions_seed_each_position_once() -> None:
    """Two regions that share seeds build the table of their union: a seed given twice would
    be two nodes of the solver and two rows of the table."""
    variant = find_variant("standard")
    both = build(variant, [(26, 1, 2), (24, 1, 2)])
    wider = build(variant, [(24, 1, 2)])
    assert np.array_equal(both[0], wider[0]) and np.array_equal(both[1], wider[1])
    assert np.allclose(both[2], wider[2], rtol=0, atol=1e-12)  # another order of sweeps


def test_kendall_tables_are_built_from_pieces_waiting_in_the_water_too() -> None:
    """kendall rule 3: a piece attacked on 28-30 drowns onto 27 and, risked, waits there through
    the throws to come; beside its owner's piece on 26 only more material can have put it
    there (the attacker came from 26), so the table seeds the House of Water as a square a
    piece rests on.  On a small region: two against one from 24 on."""
    variant = find_variant("kendall")
    hi, lo, values = build(variant, [(24, 2, 3)])
    table = EndgameTable(variant, hi, lo, values, regions=[(24, 2, 3)])
    for turn in (0, 1):
        for pieces in (([26, 27], [25]), ([25], [26, 27]), ([26, 27], [29])):
            pos = Position.from_parts(variant, pieces, turn=turn)
            assert table.value_of_state(pos.state) is not None, pos.fen()
    # the shipped two-a-side table holds them too
    shipped = table_for(variant)
    assert shipped is not None
    waiting = Position.from_parts(variant, ([26, 27], [5, 12]), turn=1)
    assert shipped.value_of_state(waiting.state) is not None


def test_table_build_is_deterministic_on_a_small_region() -> None:
    variant = find_variant("standard")
    h1, l1, v1 = build(variant, [(28, 1, 2)])
    h2, l2, v2 = build(variant, [(28, 1, 2)])
    assert np.array_equal(h1, h2) and np.array_equal(l1, l2) and np.array_equal(v1, v2)
    assert len(v1) > 0 and ((v1 >= 0) & (v1 <= 1)).all()


@pytest.mark.parametrize(
    "name, a, b",
    [("standard", [18, 22], [20, 25]), ("kendall", [3, 12], [7, 21]), ("bell", [4, 9], [1, 16])],
)
def test_master_plays_table_endgames_optimally_beyond_its_solving_budget(
    name: str, a: list[int], b: list[int]
) -> None:
    # Two against two: the whole future is the closed set (millions of positions), far
    # beyond the master's own solving budget, so only the table can make this exact.
    variant = find_variant(name)
    captured = (variant.pieces - 2,) * 2 if variant.scoring is Scoring.POINTS else (0, 0)
    pos = Position.from_parts(variant, (a, b), turn=1, throw=3, captured=captured)
    master = find_level("master")
    assert master.solve_states < 280_000
    searcher = searcher_for(pos, master)
    assert searcher.exact_move_values(pos) is not None
    table = table_for(variant)
    assert table is not None
    values = table.move_values(pos)
    assert values is not None and len(values) >= 2
    best = min(v for _, v in values)  # B decides: seat A's value, lowest is best
    assert dict(values)[choose_move(pos, "master", random.Random(0))] == best
    assert bit(a[0]) & pos.mask(0)


def test_known_large_states_stop_the_enumeration_early() -> None:
    variant = find_variant("standard")
    small = Position.from_fen("standard ........../........../........BA A -")
    solution = solve_many([small])
    inner = next(s for s in solution.index if s != small.state)
    with pytest.raises(TooLarge):
        solve_many([small], known_large={inner})
    assert solve_many([small], known_large={(0,) * 15}).value(small) == solution.value(small)
    assert variant.name == "standard"


@pytest.mark.parametrize(
    "fen",
    [
        "kendall ........../........../......A.B. A - pending=water",  # the House of Water choice
        "kendall ........../........../......A..B A 2",  # a drowning piece: only a 4 saves it (pass)
        "kendall ........../.........A/........BA A 1",  # a real choice, bearing off is the mistake
        "standard ........../........../..B.A...A. A 1",
    ],
)
def test_master_answers_table_decisions_with_an_optimal_legal_move(fen: str) -> None:
    pos = Position.from_fen(fen)
    table = table_for(pos.variant)
    assert table is not None and table.move_values(pos) is not None
    move = choose_move(pos, "master", random.Random(0))
    assert move in pos.legal_moves()
    assert move in solve_many([pos]).best_moves(pos)


@pytest.mark.parametrize("name", list(TABLE_SPECS))
def test_shipped_tables_record_the_engines_raw_state_layout(name: str) -> None:
    ref = resources.files("senet.ai").joinpath("weights", f"{name}.endgame.npz")
    with ref.open("rb") as fh, np.load(fh) as data:
        assert int(data["layout"]) == LAYOUT_VERSION
        assert int(data["format"]) == FORMAT
        assert data["regions"].tolist() == [list(r) for r in TABLE_SPECS[name]]


def test_a_table_of_another_layout_or_format_is_refused(tmp_path: Path) -> None:
    variant = find_variant("standard")
    hi, lo, values = build(variant, [(28, 1, 2)])
    good = tmp_path / "good.npz"
    save(good, hi, lo, values, [(28, 1, 2)])
    with good.open("rb") as fh:
        assert len(load(variant, fh, "good.npz")) == len(values)
    old = tmp_path / "old.npz"
    np.savez_compressed(
        old, hi=hi, lo=lo, values=values, layout=np.array(LAYOUT_VERSION - 1), format=FORMAT
    )
    older = tmp_path / "older.npz"  # the first format: one (n, 15) array of states
    np.savez_compressed(older, states=np.zeros((1, 15)), values=values[:1])
    second = tmp_path / "second.npz"  # the second format: float64 values, both seats
    np.savez_compressed(
        second, hi=hi, lo=lo, values=values, layout=np.array(LAYOUT_VERSION), format=2
    )
    for path in (old, older, second):
        with path.open("rb") as fh, pytest.raises(StaleTable, match="scripts/endgame_tables"):
            load(variant, fh, path.name)


def test_jequier_table_holds_both_seats_and_three_pieces_in_all() -> None:
    # jequier: mirror positions differ in value, so B's positions are stored, not mirrored.
    variant = find_variant("jequier")
    table = table_for(variant)
    assert table is not None and table.both_seats and "jequier" in BOTH_SEATS
    assert {s[TURN] for s in table.stored_states()} == {0, 1}
    pos = Position.from_parts(variant, ([25], [20]), turn=0)
    image = Position(variant, mirror(pos.state))
    fresh = solve_many([pos, image], max_states=50_000)
    for p in (pos, image):
        assert table.value_of_state(p.state) == pytest.approx(fresh.value(p), abs=1e-9)
    assert abs(fresh.value(pos) - (1.0 - fresh.value(image))) > 1e-4
    two_a_side = Position.from_parts(variant, ([22, 24], [21, 25]), turn=0)
    assert table.value_of_state(two_a_side.state) is None


@pytest.mark.slow  # some forty reference solves, most of them past 30,000 positions
def test_master_plays_jequier_three_piece_endgames_exactly() -> None:
    # Random roots with three pieces left in all whose future the reference solver can solve
    # (from the second half of the board: from the first, most futures pass 30,000
    # positions; the whole board is held to fresh solves above): after every throw the
    # master's move is a best one, read from the table.
    variant = find_variant("jequier")
    master = find_level("master")
    squares = sorted(sq for sq in _resting(variant) if sq >= 16)
    rng = random.Random(5)
    checked, decisions = 0, 0
    for _ in range(80):
        cells = rng.sample(squares, 3)
        ka = rng.randint(1, 2)
        pos = Position.from_parts(
            variant, (cells[:ka], cells[ka:]), turn=rng.randint(0, 1), throw=0
        )
        if pos.is_over():
            continue
        try:
            fresh = solve_many([pos], max_states=30_000)
        except TooLarge:
            continue
        for throw, _ in pos.chance_outcomes():
            decision = pos.apply_throw(throw)
            if decision.is_over() or decision.decider is None:
                continue
            if len(decision.legal_moves()) < 2:
                continue
            move = choose_move(decision, master, random.Random(0))
            assert move in fresh.best_moves(decision), decision.fen()
            decisions += 1
        checked += 1
        if checked == 5:
            break
    assert checked == 5 and decisions >= 5


def test_the_three_a_side_build_is_refused_without_a_variant_and_a_folder_of_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Not shipped: it must never land among the shipped tables by default."""
    from senet.ai.tables import main

    for argv in (["--three-a-side", "--variant", "standard"], ["--three-a-side", "--out", "x"]):
        with pytest.raises(SystemExit):
            main(argv)
        assert "into --out" in capsys.readouterr().err
