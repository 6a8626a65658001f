"""Web Push in the service layer, on real SQLite storage and a real HTTP push service (the
test's own, on a loopback port): the server's VAPID key pair made once and shared, a named
player's device subscribed, a notice encrypted for it (decrypted here by the RFC 8291 steps)
and signed (the JWT checked against the server's public key), sent once per key over two
services, in the device's language; a 404 or 410 forgets the subscription; signing out or
deleting the name forgets it too; refused subscriptions change nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import select

from senet.engine import parse_move
from senet.service.challenges import ChallengeTerms
from senet.service.errors import GameError
from senet.service.games.clocks import DAY, ManualClock, requested_time_control
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.messages import ActionKind
from senet.service.push import Notice, NoticeKind, PushConfig, service_allowed, turn_to_announce
from senet.service.push.storage import notices as push_notices
from senet.service.server import GameService
from senet.web.routes.push import notice_text
from senet_testkit.loops import run
from senet_testkit.push_receiver import Delivery, Device, PushReceiver, verify_vapid
from senet_testkit.servers import postgres_server

from .test_games_service import shut
from .test_turn_based import decision_due


async def service_on(
    db: Path | str, receiver: PushReceiver, clock: ManualClock | None = None
) -> GameService:
    """A service on the SQLite file ``db``, or on the database URL ``db``."""
    storage = Storage(db if isinstance(db, str) else f"sqlite+aiosqlite:///{db}")
    await storage.init()
    service = GameService(
        storage,
        MemoryBroadcast(),
        computer_delay=0.0,
        forced_pass_delay=0.0,
        clock=clock,
        push=PushConfig(services=(receiver.origin,), contact="mailto:ops@senet.example"),
    )
    service.push.compose = notice_text
    await service.start()
    return service


async def named(service: GameService, name: str, device: Device, lang: str = "en") -> str:
    """A new player ``name`` whose device turned notifications on; the player's id."""
    player, secret = await service.players.take_name(name)
    sub = device.subscription()
    await service.push.subscribe(
        player, secret, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], lang
    )
    return player.id


def opened(receiver: PushReceiver, device: Device, server_key: str) -> dict[str, object]:
    """The next request of the push service: for ``device``, signed by the server, and its
    payload decrypted."""
    return read(receiver, receiver.next(), device, server_key)


def read(receiver: PushReceiver, got: Delivery, device: Device, key: str) -> dict[str, object]:
    """A request of the push service checked: for ``device``, encrypted, signed by the server
    (``key``); its payload decrypted."""
    assert receiver.origin + got.path == device.endpoint
    assert got.headers["content-encoding"] == "aes128gcm"
    assert int(got.headers["ttl"]) > 0
    verify_vapid(got.headers["authorization"], receiver.origin, key)
    payload: dict[str, object] = json.loads(device.decrypt(got.body))
    return payload


def test_a_notice_reaches_the_device_encrypted_signed_and_once(tmp_path: Path) -> None:
    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            phone, laptop = receiver.device("anna-phone"), receiver.device("anna-laptop")
            anna = await named(service, "Anna", phone)
            player = await service.players.by_name("Anna")
            assert player is not None
            laptop_secret = await service.players.new_session(player)
            sub = laptop.subscription()
            await service.push.subscribe(
                player, laptop_secret, sub["endpoint"], **sub["keys"], lang="ru"
            )
            notice = Notice(NoticeKind.TURN, "/g/abc123", "kendall", "Boris")
            assert await service.push.notify(anna, notice, "turn:abc123:7") == 2
            payloads = {}
            for _ in range(2):
                got = receiver.next()
                device = phone if got.path.endswith("anna-phone") else laptop
                payloads[device.endpoint] = read(receiver, got, device, service.push.public_key)
            assert payloads[phone.endpoint] == {
                "title": "Senet",
                "body": "Your move in Kendall-style Senet against Boris",
                "url": "/g/abc123",
                "tag": "senet-/g/abc123",
                "lang": "en",
            }
            assert payloads[laptop.endpoint]["body"] == (
                "Ваш ход в игре «Сенет в духе Кендалла» против Boris"
            )
            assert payloads[laptop.endpoint]["title"] == "Сенет"
            # the same notice again: not sent (its key is spent)
            assert await service.push.notify(anna, notice, "turn:abc123:7") == 0
            assert receiver.count == 2
            await shut(service)

    run(main())


