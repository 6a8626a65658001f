"""The limits that keep a game fair to the player who stays, and the lobby to everyone.

* **Presence** is any action by a seat's holder: a WebSocket connection, a move, a seed, a
  read of the state with the seat's secret.  ``seats.left_at`` says when the holder was last
  seen (None while connected); a move, a seed or a read through the API moves it on
  (:meth:`senet.service.server.GameService.seen`).  The win over an opponent may be claimed
  only once they have not been seen for :attr:`FairPlay.abandon_after` ms, whatever channel
  they use.
* **The lobby** shows an open game while its creator is present (connected, or seen within
  :attr:`FairPlay.creator_grace`) and until :attr:`FairPlay.listing_lifetime` after it was
  listed; one client may have at most :attr:`FairPlay.listing_cap` open games shown at once.
* **Seeding** has a deadline: once both seats of a game are taken, the seeds must be given
  within :attr:`FairPlay.seeding_deadline`, or the game is called off without a result
  (deleted, as a game nobody joined is: nothing was thrown, nothing is lost).
* **Challenges** are counted per challenger and challenged player over a window, withdrawn
  ones too (:attr:`FairPlay.challenges_per_pair` per :attr:`FairPlay.challenge_window`); a
  player receives at most :attr:`FairPlay.challenges_received` open challenges at once; and
  their devices get at most one notification per challenger per
  :attr:`FairPlay.challenge_notify_interval`.
* **Names**: at most :attr:`FairPlay.names_per_window` new names per
  :attr:`FairPlay.name_window` over the whole site (beside each address's own limit in the
  web layer), and a name that never played is freed after
  :attr:`FairPlay.unused_name_lifetime`.
* **Turn-based games** (days per move) need nobody on the page: the deadline of each move is
  what counts.  Their open games are shown for :attr:`FairPlay.turn_based_listing` whether
  their creator is here or not, the seeds are due within a move's days, and the win is never
  claimed for an absence (the clock decides, as in every timed game).

Read from :class:`senet.settings.Settings` once at startup (:meth:`FairPlay.of`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .clocks import TimeControl
from .storage import Listing

__all__ = ["FairPlay", "client_key"]


@dataclass(frozen=True)
class FairPlay:
    """The limits, in ms (the cap a count)."""

    abandon_after: int = 120_000
    creator_grace: int = 30_000
    listing_lifetime: int = 600_000
    listing_cap: int = 3
    seeding_deadline: int = 120_000
    #: a read of the state through the API moves ``left_at`` on at most this often (ms): a
    #: bot polling the state costs a write a second, not one per read
    seen_resolution: int = 1_000
    #: a turn-based open game (days per move) is shown this long, its creator here or not
    turn_based_listing: int = 86_400_000
    #: challenges one named player may send another within :attr:`challenge_window` ms,
    #: withdrawn ones too (so challenging and withdrawing cannot spam)
    challenges_per_pair: int = 3
    challenge_window: int = 3_600_000
    #: open challenges a player may have received at once (from everyone together)
    challenges_received: int = 10
    #: a challenged player's devices are notified of a challenge from one challenger at most
    #: once in this many ms (later ones still show on their page)
    challenge_notify_interval: int = 3_600_000
    #: names taken over the whole site within :attr:`name_window` ms, every address together
    names_per_window: int = 200
    name_window: int = 3_600_000
    #: a name that has never held a seat in a game (nor become a bot, nor added a passkey)
    #: is freed this many ms after it was taken
    unused_name_lifetime: int = 30 * 86_400_000

    def listed_until(self, now: int, control: TimeControl) -> int:
        """Until when a game listed ``now`` is shown."""
        return now + (self.turn_based_listing if control.turn_based else self.listing_lifetime)

    def seeds_due(self, now: int, control: TimeControl) -> int:
        """When the seeds of a game whose seats are all taken ``now`` are due: a turn-based
        game's players have a move's days, as for any decision."""
        if control.turn_based:
            return now + max(self.seeding_deadline, control.seconds * 1000)
        return now + self.seeding_deadline

    def listing(self, now: int) -> Listing:
        """Which open games the lobby shows at ``now``."""
        return Listing(now, self.creator_grace)


def client_key(address: str | None) -> str | None:
    """The digest under which a client's listed games are counted (the address itself is not
    stored)."""
    if not address:
        return None
    return hashlib.sha256(b"senet client:" + address.encode()).hexdigest()[:32]
