"""The simulated network: each connection is two one-way links that keep order.

A :class:`Link` carries bytes one way with a seeded base delay and a seeded
jitter per send. Like TCP, it never reorders: a chunk's arrival time is
``max(previous arrival, now + delay + jitter)``, so a burst sent at once
arrives in order however the jitter falls. Different connections have
different links, so their traffic interleaves freely. A send may be split
into a few chunks arriving at different moments, because TCP gives no
message boundaries and the host must reassemble frames from any chunking.

What can go wrong with a link, as on a real network:

* :meth:`Link.reset`: the connection is torn down (a reset, a killed
  process): bytes not yet delivered are lost and the other end learns of it
  (an end-of-stream chunk) after the link's delay.
* :meth:`Link.blackhole`: the path silently dies (a cable pulled, a laptop
  lid shut): nothing more arrives, not even an end-of-stream. The host only
  finds out by its idle timeout.
* :meth:`Link.finish`: the sender closes its end after its last bytes (FIN).

A sender may attach *tags* to the ends of frames (``(offset, tag)``);
:meth:`Link.deliver` returns the tags whose frames are now complete at the
far end. The simulator uses them to know which client message reached the
host in which step, and which views are still on their way to a client.
"""

from __future__ import annotations

import enum
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

SPLIT_CHANCE = 0.3
"""How often one send is split into two or three chunks."""


class LinkState(enum.Enum):
    OPEN = "open"
    FINISHED = "finished"
    """The sender closed its end: what was sent still arrives, then end-of-stream."""
    RESET = "reset"
    """Torn down: pending bytes were lost; an end-of-stream is on its way."""
    BLACKHOLE = "blackhole"
    """The path died silently: nothing arrives any more, not even end-of-stream."""


@dataclass(eq=False, slots=True)
class Chunk:
    """Bytes (or the end of the stream) due at the far end at ``at_ns``."""

    data: bytes
    at_ns: int
    eof: bool = False


@dataclass(frozen=True, slots=True)
class LinkProfile:
    """How slow one link is: a base one-way delay and the most jitter added per send."""

    delay_ns: int
    jitter_ns: int

    @staticmethod
    def draw(rng: random.Random) -> LinkProfile:
        """A link like one on a LAN, on Wi-Fi, or across a slow path (0-300 ms one way)."""
        kind = rng.random()
        if kind < 0.5:
            delay_ms = rng.uniform(0.05, 5.0)
        elif kind < 0.85:
            delay_ms = rng.uniform(5.0, 60.0)
        else:
            delay_ms = rng.uniform(60.0, 300.0)
        jitter_ms = rng.uniform(0.0, 0.3) * delay_ms + rng.uniform(0.0, 5.0)
        return LinkProfile(round(delay_ms * 1e6), round(jitter_ms * 1e6))


class Link(Generic[T]):
    """One direction of one connection (see the module docstring)."""

    def __init__(self, name: str, profile: LinkProfile, rng: random.Random) -> None:
        self.name = name
        self.profile = profile
        self._rng = rng
        self.state = LinkState.OPEN
        self._queue: deque[Chunk] = deque()
        self._last_at_ns = 0
        self._sent = 0
        self._delivered = 0
        self._marks: deque[tuple[int, T]] = deque()

    # Sending -------------------------------------------------------------------

    def _arrival(self, now_ns: int) -> int:
        jitter = self._rng.randint(0, self.profile.jitter_ns) if self.profile.jitter_ns else 0
        at = max(self._last_at_ns, now_ns + self.profile.delay_ns + jitter)
        self._last_at_ns = at
        return at

    def send(self, now_ns: int, data: bytes, tags: Sequence[tuple[int, T]] = ()) -> list[Chunk]:
        """Queue ``data`` (tags: frame ends within it); returns the chunks to schedule.

        Nothing is queued on a link that is not open (the sender closed it, it
        was reset, or the path is dead): those bytes are simply lost.
        """
        if self.state is not LinkState.OPEN or not data:
            return []
        base = self._sent
        self._sent += len(data)
        for offset, tag in tags:
            self._marks.append((base + offset, tag))
        cuts: list[int] = []
        if len(data) > 1 and self._rng.random() < SPLIT_CHANCE:
            count = self._rng.randint(1, min(2, len(data) - 1))
            cuts = sorted(self._rng.sample(range(1, len(data)), count))
        chunks = []
        start = 0
        for end in [*cuts, len(data)]:
            chunk = Chunk(data[start:end], self._arrival(now_ns))
            self._queue.append(chunk)
            chunks.append(chunk)
            start = end
        return chunks

    def open(self, now_ns: int) -> Chunk:
        """The connection's opening (an empty chunk ahead of any byte): the far end accepts it."""
        chunk = Chunk(b"", self._arrival(now_ns))
        self._queue.append(chunk)
        return chunk

    def finish(self, now_ns: int) -> Chunk | None:
        """The sender closes its end: end-of-stream follows the bytes already sent."""
        if self.state is not LinkState.OPEN:
            return None
        self.state = LinkState.FINISHED
        chunk = Chunk(b"", self._arrival(now_ns), eof=True)
        self._queue.append(chunk)
        return chunk

    def reset(self, now_ns: int) -> Chunk | None:
        """Tear the link down: pending bytes are lost, end-of-stream arrives after the delay."""
        if self.state in (LinkState.RESET, LinkState.BLACKHOLE):
            return None
        self.state = LinkState.RESET
        self._queue.clear()
        self._marks.clear()
        chunk = Chunk(b"", now_ns + self.profile.delay_ns, eof=True)
        self._last_at_ns = chunk.at_ns
        self._queue.append(chunk)
        return chunk

    def blackhole(self) -> None:
        """The path dies silently: nothing queued or sent later ever arrives."""
        self.state = LinkState.BLACKHOLE
        self._queue.clear()
        self._marks.clear()

    # Delivering ----------------------------------------------------------------

    def deliver(self, chunk: Chunk) -> list[T] | None:
        """Take ``chunk`` off the link at its time: the tags of frames it completes.

        ``None`` when the chunk was lost meanwhile (the link was reset or died):
        the caller drops it.
        """
        if not self._queue or self._queue[0] is not chunk:
            return None
        self._queue.popleft()
        if chunk.eof:
            return []
        self._delivered += len(chunk.data)
        done: list[T] = []
        while self._marks and self._marks[0][0] <= self._delivered:
            done.append(self._marks.popleft()[1])
        return done

    def pending(self, wanted: Callable[[T], bool]) -> int:
        """How many tagged frames that ``wanted`` picks are still on their way."""
        return sum(1 for _offset, tag in self._marks if wanted(tag))

    @property
    def idle(self) -> bool:
        """Nothing is on its way."""
        return not self._queue
