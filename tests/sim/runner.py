"""Many runs: which seeds of which games, in how many processes, and the figures at the end.

A run is ``(game, seed)``; seeds ``first .. first + count - 1`` are run for
each game asked for. Runs are independent, so they are spread over worker
processes (each run is deterministic whatever process runs it). The first
failure of each game is kept with its replay command; the figures are
summed per game: simulated table-hours per CPU-second, seeds per CPU-second
and per wall-second; ``crash`` counts host crashes, ``faults`` client faults,
``full`` the journal records a full disk refused (each a change the host did
not make, answered ``host_storage``).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from tests.sim.breaks import make_break
from tests.sim.invariants import SimFailure
from tests.sim.profiles import Profile
from tests.sim.world import Figures, World


@dataclass(frozen=True, slots=True)
class Job:
    game: str
    seed: int
    profile: Profile
    breaking: str | None = None
    known_bugs: bool = False


@dataclass
class Outcome:
    job: Job
    figures: Figures | None
    failure: str | None
    """The failure's text (seed and replay command included), if the run failed."""
    cpu_s: float


def run_one(job: Job, log: Callable[[str], None] | None = None) -> Outcome:
    """One run; a failure is returned as text (it crosses process boundaries)."""
    started = time.process_time()
    world = World(
        job.game,
        job.seed,
        job.profile,
        breaking=make_break(job.breaking),
        log=log,
        known_bugs=job.known_bugs,
    )
    try:
        figures = world.run()
    except SimFailure as failure:
        return Outcome(job, None, str(failure), time.process_time() - started)
    return Outcome(job, figures, None, time.process_time() - started)


def run_jobs(
    jobs: Sequence[Job], processes: int, on_outcome: Callable[[Outcome], None] | None = None
) -> list[Outcome]:
    """Every job, in ``processes`` worker processes (1: in this one)."""
    outcomes: list[Outcome] = []
    if processes <= 1 or len(jobs) <= 1:
        for job in jobs:
            outcome = run_one(job)
            outcomes.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
        return outcomes
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(processes) as pool:
        for outcome in pool.imap_unordered(run_one, jobs, chunksize=1):
            outcomes.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
    return outcomes


@dataclass
class GameFigures:
    game: str
    runs: int = 0
    failures: int = 0
    cpu_s: float = 0.0
    table_s: float = 0.0
    virtual_s: float = 0.0
    finished_games: int = 0
    steps: int = 0
    frames: int = 0
    views: int = 0
    acts: int = 0
    rulings: int = 0
    fairness_pairs: int = 0
    crashes: int = 0
    faults: int = 0
    refused_writes: int = 0
    spins: int = 0
    first_failures: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.runs += 1
        self.cpu_s += outcome.cpu_s
        if outcome.failure is not None:
            self.failures += 1
            if len(self.first_failures) < 3:
                self.first_failures.append(outcome.failure)
            return
        figures = outcome.figures
        assert figures is not None
        self.table_s += figures.table_s
        self.virtual_s += figures.virtual_s
        self.finished_games += figures.finished_games
        self.steps += figures.steps
        self.frames += figures.frames
        self.views += figures.views
        self.acts += figures.acts_checked
        self.rulings += figures.rulings
        self.fairness_pairs += figures.fairness_pairs
        self.crashes += figures.crashes
        self.faults += figures.faults
        self.refused_writes += figures.refused_writes
        self.spins += figures.spins


def summarise(outcomes: Iterable[Outcome]) -> dict[str, GameFigures]:
    games: dict[str, GameFigures] = {}
    for outcome in outcomes:
        games.setdefault(outcome.job.game, GameFigures(outcome.job.game)).add(outcome)
    return games


def report(games: dict[str, GameFigures], wall_s: float) -> str:
    """The figures, one line per game and a total (see the module docstring)."""
    lines = [
        f"{'game':<10} {'seeds':>6} {'fail':>5} {'ended':>6} {'table-h':>8} {'cpu s':>7} "
        f"{'table-h/cpu-s':>13} {'seeds/cpu-s':>11} {'views':>8} {'acts':>7} {'rulings':>7} "
        f"{'fair':>6} {'crash':>5} {'faults':>6} {'full':>5}"
    ]
    total = GameFigures("total")
    for name in sorted(games):
        figures = games[name]
        lines.append(_line(figures))
        for attribute in (
            "runs",
            "failures",
            "cpu_s",
            "table_s",
            "virtual_s",
            "finished_games",
            "steps",
            "frames",
            "views",
            "acts",
            "rulings",
            "fairness_pairs",
            "crashes",
            "faults",
            "refused_writes",
            "spins",
        ):
            setattr(total, attribute, getattr(total, attribute) + getattr(figures, attribute))
    lines.append(_line(total))
    rate = total.runs / wall_s if wall_s > 0 else 0.0
    lines.append(f"wall time {wall_s:.1f} s: {rate:.1f} seeds per wall-second")
    if total.spins:
        lines.append(
            f"the host asked {total.spins} time(s) to be woken again at the instant it had just "
            "been woken (a timer re-armed for 'now'; see World._arm_wake)"
        )
    return "\n".join(lines)


def _line(figures: GameFigures) -> str:
    cpu = figures.cpu_s or 1e-9
    hours = figures.table_s / 3600
    return (
        f"{figures.game:<10} {figures.runs:>6} {figures.failures:>5} {figures.finished_games:>6} "
        f"{hours:>8.2f} {figures.cpu_s:>7.1f} {hours / cpu:>13.3f} {figures.runs / cpu:>11.2f} "
        f"{figures.views:>8} {figures.acts:>7} {figures.rulings:>7} {figures.fairness_pairs:>6} "
        f"{figures.crashes:>5} {figures.faults:>6} {figures.refused_writes:>5}"
    )
