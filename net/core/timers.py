"""Timers on an explicit clock: what the host core uses instead of ``loop.call_later``.

The host core never reads a clock and never sleeps. Whatever must happen
later (a bot's move, a game's timer, the arbiter's decision, a ping) is put
here with the time it is due; whoever drives the core asks for
:meth:`Timers.next_due` and calls :meth:`Timers.fire_due` with the time
that has come. The asyncio adapter arms one loop timer at that moment; the
simulator jumps its virtual clock straight to it. So the same code runs on
the real clock and on a seeded virtual one, and a test of the host never
waits for wall time.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable
from typing import Any


class Timer:
    """One pending call; :meth:`cancel` stops it (cancelling twice, or after it ran, is fine)."""

    __slots__ = ("_args", "_callback", "cancelled", "due")

    def __init__(self, due: int, callback: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.due = due
        self._callback = callback
        self._args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def run(self) -> None:
        self._callback(*self._args)


class Timers:
    """A heap of :class:`Timer` on one clock in whole nanoseconds, fired in order of due time.

    ``now_ns`` is the time of the last :meth:`set_now` or :meth:`fire_due`;
    the core passes it to whatever asks "what time is it" (table clocks, the
    arbiter). Whole nanoseconds, so a simulated run is exact and repeatable.
    ``on_earlier`` is called when a new timer becomes the earliest, so an
    adapter that armed a wake-up for a later moment can arm it again.
    """

    def __init__(self, now_ns: int = 0) -> None:
        self.now_ns = now_ns
        self._heap: list[tuple[int, int, Timer]] = []
        self._order = itertools.count()
        self.on_earlier: Callable[[], None] | None = None

    def __len__(self) -> int:
        """Timers still pending (cancelled ones are dropped as they come up)."""
        return sum(not timer.cancelled for _due, _order, timer in self._heap)

    @property
    def now(self) -> float:
        """The time in seconds."""
        return self.now_ns / 1e9

    def set_now(self, now_ns: int) -> None:
        """The driver's clock moved to ``now_ns`` (never backwards: a late call keeps the later)."""
        self.now_ns = max(self.now_ns, now_ns)

    def call_at(self, due: int, callback: Callable[..., Any], *args: Any) -> Timer:
        timer = Timer(due, callback, args)
        earliest = self._heap[0][0] if self._heap else None
        heapq.heappush(self._heap, (due, next(self._order), timer))
        if self.on_earlier is not None and (earliest is None or due < earliest):
            self.on_earlier()
        return timer

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Timer:
        """Call ``callback(*args)`` ``delay`` seconds from now.

        The delay is rounded *up* to whole nanoseconds: a deadline a float rounding
        error short of now (6e-12 s) must not come due at once, again and again.
        """
        return self.call_at(self.now_ns + max(0, math.ceil(delay * 1e9)), callback, *args)

    def next_due(self) -> int | None:
        """When the earliest live timer is due (``None``: nothing pending)."""
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def fire_due(self, now_ns: int) -> int:
        """Run every timer due at ``now_ns``, earliest first.

        Returns how many ran. Each runs with :attr:`now_ns` set to ``now_ns``, not
        to its due time: a late wake-up is seen as late, as on a real loop.
        A timer added while firing is left for the next call even if it is
        due already (as ``call_soon`` waits for the loop's next turn), so a
        callback that keeps re-arming itself at ``now`` cannot spin forever.
        """
        self.set_now(now_ns)
        ran = 0
        heap = self._heap
        newer = next(self._order)
        while heap and heap[0][0] <= self.now_ns and heap[0][1] < newer:
            _due, _order, timer = heapq.heappop(heap)
            if timer.cancelled:
                continue
            timer.cancelled = True  # ran: a later cancel() is harmless
            timer.run()
            ran += 1
        return ran
