"""The bot ladder: does each level beat the one below? (``python -m tests.perf ladder``)

For every registered game, each bot level plays the level below it
(``hard`` against ``normal``, ``normal`` against ``easy``) and, as the
baseline, ``easy`` plays ``random``; all in one run, from fixed seeds, with
no network (the loop of :mod:`engine.selfplay`). Each matchup is played at
two players and at the game's most players:

* Seats: half the seats each level (``2v2``, ``5v5``; an odd seat count
  gives the extra seat to each level in turn), alternating around the table
  (``hi lo hi lo ...``), and the pattern rotated one seat every game, so both
  levels sit in every seat equally often and nobody always plays first.
* A game counts for the level of its winner; a win shared across the two
  levels counts half for each, a game nobody wins half. So 0.5 is "no
  better", whatever the table size; the goal is at least 0.6.
* ``mirror_rate`` is the same measure with ``easy`` in both seat groups
  (same seats, same seeds), taken in the same run: what "no better" really
  comes to for that game and table size (first-seat or shared-win effects).
* Real-time games: when several seats may act at once, the seats are asked
  in an order drawn from the game's seed, and the first bot that acts gets
  the claim, as :func:`engine.selfplay.run_game` does. Every bot thus reacts
  equally fast: a level wins by what it chooses, not by claiming sooner.
* ``hi_p99_ms`` is the higher level's decision time (p99 of every
  ``choose`` call it made in that matchup): the bots' speed goal is 50 ms
  (Kiitos 100 ms).

The interval is Wilson's 95% score interval for a proportion (it behaves at
small counts and near 0 or 1, unlike the normal approximation). A row meets
the goal (``ok``) when its win rate is at least :data:`GOAL` *and* the
interval's lower end is above 0.5, so that "better" is shown, not guessed;
a rate at the goal whose interval still reaches 0.5 is ``UNSURE``.

Profiles (``--profile``): ``quick`` is CI's smoke test (a game or two a
matchup: it shows every level plays, not which is stronger); ``full`` (the
default) a few minutes; ``long`` (:data:`LONG`) at least 200 games a
matchup at every table size, which takes the better part of an hour and is
run by hand, not in CI. ``--games N`` sets the games a matchup at every
size, ``--game NAME``, ``--players N`` and ``--matchup HIGH>LOW`` (each
repeatable) pick rows, ``--seed S`` plays other deals (to tune a bot on
seeds the ladder is not then judged on).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.bots import LEVELS, Bot, bot_levels, make_bot
from engine.core import Game, IllegalAction, Outcome, Rng, Seat
from engine.selfplay import (
    MAX_STEPS,
    STEP_SECONDS,
    BotMistakeError,
    StuckGameError,
    TooManyStepsError,
    derive_seed,
    player_names,
)
from tests.perf.report import Report, percentile

SEED = 22
"""Issue 22: every series' seeds derive from this one."""

FULL = {"games_2p": 40, "games_max": 16}
QUICK = {"games_2p": 2, "games_max": 1}
LONG = {"games_2p": 240, "games_max": 240}
"""At least 200 games a matchup (issue 34) at the fewest and the most players: an
interval of about +-0.06, narrow enough to tell 0.60 from 0.50."""
PROFILES = {"quick": QUICK, "full": FULL, "long": LONG}

CHEAP_GAMES = {"blackcat": 60, "catchy": 60}
"""Games a matchup for games whose games are quick (full run only), at every table size:
the same minutes buy them narrower intervals. The others keep :data:`FULL`, which holds
the whole ladder to a few minutes (a ten-seat Kitten Me! game with hard bots takes ~2 s)."""

GOAL = 0.6
"""Each level should win at least this share of games against the level below..."""
SHOWN = 0.5
"""...and its interval's lower end should be above this ("no better")."""

MIRROR_LEVEL = "easy"

Z95 = 1.959963984540054

