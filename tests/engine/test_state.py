"""The raw state (senet.engine.state): its named fields, and the two questions search asks of
it — is a throw due, who decides — answered the same way as the Position API everywhere."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from senet.engine import Position, find_variant
from senet.engine.rules import tables_for
from senet.engine.state import (
    LAYOUT_VERSION,
    PENDING,
    PENDING_FATE,
    PENDING_WATER,
    SIZE,
    THROW,
    TURN,
    decider,
    fields,
    raw_state,
    throw_due,
    with_throw,
)

from .conftest import ALL_VARIANTS, random_game

SRC = Path(__file__).resolve().parents[2] / "src" / "senet"


def test_fields_read_back_what_raw_state_wrote() -> None:
    s = raw_state(
        (0b11, 0b1100),
        turn=1,
        throw=4,
        extra=(2, 0),
        skip=(0, 1),
        off=(3, 2),
        captured=(1, 0),
        drowned=(0, 2),
        pending=PENDING_FATE,
    )
    assert len(s) == SIZE
    f = fields(s)
    assert (f.masks, f.turn, f.throw, f.extra, f.skip) == ((0b11, 0b1100), 1, 4, (2, 0), (0, 1))
    assert (f.borne_off, f.captured, f.drowned, f.pending) == ((3, 2), (1, 0), (0, 2), 1)
    assert s[TURN] == 1 and s[THROW] == 4 and s[PENDING] == PENDING_FATE
    assert with_throw(s, 2) == s[:THROW] + (2,) + s[THROW + 1 :]


def test_positions_are_built_through_the_named_fields() -> None:
    variant = find_variant("adelaida")
    pos = Position.from_parts(variant, ((1, 3), (2,)), turn=1, throw=3, drowned=(1, 0))
    f = fields(pos.state)
    assert f.turn == 1 and f.throw == 3 and f.drowned == (1, 0)
    assert f.borne_off == (variant.pieces - 3, variant.pieces - 1)


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_throw_due_and_decider_agree_with_the_position_api(name: str) -> None:
    """Along random games of every variant: chance next exactly when a throw is due, and the
    raw decider is the position's decider (while the game goes on)."""
    t = tables_for(find_variant(name))
    seen_pending = set()
    for seed in range(3):
        for pos, _ in random_game(name, random.Random(seed)):
            if pos.is_over():
                assert pos.decider is None and not pos.is_chance()
                continue
            s = pos.state
            seen_pending.add(s[PENDING])
            assert throw_due(s) == pos.is_chance(), pos.fen()
            assert decider(t, s) == pos.decider, pos.fen()
            assert (decider(t, s) is None) == throw_due(s)
    assert 0 in seen_pending


@pytest.mark.parametrize(
    "fen,owner",
    [
        # kendall: the water choice after an attack belongs to the attacked piece's owner
        ("kendall A........./........../......B... A - pending=water", 1),
        ("kendall .B......../........../......A... B - pending=water", 0),
        # adelaida §27: the fate move belongs to the owner of the piece on 26
        ("adelaida .........A/....B...../.....B.... A 5 pending=fate", 1),
        ("adelaida .........A/....B...../.....A.... B 2 pending=fate", 0),
    ],
)
def test_a_pending_house_decision_belongs_to_the_pieces_owner(fen: str, owner: int) -> None:
    pos = Position.from_fen(fen)
    assert decider(tables_for(pos.variant), pos.state) == owner == pos.decider
    assert pos.state[PENDING] in (PENDING_FATE, PENDING_WATER)


def test_a_fate_throw_is_due_but_a_water_choice_is_not() -> None:
    fate = Position.from_fen("adelaida .........A/....B...../.....A.... A - pending=fate")
    water = Position.from_fen("kendall A........./........../......B... A - pending=water")
    assert throw_due(fate.state) and fate.is_chance()
    assert not throw_due(water.state) and not water.is_chance()


def test_the_layout_version_is_a_positive_integer() -> None:
    assert isinstance(LAYOUT_VERSION, int) and LAYOUT_VERSION >= 1


def test_no_module_outside_the_engine_imports_its_private_names() -> None:
    """The AI, services, web and CLI use the engine's public names only."""
    offenders = []
    for path in SRC.rglob("*.py"):
        if path.is_relative_to(SRC / "engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("senet.engine"):
                offenders += [
                    f"{path.relative_to(SRC)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    assert not offenders
