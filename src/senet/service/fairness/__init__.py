"""Provably fair throws: a committed secret seed and each throw derived from it (:mod:`.throws`),
and the check of a finished game's throws against its revealed seed (:mod:`.verify`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .throws import (
    SEED_MAX_LENGTH,
    FairDice,
    check_seed,
    commitment_of,
    decode_player_seeds,
    derive_pattern,
    encode_player_seeds,
    new_secret,
    pattern_value,
    verify_throws,
)
from .verify import FAIR_TAGS, ThrowMismatch, Verification, verify_text

__all__ = [
    "FAIR_TAGS",
    "FairDice",
    "SEED_MAX_LENGTH",
    "ThrowMismatch",
    "Verification",
    "check_seed",
    "commitment_of",
    "decode_player_seeds",
    "derive_pattern",
    "encode_player_seeds",
    "new_secret",
    "pattern_value",
    "verify_text",
    "verify_throws",
]
