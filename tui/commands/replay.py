"""``clowder replay [TABLE]``: the finished games a host archived, and one of them replayed.

Where from: a host's state folder (``--state-dir``, default the one
``clowder host`` uses) or a running host (``--host HOST[:PORT]``, over the
protocol's ``list_replays``/``get_replay``). Without ``TABLE`` it lists the
finished games; with it, it opens the replay screen
(:mod:`tui.screens.replay`), or with ``--export FILE`` writes the game as
JSON lines (seed, options, each action, the chat and rulings, the public log
and the outcome) and opens nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from tui.commands import UsageError
from tui.commands._app import need_terminal
from tui.commands.address import ADDRESS_HELP, BadAddress, parse_address

PROG = "clowder replay"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", nargs="?", metavar="TABLE", help="the table to replay (t12)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help="a host's state folder (default: the one `clowder host` uses here)",
    )
    where.add_argument("--host", metavar="HOST[:PORT]", help="a running host: " + ADDRESS_HELP)
    parser.add_argument("--export", type=Path, metavar="FILE", help="write JSON lines, no UI")
    parser.add_argument("--move", type=int, default=0, metavar="N", help="open at move N")
    parser.add_argument("--json", action="store_true", help="list as one JSON object")


async def _from_host(address: tuple[str, int], table: str | None) -> Any:
    from net.client.client import Client, ClientError

    client = Client(address[0], address[1], "replay", reconnect=False)
    try:
        await client.connect()
        return await (client.get_replay(table) if table else client.list_replays())
    except ClientError as error:
        raise UsageError(f"{PROG}: {error}") from None
    finally:
        await client.close()


def fetch(args: argparse.Namespace) -> Any:
    """The list of finished games (no table given) or one game's record."""
    from net.store.replays import GameRecord, ReplayError, local_get, local_list

    if args.host is not None:
        try:
            address = parse_address(args.host)
        except BadAddress as error:
            raise UsageError(f"{PROG}: {error}") from None
        found = asyncio.run(_from_host(address, args.table))
        return GameRecord.from_data(found) if args.table else found
    from tui.commands.host import default_state_dir

    state_dir: Path = args.state_dir or default_state_dir()
    if args.table is None:
        return local_list(state_dir)
    try:
        return local_get(state_dir, args.table)
    except ReplayError as error:
        raise UsageError(f"{PROG}: {error}") from None


def print_list(rows: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        print(json.dumps({"replays": rows}), flush=True)
        return
    if not rows:
        print("No finished games here yet.", flush=True)
        return
    for row in rows:
        winners = " and ".join(row.get("winners") or []) or "nobody"
        players = ", ".join(row.get("players") or [])
        print(
            f"{row.get('table')}  {row.get('title', row.get('game'))}: {players}; "
            f"won by {winners} ({row.get('moves')} moves)",
            flush=True,
        )


def run(args: argparse.Namespace) -> int:
    from net.store.replays import Replayer, ReplayError, export_lines

    if args.export is not None and args.table is None:
        raise UsageError(f"{PROG}: --export needs the TABLE to export")
    found = fetch(args)
    if args.table is None:
        print_list(found, args.json)
        return 0
    try:
        replayer = Replayer(found)
    except ReplayError as error:
        raise UsageError(f"{PROG}: {error}") from None
    if args.export is not None:
        with open(args.export, "w", encoding="utf-8") as out:
            for line in export_lines(found):
                out.write(json.dumps(line, default=str) + "\n")
        print(f"Wrote {args.export} ({replayer.last} moves)", flush=True)
        return 0
    need_terminal(PROG)
    from tui.screens.replay import ReplayApp

    ReplayApp(replayer, index=args.move).run()
    return 0
