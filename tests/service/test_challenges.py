"""Challenges in the service layer, on real SQLite storage with the server's clock injected:
sent, listed, accepted into a game with their terms (both players seated, each once), declined,
cancelled, expired after a day, refused by a player's setting, anonymous challenges only from
a finished game against the named player, racing answers of which one counts, and the
notification hook (listeners and the players' broadcast channels)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from senet.service.challenges.offers import (
    CHALLENGE_LIFETIME_MS,
    SWEEP_EVERY,
    Acceptance,
    ChallengeEvent,
    ChallengeEventKind,
    ChallengeStatus,
    ChallengeTerms,
)
from senet.service.errors import GameError
from senet.service.games.clocks import ManualClock
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService
from senet_testkit.loops import run

from .test_games_service import shut

KENDALL_A = ChallengeTerms.checked("kendall", "move:60", "A", False)


async def service_on(db: Path, clock: ManualClock) -> GameService:
    storage = Storage(f"sqlite+aiosqlite:///{db}")
    await storage.init()
    service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, clock=clock)
    await service.start()
    return service


@contextlib.contextmanager
def refused(code: str) -> Iterator[None]:
    with pytest.raises(GameError) as caught:
        yield
    assert caught.value.code == code, caught.value.message


def test_a_challenge_is_received_accepted_and_both_players_are_seated(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        events: list[ChallengeEvent] = []

        async def listen(event: ChallengeEvent) -> None:
            events.append(event)

        challenges.on_event(listen)
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        terms = ChallengeTerms.checked("kendall", "move:60", "A", True)
        async with challenges.subscribe(boris.id) as inbox:
            sent = await challenges.create("boris", terms, challenger=anna)
            message = await asyncio.wait_for(inbox.get(), 5)
        assert message["type"] == "challenge" and message["event"] == "received"
        assert message["challenge"]["challenger"] == "Anna"
        assert message["challenge"]["challenged"] == "Boris"
        await challenges.settle()
        assert [(e.kind, e.challenge.id) for e in events] == [
            (ChallengeEventKind.RECEIVED, sent.challenge.id)
        ]
        (waiting,) = await challenges.incoming(boris)
        assert waiting.id == sent.challenge.id and waiting.challenger == "Anna"
        assert waiting.terms == terms and waiting.status == ChallengeStatus.OPEN
        assert [c.id for c in await challenges.outgoing(anna)] == [sent.challenge.id]
        assert await challenges.incoming(anna) == []
        with refused("not_yours"):
            await challenges.accept(sent.challenge.id, anna)  # one's own challenge

        async with challenges.subscribe(anna.id) as outbox:
            accepted = await challenges.accept(sent.challenge.id, boris)
            note = await asyncio.wait_for(outbox.get(), 5)
        assert note["event"] == "accepted" and note["challenge"]["game"] == accepted.game_id
        assert accepted.seat == 1  # Anna asked for A
        live = await service.store.load(accepted.game_id)
        assert live.stored.variant == "kendall" and live.stored.time_control == "move:60"
        assert live.seats_of(accepted.token) == (1,)
        assert live.free_seat() == 0  # Anna's, until she takes it
        with refused("challenge_closed"):
            await challenges.accept(sent.challenge.id, boris)  # once
        with refused("not_yours"):
            await challenges.take_seat(sent.challenge.id, player=boris)
        game_id, token = await challenges.take_seat(sent.challenge.id, player=anna)
        assert game_id == accepted.game_id and token is not None
        live = await service.store.load(game_id)
        assert live.seats_of(token) == (0,) and live.free_seat() is None
        assert await challenges.take_seat(sent.challenge.id, secret=sent.secret) == (game_id, None)
        rated, seats = await service.players.seat_ratings(live)
        assert rated and [(s.seat, s.name) for s in seats] == [(0, "Anna"), (1, "Boris")]
        assert await challenges.incoming(boris) == [] and await challenges.outgoing(anna) == []
        await challenges.settle()
        assert [e.kind for e in events] == [
            ChallengeEventKind.RECEIVED,
            ChallengeEventKind.ACCEPTED,
        ]
        await shut(service)

    run(main())


def test_a_turn_based_challenge_makes_a_turn_based_game(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        terms = ChallengeTerms.checked("standard", "days:3", "B", False)
        assert terms.time_control == "days:3"
        sent = await challenges.create("Boris", terms, challenger=anna)
        accepted = await challenges.accept(sent.challenge.id, boris)
        live = await service.store.load(accepted.game_id)
        assert live.stored.time_control == "days:3" and accepted.seat == 0
        await shut(service)

    run(main())


def test_declined_and_cancelled_challenges_make_no_game(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        first = await challenges.create("Boris", KENDALL_A, challenger=anna)
        with refused("already_challenged"):
            await challenges.create("Boris", KENDALL_A, challenger=anna)
        declined = await challenges.decline(first.challenge.id, boris)
        assert declined.status == ChallengeStatus.DECLINED and declined.game_id is None
        with refused("challenge_closed"):
            await challenges.accept(first.challenge.id, boris)
        with refused("challenge_open"):
            second = await challenges.create("Boris", KENDALL_A, challenger=anna)
            await challenges.take_seat(second.challenge.id, player=anna)
        with refused("not_yours"):
            await challenges.cancel(second.challenge.id, player=boris)
        with refused("not_yours"):
            await challenges.cancel(second.challenge.id, secret="forged")
        cancelled = await challenges.cancel(second.challenge.id, secret=second.secret)
        assert cancelled.status == ChallengeStatus.CANCELLED
        with refused("challenge_closed"):
            await challenges.decline(second.challenge.id, boris)
        with refused("challenge_closed"):
            await challenges.take_seat(second.challenge.id, player=anna)
        assert await challenges.incoming(boris) == []
        await shut(service)

    run(main())


def test_a_challenge_expires_after_a_day_of_the_servers_clock(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "c.sqlite3", clock)
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        old = await challenges.create("Boris", KENDALL_A, challenger=anna)
        await clock.advance(CHALLENGE_LIFETIME_MS - 1)
        assert [c.id for c in await challenges.incoming(boris)] == [old.challenge.id]
        assert await challenges.expire() == []  # not yet
        async with challenges.subscribe(anna.id) as outbox:
            await clock.advance(1)
            assert await challenges.incoming(boris) == []
            with refused("challenge_expired"):
                await challenges.accept(old.challenge.id, boris)  # whatever the sweep did
            await clock.advance(SWEEP_EVERY)
            note = await asyncio.wait_for(outbox.get(), 5)  # the sweep told the challenger
        assert note["event"] == "expired" and note["challenge"]["id"] == old.challenge.id
        assert (await challenges.get(old.challenge.id)).status == ChallengeStatus.EXPIRED
        assert await challenges.expire() == []  # once
        # an expired challenge no longer blocks a new one to the same player
        await challenges.create("Boris", KENDALL_A, challenger=anna)
        await shut(service)

    run(main())


def test_a_player_refuses_all_challenges_or_those_from_anonymous_players(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        assert await challenges.acceptance(boris) == Acceptance.EVERYONE
        with refused("bad_request"):
            await challenges.set_acceptance(boris, "friends")
        await challenges.set_acceptance(boris, "nobody")
        with refused("refuses_challenges"):
            await challenges.create("Boris", KENDALL_A, challenger=anna)
        assert await challenges.incoming(boris) == []  # never stored
        await challenges.set_acceptance(boris, "named")
        assert await challenges.acceptance(boris) == Acceptance.NAMED
        sent = await challenges.create("Boris", KENDALL_A, challenger=anna)
        assert [c.id for c in await challenges.incoming(boris)] == [sent.challenge.id]
        await shut(service)

    run(main())


async def finished_game_against(service: GameService, named_token: str, named) -> tuple[str, str]:
    """A finished friend game: an anonymous host (A) against ``named`` (B); the host's id and
    seat secret."""
    created = await service.commands.create("standard", "friend", "A")
    assert created.invite is not None
    claimed = await service.commands.claim(created.game_id, created.invite)
    assert claimed is not None
    await service.players.link(await service.store.load(created.game_id), (1,), named)
    await service.commands.seed(created.game_id, created.token, "one")
    await service.commands.seed(created.game_id, claimed[0], "two")
    await service.commands.resign(created.game_id, created.token)
    return created.game_id, created.token


def test_an_anonymous_player_challenges_only_the_named_opponent_of_a_finished_game(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        boris, boris_secret = await service.players.take_name("Boris")
        await service.players.take_name("Vera")
        with refused("anonymous_needs_game"):
            await challenges.create("Boris", KENDALL_A)
        game_id, token = await finished_game_against(service, boris_secret, boris)
        with refused("anonymous_needs_game"):  # Vera did not play this game
            await challenges.create("Vera", KENDALL_A, from_game=game_id, seat_token=token)
        with refused("anonymous_needs_game"):  # a forged seat secret
            await challenges.create("Boris", KENDALL_A, from_game=game_id, seat_token="x" * 32)
        with refused("rated_needs_name"):
            rated = ChallengeTerms.checked("kendall", "untimed", "random", True)
            await challenges.create("Boris", rated, from_game=game_id, seat_token=token)
        await challenges.set_acceptance(boris, "named")
        with refused("refuses_anonymous"):
            await challenges.create("Boris", KENDALL_A, from_game=game_id, seat_token=token)
        await challenges.set_acceptance(boris, "everyone")
        sent = await challenges.create("Boris", KENDALL_A, from_game=game_id, seat_token=token)
        assert sent.challenge.challenger is None and sent.challenge.from_game == game_id
        with refused("already_challenged"):
            await challenges.create("Boris", KENDALL_A, from_game=game_id, seat_token=token)
        accepted = await challenges.accept(sent.challenge.id, boris)
        with refused("not_yours"):
            await challenges.take_seat(sent.challenge.id)
        new_game, seat_token = await challenges.take_seat(sent.challenge.id, secret=sent.secret)
        assert new_game == accepted.game_id and seat_token is not None
        live = await service.store.load(new_game)
        assert live.seats_of(seat_token) == (0,) and live.seats_of(accepted.token) == (1,)
        await shut(service)

    run(main())


def test_what_cannot_be_challenged_and_terms_that_are_refused(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        await service.players.computer_player("master")
        with refused("unknown_player"):
            await challenges.create("Nobody", KENDALL_A, challenger=anna)
        with refused("not_challengeable"):
            await challenges.create("anna", KENDALL_A, challenger=anna)
        with refused("not_challengeable"):
            await challenges.create("master", KENDALL_A, challenger=anna)
        with refused("unknown_variant"):
            ChallengeTerms.checked("chess")
        with refused("bad_time_control"):
            ChallengeTerms.checked("standard", "move:soon")
        with refused("bad_colour"):
            ChallengeTerms.checked("standard", "untimed", "white")
        with refused("bad_request"):
            ChallengeTerms.checked("standard", "untimed", "A", "yes")
        with refused("unknown_challenge"):
            await challenges.accept("nope", anna)
        assert ChallengeTerms.checked("Kendall", "untimed").variant == "kendall"
        await shut(service)

    run(main())


def test_of_an_accept_and_a_decline_racing_exactly_one_counts(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        for _ in range(3):
            sent = await challenges.create("Boris", KENDALL_A, challenger=anna)
            answers = await asyncio.gather(
                challenges.accept(sent.challenge.id, boris),
                challenges.decline(sent.challenge.id, boris),
                challenges.accept(sent.challenge.id, boris),
                return_exceptions=True,
            )
            done = [a for a in answers if not isinstance(a, BaseException)]
            assert len(done) == 1, answers
            assert all(
                isinstance(a, GameError) and a.code == "challenge_closed"
                for a in answers
                if a not in done
            )
            final = await challenges.get(sent.challenge.id)
            games = [g for g in await service.players.games_of(boris) if g.result is None]
            if final.status == ChallengeStatus.ACCEPTED:
                assert final.game_id is not None and final.game_id in {g.id for g in games}
            else:
                assert final.status == ChallengeStatus.DECLINED and final.game_id is None
        await shut(service)

    run(main())


def test_deleting_a_name_deletes_its_challenges(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        anna, _ = await service.players.take_name("Anna")
        boris, _ = await service.players.take_name("Boris")
        sent = await challenges.create("Boris", KENDALL_A, challenger=anna)
        await service.players.delete(anna)
        assert await challenges.incoming(boris) == []
        with refused("unknown_challenge"):
            await challenges.get(sent.challenge.id)
        await shut(service)

    run(main())


def test_challenging_and_withdrawing_is_counted_and_notified_once_an_hour(tmp_path: Path) -> None:
    """The spam an attacker tried: challenge and withdraw the same player thirty times.  Only
    three challenges an hour reach them (withdrawn ones count), and their devices are told of
    the first only, until the notification interval has passed."""

    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "c.sqlite3", clock)
        challenges = service.challenges
        events: list[ChallengeEvent] = []

        async def listen(event: ChallengeEvent) -> None:
            events.append(event)

        challenges.on_event(listen)
        anna, _ = await service.players.take_name("Anna")
        await service.players.take_name("Boris")
        made = 0
        for _ in range(30):
            try:
                sent = await challenges.create("Boris", KENDALL_A, challenger=anna)
            except GameError as err:
                assert err.code == "challenged_recently" and err.status == 429
                continue
            made += 1
            await challenges.cancel(sent.challenge.id, player=anna)
        assert made == 3
        await challenges.settle()
        received = [e for e in events if e.kind == ChallengeEventKind.RECEIVED]
        assert [e.notify for e in received] == [True, False, False]
        await clock.advance(3_600_001)  # an hour on: one more, notified again
        await challenges.create("Boris", KENDALL_A, challenger=anna)
        await challenges.settle()
        received = [e for e in events if e.kind == ChallengeEventKind.RECEIVED]
        assert [e.notify for e in received] == [True, False, False, True]
        await shut(service)

    run(main())


def test_a_player_receives_at_most_ten_open_challenges(tmp_path: Path) -> None:
    """Fifteen names challenge one player: ten challenges wait, the others are refused with
    why; once the player declines one, another may challenge."""

    async def main() -> None:
        service = await service_on(tmp_path / "c.sqlite3", ManualClock())
        challenges = service.challenges
        target, _ = await service.players.take_name("Target")
        senders = [(await service.players.take_name(f"Sender{i:02}"))[0] for i in range(15)]
        codes = []
        for sender in senders:
            try:
                await challenges.create("Target", KENDALL_A, challenger=sender)
                codes.append("ok")
            except GameError as err:
                codes.append(err.code)
        assert codes == ["ok"] * 10 + ["challenged_enough"] * 5
        first = (await challenges.incoming(target))[0]
        await challenges.decline(first.id, target)
        await challenges.create("Target", KENDALL_A, challenger=senders[10])
        assert len(await challenges.incoming(target)) == 10
        await shut(service)

    run(main())
