"""What the SSH and web doors hold a stranger to, as plain objects on explicit time.

A host's doors face a LAN that may be careless (a script reconnecting in a
loop) or hostile (a guest guessing the password). These are their shared
rules, with no sockets and no clock of their own, so tests drive them with
made-up times:

* :class:`PerAddress`: at most so many of something (connections, players)
  from one IP address, so that one machine cannot take every place;
* :class:`SharedBudget`: the host's one budget of connections (file
  descriptors), which the game port and every door draw from, so that
  ``--max-connections`` and the descriptor reserve cover them all;
* :class:`Tries`: password tries, answered later and later the more an
  address (or a user name) gets wrong, so that guessing takes hours;
* :class:`QuietLog`: a refusal or a wrong password is one log line, and a
  flood of them is one line every few seconds, not a disk filling up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

TRY_DELAY_S: Final = 1.0
"""Seconds before the answer to an address's first wrong password; each further wrong one
doubles it."""
TRY_DELAY_MAX_S: Final = 30.0
"""The longest wait one wrong password adds: 200 guesses from one address take over 90
minutes."""
TRY_FORGET_S: Final = 900.0
"""An address or a name with no wrong password for this long starts afresh."""
TRIES_KEPT: Final = 4096
"""Addresses (and, apart, names) remembered at most: a flood of made-up user names pushes
the oldest out instead of growing the host."""

LOG_QUIET_S: Final = 10.0
LOG_BURST: Final = 5
"""A kind of line (a refusal, a wrong password) is logged at most 5 times in 10 s; the
next one logged says how many were left out."""


class PerAddress:
    """At most ``limit`` of something at once from one address (see the module docstring).

    Only addresses holding at least one are kept, so the table never outgrows
    what is held.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a per-address budget is at least 1, not {limit}")
        self.limit = limit
        self._held: dict[str, int] = {}

    def count(self, address: str) -> int:
        return self._held.get(address, 0)

    @property
    def total(self) -> int:
        return sum(self._held.values())

    def full(self, address: str) -> bool:
        return self.count(address) >= self.limit

    def take(self, address: str) -> bool:
        """One more from ``address``, if it has room."""
        held = self.count(address)
        if held >= self.limit:
            return False
        self._held[address] = held + 1
        return True

    def give_back(self, address: str) -> None:
        held = self.count(address) - 1
        if held > 0:
            self._held[address] = held
        else:
            self._held.pop(address, None)


class SharedBudget:
    """The host's one connection budget, shared by its game port and its doors.

    Every connection holds a file descriptor, whichever door it came by, and
    so does each client process's terminal or pipes; the host's budget
    (:meth:`net.core.limits.HostLimits.connection_budget`: ``--max-connections``
    lowered to fit ``ulimit -n`` less a reserve) is what keeps the process from
    running out. ``game`` counts the game port's connections (the host core's);
    the doors :meth:`take` descriptors and give them back. ``on_change`` hears
    what is left to the game port (:attr:`game_budget`), for the core's own
    admission.
    """

    def __init__(self, total: int, game: Callable[[], int] = lambda: 0) -> None:
        self.total = total
        self.doors = 0
        """Descriptors the doors hold now."""
        self.game = game
        """How many connections the game port holds now."""
        self.on_change: Callable[[int], None] | None = None

    @property
    def game_budget(self) -> int:
        """Connections the game port may hold, given what the doors hold."""
        return self.total - self.doors

    def take(self, count: int = 1) -> bool:
        """``count`` more descriptors for a door, if the budget has room."""
        if self.game() + self.doors + count > self.total:
            return False
        self.doors += count
        self._changed()
        return True

    def give_back(self, count: int = 1) -> None:
        self.doors = max(0, self.doors - count)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.game_budget)


def try_delay(failures: int) -> float:
    """Seconds the ``failures``-th wrong password in a row waits: 1, 2, 4, 8, 16, 30, 30..."""
    if failures <= 0:
        return 0.0
    return min(TRY_DELAY_MAX_S, TRY_DELAY_S * (1 << min(failures - 1, 16)))


