"""``clowder join HOST[:PORT]``: straight to that host's tables (no LAN search needed)."""

from __future__ import annotations

import argparse

from tui.commands import UsageError
from tui.commands._app import add_name, checked_name, need_terminal, run_app
from tui.commands.address import ADDRESS_HELP, BadAddress, parse_address

PROG = "clowder join"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help=ADDRESS_HELP)
    add_name(parser)
    parser.add_argument(
        "--only-this-host",
        action="store_true",
        help="play only at this host: c creates tables there, a (another address) is off"
        " (what an SSH gateway's players get)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        address = parse_address(args.address)
    except BadAddress as error:
        raise UsageError(f"{PROG}: {error}") from None
    name = checked_name(PROG, args.name)
    need_terminal(PROG)
    from tui.app import ClowderApp

    return run_app(ClowderApp(name=name, join=address, only_host=args.only_this_host))
