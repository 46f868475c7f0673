"""The simulator in the test suite: the quick profile over every game, and proof that it
catches a broken host.

The quick profile plays a few hundred seeded runs (every game, each at its
shortest options, with faults and host crashes) in two worker processes.
Each deliberately broken host (``tests/sim/breaks.py``) must be caught, and
the failure must name its seed and the command that replays it.
"""

from __future__ import annotations

import os

import pytest

from engine import registry
from tests.sim.profiles import QUICK
from tests.sim.runner import Job, report, run_jobs, run_one, summarise

QUICK_SEEDS = {"catchy": 85, "blackcat": 45, "kiitos": 35, "kitten": 20, "katootsie": 15}
"""Seeds per game in the suite (the costly games fewer): 200 runs, about 55 CPU-seconds
(half a minute on two cores); ``python -m tests.sim --games all --seeds 2000`` is the soak."""
DEFAULT_SEEDS = 35

pytestmark = pytest.mark.timeout(600)


def quick_jobs() -> list[Job]:
    jobs = []
    for game in registry.names():
        count = QUICK_SEEDS.get(game, DEFAULT_SEEDS)
        jobs += [Job(game, seed, QUICK) for seed in range(count)]
    # The costly runs first (the games given the fewest seeds): the pool then ends with
    # short ones and both workers finish together.
    return sorted(jobs, key=lambda job: QUICK_SEEDS.get(job.game, DEFAULT_SEEDS))


def test_quick_profile_every_game_passes() -> None:
    jobs = quick_jobs()
    outcomes = run_jobs(jobs, processes=min(2, os.cpu_count() or 1))
    games = summarise(outcomes)
    failures = [outcome.failure for outcome in outcomes if outcome.failure is not None]
    assert not failures, f"{len(failures)} of {len(jobs)} runs failed:\n" + "\n".join(failures[:5])
    assert set(games) == set(registry.names())
    print("\n" + report(games, wall_s=0.0))
    for name, figures in games.items():
        assert figures.finished_games > figures.runs // 2, f"{name}: most games never ended"
        assert figures.views > 10 * figures.runs, f"{name}: too few views were checked"
    assert sum(g.crashes for g in games.values()) > 10, "hardly any host crash was simulated"
    assert sum(g.fairness_pairs for g in games.values()) > 50, "the fairness check judged little"


BREAK_CASES = [
    ("drop-frame", "catchy", 3, ("screen", "no_gap")),
    ("drop-frame", "blackcat", 3, ("screen", "no_gap")),
    ("leak-card", "kitten", 3, ("secrecy",)),
    ("leak-card", "katootsie", 3, ("secrecy",)),
    ("skip-journal", "kiitos", 3, ("once", "replay")),
    ("skip-journal", "blackcat", 3, ("once", "replay")),
]


@pytest.mark.parametrize(("breaking", "game", "seed", "caught_by"), BREAK_CASES)
def test_a_broken_host_is_caught_with_its_seed(
    breaking: str, game: str, seed: int, caught_by: tuple[str, ...]
) -> None:
    outcome = run_one(Job(game, seed, QUICK, breaking))
    assert outcome.failure is not None, f"{breaking} at {game} seed {seed} went unnoticed"
    first_line = outcome.failure.splitlines()[0]
    assert any(first_line.startswith(f"[{check}]") for check in caught_by), outcome.failure
    assert f"seed {seed}" in first_line
    replay = f"python -m tests.sim --game {game} --seed {seed} --break {breaking}"
    assert f"replay: {replay}" in outcome.failure
    again = run_one(Job(game, seed, QUICK, breaking))
    assert again.failure is not None
    assert again.failure.splitlines()[0] == first_line, "the seed did not replay the failure"


def test_the_same_seeds_pass_without_the_break() -> None:
    for _breaking, game, seed, _caught in BREAK_CASES:
        outcome = run_one(Job(game, seed, QUICK))
        assert outcome.failure is None, outcome.failure
