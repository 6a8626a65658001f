"""Challenges: one player asks a named player for a game on set terms, who accepts or declines
(:mod:`.offers`), on their tables (:mod:`.storage`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .offers import (
    CHALLENGE_LIFETIME_MS,
    MAX_OPEN_CHALLENGES,
    SWEEP_EVERY,
    Acceptance,
    Accepted,
    Challenge,
    ChallengeEvent,
    ChallengeEventKind,
    ChallengeJson,
    ChallengeListener,
    ChallengeMessage,
    Challenges,
    ChallengeStatus,
    ChallengeTerms,
    Sent,
    challenge_channel,
    challenge_json,
    challenge_message,
    player_channel,
)
from .storage import ChallengeRow, ChallengeStorage

__all__ = [
    "Acceptance",
    "Accepted",
    "CHALLENGE_LIFETIME_MS",
    "Challenge",
    "ChallengeEvent",
    "ChallengeEventKind",
    "ChallengeJson",
    "ChallengeListener",
    "ChallengeMessage",
    "ChallengeRow",
    "ChallengeStatus",
    "ChallengeStorage",
    "ChallengeTerms",
    "Challenges",
    "MAX_OPEN_CHALLENGES",
    "SWEEP_EVERY",
    "Sent",
    "challenge_channel",
    "challenge_json",
    "challenge_message",
    "player_channel",
]
