"""The game service with real SQLite storage: actions checked, stored, replayed after a restart."""

from __future__ import annotations

import ast
import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from senet.engine import Position, find_variant, parse_move
from senet.service.computer import choose_move, levels
from senet.service.errors import GameError
from senet.service.fairness.throws import verify_throws
from senet.service.games.clocks import ManualClock, parse_time_control
from senet.service.games.commands import Created, resigning_seat
from senet.service.games.live_games import LiveGame
from senet.service.games.requests import checked_move, checked_ply, parsed_move
from senet.service.games.seeding import seed_needed
from senet.service.games.storage import ConflictError, Storage, StoredAction
from senet.service.games.views import game_record
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.messages import ActionKind
from senet.service.server import GameService
from senet_testkit.loops import run

from .viewing import state_for

SRC = Path(__file__).resolve().parents[2] / "src" / "senet"


async def service_on(db: Path, delay: float = 0.0) -> GameService:
    storage = Storage(f"sqlite+aiosqlite:///{db}")
    await storage.init()
    service = GameService(storage, MemoryBroadcast(), computer_delay=delay)
    await service.start()
    return service


async def shut(service: GameService) -> None:
    await service.close()
    await service.storage.close()


def count_actions(db: Path, game_id: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM actions WHERE game_id=?", (game_id,)).fetchone()[
            0
        ]


async def play_out(
    service: GameService, game_id: str, token: str, seats: tuple[int, ...], limit: int = 3000
) -> None:
    rng = random.Random(7)
    for _ in range(limit):
        live = await service.store.load(game_id)
        pos = live.position
        if pos.is_over():
            return
        if pos.decider in seats:
            await service.commands.act(
                game_id, token, live.ply, parse_move(choose_move(pos, "greedy", rng).text())
            )
        else:
            await asyncio.sleep(0.005)  # the computer's turn
    raise AssertionError("the game did not end")


