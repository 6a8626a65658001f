"""Fair throws: committed seed, HMAC-derived patterns, uniform outcomes, verification."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from senet.engine import DIE4, STICKS, sticks_value
from senet.service.fairness.throws import (
    FairDice,
    commitment_of,
    derive_pattern,
    new_secret,
    verify_throws,
)


def test_commitment_is_the_sha256_of_a_fresh_256_bit_secret() -> None:
    a, b = new_secret(), new_secret()
    assert len(a) == 32 and a != b
    assert commitment_of(a) == hashlib.sha256(a).hexdigest()


def test_a_throw_is_the_low_bits_of_the_hmac_of_game_number_and_player_seeds() -> None:
    secret = bytes(range(32))
    digest = hmac.new(secret, b"g1:7:alice|bob", hashlib.sha256).digest()
    dice = FairDice("g1", secret, "alice|bob", STICKS)
    assert dice.throw(7) == (digest[-1] & 15, sticks_value(digest[-1] & 15))
    die = FairDice("g1", secret, "alice|bob", DIE4)
    assert die.throw(7) == (digest[-1] & 3, (digest[-1] & 3) + 1)
    # every input matters
    assert {FairDice("g2", secret, "alice|bob", STICKS).throw(n) for n in range(40)} != {
        dice.throw(n) for n in range(40)
    }
    assert [dice.throw(n) for n in range(40)] != [
        FairDice("g1", secret, "", STICKS).throw(n) for n in range(40)
    ]


def test_patterns_are_uniform() -> None:
    secret = new_secret()
    sticks = Counter(derive_pattern(secret, "g", n, "", STICKS) for n in range(16000))
    die = Counter(derive_pattern(secret, "g", n, "", DIE4) for n in range(8000))
    assert set(sticks) == set(range(16)) and all(800 < c < 1200 for c in sticks.values())
    assert set(die) == set(range(4)) and all(1700 < c < 2300 for c in die.values())


def test_verification_accepts_the_truth_and_catches_any_change() -> None:
    secret = new_secret()
    dice = FairDice("game", secret, "s", STICKS)
    patterns = [dice.throw(n)[0] for n in range(30)]
    assert verify_throws("game", secret.hex(), dice.commitment, "s", STICKS, patterns)
    changed = patterns[:]
    changed[11] ^= 1
    assert not verify_throws("game", secret.hex(), dice.commitment, "s", STICKS, changed)
    assert not verify_throws("game", new_secret().hex(), dice.commitment, "s", STICKS, patterns)
    assert not verify_throws("game", "not hex", dice.commitment, "s", STICKS, patterns)
