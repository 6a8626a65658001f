"""Regenerate the README screenshots under docs/screenshots/ with a real server and Chromium:

.venv/bin/python -m tests.web.docs_screenshots
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from .conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, SiteServer
from .helpers import best_move

OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    server = SiteServer(Path(tempfile.mkdtemp()) / "senet.sqlite3")
    server.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(
                viewport={"width": 1280, "height": 860}, base_url=server.url
            )
            page = context.new_page()
            page.goto("/")
            page.screenshot(path=str(OUT / "home.png"))
            page.goto("/variants/kendall")
            page.screenshot(path=str(OUT / "variant-page.png"))
            page.goto("/variants/bell?lang=ru")
            page.screenshot(path=str(OUT / "variant-page-ru.png"))
            page.goto("/?lang=en")
            page.select_option("#variant", "adelaida")
            page.check("input[name=mode][value=friend]")
            page.check("input[name=colour][value=A]")
            page.click("form.start-form button[type=submit]")
            page.wait_for_selector("#game[data-ply]")
            guest = browser.new_context(
                viewport={"width": 390, "height": 844},
                base_url=server.url,
                is_mobile=True,
                has_touch=True,
                device_scale_factor=2,
            ).new_page()
            guest.goto(page.input_value("#invite-url"))
            guest.wait_for_selector("#game[data-ply]")
            for p in (page, guest):  # both pages give their seeds, then the first throw comes
                p.wait_for_function(
                    "() => document.getElementById('game').dataset.phase === 'playing'"
                )
            for _ in range(60):
                for p in (page, guest):
                    moves = p.eval_on_selector_all(
                        "#moves button[data-move]", "bs => bs.map(b => b.dataset.move)"
                    )
                    if moves:
                        before = p.get_attribute("#game", "data-ply")
                        p.click(f'#moves button[data-move="{best_move(moves)}"]')
                        p.wait_for_function(
                            f"() => document.getElementById('game').dataset.ply !== '{before}'"
                        )
                if page.eval_on_selector_all("#moves button[data-move]", "bs => bs.length") > 1:
                    break
            time.sleep(0.8)
            movable = page.query_selector("#board .piece.movable")
            if movable:
                movable.click()
            page.screenshot(path=str(OUT / "game.png"))
            guest.wait_for_timeout(600)
            guest.screenshot(path=str(OUT / "game-phone.png"))  # one view: all a move needs
            dark = browser.new_context(
                viewport={"width": 1280, "height": 860}, base_url=server.url, color_scheme="dark"
            ).new_page()
            dark.context.add_cookies(page.context.cookies())  # the host's seat
            dark.goto(page.url)  # the same game in dark mode
            dark.wait_for_selector("#game[data-ply]")
            dark.wait_for_timeout(600)
            dark.screenshot(path=str(OUT / "game-dark.png"))
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
