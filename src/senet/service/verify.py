"""Checking a finished game's throws against its revealed seed.

A record of a game played on the site carries the tags ``GameId``, ``Commitment`` (published
when the game started), ``Seed`` (the secret, revealed when it ended) and ``PlayerSeeds``.
Throw number ``n`` counts every throw of the game from 0, regular or of fate, in record order;
:mod:`senet.service.fairness` derives it.  Verification needs nothing but the record: it is
what ``senet verify FILE`` runs, and what the site's verify view does again in the browser.
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.engine import Throw
from senet.engine.record import GameRecord, turn_lines

from .fairness import FairDice, commitment_of

__all__ = ["Verification", "ThrowMismatch", "verify_record", "FAIR_TAGS"]

FAIR_TAGS = ("GameId", "Commitment", "Seed", "PlayerSeeds")


@dataclass(frozen=True)
class ThrowMismatch:
    number: int  # 0-based throw number, as the HMAC counts it
    turn: int  # 1-based turn of the record
    recorded: int
    derived: int

    def __str__(self) -> str:
        return (
            f"throw {self.number + 1} (turn {self.turn}) is recorded as {self.recorded} "
            f"but the seed gives {self.derived}"
        )


@dataclass(frozen=True)
class Verification:
    """The verdict: ``ok`` only if the seed matches the commitment and every throw matches."""

    commitment_ok: bool
    throws_checked: int
    mismatches: tuple[ThrowMismatch, ...]
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.mismatches and not self.problem


def verify_record(record: GameRecord) -> Verification:
    tags = record.tags
    missing = [tag for tag in FAIR_TAGS if tag not in tags]
    if missing:
        return Verification(False, 0, (), f"the record has no {', '.join(missing)} tag: it cannot be verified")
    try:
        secret = bytes.fromhex(tags["Seed"])
    except ValueError:
        return Verification(False, 0, (), "the Seed tag is not hexadecimal")
    commitment_ok = commitment_of(secret) == tags["Commitment"].lower()
    dice = FairDice(tags["GameId"], secret, tags["PlayerSeeds"], record.start.variant.instrument)
    turns = [number for number, _seat, tokens in turn_lines(record.start, record.actions)
             for token in tokens if token.startswith("(")]  # fmt: skip
    throws = [action.value for action in record.actions if isinstance(action, Throw)]
    mismatches = []
    for number, recorded in enumerate(throws):
        _, derived = dice.throw(number)
        if derived != recorded:
            mismatches.append(ThrowMismatch(number, turns[number], recorded, derived))
    problem = "" if commitment_ok else "the revealed Seed does not match the Commitment published at the start"
    return Verification(commitment_ok, len(throws), tuple(mismatches), problem)
