"""``clowder scores [--game G]``: the ratings and wins this machine's host keeps, per game.

It reads the scoreboard in the state folder ``clowder host`` uses (the one
``clowder host --reset-scores`` forgets; ``--state-dir`` for another) and
prints one table per game: each player's rating (``net.store.ratings``: openskill's
ordinal on a 1,500 scale), the games it counts, wins and games played; bots
are one row per level. It only reads: no host needs to run, openskill need
not be installed (the stored figures are shown), and a damaged file is
reported, not moved (the host sets it aside when it next starts).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Any

from tui.commands import UsageError

PROG = "clowder scores"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", metavar="GAME", help="only this game (e.g. catchy)")
    parser.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help="a host's state folder (default: the one `clowder host` uses here)",
    )


def chosen_games(game: str | None) -> list[str]:
    """The games to show: ``game`` if it is one, else every game; a typo is a usage error
    that lists the games (and the nearest, when one is near)."""
    from engine import registry

    games = registry.names()
    if game is None:
        return games
    if game in games:
        return [game]
    near = difflib.get_close_matches(game.lower(), games, n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise UsageError(f"{PROG}: there is no game {game!r} (games: {', '.join(games)}){hint}")


def standings_table(title: str, rows: list[dict[str, Any]]) -> Any:
    """One game's rows as a rich table (names as plain text: never read as markup)."""
    from rich.table import Table
    from rich.text import Text

    from net.store.ratings import as_text
    from net.wire.text import clean_text

    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Rating", justify="right")
    table.add_column("Rated", justify="right")
    table.add_column("Wins", justify="right")
    table.add_column("Played", justify="right")
    place = 0
    for row in rows:
        rated = row["rating"] is not None
        place += rated
        table.add_row(
            str(place) if rated else "",
            Text(clean_text(row["name"])),
            as_text(row["rating"]) if rated else "-",
            str(row["rated"]),
            str(row["wins"]),
            str(row["played"]) if row["played"] else "-",
        )
    return table


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from engine import registry
    from net.store.scoreboard import Scoreboard
    from tui.commands.host import default_state_dir

    games = chosen_games(args.game)
    state_dir: Path = args.state_dir or default_state_dir()
    board = Scoreboard(state_dir, read_only=True)
    for notice in board.take_notices():
        print(f"{PROG}: {notice}", file=sys.stderr)
    if not board.path.exists():
        print(f"No scores kept in {state_dir} yet (a host started with `clowder host` keeps them).")
        return 0
    console = Console(highlight=False)
    shown = 0
    for game in games:
        rows = board.standings(game)
        if not rows:
            continue
        shown += 1
        console.print(standings_table(registry.get(game).title, rows))
    if not shown:
        which = registry.get(args.game).title if args.game else "any game"
        print(f"No games of {which} counted in {state_dir} yet.")
    elif not board.data["ratings"]:
        print("No ratings yet: a host rates games when openskill is installed (clowder[ratings]).")
    return 0
