"""Checking a finished game's throws against its revealed seed.

A record of a game played on the site carries the tags ``GameId``, ``Commitment`` (published
when the game was created, before any player seed was accepted), ``Seed`` (the secret,
revealed when it ended) and ``PlayerSeeds``: seat A's own seed, ``:``, seat B's own seed
(each 1-64 printable ASCII characters without ``:``, empty for a
computer seat, so the pair reads back one way only).  Throw number ``n`` counts every throw of
the game from 0, regular or of fate, in record order, and is derived (see
:mod:`senet.service.fairness.throws`) from::

    HMAC-SHA256(key=Seed, msg=f"{GameId}:{n}:{PlayerSeeds}")   # = "id:n:seed A:seed B"

so both players' seeds go into every throw, and a record whose ``PlayerSeeds`` was altered
fails at the first throw the changed seeds give differently.  (Records from before the
players' seeds carry one free string there; the same formula checks them.)  Verification
needs nothing but the record text: it is what ``senet verify FILE`` runs, and what the site's
verify view does again in the browser.

The throws are read from the text before the moves are replayed, so that an altered throw is
named even when the move recorded after it has become illegal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from senet.engine import NotationError, UnknownVariant, find_variant
from senet.engine.record import parse_record, read_tags

from .throws import FairDice, commitment_of, decode_player_seeds

__all__ = ["Verification", "ThrowMismatch", "verify_text", "FAIR_TAGS"]

FAIR_TAGS = ("GameId", "Commitment", "Seed", "PlayerSeeds")
_BODY_TOKEN = re.compile(r"\{[^}]*\}|\(([0-9])\)|([0-9]+)\.")


@dataclass(frozen=True)
class ThrowMismatch:
    number: int  # 0-based throw number, as the HMAC counts it
    turn: int  # turn number of the record (0 if the record has no turn markers)
    line: int
    recorded: int
    derived: int

    def __str__(self) -> str:
        return (
            f"throw {self.number + 1} (turn {self.turn}, line {self.line}) is recorded as {self.recorded} "
            f"but the seed gives {self.derived}"
        )


@dataclass(frozen=True)
class Verification:
    """The verdict: ``ok`` only if the seed matches the commitment, every throw matches and
    the moves replay."""

    commitment_ok: bool
    throws_checked: int
    mismatches: tuple[ThrowMismatch, ...]
    problem: str = ""
    replay_error: str = ""
    player_seeds: tuple[str, str] | None = (
        None  # (seat A's, seat B's) own seeds, if the record has the pair
    )

    @property
    def ok(self) -> bool:
        return (
            self.commitment_ok
            and not self.mismatches
            and not self.problem
            and not self.replay_error
        )


def verify_text(text: str) -> Verification:
    lines = text.splitlines()
    tags, body_start = read_tags(lines)
    missing = [tag for tag in ("Variant",) + FAIR_TAGS if tag not in tags]
    if missing:
        return Verification(
            False, 0, (), f"the record has no {', '.join(missing)} tag: it cannot be verified"
        )
    try:
        secret = bytes.fromhex(tags["Seed"])
        variant = find_variant(tags["Variant"])
    except (ValueError, UnknownVariant) as exc:
        return Verification(False, 0, (), f"bad tag: {exc}")
    commitment_ok = commitment_of(secret) == tags["Commitment"].lower()
    dice = FairDice(tags["GameId"], secret, tags["PlayerSeeds"], variant.instrument)
    mismatches = []
    number = 0
    turn = 0
    for line_no in range(body_start, len(lines)):
        for match in _BODY_TOKEN.finditer(lines[line_no]):
            if match.group(2):
                turn = int(match.group(2))
            elif match.group(1):
                recorded = int(match.group(1))
                derived = dice.throw(number)[1]
                if derived != recorded:
                    mismatches.append(ThrowMismatch(number, turn, line_no + 1, recorded, derived))
                number += 1
    replay_error = ""
    try:
        parse_record(text)
    except NotationError as exc:
        replay_error = f"the moves do not replay: {exc}"
    problem = (
        ""
        if commitment_ok
        else "the revealed Seed does not match the Commitment published at the start"
    )
    seeds = decode_player_seeds(tags["PlayerSeeds"])
    return Verification(commitment_ok, number, tuple(mismatches), problem, replay_error, seeds)
