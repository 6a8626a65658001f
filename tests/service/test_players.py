"""Players with a name in the service layer, on real SQLite storage: names and their
refusals, sessions stored hashed, sign-out, transfer codes (once, ten minutes), seats linked
to players, Glicko-2 ratings updated exactly once per rated game, deletion, and the migration
of a database from before players."""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from senet.engine import parse_move
from senet.service.database.connections import upgrade_schema
from senet.service.games.clocks import ManualClock, parse_time_control
from senet.service.games.fair_play import FairPlay
from senet.service.games.live_games import hash_token
from senet.service.games.storage import Storage, games, seats
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.players import TRANSFER_TTL_MS, SeatRating, glicko2
from senet.service.players import levels as level_ratings
from senet.service.players.names import NameRefused, check_name, name_key
from senet.service.server import GameService

from .test_games_service import run, shut


async def service_on(db: Path, clock: ManualClock | None = None) -> GameService:
    storage = Storage(f"sqlite+aiosqlite:///{db}")
    await storage.init()
    service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, clock=clock)
    await service.start()
    return service


# ---------------------------------------------------------------------- Glicko-2
def test_glickmans_worked_example() -> None:
    """ "Example of the Glicko-2 system": 1500, RD 200, σ 0.06 against 1400/30 (won),
    1550/100 (lost), 1700/300 (lost) -> 1464.06, RD 151.52, σ 0.05999 (the paper rounds
    μ' to four places first: unrounded the rating is 1464.0507)."""
    after = glicko2.rate(
        glicko2.Rating(1500, 200, 0.06),
        [
            (glicko2.Rating(1400, 30), 1),
            (glicko2.Rating(1550, 100), 0),
            (glicko2.Rating(1700, 300), 0),
        ],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.rd == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.059996


def test_a_period_without_games_only_widens_the_deviation() -> None:
    before = glicko2.Rating(1700, 80, 0.06)
    after = glicko2.rate(before, [])
    assert after.rating == 1700 and after.volatility == 0.06
    assert after.rd == pytest.approx((80**2 + (0.06 * glicko2.SCALE) ** 2) ** 0.5)


ratings = st.builds(
    glicko2.Rating,
    st.floats(800, 2600),
    st.floats(glicko2.MIN_RD, glicko2.MAX_RD),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_the_winner_gains_the_loser_loses_and_neither_is_less_sure_than_idle(
    a: glicko2.Rating, b: glicko2.Rating
) -> None:
    won = glicko2.rate(a, [(b, 1.0)], min_rd=glicko2.MIN_RD)
    lost = glicko2.rate(b, [(a, 0.0)], min_rd=glicko2.MIN_RD)
    assert won.rating > a.rating and lost.rating < b.rating
    # a game makes a rating surer than a period without one would (at the new volatility)
    idle_a = glicko2.idle(glicko2.Rating(a.rating, a.rd, won.volatility))
    idle_b = glicko2.idle(glicko2.Rating(b.rating, b.rd, lost.volatility))
    assert glicko2.MIN_RD <= won.rd <= max(idle_a.rd, glicko2.MIN_RD)
    assert glicko2.MIN_RD <= lost.rd <= max(idle_b.rd, glicko2.MIN_RD)


# ---------------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["Anna", "bob_42", "x-ray", "Иван", "ёжик-2", "abc", "A" * 20])
def test_names_that_may_be_taken(name: str) -> None:
    assert check_name(f"  {name} ") == name


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "length"),
        ("a" * 21, "length"),
        ("anna smith", "characters"),
        ("anna!", "characters"),
        ("ann\u0430", "mixed"),  # a Cyrillic а at the end of a Latin name
        ("Иванov", "mixed"),
        ("1anna", "start"),
        ("_anna", "start"),
        ("anna_", "separators"),
        ("an--na", "separators"),
        ("Admin", "reserved"),
        ("АДМИН", "reserved"),
        ("adm1n", "reserved"),
        ("master", "reserved"),
        ("Master2", "reserved"),
        ("anonymous", "reserved"),
        (None, "length"),
    ],
)
def test_names_refused_with_a_reason(name: object, code: str) -> None:
    with pytest.raises(NameRefused) as refused:
        check_name(name)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ſred", "characters"),  # the long s reads as an f
        ("ẞob", "characters"),
        ("ßob", "characters"),
        ("\ufb03" * 20, "length"),  # «ﬃ» is three letters: 60, not 20
        ("\ufb03ce", "characters"),  # «ﬃce»: a ligature is no letter of the alphabet
        ("Ａnna", "characters"),  # a full-width A
        ("İlker", "characters"),  # a dotted capital I, whose small form is two characters
    ],
)
def test_compatibility_forms_and_foreign_letters_are_refused(name: str, code: str) -> None:
    with pytest.raises(NameRefused) as refused:
        check_name(name)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("first", "second"),
    [("Kirn", "Kim"), ("vvolf", "wolf"), ("Clana", "Dana"), ("BobB", "Bob8"), ("c1ana", "Dana")],
)
def test_letter_pairs_that_read_as_one_letter_share_a_key(first: str, second: str) -> None:
    assert check_name(first) == first and check_name(second) == second
    assert name_key(first) == name_key(second)


