"""What the domains run on: publish/subscribe between the processes (:mod:`.broadcast`), who is
connected to a game (:mod:`.presence`), heavy computation in worker processes (:mod:`.jobs`),
and work that runs to its end whatever happens to whoever asked (:mod:`.unstoppable`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .broadcast import MemoryBroadcast, Message, RedisBroadcast, Subscription, broadcast_from_url
from .jobs import (
    KINDS,
    LIVE_KINDS,
    AnalysisJob,
    Busy,
    Client,
    ComputerMoveJob,
    JobFailed,
    JobKind,
    JobLimits,
    JobQueue,
    KindLimits,
    LocalJobQueue,
    ReviewJob,
    job_queue,
)
from .presence import Presence, PresenceCounts, PresenceRepeat
from .unstoppable import Unstoppable

__all__ = [
    "AnalysisJob",
    "Busy",
    "Client",
    "ComputerMoveJob",
    "JobFailed",
    "JobKind",
    "JobLimits",
    "JobQueue",
    "KINDS",
    "KindLimits",
    "LIVE_KINDS",
    "LocalJobQueue",
    "MemoryBroadcast",
    "Message",
    "Presence",
    "PresenceCounts",
    "PresenceRepeat",
    "RedisBroadcast",
    "ReviewJob",
    "Subscription",
    "Unstoppable",
    "broadcast_from_url",
    "job_queue",
]
