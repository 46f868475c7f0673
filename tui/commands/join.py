"""``clowder join HOST[:PORT]``: straight to that host's tables (no LAN search needed)."""

from __future__ import annotations

import argparse

from tui.commands import UsageError
from tui.commands._app import add_bell, add_name, checked_name, need_terminal, run_app
from tui.commands.address import ADDRESS_HELP, BadAddress, address_text, parse_address

PROG = "clowder join"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help=ADDRESS_HELP)
    add_name(parser)
    add_bell(parser)
    parser.add_argument(
        "--only-this-host",
        action="store_true",
        help="play only at this host: c creates tables there, a (another address) is off"
        " (what an SSH gateway's players get)",
    )
    parser.add_argument(
        "--shown-as",
        metavar="HOST[:PORT]",
        help="the address to show and tell others for this host, where it is not HOST"
        " (an SSH gateway passes the one its player reached)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        address = parse_address(args.address)
    except BadAddress as error:
        raise UsageError(f"{PROG}: {error}") from None
    shown = None
    if args.shown_as is not None:
        try:
            shown_host, shown_port = parse_address(args.shown_as, default_port=address[1])
        except BadAddress as error:
            raise UsageError(f"{PROG}: --shown-as: {error}") from None
        shown = address_text(shown_host, shown_port)
    name = checked_name(PROG, args.name)
    need_terminal(PROG)
    from tui.app import ClowderApp

    app = ClowderApp(
        name=name, bell=args.bell, join=address, only_host=args.only_this_host, shown_as=shown
    )
    return run_app(app)