def test_a_cyrillic_name_read_as_a_latin_one_is_taken_either_way(tmp_path: Path) -> None:
    """«Тот» (Cyrillic, its small т reads as an m) and "Tom" are one name, whichever comes
    first; "Mom" stays a name of its own beside "Tom"."""

    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        for first, second in (("Тот", "Tom"), ("Toma", "\u0422\u043e\u0442\u0430")):
            await players.take_name(first)
            with pytest.raises(NameRefused) as refused:
                await players.take_name(second)
            assert refused.value.code == "taken"
        assert (await players.take_name("Mom"))[0].name == "Mom"
        # the listed look-alike pairs, each pair's second refused once the first is taken
        pairs = [("Kirn", "Kim"), ("vvolf", "wolf"), ("Clana", "Dana"), ("BobB", "Bob8")]
        for first, second in pairs:
            await players.take_name(first)
            with pytest.raises(NameRefused):
                await players.take_name(second)
        await shut(service)

    run(main())


_LATIN_NAMES = st.text(alphabet="abcdefghjkmnopqrstuvwxyz", min_size=3, max_size=10)


@given(_LATIN_NAMES, st.data())
def test_writing_a_letter_as_its_look_alike_keeps_the_key(base: str, data: st.DataObject) -> None:
    """Property: a name and the same name with letters written as their look-alikes (m as rn,
    w as vv, d as cl, l as 1 or I, o as 0, b as 8 after the first letter, a Cyrillic twin)
    are one name; and the key of a key is itself."""
    spellings = {
        "m": ["rn"],
        "w": ["vv"],
        "d": ["cl"],
        "l": ["1", "I"],
        "o": ["0", "O"],
        "b": ["8"],
    }
    out = base[0]
    for ch in base[1:]:
        choices = [ch, *spellings.get(ch, [])]
        out += data.draw(st.sampled_from(choices))
    assert name_key(out) == name_key(base)
    assert name_key(name_key(out)) == name_key(out)


#: the migration that computed the look-alike keys again, with its own copy of the rule
NAME_KEYS = importlib.import_module("senet.service.database.migrations.versions.0011_name_keys")


@given(st.text(max_size=30))
def test_the_name_keys_migration_computes_the_names_rule(raw: str) -> None:
    """Property: the migration's copy of the look-alike key (the database package imports no
    domain's code) gives every text the key the names' rule gives it."""
    assert NAME_KEYS.name_key(raw) == name_key(raw)


def test_the_name_keys_migration_folds_look_alikes() -> None:
    assert NAME_KEYS.name_key("Kim") == NAME_KEYS.name_key("Kirn") == name_key("kirn")
    assert NAME_KEYS.name_key("\u0410nna") == name_key("anna")


@given(st.text(min_size=1, max_size=30))
def test_an_accepted_name_is_what_it_shows(raw: str) -> None:
    """Property: whatever is typed, an accepted name is 3 to 20 letters as read (no ligature,
    no compatibility form), each of the allowed alphabets."""
    try:
        name = check_name(raw)
    except NameRefused:
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert 3 <= len(name) <= 20
    assert all(
        ch.lower() in "abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя0123456789_-"
        for ch in name
    )