def test_every_refused_action_leaves_game_and_storage_unchanged(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        created = await service.commands.create("adelaida", "friend", "A")
        claimed = await service.commands.claim(created.game_id, created.invite or "")
        assert claimed is not None and claimed[1] == 1
        await service.commands.seed(created.game_id, created.token, "a")
        await service.commands.seed(created.game_id, claimed[0], "b")
        live = await service.store.load(created.game_id)
        before = (live.ply, live.position.fen(), count_actions(tmp_path / "db.sqlite3", live.id))
        decider = live.position.decider
        tokens = {0: created.token, 1: claimed[0]}
        legal = live.position.legal_moves()[0].text()
        cases = [
            (tokens[decider], live.ply, "30-off", "illegal"),
            (tokens[1 - decider], live.ply, legal, "not_your_turn"),
            (tokens[decider], live.ply - 1, legal, "stale"),
            ("forged", live.ply, legal, "forbidden"),
            (None, live.ply, legal, "forbidden"),
            (tokens[decider], live.ply, "a-b", "bad_move"),
            (tokens[decider], "1", legal, "bad_request"),
            (tokens[decider], True, legal, "bad_request"),
        ]
        for token, ply, move, code in cases:
            with pytest.raises(GameError) as err:
                # as a request arrives: its fields checked and its move parsed, then played
                await service.commands.act(
                    live.id, token, checked_ply(ply), parsed_move(checked_move(move))
                )
            assert err.value.code == code, (move, err.value.message)
            assert (
                live.ply,
                live.position.fen(),
                count_actions(tmp_path / "db.sqlite3", live.id),
            ) == before
        with pytest.raises(GameError) as err:
            await service.commands.act("nope", tokens[0], 0, parse_move(legal))
        assert err.value.code == "unknown_game" and err.value.status == 404
        assert (
            await service.commands.claim(created.game_id, created.invite or "") is None
        )  # the seat is taken
        await shut(service)

    run(main())


def test_a_game_survives_a_restart_and_finishes(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"

    async def first() -> tuple[str, str, str, int]:
        service = await service_on(db)
        created = await service.commands.create("kendall", "local", seed="on one screen")
        live = await service.store.load(created.game_id)
        rng = random.Random(3)
        for _ in range(20):
            await service.commands.act(
                live.id,
                created.token,
                live.ply,
                parse_move(choose_move(live.position, "greedy", rng).text()),
            )
        fen, ply = live.position.fen(), live.ply
        await shut(service)
        return created.game_id, created.token, fen, ply

    game_id, token, fen, ply = run(first())

    async def second() -> None:
        service = await service_on(db)
        live = await service.store.load(game_id)
        assert (live.position.fen(), live.ply) == (fen, ply)
        assert live.seats_of(token) == (0, 1)
        await play_out(service, game_id, token, (0, 1))
        live = await service.store.load(game_id)
        outcome = live.position.outcome()
        assert outcome is not None and live.stored.result == outcome.result
        message = state_for(service, live, (0, 1))
        fair = message["fairness"]
        assert fair["secret"] and verify_throws(
            game_id,
            fair["secret"],
            fair["commitment"],
            fair["player_seeds"],
            find_variant("kendall").instrument,
            fair["throws"],
        )
        from senet.engine.record import parse_record

        record = parse_record(game_record(live))
        assert record.replay().position == live.position
        await shut(service)

    run(second())


def test_throws_are_hidden_until_the_end_and_legal_moves_go_to_the_decider_only(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        created = await service.commands.create("standard", "friend", "B", seed="b")
        live = await service.store.load(created.game_id)
        spectator = state_for(service, live, ())
        assert (
            spectator["fairness"]["secret"] is None
            and spectator["legal"] == []
            and spectator["invite"] is None
        )
        assert len(spectator["fairness"]["commitment"]) == 64
        owner = state_for(service, live, (1,))
        assert owner["invite"] == created.invite
        claimed = await service.commands.claim(created.game_id, created.invite or "")
        assert claimed is not None
        live = await service.commands.seed(created.game_id, claimed[0], "a")
        assert state_for(service, live, (1,))["legal"] == []  # A decides first
        assert state_for(service, live, (0,))["legal"]
        await shut(service)

    run(main())


async def timed_friend_game(
    tmp_path: Path, clock: ManualClock, time_control: str
) -> tuple[GameService, Created, dict[int, str], LiveGame]:
    """A service on the manual ``clock`` and a standard friend game on ``time_control``, both
    seats taken and seeded: its first decision is due and timed."""
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    await storage.init()
    service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, clock=clock)
    await service.start()
    created = await service.commands.create(
        "standard", "friend", "A", seed="a", time_control=parse_time_control(time_control)
    )
    claimed = await service.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    live = await service.commands.seed(created.game_id, claimed[0], "b")
    return service, created, {0: created.token, 1: claimed[0]}, live


@pytest.mark.parametrize("ending", ["resignation", "time forfeit"])
def test_once_a_player_ends_the_game_nobody_is_offered_a_move(tmp_path: Path, ending: str) -> None:
    """A resignation or a loss on time leaves the position with a seat to decide; the game is
    over all the same, so no viewer is told of a decider or given moves to choose from."""

    async def main() -> None:
        clock = ManualClock()
        service, created, tokens, live = await timed_friend_game(tmp_path, clock, "move:30")
        decider = live.position.decider
        assert decider is not None and state_for(service, live, (decider,))["legal"]
        if ending == "resignation":
            live = await service.commands.resign(created.game_id, tokens[decider])
        else:
            await clock.advance(30_000)
            live = await service.commands.time_out(created.game_id)
        live = await service.store.reload(created.game_id)
        assert live.over and live.position.decider == decider  # the rules alone would go on
        for seats in ((0,), (1,), ()):
            state = state_for(service, live, seats)
            assert state["outcome"] is not None and state["outcome"]["winner"] == 1 - decider
            assert (
                state["decider"] is None and state["legal"] == [] and state["forced_pass"] is None
            )
        await shut(service)

    run(main())


@pytest.mark.parametrize("ending", ["resignation", "time forfeit"])
def test_the_end_of_a_game_stops_its_clock_where_it_stood(tmp_path: Path, ending: str) -> None:
    """On a game clock the seat thinking when the game ends keeps what it had left then (its
    opponent resigned after 40 s), or nothing (it ran out of time); the other keeps its own."""

    async def main() -> None:
        clock = ManualClock()
        service, created, tokens, live = await timed_friend_game(tmp_path, clock, "clock:180+2")
        thinking = live.clock.running
        assert thinking is not None and live.clock.remaining == (180_000, 180_000)
        if ending == "resignation":
            await clock.advance(40_000)
            await service.commands.resign(created.game_id, tokens[1 - thinking])
            left = 140_000
        else:
            await clock.advance(180_000)
            await service.commands.time_out(created.game_id)
            left = 0
        live = await service.store.reload(created.game_id)
        expected = [180_000, 180_000]
        expected[thinking] = left
        assert live.clock.running is None and list(live.clock.remaining) == expected
        state = state_for(service, live, ())
        assert state["clock"] is not None and state["clock"]["remaining"] == expected
        await shut(service)

    run(main())


def test_the_holder_of_both_seats_resigns_for_the_seat_that_decides() -> None:
    """On one screen with no seat named: the seat deciding now, even off its turn (kendall: the
    owner of a piece attacked on the House of Water chooses where it goes), else the seat on turn."""
    water = Position.from_fen("kendall .B......../........../......A... B - pending=water")
    assert (water.turn, water.decider) == (1, 0)
    assert resigning_seat(water, (0, 1)) == 0
    assert resigning_seat(water, (1,)) == 1  # a player resigns their own seat, decider or not
    chance = Position.from_fen("kendall .B......../........../......A... B -")
    assert chance.decider is None and resigning_seat(chance, (0, 1)) == 1


def test_games_to_watch_whose_players_are_here_come_first(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        left = await service.commands.create("kendall", "computer", "A", seed="a")
        here = await service.commands.create("standard", "computer", "A", seed="b")
        other = await service.commands.create("bell", "computer", "A", seed="c")
        await service.connected(here.game_id, (0,), +1)  # its player has the page open
        watched = [(g.id, g.players_here) for g in await service.lobby.watchable()]
        assert watched[0] == (here.game_id, True)
        assert sorted(watched[1:]) == sorted([(left.game_id, False), (other.game_id, False)])
        await service.connected(here.game_id, (0,), -1)  # gone: with the others again
        assert not any(g.players_here for g in await service.lobby.watchable())
        await shut(service)

    run(main())


def test_computer_plays_its_turns_and_the_game_ends(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3", delay=0.0)
        level = levels()[0]
        created = await service.commands.create("bell", "computer", "B", level, seed="mine")
        assert created.seats == (1,)
        await play_out(service, created.game_id, created.token, (1,))
        live = await service.store.load(created.game_id)
        movers = {a.seat for a in live.history if a.kind == "move"}
        assert movers == {0, 1}
        await shut(service)

    run(main())


def test_rematch_swaps_colours_and_seats_both_players(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        created = await service.commands.create("standard", "friend", "A")
        claimed = await service.commands.claim(created.game_id, created.invite or "")
        assert claimed
        await service.commands.seed(created.game_id, created.token, "a")
        await service.commands.seed(created.game_id, claimed[0], "b")
        with pytest.raises(GameError) as err:
            await service.commands.rematch(created.game_id, created.token)
        assert err.value.code == "not_over"
        live = await service.store.load(created.game_id)
        rng = random.Random(1)
        tokens = {0: created.token, 1: claimed[0]}
        while not live.position.is_over():
            d = live.position.decider
            await service.commands.act(
                live.id,
                tokens[d],
                live.ply,
                parse_move(choose_move(live.position, "greedy", rng).text()),
            )
        new_id, token_a = await service.commands.rematch(created.game_id, tokens[0])
        again_id, token_b = await service.commands.rematch(created.game_id, tokens[1])
        assert new_id == again_id and token_a and token_b
        new = await service.store.load(new_id)
        assert new.seats_of(token_a) == (1,) and new.seats_of(token_b) == (0,)
        assert new.stored.rematch_of == created.game_id
        assert new.seeding and seed_needed(new) == [True, True]  # the rematch starts by seeding too
        with pytest.raises(GameError):
            await service.commands.rematch(created.game_id, "stranger")
        await shut(service)

    run(main())


def test_storage_refuses_a_second_action_at_the_same_ply(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        created = await service.commands.create("standard", "local", seed="s")
        live = await service.store.load(created.game_id)
        ply = live.ply
        move = live.position.legal_moves()[0].text()
        await service.storage.append(live.id, ply, [StoredAction(ply, ActionKind.MOVE, 0, move)])
        with pytest.raises(ConflictError):
            await service.storage.append(
                live.id, ply, [StoredAction(ply, ActionKind.MOVE, 0, move)]
            )
        with (
            sqlite3.connect(tmp_path / "db.sqlite3") as conn,
            pytest.raises(sqlite3.IntegrityError),
        ):
            conn.execute(
                "INSERT INTO actions (game_id, ply, kind, notation, created_at) VALUES (?, ?, 'move', 'x', "
                "'2026-01-01')",
                (live.id, ply),
            )
        # the service's cached game is now behind the database: its next action is refused as stale
        with pytest.raises(GameError) as err:
            await service.commands.act(live.id, created.token, live.ply, parse_move(move))
        assert err.value.code == "stale"
        fresh = await service.store.load(live.id)
        assert fresh.ply == ply + 1 and fresh.position != Position.initial(find_variant("standard"))
        await shut(service)

    run(main())


def test_broadcast_delivers_to_current_subscribers_only() -> None:
    async def main() -> None:
        hub = MemoryBroadcast()
        async with hub.subscribe("game:x") as sub, hub.subscribe("game:y") as other:
            await hub.publish("game:x", {"n": 1})
            assert await asyncio.wait_for(sub.get(), 1) == {"n": 1}
            assert other.queue.empty()
        await hub.publish("game:x", {"n": 2})
        assert hub.subscribers("game:x") == 0

    run(main())


def test_the_service_layer_does_not_import_the_web_layer() -> None:
    for path in (SRC / "service").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.startswith("senet.web") for n in names), f"{path.name} imports {names}"


def test_the_computer_resumes_its_turn_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"

    async def before_restart() -> tuple[str, int]:
        service = await service_on(db, delay=60.0)  # it will not move before the "crash"
        created = await service.commands.create("standard", "computer", "B", levels()[0], seed="x")
        live = await service.store.load(created.game_id)
        assert live.position.decider == 0 and live.computer_seat() == 0
        ply = live.ply
        await shut(service)
        return created.game_id, ply

    game_id, ply = run(before_restart())

    async def after_restart() -> None:
        service = await service_on(db, delay=0.0)
        for _ in range(400):
            live = await service.store.load(game_id)
            if live.ply > ply:
                break
            await asyncio.sleep(0.01)
        assert live.ply > ply and live.history[ply].kind == "move" and live.history[ply].seat == 0
        await shut(service)

    run(after_restart())


def _private_names_defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: its functions, classes, attributes and variables."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


#: Attributes of other libraries that are public though they start with "_": SQLAlchemy names a
#: row's public API so (``Row._mapping``) to keep clear of its column names.
PUBLIC_UNDERSCORED = frozenset({"_mapping"})


@pytest.mark.parametrize("layer", ["service", "web"])
def test_no_module_of_the_service_or_web_layer_reaches_into_another_modules_private_names(
    layer: str,
) -> None:
    for path in sorted((SRC / layer).rglob("*.py")):
        tree = ast.parse(path.read_text())
        own = _private_names_defined(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                private = [
                    a.name
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
                assert not private, f"{path.name}:{node.lineno} imports {private}"
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                if node.attr.startswith("__") or node.attr in own | PUBLIC_UNDERSCORED:
                    continue
                raise AssertionError(f"{path.name}:{node.lineno} uses {ast.unparse(node)}")
