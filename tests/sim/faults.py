"""Which faults a run gets, drawn from its seed before it starts.

A :class:`FaultPlan` is plain data: a list of client faults (what happens,
to which client, at which virtual second of the run) and the host crash
points (which journal record the host dies writing, whether that record is
torn, how long the host stays down). Drawing it up front, from a generator
of its own, means that a change in how clients behave does not move the
faults of every seed, and that a plan can be read and tested by itself.

The kinds, and what each one exercises in the host:

``drop``      the connection is reset; the client reconnects with its seat token
``kill``      the client process dies and comes back knowing only its token
``half_open`` the path dies silently: the host must drop it by its idle timeout;
              the client notices on its own clock and reconnects
``dup_hello`` a second ``hello`` on the same connection (refused, the connection stays)
``twin``      a second connection presents the same token (the seat moves to it)
``step_away`` ``leave`` with ``for_now`` and back later with the token
``give_up``   ``leave`` for good: a bot plays the seat from then on
``hop``       a spectator stops watching and comes back

and the host's own: crashes at a journal record (whole or torn), and a full disk
(:class:`DiskFull`): from a journal record on, every write keeps only its first bytes and
fails, until space is freed some seconds later.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from tests.sim.profiles import Profile


class FaultKind(enum.StrEnum):
    DROP = "drop"
    KILL = "kill"
    HALF_OPEN = "half_open"
    DUP_HELLO = "dup_hello"
    TWIN = "twin"
    STEP_AWAY = "step_away"
    GIVE_UP = "give_up"
    HOP = "hop"


PLAYER_FAULTS = (
    FaultKind.DROP,
    FaultKind.DROP,
    FaultKind.KILL,
    FaultKind.HALF_OPEN,
    FaultKind.DUP_HELLO,
    FaultKind.TWIN,
    FaultKind.STEP_AWAY,
    FaultKind.GIVE_UP,
)
"""Faults a player may get (a drop twice as often as the others)."""

SPECTATOR_FAULTS = (FaultKind.DROP, FaultKind.KILL, FaultKind.HALF_OPEN, FaultKind.HOP)


@dataclass(frozen=True, slots=True)
class Fault:
    at_s: float
    """Virtual seconds after the run's start."""
    kind: FaultKind
    client: int
    """The client's index in the run."""
    away_s: float
    """How long the client stays away (or silent) before it comes back."""


@dataclass(frozen=True, slots=True)
class Crash:
    record: int
    """The host dies writing this journal record (counted over the whole run, from 1)."""
    keep: int | None
    """Bytes of that record kept on "disk" (``None``: all of it, the crash comes after)."""
    down_s: float
    """How long the host stays down before it restarts on the same journals."""


@dataclass(frozen=True, slots=True)
class DiskFull:
    record: int
    """The disk is full from this journal write on (counted over the whole run, from 1)."""
    keep: int
    """Bytes of each refused record the disk takes before it refuses the rest."""
    for_s: float
    """Seconds until space is freed again."""


@dataclass(frozen=True, slots=True)
class FaultPlan:
    faults: tuple[Fault, ...]
    crashes: tuple[Crash, ...]
    """In the order they happen (records increasing)."""
    disk_full: DiskFull | None = None

    def describe(self) -> str:
        parts = [f"{f.kind}@{f.at_s:.0f}s:c{f.client}" for f in self.faults]
        parts += [
            f"crash@record{c.record}" + ("" if c.keep is None else f"(torn:{c.keep}B)")
            for c in self.crashes
        ]
        full = self.disk_full
        if full is not None:
            parts.append(f"disk-full@record{full.record}({full.for_s:.0f}s,{full.keep}B)")
        return ", ".join(parts) or "no faults"


def plan_faults(
    rng: random.Random, profile: Profile, players: list[int], spectators: list[int]
) -> FaultPlan:
    """The faults of one run: ``players`` and ``spectators`` are client indexes."""
    faults: list[Fault] = []
    for _ in range(rng.randint(0, profile.max_faults)):
        pool = players if not spectators or rng.random() < 0.8 else spectators
        if not pool:
            continue
        client = rng.choice(pool)
        kinds = PLAYER_FAULTS if client in players else SPECTATOR_FAULTS
        kind = rng.choice(kinds)
        at_s = rng.uniform(1.0, profile.fault_span_s)
        away_s = rng.uniform(0.5, 40.0) if kind is not FaultKind.HALF_OPEN else rng.uniform(5, 60)
        faults.append(Fault(round(at_s, 3), kind, client, round(away_s, 3)))
    faults.sort(key=lambda fault: (fault.at_s, fault.client))
    crashes: list[Crash] = []
    if rng.random() < profile.crash_chance:
        record = 1
        for _ in range(rng.randint(1, profile.max_crashes)):
            record += rng.randint(2, profile.crash_record_span)
            keep = None if rng.random() < 0.5 else rng.randint(0, 40)
            crashes.append(Crash(record, keep, round(rng.uniform(0.2, 15.0), 3)))
    # Drawn last, so that adding the disk left every other fault of a seed where it was.
    disk_full = None
    if rng.random() < profile.disk_full_chance:
        disk_full = DiskFull(
            rng.randint(2, max(3, profile.crash_record_span // 4)),  # short games too
            rng.randint(0, 30),
            round(rng.uniform(1.0, profile.disk_full_max_s), 3),
        )
    return FaultPlan(tuple(faults), tuple(crashes), disk_full)
