"""Web Push notifications to named players' devices (:mod:`.notifications`), on their tables
(:mod:`.storage`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .notifications import (
    MAX_ENDPOINT,
    Notice,
    NoticeKind,
    Push,
    PushConfig,
    PushText,
    service_allowed,
    turn_to_announce,
)
from .storage import KeyPair, PushStorage, SubscriptionRow, endpoint_hash

__all__ = [
    "KeyPair",
    "MAX_ENDPOINT",
    "Notice",
    "NoticeKind",
    "Push",
    "PushConfig",
    "PushStorage",
    "PushText",
    "SubscriptionRow",
    "endpoint_hash",
    "service_allowed",
    "turn_to_announce",
]
