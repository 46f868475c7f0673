"""``clowder room HOST[:PORT]``: a host's evening on a TV, a projector or a spare terminal.

The room screen (:mod:`tui.screens.room`): the host's tables (game, people, status,
phase, scores), tonight's standings and the ways to join, updated live. It is read-only:
it asks no name, takes no seat and watches no table. A host started with ``--web``
serves the same screen to a browser at ``http://HOST:8080/room``.
"""

from __future__ import annotations

import argparse

from tui.commands import UsageError
from tui.commands._app import need_terminal
from tui.commands.address import ADDRESS_HELP, BadAddress, parse_address

PROG = "clowder room"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help=ADDRESS_HELP)
    parser.add_argument(
        "--shown-as",
        metavar="HOST[:PORT]",
        help="the address to show people for joining, where it is not HOST"
        " (the web door passes the one the browser reached)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        address = parse_address(args.address)
    except BadAddress as error:
        raise UsageError(f"{PROG}: {error}") from None
    shown = None
    if args.shown_as is not None:
        try:
            shown = parse_address(args.shown_as, default_port=address[1])
        except BadAddress as error:
            raise UsageError(f"{PROG}: --shown-as: {error}") from None
    need_terminal(PROG)
    from tui.room import RoomApp

    status = RoomApp(address, shown_as=shown).run()
    return status if isinstance(status, int) else 0