_BOT_SALT = 0x1ADD
_ORDER_SALT = 0x0DE2
_SERIES_SALT = 0x5E1E


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (``successes`` may hold halves)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(high: str, low: str, players: int, game_index: int) -> list[str]:
    """Who sits where in game ``game_index``: levels alternate, rotated one seat a game."""
    pattern = [high if seat % 2 == 0 else low for seat in range(players)]
    if players % 2 == 1 and game_index % 2 == 1:  # the odd seat goes to each level in turn
        pattern = [low if name == high else high for name in pattern]
    shift = game_index % players
    return pattern[shift:] + pattern[:shift]


def high_share(outcome: Outcome, names: Sequence[str], high: str) -> float:
    """How much of this game goes to the level ``high``: its share of the winners."""
    winners = list(outcome.winners)
    if not winners:
        return 0.5
    return sum(1 for seat in winners if names[seat] == high) / len(winners)


@dataclass
class Timings:
    """Every ``choose`` call's duration, by bot name."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    cpu_seconds: dict[str, list[float]] = field(default_factory=dict)
    """The same calls' CPU time, which a busy shared machine does not inflate."""

    def add(self, name: str, spent: float, cpu: float = 0.0) -> None:
        self.seconds.setdefault(name, []).append(spent)
        self.cpu_seconds.setdefault(name, []).append(cpu)

    def p99_ms(self, name: str) -> float:
        samples = self.seconds.get(name) or [0.0]
        return percentile(samples, 0.99) * 1000

    def cpu_p99_ms(self, name: str) -> float:
        samples = self.cpu_seconds.get(name) or [0.0]
        return percentile(samples, 0.99) * 1000


def play(
    game: Game[Any],
    names: Sequence[str],
    seed: int,
    timings: Timings,
    options: dict[str, Any] | None = None,
) -> Outcome:
    """One game between the named bots, as :func:`engine.selfplay.run_game` plays it, timed.

    The same loop (simulated clock, ticks at deadlines, seats that may act asked in a
    seeded rotation, the first that acts gets the move), with each bot's ``choose``
    timed, so the ladder gives the levels' decision times from the games it plays.
    """
    bots: list[Bot] = [
        make_bot(game, name, derive_seed(seed, _BOT_SALT, seat)) for seat, name in enumerate(names)
    ]
    state = game.new_game(player_names(names), seed, options)
    order = Rng.from_seed(derive_seed(seed, _ORDER_SALT))
    now = 0.0
    for _ in range(MAX_STEPS):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome
        deadline = game.deadline(state)
        if deadline is not None and now >= deadline:
            state, _ = game.tick(state, now)
            continue
        ready: list[tuple[Seat, list[dict[str, Any]]]] = []
        for seat in range(len(bots)):
            legal = game.legal_actions(state, seat)
            if legal:
                ready.append((seat, legal))
        if len(ready) > 1:
            start = order.below(len(ready))
            ready = ready[start:] + ready[:start]
        chosen: tuple[Seat, dict[str, Any]] | None = None
        for seat, legal in ready:
            view = game.view(state, seat, legal=legal)
            started, used = time.perf_counter(), time.process_time()
            action = bots[seat].choose(view)
            timings.add(names[seat], time.perf_counter() - started, time.process_time() - used)
            if action is not None:
                chosen = (seat, action)
                break
        if chosen is None:
            if deadline is None:
                raise StuckGameError(f"{game.title}: no bot acts and no timer (seed {seed})")
            now = deadline
            continue
        seat, action = chosen
        try:
            state, _ = game.apply(state, seat, action, now)
        except IllegalAction as error:
            raise BotMistakeError(
                f"{game.title}: bot {names[seat]!r} at seat {seat} chose {dict(action)!r}, "
                f"which was refused: {error} (seed {seed})"
            ) from error
        now += STEP_SECONDS
    raise TooManyStepsError(f"{game.title}: no end after {MAX_STEPS} steps (seed {seed})")


