"""The virtual clock: a heap of events in time order, nothing else.

The simulator never reads a real clock. Time is an integer of nanoseconds
that only moves when the next event is taken off the queue; events due at
the same instant come out in the order they were put in (a sequence number
breaks ties), so a run depends on its seed alone, never on dict order or
wall time.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Generic, TypeVar

E = TypeVar("E")

NS_PER_S = 1_000_000_000
NS_PER_MS = 1_000_000


def seconds(ns: int) -> float:
    """Nanoseconds as seconds (for messages and figures)."""
    return ns / NS_PER_S


def ns(seconds_: float) -> int:
    """Seconds as whole nanoseconds."""
    return round(seconds_ * NS_PER_S)


class ClockError(RuntimeError):
    """An event was scheduled in the past: a bug in the simulator, never in the host."""


class EventQueue(Generic[E]):
    """Events in time order on a virtual clock that starts at ``start_ns``."""

    def __init__(self, start_ns: int) -> None:
        self.now_ns = start_ns
        self._heap: list[tuple[int, int, E]] = []
        self._order = itertools.count()

    def at(self, time_ns: int, event: E) -> None:
        """Schedule ``event`` at ``time_ns`` (not before now)."""
        if time_ns < self.now_ns:
            raise ClockError(f"event at {time_ns} ns scheduled at {self.now_ns} ns")
        heapq.heappush(self._heap, (time_ns, next(self._order), event))

    def after(self, delay_ns: int, event: E) -> None:
        """Schedule ``event`` ``delay_ns`` from now (a negative delay means now)."""
        self.at(self.now_ns + max(0, delay_ns), event)

    def pop(self) -> E | None:
        """The next event, with the clock moved to its time (``None``: nothing left)."""
        if not self._heap:
            return None
        time_ns, _order, event = heapq.heappop(self._heap)
        self.now_ns = time_ns
        return event

    def next_time(self) -> int | None:
        """When the next event is due (``None``: nothing left)."""
        return self._heap[0][0] if self._heap else None

    def __len__(self) -> int:
        return len(self._heap)
