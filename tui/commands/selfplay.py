"""``clowder selfplay``: whole games between bots, no network, no UI.

The engine plays on a simulated clock (:mod:`engine.selfplay`); the wall
clock read here only measures how fast that went.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from engine import registry
from engine.bots import bot_names, default_bot
from engine.core import Game, InvalidOptions
from engine.selfplay import SelfplayError, Summary, play_many
from tui.commands import UsageError

PROG = "clowder selfplay"
DEFAULT_GAMES = 100
DEFAULT_SEED = 1


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``selfplay``'s arguments."""
    parser.add_argument("game", metavar="GAME", help=f"the game ({', '.join(registry.names())})")
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="how many seats (default: one per --bot given, else the game's fewest)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        metavar="K",
        help="how many games to play (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="S",
        help="the series' seed: the same seed gives the same results (default: %(default)s)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        dest="bots",
        default=[],
        metavar="NAME",
        help="the bot for the next seat (repeat, one per seat); given once, it plays every "
        "seat; default: the game's best bot in every seat",
    )


def run(args: argparse.Namespace) -> int:
    """Play the series, print the results; exit status 2 for bad arguments."""
    game = _game(args.game)
    seats = _seat_bots(game, args.players, list(args.bots))
    if args.games < 1:
        raise UsageError(f"{PROG}: --games must be at least 1, not {args.games}")
    started = time.perf_counter()
    try:
        summary = play_many(game.name, seats, args.games, args.seed)
    except (SelfplayError, InvalidOptions) as error:
        print(f"{PROG}: {error}")
        return 1
    elapsed = time.perf_counter() - started
    print(report(game, summary, elapsed))
    return 0


def _game(name: str) -> Game[Any]:
    try:
        return registry.get(name)
    except registry.UnknownGame as error:
        raise UsageError(f"{PROG}: {error}") from None


def _seat_bots(game: Game[Any], players: int | None, bots: list[str]) -> list[str]:
    """One bot name per seat, from --players and the --bot list."""
    if players is None:
        players = len(bots) if len(bots) > 1 else game.min_players
    if not game.min_players <= players <= game.max_players:
        low, high = game.min_players, game.max_players
        span = f"{low}" if low == high else f"{low} to {high}"
        raise UsageError(f"{PROG}: {game.title} is for {span} players, not {players}")
    if not bots:
        bots = [default_bot(game.name)]
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise UsageError(
            f"{PROG}: give one --bot for every seat or a single one for all "
            f"({len(bots)} bots for {players} players)"
        )
    known = bot_names(game.name)
    for name in bots:
        if name not in known:
            raise UsageError(
                f"{PROG}: there is no bot {name!r} for {game.name} (bots: {', '.join(known)})"
            )
    return bots


def report(game: Game[Any], summary: Summary, elapsed: float) -> str:
    """The results as a small table: each seat's wins and share, then the speed."""
    lines = [
        f"{game.title} selfplay: {summary.games} games, seed {summary.seed}",
        f"{'seat':<5} {'bot':<12} {'wins':>7} {'%':>7} {'shared':>7}",
    ]
    for seat, bot in enumerate(summary.bots):
        lines.append(
            f"{seat + 1:<5} {bot:<12} {summary.wins[seat]:>7} "
            f"{100 * summary.win_rate(seat):>6.1f}% {summary.shared_wins[seat]:>7}"
        )
    lines.append(
        f"{summary.shared_games} games won jointly (each winner counted); "
        f"{summary.draws} with no winner"
    )
    speed = summary.games / elapsed if elapsed > 0 else float("inf")
    actions = summary.actions / elapsed if elapsed > 0 else float("inf")
    lines.append(
        f"{summary.games:,} games, {summary.actions:,} actions in {elapsed:.2f} s: "
        f"{speed:,.0f} games/s, {actions:,.0f} actions/s"
    )
    return "\n".join(lines)
