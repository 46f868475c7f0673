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


def run(args: argparse.Namespace) -> int:
    try:
        address = parse_address(args.address)
    except BadAddress as error:
        raise UsageError(f"{PROG}: {error}") from None
    name = checked_name(PROG, args.name)
    need_terminal(PROG)
    from tui.app import ClowderApp

    return run_app(ClowderApp(name=name, join=address))
