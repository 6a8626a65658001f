"""Variant options are enums checked when a variant is built: a misspelt option is an error,
never a silent fallback to another rule."""

from __future__ import annotations

import dataclasses
import json

import pytest

from senet.engine import (
    VARIANTS,
    Backward,
    Capture,
    Passing,
    Protection,
    Scoring,
    find_variant,
)

OPTIONS = {
    "capture": Capture,
    "protection": Protection,
    "passing": Passing,
    "backward": Backward,
    "scoring": Scoring,
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_option_of_every_variant_is_an_enum_member(name: str) -> None:
    variant = find_variant(name)
    for option, kind in OPTIONS.items():
        assert type(getattr(variant, option)) is kind, option


@pytest.mark.parametrize(
    "option,typo",
    [
        ("passing", "single"),  # "singles" misspelt must not mean "free"
        ("capture", "capture"),
        ("protection", "neighbor"),
        ("backward", "pieces"),
        ("scoring", "point"),
        ("scoring", None),
    ],
)
def test_a_misspelt_option_is_refused_naming_the_field_and_the_choices(
    option: str, typo: object
) -> None:
    with pytest.raises(ValueError) as err:
        dataclasses.replace(find_variant("standard"), **{option: typo})
    message = str(err.value)
    assert f"{option}={typo!r}" in message and "standard" in message
    assert all(repr(member.value) in message for member in OPTIONS[option])


def test_a_valid_option_given_as_text_becomes_the_enum_member() -> None:
    changed = dataclasses.replace(find_variant("standard"), passing="singles", capture="remove")
    assert changed.passing is Passing.SINGLES and changed.capture is Capture.REMOVE


def test_options_read_as_their_plain_values_in_text_and_json() -> None:
    bell = find_variant("bell")
    assert f"{bell.scoring}" == "points" and json.dumps(bell.capture) == '"remove"'
