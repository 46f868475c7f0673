"""``clowder scores [--game G] [--tonight]``: the ratings and wins this machine's host
keeps, per game; with ``--tonight``, tonight's standings (``net.store.night``).

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
        "--tonight",
        action="store_true",
        help="tonight's standings: games, wins and rating changes since the night began",
    )
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


def tonight_table(data: dict[str, Any]) -> Any:
    """Tonight's standings as a rich table: games, wins, each game's rating change."""
    from rich.table import Table
    from rich.text import Text

    from net.wire.text import clean_text

    games = int(data.get("games") or 0)
    table = Table(title=f"Tonight: {games} game{'s' if games != 1 else ''}", title_justify="left")
    table.add_column("Player")
    table.add_column("Wins", justify="right")
    table.add_column("Games", justify="right")
    table.add_column("Rating changes")
    for row in data.get("standings") or []:
        changes = [c.get("change") for c in row.get("changes", [])]
        shown = " ".join("-" if c is None else f"{c:+d}" for c in changes)
        name = clean_text(str(row["name"])) + (" (bot)" if row.get("bot") else "")
        table.add_row(Text(name), str(row["wins"]), str(row["games"]), shown)
    return table


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from engine import registry
    from net.store.scoreboard import Scoreboard
    from tui.commands.host import default_state_dir

    games = chosen_games(args.game)
    state_dir: Path = args.state_dir or default_state_dir()
    if args.tonight:
        from net.store.night import read_night

        night = read_night(state_dir)
        if night is None or not night.games:
            print(f"No game finished tonight on the host whose state is in {state_dir}.")
            return 0
        Console(highlight=False).print(tonight_table(night.to_data()))
        return 0
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
        print(
            "No ratings yet: a host rates games when openskill is installed "
            "(clowder-cards[ratings])."
        )
    return 0
