"""The time controls as a player reads them, in each language's own digits."""

from __future__ import annotations

import pytest

from senet.web.routes.lobby import time_control_label


@pytest.mark.parametrize(
    ("text", "en", "ru"),
    [
        ("untimed", "untimed", "без часов"),
        ("move:30", "30 s a move", "30 с на ход"),
        ("move:120", "2 min a move", "2 мин на ход"),
        ("clock:300+5", "5 min + 5 s", "5 мин + 5 с"),
        ("clock:90+2", "1.5 min + 2 s", "1,5 мин + 2 с"),
        ("clock:6000+0", "100 min + 0 s", "100 мин + 0 с"),
    ],
)
def test_time_control_labels(text: str, en: str, ru: str) -> None:
    assert time_control_label(text, "en") == en
    assert time_control_label(text, "ru") == ru


def test_an_unreadable_time_control_is_shown_as_written() -> None:
    assert time_control_label("clock:soon", "ru") == "clock:soon"
