"""Pages a browser test leaves open are closed when it ends (conftest's autouse fixture): a page
left open keeps its scripts running in a renderer of its own for the rest of the run.  The two
tests run in this order in one worker (the file is one unit of ``--dist loadfile``)."""

from __future__ import annotations

from .conftest import SiteServer


def test_a_test_may_leave_its_pages_open(browser, site: SiteServer) -> None:
    for _ in range(3):
        page = browser.new_context().new_page()
        page.goto(f"{site.url}/")
    assert len(browser.contexts) >= 3


def test_the_next_test_starts_with_none_of_them_open(browser) -> None:
    assert browser.contexts == []