def test_two_services_sending_one_notice_send_it_once_and_share_one_key(tmp_path: Path) -> None:
    async def main() -> None:
        with PushReceiver() as receiver:
            db = tmp_path / "db.sqlite3"
            first = await service_on(db, receiver)
            second = await service_on(db, receiver)
            assert first.push.public_key == second.push.public_key
            phone = receiver.device("boris")
            boris = await named(first, "Boris", phone)
            notice = Notice(NoticeKind.CHALLENGE, "/", "standard", "Anna")
            sent = await asyncio.gather(
                *(s.push.notify(boris, notice, "challenge:c1") for s in (first, second) * 3)
            )
            assert sorted(sent) == [0, 0, 0, 0, 0, 1]
            payload = opened(receiver, phone, second.push.public_key)
            assert payload["body"] == "Anna challenges you to Senet (standard)"
            assert payload["url"] == "/"
            assert receiver.count == 1
            key = first.push.public_key
            await shut(first)
            await shut(second)
            again = await service_on(db, receiver)  # a restart keeps the key pair
            assert again.push.public_key == key
            await shut(again)

    run(main())


def test_a_challenge_received_is_notified_once_and_nothing_else_is(tmp_path: Path) -> None:
    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            phone = receiver.device("boris-challenged")
            await named(service, "Boris", phone, lang="ru")
            anna, _ = await service.players.take_name("Anna")
            terms = ChallengeTerms.checked("kendall", "untimed", "A", False)
            sent = await service.challenges.create("Boris", terms, challenger=anna)
            await service.challenges.settle()
            payload = opened(receiver, phone, service.push.public_key)
            assert payload["body"] == "Anna вызывает вас на игру «Сенет в духе Кендалла»"
            assert payload["url"] == f"/challenges/{sent.challenge.id}"
            # declining it tells the challenger's page, not the challenged player's devices
            boris = await service.players.by_name("Boris")
            assert boris is not None
            await service.challenges.decline(sent.challenge.id, boris)
            await service.challenges.settle()
            assert receiver.count == 1
            await shut(service)

    run(main())


@pytest.mark.slow
def test_on_postgresql_two_processes_share_the_key_send_once_and_cascade() -> None:
    """The same on PostgreSQL, as several server processes use it: one key pair whichever
    starts first, a notice raced by both sent once, a signed-out device's subscription gone
    with its session (the foreign key's cascade)."""

    async def main(url: str) -> None:
        with PushReceiver() as receiver:
            first, second = await asyncio.gather(
                service_on(url, receiver), service_on(url, receiver)
            )
            assert first.push.public_key == second.push.public_key
            phone = receiver.device("pg-phone")
            player, secret = await first.players.take_name("Pavel")
            sub = phone.subscription()
            await first.push.subscribe(player, secret, sub["endpoint"], **sub["keys"], lang="en")
            notice = Notice(NoticeKind.TURN, "/g/pg", "kendall", "Anna")
            sent = await asyncio.gather(
                *(s.push.notify(player.id, notice, "turn:pg:9") for s in (first, second) * 4)
            )
            assert sorted(sent) == [0] * 7 + [1]
            assert opened(receiver, phone, first.push.public_key)["url"] == "/g/pg"
            assert receiver.count == 1
            await second.players.sign_out(secret)
            assert await first.push.db.count() == 0
            await shut(first)
            await shut(second)

    with postgres_server() as url:
        run(main(url))


