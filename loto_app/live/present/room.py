"""What the animateur's tablet says about the room: how many players' phones are connected now,
and a warning when many drop at once (the hall's Wi-Fi failed: a number drawn now would reach
nobody on those phones, and their claims would come late).

Pure: `DropWatch` is fed the count with the time it was read (live/runtime/presence.py reads
it); it knows nothing of sockets, Redis or the clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

#: What the tablet shows while many phones are gone.
WARNING = "Beaucoup de téléphones viennent de se déconnecter : attendez avant le prochain numéro."

#: A drop counts if it happened within this many seconds...
WINDOW = 10.0
#: ...and took at least this many phones...
MIN_LOST = 5
#: ...and at least this share of the phones connected just before (a third).
SHARE_NUM, SHARE_DEN = 1, 3
#: The warning gives up after this many seconds even if the phones are not back (the
#: animateur cannot wait for ever; the count itself stays on the tablet).
HOLD = 60.0


def is_mass_drop(before: int, now: int) -> bool:
    """Did `before - now` phones leaving make a mass drop (a third or more, at least 5)?"""
    lost = before - now
    return lost >= MIN_LOST and lost * SHARE_DEN >= before * SHARE_NUM


@dataclass(slots=True)
class DropWatch:
    """The count of connected phones over time, and whether the tablet should warn.

    The warning starts when the count fell, within `WINDOW` seconds, from its highest by a
    mass drop (`is_mass_drop`); it stops when three quarters of the phones lost are back (the
    count is within a quarter of the loss of its height before the drop), or after `HOLD`
    seconds.
    """

    window: float = WINDOW
    hold: float = HOLD
    samples: deque[tuple[float, int]] = field(default_factory=deque)
    since: float | None = None  # when the warning started (None: no warning)
    peak: int = 0  # the count before the drop
    trough: int = 0  # the lowest count since

    @property
    def warning(self) -> bool:
        return self.since is not None

    def rebase(self, now: float, count: int) -> None:
        """The count changed for a reason other than phones leaving (a worker gone: its phones
        were counted twice meanwhile, there and where they reconnected): the counts before are
        no reference for a drop any more. A warning already given stays."""
        self.samples.clear()
        self.samples.append((now, count))
        if self.since is not None:
            self.trough = min(self.trough, count)

    def see(self, now: float, count: int) -> bool:
        """The count read at `now` (seconds, any monotonic origin); returns whether to warn."""
        samples = self.samples
        samples.append((now, count))
        while samples and samples[0][0] < now - self.window:
            samples.popleft()
        if self.since is None:
            highest = max(n for _, n in samples)
            if is_mass_drop(highest, count):
                self.since, self.peak, self.trough = now, highest, count
            return self.warning
        self.trough = min(self.trough, count)
        back = (self.peak - count) * 4 <= self.peak - self.trough
        if back or now - self.since >= self.hold:
            self.since = None
            samples.clear()  # (the height before the drop is no reference any more)
            samples.append((now, count))
        return self.warning
