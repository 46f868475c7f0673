"""``python -m tests.sim``: run the simulator over games and seeds, print the figures.

    python -m tests.sim --games all --seeds 200            # 200 seeds of each game
    python -m tests.sim --game kitten --seed 17            # replay one run (what a failure prints)
    python -m tests.sim --games all --seeds 50 --profile long --jobs 4
    python -m tests.sim --game blackcat --seed 3 --break leak-card --trace

Exit status 1 when any run broke an invariant; each failure prints its seed
and the one-line command that replays it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from engine import registry
from tests.sim.breaks import BREAKS
from tests.sim.profiles import PROFILES
from tests.sim.runner import Job, Outcome, report, run_jobs, run_one, summarise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.sim", description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=None, help="comma-separated games, or 'all'")
    parser.add_argument("--game", default=None, help="one game (with --seed: replay one run)")
    parser.add_argument("--seeds", type=int, default=None, help="seeds per game (default 20)")
    parser.add_argument("--seed", type=int, default=None, help="one seed (replay)")
    parser.add_argument("--first", type=int, default=0, help="the first seed of --seeds")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--break", dest="breaking", choices=BREAKS, default=None)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--trace", action="store_true", help="print the host's log (one run)")
    parser.add_argument(
        "--known-bugs",
        action="store_true",
        help="also play the option values that trigger open bugs (tests/sim/profiles.py)",
    )
    args = parser.parse_args(argv)
    profile = PROFILES[args.profile]
    names = registry.names()
    if args.game is not None:
        games = [args.game]
    elif args.games in (None, "all"):
        games = list(names)
    else:
        games = [name.strip() for name in args.games.split(",") if name.strip()]
    unknown = [name for name in games if name not in names]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(names)}")
    if args.seed is not None:
        seeds = [args.seed]
    else:
        seeds = list(range(args.first, args.first + (args.seeds or 20)))
    jobs = [
        Job(game, seed, profile, args.breaking, args.known_bugs) for seed in seeds for game in games
    ]
    started = time.monotonic()
    if len(jobs) == 1:
        outcome = run_one(jobs[0], log=print if args.trace else None)
        outcomes = [outcome]
        _show(outcome)
    else:
        outcomes = run_jobs(jobs, args.jobs, on_outcome=_show)
    wall = time.monotonic() - started
    print(report(summarise(outcomes), wall))
    failed = [outcome for outcome in outcomes if outcome.failure is not None]
    if failed:
        print(f"{len(failed)} of {len(outcomes)} runs failed", file=sys.stderr)
        return 1
    return 0


def _show(outcome: Outcome) -> None:
    if outcome.failure is not None:
        print(f"FAIL {outcome.failure}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