def series(
    game: Game[Any], high: str, low: str, players: int, games: int, seed: int, timings: Timings
) -> float:
    """The share of ``games`` games the level ``high`` wins against ``low`` (see the docstring)."""
    won = 0.0
    for index in range(games):
        names = seating(high, low, players, index)
        # Mirror series use one name for both groups: tell them apart by seat pattern.
        outcome = play(game, names, derive_seed(seed, _SERIES_SALT, index), timings)
        if high == low:
            group = seating("a", "b", players, index)
            won += high_share(outcome, group, "a")
        else:
            won += high_share(outcome, names, high)
    return won


def matchups(game: Game[Any]) -> list[tuple[str, str]]:
    """(higher, lower) pairs to play: each declared level against the one below, and the
    baseline ``easy`` against ``random``; highest first."""
    levels = bot_levels(game)
    pairs = [(levels[i], levels[i - 1]) for i in range(len(levels) - 1, 0, -1)]
    if levels:
        pairs.append((levels[0], "random"))
    return pairs


def verdict(rate: float, low_ci: float) -> str:
    """``ok`` when the rate meets :data:`GOAL` and its interval is clear of :data:`SHOWN`;
    ``UNSURE`` when the rate does but the interval does not; else ``BELOW``."""
    if rate < GOAL:
        return "BELOW"
    return "ok" if low_ci > SHOWN else "UNSURE"


def table_sizes(game: Game[Any]) -> list[int]:
    """The table sizes the ladder plays: the fewest (at least 2) and the most players."""
    return sorted({max(2, game.min_players), game.max_players})


@dataclass(frozen=True)
class Selection:
    """Which rows to play and how many games each (``None``: every one, the profile's count)."""

    games: int | None = None
    players: frozenset[int] | None = None
    matchups: frozenset[str] | None = None
    seed: int = SEED
    mirror: bool = True


def measure_game(
    name: str, sizes: dict[str, int], selection: Selection | None = None
) -> list[dict[str, Any]]:
    """The ladder rows of one game: every matchup at 2 players and at the most players."""
    pick = selection or Selection()
    game = registry.get(name)
    missing = [level for level in LEVELS if level not in bot_levels(game)]
    rows: list[dict[str, Any]] = []
    for players in table_sizes(game):
        if pick.players is not None and players not in pick.players:
            continue
        games = sizes["games_2p"] if players == 2 else sizes["games_max"]
        if sizes is FULL:
            games = CHEAP_GAMES.get(name, games)
        if pick.games is not None:
            games = pick.games
        group = f"{(players + 1) // 2}v{players // 2}"
        base_seed = derive_seed(pick.seed, sum(map(ord, name)), players)
        pairs = [
            (high, low)
            for high, low in matchups(game)
            if pick.matchups is None or f"{high}>{low}" in pick.matchups
        ]
        mirror = None
        if pick.mirror and pairs and MIRROR_LEVEL in bot_levels(game):
            timings = Timings()
            mirror = series(game, MIRROR_LEVEL, MIRROR_LEVEL, players, games, base_seed, timings)
            mirror /= games
        for high, low in pairs:
            timings = Timings()
            started = time.perf_counter()
            won = series(game, high, low, players, games, base_seed, timings)
            low_ci, high_ci = wilson(won, games)
            rate = won / games
            rows.append(
                {
                    "game": name,
                    "players": players,
                    "seats": group,
                    "matchup": f"{high}>{low}",
                    "games": games,
                    "win_rate": rate,
                    "ci95": f"{low_ci:.2f}-{high_ci:.2f}",
                    "ci_low": low_ci,
                    "ci_high": high_ci,
                    "mirror_rate": "" if mirror is None else mirror,
                    "goal": "baseline" if low == "random" else verdict(rate, low_ci),
                    "hi_p99_ms": timings.p99_ms(high),
                    "seconds": time.perf_counter() - started,
                }
            )
        if missing and pick.matchups is None:
            rows.append(
                {
                    "game": name,
                    "players": players,
                    "seats": group,
                    "matchup": "missing: " + ",".join(missing),
                    "games": 0,
                    "goal": "NO LEVELS",
                }
            )
    return rows