async def notice_keys(service: GameService) -> set[str]:
    """The keys of the notices claimed and kept in the service's database."""
    async with service.push.db.engine.connect() as conn:
        return {r.key for r in await conn.execute(select(push_notices.c.key))}


def test_claims_older_than_the_longest_deadline_are_deleted_and_newer_still_count_once(
    tmp_path: Path,
) -> None:
    """Two services on one database and one server clock moved by the test: a claim is kept
    for the longest deadline of a move (28 days: no process asks for its key later) and then
    deleted at the next claim, while every newer key is still sent once whoever asks."""

    async def main() -> None:
        clock = ManualClock()
        with PushReceiver() as receiver:
            db = tmp_path / "db.sqlite3"
            first = await service_on(db, receiver, clock)
            second = await service_on(db, receiver, clock)
            anna = await named(first, "Anna", receiver.device("anna-prune"))
            notice = Notice(NoticeKind.TURN, "/g/old", "kendall", "Boris")
            assert await first.push.notify(anna, notice, "turn:old:3") == 1
            await clock.advance(27 * DAY * 1000)
            assert await second.push.notify(anna, notice, "turn:old:4") == 1
            assert await notice_keys(first) == {"turn:old:3", "turn:old:4"}  # none old enough
            sent = await asyncio.gather(
                *(s.push.notify(anna, notice, "turn:old:4") for s in (first, second) * 2)
            )
            assert sent == [0, 0, 0, 0]  # claimed: kept, so sent once
            await clock.advance(DAY * 1000 + 1)  # turn:old:3 is now 28 days and 1 ms old
            challenge = Notice(NoticeKind.CHALLENGE, "/challenges/c9", "standard", "Boris")
            assert await first.push.notify(anna, challenge, "challenge:c9") == 1
            assert await notice_keys(first) == {"turn:old:4", "challenge:c9"}
            assert await second.push.notify(anna, notice, "turn:old:4") == 0
            # 28 days and 1 ms after its claim turn:old:4 goes too, at the next claim (the
            # challenge's claim, a day younger, stays)
            await clock.advance(27 * DAY * 1000)
            assert await second.push.notify(anna, notice, "turn:old:5") == 1
            assert await notice_keys(first) == {"challenge:c9", "turn:old:5"}
            assert receiver.count == 4
            await shut(first)
            await shut(second)

    run(main())


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_forgotten(
    tmp_path: Path, status: int
) -> None:
    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            gone, kept = receiver.device("old-phone"), receiver.device("new-phone")
            carol = await named(service, "Carol", gone)
            player = await service.players.by_name("Carol")
            assert player is not None
            sub = kept.subscription()
            secret = await service.players.new_session(player)
            await service.push.subscribe(player, secret, sub["endpoint"], **sub["keys"], lang="en")
            receiver.answer(gone, status)
            notice = Notice(NoticeKind.TURN, "/g/x", "bell", None)
            assert await service.push.notify(carol, notice, "turn:x:3") == 1
            left = await service.push.db.subscriptions_of(carol)
            assert [s.endpoint for s in left] == [kept.endpoint]
            # the push service did get the request for the gone one: it answered status
            assert receiver.count == 2
            # a 500 is a failure of the moment: the subscription stays
            receiver.answer(kept, 500)
            assert await service.push.notify(carol, notice, "turn:x:5") == 0
            assert [s.endpoint for s in await service.push.db.subscriptions_of(carol)] == [
                kept.endpoint
            ]
            await shut(service)

    run(main())


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_push_service_that_redirects_is_not_followed_to_another_address(
    tmp_path: Path, status: int
) -> None:
    """The server sends to the allowed push services and to no other address: an allowed
    service answering a redirect to another one (here a second receiver on 127.0.0.1, not
    allowed) is taken as a refusal; the other address gets nothing."""

    async def main() -> None:
        with PushReceiver() as receiver, PushReceiver() as elsewhere:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            phone = receiver.device("frank-phone")
            frank = await named(service, "Frank", phone)
            target = elsewhere.device("stolen")
            receiver.redirect(phone, target.endpoint, status)
            notice = Notice(NoticeKind.TURN, "/g/y", "bell", None)
            assert await service.push.notify(frank, notice, "turn:y:3") == 0
            assert receiver.count == 1  # the allowed service was asked, once
            assert elsewhere.count == 0 and elsewhere.pending() == 0
            # a redirect is no "gone": the subscription stays
            assert [s.endpoint for s in await service.push.db.subscriptions_of(frank)] == [
                phone.endpoint
            ]
            await shut(service)

    run(main())


