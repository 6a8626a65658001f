"""A seat becomes a name's only while its game is not over, with several processes
(PostgreSQL and Redis): an anonymous player who wins a rated game on one process and takes a
name afterwards, opening the game on each process, makes nobody's rating move; one who takes
a name before the end makes the game rated, once.  (Its file sorts after
``test_ratings_cluster.py``, which counts every rating row of the shared database.)"""

from __future__ import annotations

import asyncpg
import httpx

from .test_cluster import _pg
from .test_ratings_cluster import _both_move, _named, _rated_game
from .test_storage_pg import run as run_in_thread


async def _rated_with_anonymous(a: httpx.AsyncClient, b: httpx.AsyncClient, urls) -> str:
    """A rated game made by ``a`` (named) on the first process, joined on the second by ``b``."""
    return await _rated_game(a, b, urls[0], urls[1])


def test_a_name_taken_after_the_end_rates_nothing_on_any_process(cluster, pg_url: str) -> None:
    urls = [p.url for p in cluster[:2]]

    async def main() -> None:
        async with (
            httpx.AsyncClient(timeout=20) as a,
            httpx.AsyncClient(timeout=20) as late,
            httpx.AsyncClient(timeout=20) as early,
        ):
            await _named(a, urls[0], "Host_rated")
            # the winner takes a name only after the end
            after = await _rated_with_anonymous(a, late, urls)
            resigned = await a.post(f"{urls[0]}/api/games/{after}/resign", json={})
            assert resigned.status_code == 200, resigned.text
            await _named(late, urls[1], "Late_winner")
            for url in urls:
                assert (await late.get(f"{url}/g/{after}")).status_code == 200
                got = (await late.get(f"{url}/api/games/{after}/ratings")).json()
                assert [(s["name"], s["change"]) for s in got["seats"]] == [("Host_rated", None)]
            # the other takes a name on the second process while the game is on: rated
            before = await _rated_with_anonymous(a, early, urls)
            await _named(early, urls[1], "Early_named")
            assert (await early.get(f"{urls[1]}/g/{before}")).status_code == 200  # links it
            # a rated game counts once both players have moved (rating farming otherwise)
            await _both_move({0: (a, urls[0]), 1: (early, urls[1])}, before)
            resigned = await a.post(f"{urls[0]}/api/games/{before}/resign", json={})
            assert resigned.status_code == 200, resigned.text
            got = (await early.get(f"{urls[1]}/api/games/{before}/ratings")).json()
            assert [(s["name"], s["change"]) for s in got["seats"]] == [
                ("Host_rated", -162),
                ("Early_named", 162),
            ]
            conn = await asyncpg.connect(_pg(pg_url))
            try:
                linked = await conn.fetch(
                    "SELECT seat, player_id IS NOT NULL AS named FROM seats"
                    " WHERE game_id = $1 ORDER BY seat",
                    after,
                )
                assert [(r["seat"], r["named"]) for r in linked] == [(0, True), (1, False)]
                for game_id, changes in ((after, 0), (before, 2)):
                    count = await conn.fetchval(
                        "SELECT count(*) FROM rating_changes WHERE game_id = $1", game_id
                    )
                    assert count == changes
                counted = await conn.fetch(
                    "SELECT p.name, r.games FROM ratings r JOIN players p ON p.id = r.player_id"
                    " WHERE p.name = ANY($1) ORDER BY p.name",
                    ["Host_rated", "Late_winner", "Early_named"],
                )
                assert [(r["name"], r["games"]) for r in counted] == [
                    ("Early_named", 1),
                    ("Host_rated", 1),
                ]
            finally:
                await conn.close()

    run_in_thread(main())
