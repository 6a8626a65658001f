"""What a visit costs in bytes: every page links its scripts and styles by versioned address
(cached for a year, so a return visit fetches none of them), pages and the API are gzipped,
and the live WebSocket is compressed (permessage-deflate) whenever the client offers it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .helpers import friend_game, play_out

STATIC = Path(__file__).resolve().parents[2] / "src" / "senet" / "web" / "static"
STATIC_LINK = re.compile(r"""(?:src|href)=["'](/static/[^"']+)["']""")


@pytest.fixture(scope="module")
def pages(site) -> list[str]:
    playing = friend_game(site.url, "kendall")
    finished = friend_game(site.url, "bell")
    play_out(site.url, finished)
    pages = ["/", "/?lang=ru", "/learn", "/learn/adelaida", "/analysis", "/compare"]
    pages += ["/games/live", "/games/mine", "/variants/standard", "/variants/adelaida?lang=ru"]
    pages += [f"/g/{playing.game_id}", f"/g/{finished.game_id}"]
    pages.append(f"/g/{finished.game_id}/verify")
    return pages


@pytest.mark.slow  # fourteen pages in two languages from a real server
def test_every_page_links_its_scripts_and_styles_by_versioned_address(site, pages) -> None:
    seen = set()
    for page in pages:
        response = httpx.get(site.url + page, headers={"Accept-Encoding": "gzip"}, timeout=60)
        assert response.status_code == 200, page
        assert response.headers.get("content-encoding") == "gzip", page
        links = STATIC_LINK.findall(response.text)
        assert links, page
        for link in links:
            assert re.match(r"/static/v/[0-9a-f]{12}/", link), f"{page}: {link}"
            seen.add(link)
    for link in seen:  # and every one of them is there, cached for a year
        response = httpx.get(site.url + link)
        assert response.status_code == 200, link
        assert "max-age=31536000" in response.headers["cache-control"], link
        assert "immutable" in response.headers["cache-control"], link
    assert any(link.endswith("/game.js") for link in seen)


def test_scripts_import_each_other_by_relative_address() -> None:
    """So a module imported by a versioned script is versioned too."""
    for path in STATIC.glob("*.js"):
        for specifier in re.findall(
            r"""^import .* from ["']([^"']+)["']""", path.read_text(), re.M
        ):
            assert specifier.startswith("./"), f"{path.name}: {specifier}"


def test_the_game_state_of_the_api_is_gzipped(site) -> None:
    game = friend_game(site.url, "standard")
    response = httpx.get(
        f"{site.url}/api/games/{game.game_id}", headers={"Accept-Encoding": "gzip"}
    )
    assert response.headers.get("content-encoding") == "gzip"
    assert int(response.headers["content-length"]) < len(response.content)


def test_the_live_socket_is_compressed_when_the_client_offers_it(site) -> None:
    game = friend_game(site.url, "standard")
    url = f"{site.ws_url}/ws/games/{game.game_id}"
    with connect(url) as ws:  # the client offers permessage-deflate, as browsers do
        assert "permessage-deflate" in ws.response.headers.get("Sec-WebSocket-Extensions", "")
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
    with connect(url, compression=None) as ws:  # a client that does not: plain frames
        assert "Sec-WebSocket-Extensions" not in ws.response.headers
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
