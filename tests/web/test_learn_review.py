"""The review of a finished game shows each mistake on the board (the better move in green,
the move played in red) and opens its position on the analysis board."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote_plus

import httpx
import pytest

from senet.engine import Position, parse_move

from .helpers import review_page
from .test_trust import play_to_the_end


@pytest.mark.slow  # a whole game over HTTP, then the master's review of every decision
def test_each_mistake_on_the_board_with_the_better_move(site) -> None:
    game_id = play_to_the_end(site.url, "standard")
    page = review_page(site.url, game_id).text
    figures = re.findall(
        r'<figure class="diagram review-board (\w+)" data-ply="(\d+)" data-position="([^"]+)"\s+'
        r'data-played="([^"]+)" data-best="([^"]+)">(.*?)</figure>',
        page,
        re.S,
    )
    rows = re.findall(r'<tr class="(blunder|mistake)">', page)
    assert [f[0] for f in figures] == rows and rows  # inaccuracies stay in the table only
    for _verdict, _ply, fen, played, best, body in figures:
        position = Position.from_fen(html.unescape(fen))
        legal = position.legal_moves()
        assert parse_move(best) in legal and parse_move(played) in legal and best != played
        if parse_move(best).is_step:
            assert f'class="diag-move" data-move="{parse_move(best).text()}"' in body
        if parse_move(played).is_step:
            assert f'class="diag-illegal" data-attempt="{parse_move(played).text()}"' in body
        link = re.search(r'class="analyse-from-here" href="/analysis\?position=([^"]+)"', body)
        assert link and unquote_plus(html.unescape(link.group(1))) == position.fen()
    # the link opens that position on the analysis board
    first = html.unescape(figures[0][2])
    opened = httpx.get(f"{site.url}/analysis", params={"position": first}).text
    assert f'data-position="{html.escape(first)}"' in opened
