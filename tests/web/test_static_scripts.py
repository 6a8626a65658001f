"""The browser scripts hold no rule knowledge: what a variant needs on the page (its
instrument, its scoring, which counters it can have) comes from the server, so no script
branches on a variant's name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from senet.engine import VARIANTS
from senet.web.routes.pages import variant_json

STATIC = Path(__file__).resolve().parents[2] / "src" / "senet" / "web" / "static"


def test_no_script_names_a_variant() -> None:
    names = {name for v in VARIANTS.values() for name in (v.name, *v.aliases)}
    quoted = re.compile(r"""["'`]([^"'`\n]*)["'`]""")
    found = [
        (path.name, literal)
        for path in sorted(STATIC.glob("*.js"))
        for literal in quoted.findall(path.read_text())
        if literal.lower() in names
    ]
    assert not found
    for path in STATIC.glob("*.js"):
        text = path.read_text()
        assert "variant.name" not in text and "tags.Variant" not in text, path.name


@pytest.mark.parametrize(
    "name,instrument,scoring,captures,drowns",
    [
        ("standard", "sticks", "race", False, False),
        ("bell", "die4", "points", True, False),
        ("kendall", "sticks", "race", False, False),
        ("adelaida", "sticks", "race", False, True),
        ("adelaida-long", "sticks", "race", False, True),
    ],
)
def test_the_page_is_told_what_the_variant_needs(
    name: str, instrument: str, scoring: str, captures: bool, drowns: bool
) -> None:
    data = json.loads(variant_json(name, "en"))
    assert (data["instrument"], data["scoring"]) == (instrument, scoring)
    assert (data["captures"], data["drowns"]) == (captures, drowns)