def test_signing_out_or_deleting_the_name_forgets_the_devices_subscriptions(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            players, push = service.players, service.push
            dora, secret = await players.take_name("Dora")
            other = await players.new_session(dora)
            phone, laptop = receiver.device("dora-phone"), receiver.device("dora-laptop")
            for device, session in ((phone, secret), (laptop, other)):
                sub = device.subscription()
                await push.subscribe(dora, session, sub["endpoint"], **sub["keys"], lang="en")
            assert len(await push.db.subscriptions_of(dora.id)) == 2
            await players.sign_out(other)  # the laptop signs out: its subscription goes
            assert [s.endpoint for s in await push.db.subscriptions_of(dora.id)] == [phone.endpoint]
            assert await push.unsubscribe(dora, phone.endpoint)  # the phone turns them off
            assert not await push.unsubscribe(dora, phone.endpoint)
            assert await push.db.count() == 0
            sub = phone.subscription()
            await push.subscribe(dora, secret, sub["endpoint"], **sub["keys"], lang="en")
            await players.delete(dora)
            assert await push.db.count() == 0
            await shut(service)

    run(main())


def test_a_subscription_is_forgotten_only_by_its_player_and_moves_only_with_its_keys(
    tmp_path: Path,
) -> None:
    """An endpoint is one browser's: another player cannot forget it, nor take it with keys
    of their own (the notices would stop reaching its owner and reach them instead); the same
    browser, signed in with another name, gives the same keys and moves it."""

    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            push = service.push
            gina = await named(service, "Gina", phone := receiver.device("gina-phone"))
            mallory, secret = await service.players.take_name("Mallory")
            assert not await push.unsubscribe(mallory, phone.endpoint)
            assert not await push.unsubscribe(None, phone.endpoint)
            other = receiver.device("mallory-keys").subscription()["keys"]
            with pytest.raises(GameError) as err:
                await push.subscribe(mallory, secret, phone.endpoint, **other, lang="en")
            assert (err.value.code, err.value.status) == ("push_endpoint_taken", 409)
            held = await push.db.subscription(phone.endpoint)
            assert held is not None and held.player_id == gina
            assert held.p256dh == phone.subscription()["keys"]["p256dh"]
            assert await push.db.subscriptions_of(mallory.id) == []
            # Gina's own devices may replace it (new keys after the browser re-subscribed)
            gina_row = await service.players.by_name("Gina")
            assert gina_row is not None
            laptop_session = await service.players.new_session(gina_row)
            renewed = receiver.device("renewed").subscription()["keys"]
            await push.subscribe(gina_row, laptop_session, phone.endpoint, **renewed, lang="ru")
            held = await push.db.subscription(phone.endpoint)
            assert held is not None and (held.player_id, held.lang) == (gina, "ru")
            # the same browser's keys: it moves to the name signed in there now
            await push.subscribe(mallory, secret, phone.endpoint, **renewed, lang="en")
            held = await push.db.subscription(phone.endpoint)
            assert held is not None and held.player_id == mallory.id
            assert not await push.unsubscribe(gina_row, phone.endpoint)
            assert await push.unsubscribe(mallory, phone.endpoint)
            await shut(service)

    run(main())


def test_refused_subscriptions_store_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            push = service.push
            eve, secret = await service.players.take_name("Eve")
            good = receiver.device("eve").subscription()
            keys = good["keys"]
            elsewhere = Device("https://attacker.example/push/1").subscription()
            cases = [
                (None, secret, good["endpoint"], keys["p256dh"], keys["auth"], "no_name"),
                (eve, None, good["endpoint"], keys["p256dh"], keys["auth"], "no_name"),
                (eve, secret, elsewhere["endpoint"], keys["p256dh"], keys["auth"], "push_service"),
                (eve, secret, "http://127.0.0.1:1/x", keys["p256dh"], keys["auth"], "push_service"),
                (eve, secret, good["endpoint"], "AAAA", keys["auth"], "bad_subscription"),
                (eve, secret, good["endpoint"], "B" * 87, keys["auth"], "bad_subscription"),
                (eve, secret, good["endpoint"], keys["p256dh"], "c2hvcnQ", "bad_subscription"),
                (eve, secret, good["endpoint"], keys["p256dh"], 16, "bad_subscription"),
                (eve, secret, 42, keys["p256dh"], keys["auth"], "bad_subscription"),
                (eve, secret, "x" * 1001, keys["p256dh"], keys["auth"], "bad_subscription"),
                (
                    eve,
                    secret,
                    good["endpoint"] + "\x00",
                    keys["p256dh"],
                    keys["auth"],
                    "bad_subscription",
                ),
                (
                    eve,
                    secret,
                    good["endpoint"] + " x",
                    keys["p256dh"],
                    keys["auth"],
                    "bad_subscription",
                ),
            ]
            for player, session, endpoint, p256dh, auth, code in cases:
                with pytest.raises(GameError) as err:
                    await push.subscribe(player, session, endpoint, p256dh, auth, "en")
                assert err.value.code == code, (endpoint, p256dh, auth)
            assert await push.db.count() == 0
            await shut(service)

    run(main())


@pytest.mark.parametrize(
    ("endpoint", "allowed"),
    [
        ("https://fcm.googleapis.com/fcm/send/abc", True),
        ("https://updates.push.services.mozilla.com/wpush/v2/x", True),
        ("https://web.push.apple.com/QGx", True),
        ("https://db5p.notify.windows.com/w/?token=1", True),
        ("https://notify.windows.com/w", False),  # *. needs a subdomain
        ("http://fcm.googleapis.com/fcm/send/abc", False),
        ("https://fcm.googleapis.com:8443/fcm/send/abc", False),
        ("https://fcm.googleapis.com.evil.example/x", False),
        ("https://user@fcm.googleapis.com/x", False),
        ("https://evilnotify.windows.com/x", False),
        ("ftp://fcm.googleapis.com/x", False),
        ("https://fcm.googleapis.com:99999/x", False),
    ],
)
def test_only_the_push_services_allowed_may_be_an_endpoint(endpoint: str, allowed: bool) -> None:
    assert service_allowed(endpoint, PushConfig().services) is allowed


def test_the_turn_is_announced_when_it_passes_to_a_person(tmp_path: Path) -> None:
    """A game played out move by move: the seat to tell is the decider whenever the last move
    was the other seat's, never during the seeds, at a forced pass or after the end."""

    async def main() -> None:
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver)
            created = await service.commands.create("kendall", "friend", "A")
            claimed = await service.commands.claim(created.game_id, created.invite or "")
            assert claimed is not None
            tokens = {0: created.token, 1: claimed[0]}
            live = await service.store.load(created.game_id)
            assert turn_to_announce(live) is None  # seeding
            await service.commands.seed(created.game_id, tokens[0], "a")
            await service.commands.seed(created.game_id, tokens[1], "b")
            announced = passed = 0
            last_mover = None
            for _ in range(400):
                live = await service.store.load(created.game_id)
                if live.over:
                    break
                seat = turn_to_announce(live)
                decider = live.decider
                assert decider is not None
                if live.forced_pass:
                    assert seat is None
                elif last_mover is None or last_mover != decider:
                    assert seat == decider
                    announced += 1
                else:
                    assert seat is None  # the same player goes on (an extra throw)
                    passed += 1
                move = live.position.legal_moves()[0].text()
                await service.commands.act(live.id, tokens[decider], live.ply, parse_move(move))
                last_mover = decider
            assert announced > 10 and passed > 0
            await shut(service)

    run(main())