def add_arguments(parser: argparse.ArgumentParser) -> list[str]:
    """The ladder's own flags on ``python -m tests.perf``; returns their names for
    :func:`measure` (see the module docstring)."""
    group = parser.add_argument_group("ladder")
    group.add_argument(
        "--profile", choices=sorted(PROFILES), help="quick (CI), full (default), long (200+)"
    )
    group.add_argument("--games", type=_positive, help="games a matchup at every table size")
    group.add_argument(
        "--game",
        action="append",
        dest="games_named",
        choices=registry.names(),
        metavar="NAME",
        help="only this game",
    )
    group.add_argument(
        "--players", action="append", type=_positive, metavar="N", help="only this table size"
    )
    group.add_argument(
        "--matchup", action="append", metavar="HIGH>LOW", help="only this matchup (hard>normal)"
    )
    group.add_argument("--seed", type=int, default=SEED, help=f"base seed (default {SEED})")
    group.add_argument("--no-mirror", action="store_true", help="skip the easy-vs-easy series")
    return ["profile", "games", "games_named", "players", "matchup", "seed", "no_mirror"]


def _positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {number}")
    return number


def measure(
    quick: bool,
    *,
    profile: str | None = None,
    games: int | None = None,
    games_named: Sequence[str] | None = None,
    players: Sequence[int] | None = None,
    matchup: Sequence[str] | None = None,
    seed: int = SEED,
    no_mirror: bool = False,
) -> Report:
    """The ladder of every registered game (or of ``games_named``); see the module docstring.

    ``quick`` is the ``quick`` profile (CI's smoke test) unless ``profile`` names another.
    """
    sizes = PROFILES[profile or ("quick" if quick else "full")]
    names = list(games_named) if games_named else registry.names()
    unknown = [name for name in names if name not in registry.names()]
    if unknown:
        raise ValueError(f"No game {', '.join(unknown)} (games: {', '.join(registry.names())})")
    selection = Selection(
        games=games,
        players=frozenset(players) if players else None,
        matchups=frozenset(matchup) if matchup else None,
        seed=seed,
        mirror=not no_mirror,
    )
    rows = [row for name in names for row in measure_game(name, sizes, selection)]
    if games is not None:
        counts = f"{games} games a matchup at every table size"
    else:
        counts = (
            f"{sizes['games_2p']} games a matchup at 2 players, "
            f"{sizes['games_max']} at the most players"
            + (
                f" ({', '.join(f'{g} {n}' for g, n in CHEAP_GAMES.items())} at both)"
                if sizes is FULL
                else ""
            )
        )
    return Report(
        name="ladder",
        columns=[
            "game",
            "players",
            "seats",
            "matchup",
            "games",
            "win_rate",
            "ci95",
            "mirror_rate",
            "goal",
            "hi_p99_ms",
            "seconds",
        ],
        rows=rows,
        notes=[
            f"seed {seed}; {counts}"
            + "; seats alternate by level and rotate one seat a game (half the seats each level)",
            "win_rate: the higher level's share of the winners (a shared win across levels "
            f"counts half); ci95: Wilson 95% interval; goal: win_rate >= {GOAL} and the "
            f"interval's low end > {SHOWN} (UNSURE: the rate is there, the interval not)",
            f"mirror_rate: the same seats and seeds with {MIRROR_LEVEL} in both groups "
            "(what 'no better' comes to); easy>random is the baseline row",
            "real-time games: seats asked in a seeded rotation, the first that acts claims "
            "(equal reaction times); hi_p99_ms: the higher level's decision p99",
        ],
    )
