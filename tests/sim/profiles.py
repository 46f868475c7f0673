"""How hard a run pushes: the quick profile (the test suite) and the long one (soak runs).

A profile fixes the knobs a seed does not draw: how many faults of each kind
a run may get, how long its games are (the quick profile plays each game at
its shortest options), and how much virtual time a run may take before a
table still on counts as stuck.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    short_games: bool
    """Every whole-number option at its minimum (fewest rounds, shortest timers)."""
    max_faults: int
    """Client faults per run: drawn from 0 to this."""
    crash_chance: float
    """Chance that a run has a host crash (at a random journal record)."""
    max_crashes: int
    """At most this many crashes in one run."""
    crash_record_span: int
    """A crash falls on a journal record drawn from 2 to this."""
    fault_span_s: float
    """Faults fall within this many seconds of the run's start."""
    time_limit_s: float
    """Virtual seconds a run may last; a table not ended or closed by then is stuck."""
    stall_s: float
    """A started, attended table whose journal has not grown for this long is stuck."""
    spectators: int
    """At most this many spectators per table."""
    second_table_chance: float
    """Chance of a second table of the same game on the host in one run."""
    disk_full_chance: float = 0.0
    """Chance that the host's disk fills up once in a run (at a random journal record)."""
    disk_full_max_s: float = 0.0
    """The disk stays full for up to this many seconds, then space is freed again."""
    again_chance: float = 0.0
    """After a game, the chance that a player asks to play again (or another game)."""
    max_agains: int = 0
    """How often one person asks to play again in a run (runs end)."""


QUICK = Profile(
    name="quick",
    short_games=True,
    max_faults=4,
    crash_chance=0.35,
    max_crashes=1,
    crash_record_span=120,
    fault_span_s=120.0,
    time_limit_s=4 * 3600.0,
    stall_s=300.0,
    spectators=1,
    second_table_chance=0.0,
    disk_full_chance=0.3,
    disk_full_max_s=40.0,
    again_chance=0.35,
    max_agains=1,
)

LONG = Profile(
    name="long",
    short_games=False,
    max_faults=12,
    crash_chance=0.6,
    max_crashes=3,
    crash_record_span=600,
    fault_span_s=900.0,
    time_limit_s=12 * 3600.0,
    stall_s=300.0,
    spectators=2,
    second_table_chance=0.3,
    disk_full_chance=0.4,
    disk_full_max_s=120.0,
    again_chance=0.5,
    max_agains=2,
)

KNOWN_BUGS: dict[tuple[str, str, object], str] = {}
"""Option values a run avoids while the bug they trigger is open: (game, option, value) ->
the bug. ``--known-bugs`` plays them anyway (to see whether the bug is still there)."""

PROFILES = {profile.name: profile for profile in (QUICK, LONG)}