async def game_of(
    service: GameService, a: str, b: str, time_control: str
) -> tuple[str, dict[int, str]]:
    """A friend game of the named players ``a`` (seat A) and ``b`` (seat B), seeded."""
    players = service.players
    created = await service.commands.create(
        "standard", "friend", "A", time_control=requested_time_control(time_control)
    )
    claimed = await service.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    live = await service.store.load(created.game_id)
    for seat, name in ((0, a), (1, b)):
        player = await players.by_name(name)
        assert player is not None
        await players.link(live, (seat,), player)
    tokens = {0: created.token, 1: claimed[0]}
    await service.commands.seed(created.game_id, tokens[0], "a")
    await service.commands.seed(created.game_id, tokens[1], "b")
    return created.game_id, tokens


def test_each_turn_of_a_turn_based_game_is_notified_once_to_the_player_whose_move_it_is(
    tmp_path: Path,
) -> None:
    """Anna and Boris play days:1 on the server's clock moved by the test: whenever the turn
    passes to one of them (the last move was the other's, a forced pass of the server's
    included), their device gets exactly one "your move", in their language, the day's
    deadline as its lifetime; while a player goes on (an extra throw) nothing is sent.  A
    live game between the same players sends nothing."""

    async def main() -> None:
        clock = ManualClock()
        with PushReceiver() as receiver:
            service = await service_on(tmp_path / "db.sqlite3", receiver, clock)
            devices = {0: receiver.device("anna-turns"), 1: receiver.device("boris-turns")}
            await named(service, "Anna", devices[0], "en")
            await named(service, "Boris", devices[1], "ru")
            words = {
                0: "Your move in Senet (standard) against Boris",
                1: "Ваш ход в игре «Сенет (стандарт)» против Anna",
            }
            game_id, tokens = await game_of(service, "Anna", "Boris", "days:1")
            told = quiet = 0
            for _ in range(40):
                live = await decision_due(service, game_id)
                if live.over:
                    break
                await service.push.settle()
                decider = live.position.decider
                assert decider is not None
                last = next((a for a in reversed(live.history) if a.kind == ActionKind.MOVE), None)
                if last is None or last.seat != decider:
                    delivery = receiver.next()
                    got = read(receiver, delivery, devices[decider], service.push.public_key)
                    assert got["body"] == words[decider] and got["url"] == f"/g/{game_id}"
                    assert 0 < int(delivery.headers["ttl"]) <= DAY
                    told += 1
                else:
                    quiet += 1
                assert receiver.pending() == 0  # nothing else was sent
                await clock.advance(3_600_000)  # an hour to think
                first = sorted(m.text() for m in live.position.legal_moves())[0]
                await service.commands.act(game_id, tokens[decider], live.ply, parse_move(first))
            assert told >= 10 and quiet >= 1, (told, quiet)
            await decision_due(service, game_id)
            await service.push.settle()
            before = receiver.count  # (the last move's notice too, unread)
            assert before - told in (0, 1)

            live_game, live_tokens = await game_of(service, "Anna", "Boris", "move:60")
            for _ in range(10):
                live = await decision_due(service, live_game)
                decider = live.position.decider
                assert decider is not None
                first = sorted(m.text() for m in live.position.legal_moves())[0]
                await service.commands.act(
                    live_game, live_tokens[decider], live.ply, parse_move(first)
                )
            await service.push.settle()
            assert receiver.count == before
            await shut(service)

    run(main())
