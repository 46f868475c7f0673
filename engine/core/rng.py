"""The seeded random generator that lives inside every game state, so a game replays exactly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_MASK64 = (1 << 64) - 1
_2_64 = 1 << 64
_LIMITS_SIZE = 128
_LIMITS: tuple[int, ...] = (0, *(_2_64 - (_2_64 % n) for n in range(1, _LIMITS_SIZE)))
"""``_LIMITS[n]``: the rejection bound :meth:`Rng.below` works out for ``n`` (the largest
multiple of ``n`` up to 2**64), looked up by shuffles (every deal) instead of worked out
per card."""


@dataclass(slots=True)
class Rng:
    """A small seeded generator (SplitMix64) whose whole state is one integer.

    It lives inside game states so that a state can be saved, copied and
    replayed exactly, and it gives the same numbers on every Python version
    (unlike :class:`random.Random`, whose derived methods may change).
    """

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """A generator for ``seed`` (any integer; negative and huge seeds are folded)."""
        return cls(seed & _MASK64)

    def next_u64(self) -> int:
        """The next 64-bit value."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _LIMITS[n] if n < _LIMITS_SIZE else _2_64 - (_2_64 % n)
        while True:
            # next_u64(), inlined: shuffles and bots draw a lot.
            z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = z ^ (z >> 31)
            if value < limit:
                return value % n

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates): ``j = below(i + 1)`` for each ``i``
        from the last down, :meth:`below` inlined (every deal shuffles a deck)."""
        z = self.state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _LIMITS_SIZE else _2_64 - (_2_64 % n)
            while True:
                z = state = (z + 0x9E3779B97F4A7C15) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                value = z ^ (z >> 31)
                z = state
                if value < limit:
                    break
            j = value % n
            items[i], items[j] = items[j], items[i]
        self.state = z

    def choice(self, items: Sequence[Any]) -> Any:
        """One element of a non-empty sequence: ``items[below(len(items))]``, with
        :meth:`below` inlined for short sequences (every random bot's move is a choice)."""
        n = len(items)
        if not 0 < n < _LIMITS_SIZE:
            return items[self.below(n)]
        limit = _LIMITS[n]
        while True:
            z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            value = z ^ (z >> 31)
            if value < limit:
                return items[value % n]