def test_look_alike_names_share_a_key() -> None:
    assert name_key("Anna") == name_key("ANNA") == name_key("\u0410nna".replace("nna", "NNA"))
    assert name_key("Anna") != name_key("Anne")
    # Cyrillic «Тор» reads as Latin "Top"
    assert name_key("Тор") == name_key("top")
    assert name_key("bill") == name_key("BI11")
    assert name_key("a_b") == name_key("a-b")


# ---------------------------------------------------------------------- sessions
def test_a_name_is_unique_and_its_session_secret_is_stored_hashed(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"

    async def main() -> str:
        service = await service_on(db)
        players = service.players
        anna, secret = await players.take_name("Anna")
        assert len(secret) >= 32
        assert (await players.session(secret)) == anna
        for other in ("anna", "ANNA", "Аnna"):  # the last with a Cyrillic А
            with pytest.raises(NameRefused) as refused:
                await players.take_name(other)
            assert refused.value.code in ("taken", "mixed")
        await players.take_name("Top")  # "Top" is taken ...
        with pytest.raises(NameRefused) as refused:
            await players.take_name("Тор")  # ... and its Cyrillic look-alike refused
        assert refused.value.code == "taken"
        assert await players.session("forged") is None
        assert await players.session(None) is None
        await shut(service)
        return secret

    secret = run(main())
    wal = tmp_path / "db.sqlite3-wal"
    raw = db.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    assert secret.encode() not in raw
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT token_hash FROM player_sessions").fetchall()
        assert (hash_token(secret),) in stored and len(stored) == 2  # Anna's and Top's


def test_racing_takers_of_one_name_get_it_once(tmp_path: Path) -> None:
    async def main() -> None:
        first, second = await service_on(tmp_path / "db.sqlite3"), None
        second = await service_on(tmp_path / "db.sqlite3")
        results = await asyncio.gather(
            first.players.take_name("Racer"),
            second.players.take_name("racer"),
            return_exceptions=True,
        )
        assert sum(isinstance(r, NameRefused) for r in results) == 1
        await shut(first)
        await shut(second)

    run(main())


def test_sign_out_here_and_everywhere(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        anna, phone = await players.take_name("Anna")
        laptop = await players.new_session(anna)
        tablet = await players.new_session(anna)
        await players.sign_out(phone)
        assert await players.session(phone) is None
        assert await players.session(laptop) == anna
        code = await players.new_transfer(anna)
        assert await players.sign_out_everywhere(anna) == 2
        assert await players.session(laptop) is None and await players.session(tablet) is None
        assert await players.spend_transfer(code) is None  # its codes went with it
        assert await players.by_name("ANNA") == anna  # the name stays
        await shut(service)

    run(main())


def test_a_transfer_code_works_once_and_for_ten_minutes(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        players = service.players
        anna, _ = await players.take_name("Anna")
        code = await players.new_transfer(anna)
        typed = code.lower()[:4] + " - " + code.lower()[4:]
        signed = await players.spend_transfer(typed)
        assert signed is not None and signed[0] == anna
        assert await players.session(signed[1]) == anna
        assert await players.spend_transfer(code) is None  # a second use
        late = await players.new_transfer(anna)
        await clock.advance(TRANSFER_TTL_MS)
        assert await players.spend_transfer(late) is None
        # two devices racing with one code: one gets in
        racing = await players.new_transfer(anna)
        both = await asyncio.gather(players.spend_transfer(racing), players.spend_transfer(racing))
        assert sum(r is not None for r in both) == 1
        assert await players.spend_transfer("") is None
        assert await players.spend_transfer("X" * 12) is None
        await shut(service)

    run(main())


def test_a_passkey_challenge_is_good_once_for_its_purpose(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        players = service.players
        anna, _ = await players.take_name("Anna")
        challenge = await players.new_challenge("register", anna)
        assert await players.spend_challenge(challenge, "login") == (False, None)
        assert await players.spend_challenge(challenge, "register") == (True, anna.id)
        assert await players.spend_challenge(challenge, "register") == (False, None)
        old = await players.new_challenge("login", None)
        await clock.advance(10 * 60 * 1000)
        assert await players.spend_challenge(old, "login") == (False, None)
        await shut(service)

    run(main())


# ---------------------------------------------------------------------- games and ratings
async def rated_friend_game(service: GameService, a_name: str, b_name: str, rated: bool = True):
    players = service.players
    a = await players.by_name(a_name) or (await players.take_name(a_name))[0]
    b = await players.by_name(b_name) or (await players.take_name(b_name))[0]
    created = await service.commands.create("standard", "friend", "A")
    live = await service.store.load(created.game_id)
    if rated:
        assert await players.start_rated(live)
    claimed = await service.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    await players.link(live, (0,), a)
    await players.link(live, (1,), b)
    return created, claimed[0], a, b


async def both_move(service: GameService, game_id: str, tokens: dict[int, str]) -> None:
    """Seed the human seats, then play until each player has made a move of their own (a
    forced pass is none): a rated game is rated only from then on.  ``tokens``: the human
    seats' secrets by seat (a computer's seat plays by itself)."""
    for token in tokens.values():
        await service.commands.seed(game_id, token, "s")
    for _ in range(2000):
        live = await service.store.load(game_id)
        assert not live.position.is_over()
        if decided(live) == {0, 1}:
            return
        decider = live.position.decider
        if decider not in tokens:
            await asyncio.sleep(0.005)  # the computer's turn
            continue
        legal = [m.text() for m in live.position.legal_moves()]
        move = next((m for m in legal if m != "pass"), "pass")
        await service.commands.act(game_id, tokens[decider], live.ply, parse_move(move))
    raise AssertionError("the players made no move of their own")


def decided(live: Any) -> set[int]:
    """The seats that made a move of their own in the game."""
    return {
        a.seat
        for a in live.history
        if a.kind == "move" and a.notation != "pass" and a.seat is not None
    }


def test_a_rated_game_moves_both_ratings_once(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        created, b_token, a, b = await rated_friend_game(service, "Anna", "Boris")
        game_id = created.game_id
        await both_move(service, game_id, {0: created.token, 1: b_token})
        await service.commands.resign(game_id, b_token)  # Boris resigns: Anna wins
        await players.close()  # the rating started as the game ended
        assert await players.rate(game_id) == []  # done already: nothing more
        live = await service.store.load(game_id)
        rated, seated = await players.seat_ratings(live)
        assert rated
        assert [(s.name, s.change) for s in seated] == [("Anna", 162), ("Boris", -162)]
        assert seated[0].rating == "1662?"
        anna = await players.profile(a)
        boris = await players.profile(b)
        assert [(r.variant, r.text, r.games) for r in anna.ratings] == [("standard", "1662?", 1)]
        assert [(r.variant, r.text) for r in boris.ratings] == [("standard", "1338?")]
        assert (anna.games, anna.wins, anna.losses) == (1, 1, 0)
        assert (boris.games, boris.wins, boris.losses) == (1, 0, 1)
        assert [(g.id, g.opponent, g.termination, g.result) for g in anna.recent] == [
            (game_id, "Boris", "resignation", "A")
        ]
        assert anna.rating_changes == {game_id: 162}
        assert [value for _, value in anna.ratings[0].history] == [1500, 1662]
        await shut(service)

    run(main())


def test_a_rated_game_ended_before_both_players_moved_is_not_rated(tmp_path: Path) -> None:
    """Rating farming: two names of one person, one resigns at once (ply 0, before any throw)
    or after only the other moved; five such games leave both ratings where they were and the
    games casual."""

    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        games = []
        for i in range(5):
            created, b_token, a, b = await rated_friend_game(service, "Farmer", "Sheep")
            tokens = {0: created.token, 1: b_token}
            if i % 2:  # the first mover moves, the other resigns before any move of theirs
                for token in tokens.values():
                    await service.commands.seed(created.game_id, token, "s")
                live = await service.store.load(created.game_id)
                mover = live.position.decider
                assert mover is not None
                legal = [m.text() for m in live.position.legal_moves() if m.text() != "pass"]
                if legal:
                    await service.commands.act(
                        created.game_id, tokens[mover], live.ply, parse_move(legal[0])
                    )
                    live = await service.store.load(created.game_id)
                assert decided(live) <= {mover}
            await service.commands.resign(created.game_id, b_token)
            games.append(created.game_id)
        await players.close()
        for game_id in games:
            assert await players.rate(game_id) == []
            assert await players.db.changes_of_game(game_id) == []
            assert await players.db.game_flags(game_id) == (False, True)  # casual now
            rated, seated = await players.seat_ratings(await service.store.load(game_id))
            assert not rated and [s.change for s in seated] == [None, None]
        assert (await players.profile(a)).ratings == ()
        assert (await players.profile(b)).ratings == ()
        await shut(service)

    run(main())


def test_a_finished_rated_game_left_unrated_by_a_crash_is_rated_at_start_up(
    tmp_path: Path,
) -> None:
    """A process stored a rated game's end and died before it rated it: the next process to
    start applies its ratings by itself, once, without anyone reading the game."""

    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        first = await service_on(db)
        created, b_token, a, b = await rated_friend_game(first, "Anna", "Boris")
        first.players.store.on_change.clear()  # this process "dies" before it rates the game
        await both_move(first, created.game_id, {0: created.token, 1: b_token})
        await first.commands.resign(created.game_id, b_token)
        await shut(first)
        assert await _rating_done(db, created.game_id) is False
        restarted = await service_on(db)  # its start-up sweep rates the game
        assert await _rating_done(db, created.game_id) is True
        changes = await restarted.players.db.changes_of_game(created.game_id)
        assert sorted(round(c.after - c.before) for c in changes) == [-162, 162]
        assert await restarted.players.rate_unrated() == 0  # once only
        await shut(restarted)

    run(main())


async def _rating_done(db: Path, game_id: str) -> bool:
    with sqlite3.connect(db) as conn:
        return bool(
            conn.execute("SELECT rating_done FROM games WHERE id=?", (game_id,)).fetchone()[0]
        )


def test_a_casual_game_and_a_game_with_an_anonymous_player_leave_ratings_alone(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        created, b_token, a, _ = await rated_friend_game(service, "Anna", "Boris", rated=False)
        await service.commands.resign(created.game_id, b_token)
        # rated, but the other seat anonymous
        rated_game = await service.commands.create("standard", "friend", "A")
        live = await service.store.load(rated_game.game_id)
        await players.start_rated(live)
        await players.link(live, (0,), a)
        claimed = await service.commands.claim(rated_game.game_id, rated_game.invite or "")
        assert claimed is not None
        await service.commands.resign(rated_game.game_id, claimed[0])
        await players.close()
        assert await players.rate(rated_game.game_id) == []
        profile = await players.profile(a)
        assert profile.ratings == () and profile.wins == 2
        assert {g.opponent for g in profile.recent} == {"Boris", None}
        await shut(service)

    run(main())


def test_two_services_rating_one_game_at_once_rate_it_once(tmp_path: Path) -> None:
    """Two server processes (two services on one database) both rate the game that ended:
    one transaction flips the game's rating_done, the other changes nothing."""

    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        first = await service_on(db)
        second = await service_on(db)
        created, b_token, a, _ = await rated_friend_game(first, "Anna", "Boris")
        first.players.store.on_change.clear()  # neither rates by itself: the race below does
        await both_move(first, created.game_id, {0: created.token, 1: b_token})
        await first.commands.resign(created.game_id, b_token)
        results = await asyncio.gather(
            *[p.rate(created.game_id) for p in (first.players, second.players) * 3]
        )
        assert sorted(len(r) for r in results) == [0, 0, 0, 0, 0, 2]
        profile = await second.players.profile(a)
        assert profile.ratings[0].games == 1
        await shut(first)
        await shut(second)

    run(main())


def test_a_rated_game_against_the_computer_rates_its_level(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        anna, _ = await players.take_name("Anna")
        created = await service.commands.create("standard", "computer", "A", "beginner")
        live = await service.store.load(created.game_id)
        assert await players.start_rated(live)
        await players.link(live, created.seats, anna)
        await both_move(service, created.game_id, {created.seats[0]: created.token})
        await service.commands.resign(created.game_id, created.token)
        await players.close()
        level = await players.computer_player("beginner")
        assert level.kind == "computer" and level.name == "beginner"
        profile = await players.profile(level)
        # the level's rating is its fixed, measured one: the game did not move it
        assert profile.ratings[0].variant == "standard" and profile.ratings[0].games == 1
        assert profile.ratings[0].text == "1246"
        assert [g.opponent for g in profile.recent] == ["Anna"]
        assert profile.rating_changes == {created.game_id: 0}
        # Anna lost to the weakest level: she loses more than to an even opponent
        anna_change = (await players.profile(anna)).rating_changes[created.game_id]
        assert anna_change < -162
        await shut(service)

    run(main())


def test_the_levels_have_fixed_measured_ratings_and_profiles_from_the_start(
    tmp_path: Path,
) -> None:
    """Each level's rating comes from the ladder's scores (casual beats the beginner 78.3% in
    standard: 223 points; levels average 1500), exists before it has played, and a win over
    the beginner gives a newcomer less than a win over an even newcomer (+162)."""

    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        ladder = level_ratings.level_ratings("standard")
        assert list(ladder) == ["beginner", "casual", "expert", "master"]
        assert round(ladder["casual"] - ladder["beginner"]) == 223
        assert sum(ladder.values()) / 4 == pytest.approx(1500, abs=1)
        master = await players.by_name("master")  # no game played yet
        assert master is not None and master.kind == "computer"
        shown = {r.variant: r.text for r in (await players.profile(master)).ratings}
        assert shown["standard"] == "1677" and set(shown) == set(level_ratings.LADDER_SCORES)
        anna, _ = await players.take_name("Anna")
        created = await service.commands.create("standard", "computer", "B", "beginner")
        live = await service.store.load(created.game_id)
        assert await players.start_rated(live)
        await players.link(live, created.seats, anna)
        await both_move(service, created.game_id, {created.seats[0]: created.token})
        # the beginner (seat A) resigns: a win for Anna
        await service.commands.resign_seats(created.game_id, (0,))
        await players.close()
        changes = {c.player_id: c for c in await players.db.changes_of_game(created.game_id)}
        beginner = await players.computer_player("beginner")
        assert changes[beginner.id].before == changes[beginner.id].after == ladder["beginner"]
        gain = round(changes[anna.id].after - changes[anna.id].before)
        assert 0 < gain < 100
        await shut(service)

    run(main())


def test_deleting_a_name_keeps_its_games_anonymous(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        created, b_token, a, b = await rated_friend_game(service, "Anna", "Boris")
        _, secret = await players.take_name("Other")
        code = await players.new_transfer(a)
        await both_move(service, created.game_id, {0: created.token, 1: b_token})
        await service.commands.resign(created.game_id, b_token)
        await players.close()
        await players.delete(a)
        assert await players.by_name("Anna") is None
        assert await players.spend_transfer(code) is None
        live = await service.store.load(created.game_id)  # the game stays
        assert live.over
        _, seated = await players.seat_ratings(live)
        assert [s.name for s in seated] == ["Boris"]
        boris = await players.profile(b)
        assert [g.opponent for g in boris.recent] == [None]  # shown as anonymous
        assert boris.ratings[0].text == "1338?"  # his own rating change stays his
        assert (await players.take_name("Anna"))[0].id != a.id  # the name is free again
        assert await players.session(secret) is not None
        await shut(service)

    run(main())


def test_a_name_deleted_while_its_game_is_being_rated_leaves_the_game_unrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race a fuzzer found: a player deletes its name after the rating has read the game's
    players and before it writes.  The rating sees, inside its own transaction, that a seat is
    anonymous now and leaves the game unrated (no half-written change, no error)."""

    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        players = service.players
        created, b_token, a, b = await rated_friend_game(service, "Anna", "Boris")
        players.store.on_change.clear()  # the game is rated below, not by the service itself
        await both_move(service, created.game_id, {0: created.token, 1: b_token})
        await service.commands.resign(created.game_id, b_token)
        db = players.db
        ensure_row = db._ensure_rating_row

        async def ensure_then_delete(player_id: str, variant: str) -> None:
            await ensure_row(player_id, variant)
            if player_id == a.id:
                await db.delete_player(a.id)

        monkeypatch.setattr(db, "_ensure_rating_row", ensure_then_delete)
        assert await players.rate(created.game_id) == []
        assert await db.changes_of_game(created.game_id) == []
        boris = await players.profile(b)
        assert boris.ratings == ()
        await shut(service)

    run(main())


#: the revision just before the players' tables
BEFORE_PLAYERS = importlib.import_module(
    "senet.service.database.migrations.versions.0006_players"
).down_revision


def test_a_database_from_before_players_keeps_its_games(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"

    async def make_old() -> None:
        engine = create_async_engine(f"sqlite+aiosqlite:///{db}")
        await upgrade_schema(engine, BEFORE_PLAYERS)
        now = datetime.now(UTC)
        async with engine.begin() as conn:
            await conn.execute(
                insert(games).values(
                    id="oldgame",
                    variant="standard",
                    mode="friend",
                    level=None,
                    ply=0,
                    secret="00" * 32,
                    commitment="11" * 32,
                    player_seeds="",
                    created_at=now,
                    updated_at=now,
                )
            )
            for seat in (0, 1):
                await conn.execute(
                    insert(seats).values(
                        game_id="oldgame",
                        seat=seat,
                        kind="human",
                        token_hash=hash_token(f"tok{seat}"),
                        claimed=True,
                    )
                )
        await engine.dispose()

    run(make_old())

    async def after() -> None:
        service = await service_on(db)
        live = await service.store.load("oldgame")
        assert live.seats_of("tok1") == (1,)
        anna, _ = await service.players.take_name("Anna")
        await service.players.link(live, (0,), anna)
        assert [g.id for g in await service.players.games_of(anna)] == ["oldgame"]
        assert await service.players.seat_ratings(live) == (
            False,
            [SeatRating(0, "Anna", "human", None, None)],
        )
        await shut(service)

    run(after())
    with sqlite3.connect(db) as conn:
        (anna_id,) = conn.execute("SELECT id FROM players WHERE kind = 'human'").fetchone()
        assert conn.execute("SELECT player_id FROM seats ORDER BY seat").fetchall() == [
            (anna_id,),
            (None,),
        ]


# ---------------------------------------------------------------------- rated quick pairing
def test_rated_seekers_are_paired_within_a_range_that_widens_while_they_wait(
    tmp_path: Path,
) -> None:
    from datetime import timedelta

    from senet.service.lobby.rated_pairing import RANGE_START, pairing_range

    db = tmp_path / "db.sqlite3"

    async def main() -> None:
        service = await service_on(db)
        players, pairing = service.players, service.rated_pairing
        names = ["Dina", "Carl", "Fedor", "Gleb", "Anna", "Boris"]
        p = {n: (await players.take_name(n))[0] for n in names}
        with sqlite3.connect(db) as conn:  # Carl is much stronger than the others
            conn.execute(
                "INSERT INTO ratings VALUES (?, 'kendall', 1800, 60, 0.06, 30, '2026-12-01')",
                (p["Carl"].id,),
            )
        # two newcomers: the first waits, the second is paired with it, rated, both linked
        first = await pairing.pair(p["Anna"], "kendall", parse_time_control("untimed"), [])
        assert first.waiting
        second = await pairing.pair(p["Boris"], "kendall", parse_time_control("untimed"), [])
        assert (second.waiting, second.game_id) == (False, first.game_id)
        live = await service.store.load(first.game_id)
        rated, seated = await players.seat_ratings(live)
        assert rated and {s.name for s in seated} == {"Anna", "Boris"}
        assert live.free_seat() is None and not live.stored.listed
        # Dina (1500) waits; Carl (1800) is out of her range, so he waits too
        dina = await pairing.pair(p["Dina"], "kendall", parse_time_control("untimed"), [])
        carl = await pairing.pair(p["Carl"], "kendall", parse_time_control("untimed"), [])
        assert dina.waiting and carl.waiting and 300 > RANGE_START
        listed = {s.game_id: (s.name, round(s.rating)) for s in await players.db.seeks()}
        assert listed == {dina.game_id: ("Dina", 1500), carl.game_id: ("Carl", 1800)}
        # Fedor (1500) comes at once: Dina is in range, Carl is not
        fedor = await pairing.pair(p["Fedor"], "kendall", parse_time_control("untimed"), [])
        assert fedor.game_id == dina.game_id
        # Gleb (1500) comes once Carl has waited long enough for 300 points
        carl_since = next(s.since for s in await players.db.seeks() if s.game_id == carl.game_id)
        assert pairing_range(0) < 300
        early = carl_since + timedelta(seconds=10)
        late = carl_since + timedelta(seconds=60)
        assert pairing_range(10) < 300 <= pairing_range(60)
        gleb = await pairing.pair(
            p["Gleb"], "kendall", parse_time_control("untimed"), [], now=early
        )
        assert gleb.waiting and gleb.game_id != carl.game_id
        await service.commands.cancel(gleb.game_id, gleb.token)
        gleb = await pairing.pair(p["Gleb"], "kendall", parse_time_control("untimed"), [], now=late)
        assert gleb.game_id == carl.game_id
        # another time control is another request
        other = await pairing.pair(p["Anna"], "kendall", parse_time_control("move:60"), [])
        assert other.waiting
        await shut(service)

    run(main())


def test_names_taken_before_the_key_folded_pairs_are_found_after_the_upgrade(
    tmp_path: Path,
) -> None:
    """Migration 0007 computes the keys again: "Kirn" (old key ``klrn``) is found under the new
    key; of "Kim" and "Kirn" taken before, both stay reachable, the older under the new key,
    and a new "Kirn" is refused."""
    db = tmp_path / "db.sqlite3"

    async def make_old() -> None:
        engine = create_async_engine(f"sqlite+aiosqlite:///{db}")
        await upgrade_schema(engine, "0006_bots")
        from senet.service.players.storage import players as players_table

        async with engine.begin() as conn:
            for i, (name, key) in enumerate((("Kim", "klm"), ("Kirn", "klrn"), ("vvolf", "vvolf"))):
                await conn.execute(
                    insert(players_table).values(
                        id=f"p{i}",
                        name=name,
                        name_key=key,
                        kind="human",
                        created_at=datetime(2026, 1, 1 + i, tzinfo=UTC),
                    )
                )
        await engine.dispose()

    run(make_old())

    async def after() -> None:
        service = await service_on(db)
        players = service.players
        assert [(await players.by_name(n)).id for n in ("Kim", "Kirn", "vvolf", "wolf")] == [
            "p0",
            "p1",
            "p2",
            "p2",
        ]
        with pytest.raises(NameRefused):
            await players.take_name("Kirn")
        await shut(service)

    run(after())


def test_names_never_played_are_freed_after_thirty_days_and_the_site_takes_so_many_an_hour(
    tmp_path: Path,
) -> None:
    """Squatting at scale: a site-wide limit of new names an hour (here 2), whichever
    addresses ask; and a name that never held a seat in a game (nor has a passkey) is freed
    thirty days after it was taken, by the players' sweep, on the server's clock."""

    async def main() -> None:
        clock = ManualClock()
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        limits = FairPlay(names_per_window=2)
        service = GameService(
            storage, MemoryBroadcast(), computer_delay=0.0, clock=clock, fair_play=limits
        )
        await service.start()
        players = service.players
        squat, _ = await players.take_name("Squat")
        keyed, _ = await players.take_name("Keyed")
        with pytest.raises(NameRefused) as refused:
            await players.take_name("Anna")
        assert refused.value.code == "busy"
        await clock.advance(3_600_001)  # an hour on: names again
        await rated_friend_game(service, "Anna", "Boris")  # their seats: names that played
        await players.db.add_passkey("cred", keyed.id, "key", 0)
        await clock.advance(29 * 86_400_000)
        assert await players.free_unused_names() == 0  # not thirty days yet
        await clock.advance(86_400_000)
        assert await players.free_unused_names() == 1
        assert await players.by_name("Squat") is None  # free again
        for kept in ("Keyed", "Anna", "Boris"):
            assert await players.by_name(kept) is not None
        assert (await players.take_name("Squat"))[0].id != squat.id
        await shut(service)

    run(main())
