"""The table's clock as seen from a client: host instants in views mapped to local time (pure).

Views carry instants on the table's clock, in seconds: Katootsie's
``letter_at`` (when the next letter will be revealed), ``call.until`` (the
end of the ten seconds), ``vote.until``. The table clock is the host's
monotonic clock plus an offset private to each table (a table's time
continues across host restarts), so the ``ping.t`` stamps of the host's pings
(its raw monotonic clock) cannot place them; the client has to learn the
table clock itself.

It can, because some instants in a view are *now* at the host when the view
is sent: the instant a moment opened (``opened_at`` of a new moment: the
letter revealed, a Katootsie! call, a reopened letter), and the instant a
pause began (``letter_at`` minus the pause, when a category or letter
pause starts). The client notes the local monotonic time each such view
arrived: ``local - table = offset + one-way lag + delays``, never less than
the true offset. So, as NTP does with one-way samples, the estimate keeps the
least of recent samples (:data:`WINDOW_NS`: a table moved by a host restart
is followed) and maps a table instant to the local moment it reaches this
screen. The error is the least one-way lag seen (under a millisecond on a
LAN), always late, never early: a countdown ends no earlier here than on the
host.

Why not use the host's pings: a client could estimate the host's monotonic
clock from ``ping.t`` and its own round trips, but it would still not know the
table's offset; and the one-way samples above already have the error that
estimate would have. Why not show the letter on every screen at one host
instant: the letter is sent only once it is revealed (the engine reveals it
at ``letter_at``), so each screen shows it one one-way lag after the
reveal; the arbiter measures every reaction from each screen's own drawn
stamp, so that lag never counts against anyone. Holding the letter until a
common later instant would need the host to open the arbiter at that
instant; :meth:`TableClock.local_ns` is what a client would map it with.

Nothing here reads a clock: every time is passed in.
"""

from __future__ import annotations

import math
from collections import deque

NS_PER_S = 1_000_000_000
WINDOW_NS = 60 * NS_PER_S
"""Samples older than this (local time) are dropped, so a moved table clock is followed."""
WINDOW_SAMPLES = 64


class TableClock:
    """Least-lag estimate of ``local - table`` from views that carry the host's *now*."""

    def __init__(self, *, window_ns: int = WINDOW_NS, window_samples: int = WINDOW_SAMPLES):
        if window_ns <= 0 or window_samples < 1:
            raise ValueError("the window must be positive")
        self._window_ns = window_ns
        self._window_samples = window_samples
        self._samples: deque[tuple[int, int]] = deque()
        """(local arrival ns, local - table ns), oldest first."""

    def observe(self, table_s: float, local_ns: int) -> None:
        """A view sent at table time ``table_s`` (the host's now) arrived at ``local_ns``."""
        if not math.isfinite(table_s):
            return
        if self._samples and local_ns < self._samples[-1][0]:
            return  # the local monotonic clock never goes back; a caller's mistake
        self._samples.append((local_ns, local_ns - round(table_s * NS_PER_S)))
        while len(self._samples) > self._window_samples:
            self._samples.popleft()
        while self._samples[0][0] < local_ns - self._window_ns:
            self._samples.popleft()

    @property
    def ready(self) -> bool:
        return bool(self._samples)

    @property
    def offset_ns(self) -> int | None:
        """Local minus table time (plus the least one-way lag), or ``None`` before any sample."""
        if not self._samples:
            return None
        return min(offset for _, offset in self._samples)

    def local_ns(self, table_s: float) -> int | None:
        """When table instant ``table_s`` happens here (local monotonic ns)."""
        offset = self.offset_ns
        return None if offset is None else round(table_s * NS_PER_S) + offset

    def table_s(self, local_ns: int) -> float | None:
        """The table time at local instant ``local_ns``."""
        offset = self.offset_ns
        return None if offset is None else (local_ns - offset) / NS_PER_S

    def seconds_until(self, table_s: float, local_now_ns: int) -> float | None:
        """Seconds from ``local_now_ns`` until table instant ``table_s`` (negative: past)."""
        local = self.local_ns(table_s)
        return None if local is None else (local - local_now_ns) / NS_PER_S
