"""``clowder discover``: list the Clowder hosts and open tables on the LAN."""

from __future__ import annotations

import argparse
import asyncio
import json

from tui.commands import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=1.5,
        metavar="S",
        help="how long to listen (default: %(default)s s)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from net.client.discovery import DiscoveryError, discover

    if not 0 < args.timeout <= 60:
        raise UsageError(f"--timeout is more than 0 and at most 60 seconds, not {args.timeout}")
    try:
        hosts = asyncio.run(discover(args.timeout))
    except DiscoveryError as error:
        print(f"clowder discover: {error}", flush=True)
        return 1
    if args.json:
        rows = [
            {
                "name": host.name,
                "addresses": list(host.addresses),
                "port": host.port,
                "protocol": host.protocol_version,
                "games": list(host.games),
                "tables": host.table_count,
                "ssh": host.ssh_port,
                "web": host.web_port,
                "open": [
                    {"id": t.table_id, "game": t.game, "free": t.free_seats}
                    for t in host.open_tables
                ],
            }
            for host in hosts
        ]
        print(json.dumps({"hosts": rows}), flush=True)
        return 0
    if not hosts:
        print("No Clowder hosts found. Join by address: clowder join HOST[:PORT]", flush=True)
        return 0
    for host in hosts:
        count = host.table_count or 0
        tables = "1 table" if count == 1 else f"{count} tables"
        print(f"{host.name}  {host.endpoint}  ({tables})", flush=True)
        if host.ssh_command is not None:
            print(f"    no Python? {host.ssh_command}", flush=True)
        if host.web_url is not None:
            print(f"    in a browser: {host.web_url}", flush=True)
        for table in host.open_tables:
            seats = "1 free seat" if table.free_seats == 1 else f"{table.free_seats} free seats"
            print(f"    {table.table_id}  {table.game:<10} {seats}", flush=True)
        if host.open_tables_omitted:
            print(f"    ... and {host.open_tables_omitted} more", flush=True)
    return 0