@dataclass
class _Record:
    failures: int = 0
    free_at: float = 0.0
    """When the next try from there may be answered (the last wrong one's answer)."""
    last: float = 0.0


class Tries:
    """Password tries per address and per user name: wrong ones are answered ever later.

    Every try from one address waits its turn: it is answered no sooner than
    the address's last wrong try was, and a wrong one then waits
    :func:`try_delay` more. So tries sent at once (many connections, or many
    requests on one) are answered one after another, and a guesser learns
    nothing faster by sending more. A right try waits its turn too (its
    answer would otherwise tell which of a burst was right), then wipes the
    address's record: a player who mistyped starts afresh.

    A user name's wrong tries, from any address, make its next wrong answers
    slower too (so guessing one player's password from many machines is slow);
    they never hold up a right one, so nobody can lock a player out by
    guessing at their name.

    Both tables forget a record :data:`TRY_FORGET_S` after its last wrong try
    and keep at most :data:`TRIES_KEPT` records each.
    """

    def __init__(self, kept: int = TRIES_KEPT) -> None:
        self.kept = kept
        self._addresses: dict[str, _Record] = {}
        self._names: dict[str, _Record] = {}

    def wait(self, address: str, now: float) -> float:
        """Seconds before a try from ``address`` would be answered (0: at once)."""
        record = self._addresses.get(address)
        return 0.0 if record is None else max(0.0, record.free_at - now)

    def failures(self, address: str) -> int:
        record = self._addresses.get(address)
        return 0 if record is None else record.failures

    def attempt(self, address: str, name: str | None, right: bool, now: float) -> float:
        """A try from ``address`` as ``name`` was checked at ``now``: seconds to wait
        before answering it."""
        start = now + self.wait(address, now)
        if right:
            self._addresses.pop(address, None)
            return start - now
        record = self._touch(self._addresses, address, now)
        record.failures += 1
        delay = try_delay(record.failures)
        if name is not None:
            named = self._touch(self._names, name, now)
            named.failures += 1
            delay = max(delay, try_delay(named.failures))
        record.free_at = start + delay
        return record.free_at - now

    def _touch(self, table: dict[str, _Record], key: str, now: float) -> _Record:
        record = table.pop(key, None)
        if record is not None and now - record.last > TRY_FORGET_S and now >= record.free_at:
            record = None
        if record is None:
            record = _Record()
            self._prune(table, now)
        record.last = now
        table[key] = record  # the end of the order: the most recently seen
        return record

    def _prune(self, table: dict[str, _Record], now: float) -> None:
        if len(table) < self.kept:
            return
        for key in [k for k, r in table.items() if now - r.last > TRY_FORGET_S]:
            del table[key]
        while len(table) >= self.kept:
            del table[next(iter(table))]


class QuietLog:
    """Log lines by kind, at most ``burst`` of a kind every ``every_s`` seconds.

    A line left out is counted, and the next line of its kind says how many
    ("(and 57 more like it)"): a flood of refusals or of wrong passwords is a
    few lines every few seconds, and the log still says it happened, while a
    player's one mistake is always logged.
    """

    def __init__(
        self,
        log: Callable[[str], None],
        *,
        every_s: float = LOG_QUIET_S,
        burst: int = LOG_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.every_s = every_s
        self.burst = burst
        self.clock = clock
        self._windows: dict[str, tuple[float, int]] = {}
        """Kind -> (when its window began, lines logged in it)."""
        self._left_out: dict[str, int] = {}

    def __call__(self, kind: str, line: str) -> bool:
        """Log ``line`` unless ``kind`` had its lines for now; whether it was logged."""
        now = self.clock()
        began, logged = self._windows.get(kind, (float("-inf"), 0))
        if now - began >= self.every_s:
            began, logged = now, 0
        if logged >= self.burst:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return False
        self._windows[kind] = (began, logged + 1)
        left_out = self._left_out.pop(kind, 0)
        self.log(line + (f" (and {left_out} more like it)" if left_out else ""))
        return True
