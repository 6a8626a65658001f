"""Provably fair throws: a committed secret seed, and each throw derived from it by HMAC.

At the start of a game the server draws a secret seed (``secrets.token_bytes(32)``) and
publishes its SHA-256 *commitment*.  Throw number ``n`` (0, 1, 2, ... counting every throw of
the game, regular or of fate) is::

    digest = HMAC-SHA256(key=secret, msg=f"{game_id}:{n}:{player_seeds}")
    player_seeds = f"{seed_a}:{seed_b}"

The order is what makes it trustworthy: the server draws the secret and publishes the
commitment when the game is created, *before* it accepts any player seed; each seat holder
then adds a seed of their own (once, before the first throw), and the first throw is made only
when every human seat has given one.  The server cannot pick a secret that suits the players'
seeds (it is committed already), and no player can steer the throws (the secret is unknown).

The encoding of the players' seeds is unambiguous: ``seed_a`` is seat A's seed and ``seed_b``
seat B's, each 1-64 printable ASCII characters (space to ``~``) *without* ``:``; a seat that
gives no seed (the computer's) contributes the empty string.  The game id (URL-safe base64)
and ``n`` (decimal) contain no ``:`` either, so the message splits back into exactly one
(game id, n, seed A, seed B).  Games recorded before the players' seeds existed carry one free
string in ``PlayerSeeds``; the formula is the same, so they verify as before.

* four sticks: the low 4 bits of the last byte are the stick pattern (bit set = marked side
  up); the throw is the instrument's value of it (none up: 5, or 6 for Jéquier's sticks);
* Bell's long die: the low 2 bits of the last byte are a uniform 0-3, the throw is that + 1
  (no modulo bias: 4 divides 256).

Nobody (the players, the computer opponent, a spectator) can learn a future throw without the
secret; when the game ends the secret is revealed and anyone can check every throw with
:func:`verify_throws` and that ``sha256(secret) == commitment``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from senet.engine import Instrument

__all__ = [
    "FairDice",
    "commitment_of",
    "derive_pattern",
    "pattern_value",
    "verify_throws",
    "new_secret",
    "SEED_MAX_LENGTH",
    "check_seed",
    "encode_player_seeds",
    "decode_player_seeds",
]

#: the longest seed a player may give (characters)
SEED_MAX_LENGTH = 64
#: separates seat A's seed from seat B's in ``player_seeds`` (and so may not occur in a seed)
SEED_SEPARATOR = ":"


def check_seed(seed: object) -> str:
    """``seed`` if it is a valid player seed, else ValueError saying why.

    1 to 64 printable ASCII characters (space to ``~``), no ``:``: printable so that it reads
    the same in a record, a terminal and a browser; no ``:`` so that the two seats' seeds
    joined by ``:`` can only be read back one way.
    """
    if not isinstance(seed, str) or not seed:
        raise ValueError("a seed is a string of 1 to 64 characters")
    if len(seed) > SEED_MAX_LENGTH:
        raise ValueError(f"a seed is at most {SEED_MAX_LENGTH} characters")
    if any(not " " <= ch <= "~" for ch in seed):
        raise ValueError("a seed is made of printable ASCII characters (space to ~)")
    if SEED_SEPARATOR in seed:
        raise ValueError("a seed may not contain ':' (it separates the two players' seeds)")
    return seed


def encode_player_seeds(seeds: tuple[str | None, str | None] | list[str | None]) -> str:
    """The ``player_seeds`` part of the HMAC message: seat A's seed, ``:``, seat B's seed
    (a seat that gives none, the computer's, is empty)."""
    return SEED_SEPARATOR.join(seed or "" for seed in seeds)


def decode_player_seeds(player_seeds: str) -> tuple[str, str] | None:
    """``(seed A, seed B)`` of an encoded ``player_seeds``, None for a record from before the
    players' seeds (one free string, not two seats' seeds)."""
    parts = player_seeds.split(SEED_SEPARATOR)
    return (parts[0], parts[1]) if len(parts) == 2 else None


def new_secret() -> bytes:
    """A fresh 256-bit seed from the operating system's cryptographic source."""
    return secrets.token_bytes(32)


def commitment_of(secret: bytes) -> str:
    """The public commitment: SHA-256 of the secret seed, in hex."""
    return hashlib.sha256(secret).hexdigest()


def derive_pattern(
    secret: bytes, game_id: str, n: int, player_seeds: str, instrument: Instrument
) -> int:
    """The raw pattern of throw ``n``: 0-15 for the sticks, 0-3 for the long die."""
    if n < 0:
        raise ValueError("throw numbers start at 0")
    digest = hmac.new(secret, f"{game_id}:{n}:{player_seeds}".encode(), hashlib.sha256).digest()
    if instrument.patterns == 16:
        return digest[-1] & 0x0F
    if instrument.patterns == 4:
        return digest[-1] & 0x03
    raise ValueError(f"no fair mapping for an instrument of {instrument.patterns} patterns")


def pattern_value(pattern: int, instrument: Instrument) -> int:
    """The throw a raw pattern shows."""
    return instrument.value_of(pattern)


@dataclass(frozen=True)
class FairDice:
    """The throws of one game.  Keep ``secret`` private until the game is over."""

    game_id: str
    secret: bytes
    player_seeds: str
    instrument: Instrument

    @property
    def commitment(self) -> str:
        return commitment_of(self.secret)

    def throw(self, n: int) -> tuple[int, int]:
        """Throw number ``n``: ``(pattern, value)``."""
        pattern = derive_pattern(self.secret, self.game_id, n, self.player_seeds, self.instrument)
        return pattern, pattern_value(pattern, self.instrument)


def verify_throws(
    game_id: str,
    secret_hex: str,
    commitment: str,
    player_seeds: str,
    instrument: Instrument,
    patterns: list[int],
) -> bool:
    """Check a revealed secret against its commitment and every recorded throw pattern."""
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        return False
    if not hmac.compare_digest(commitment_of(secret), commitment):
        return False
    dice = FairDice(game_id, secret, player_seeds, instrument)
    return all(dice.throw(n)[0] == pattern for n, pattern in enumerate(patterns))
