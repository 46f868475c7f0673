"""``clowder join HOST[:PORT]``: straight to that host's tables (no LAN search needed)."""

from __future__ import annotations

import argparse
from pathlib import Path

from net.wire.text import unsafe_char
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

    # What an SSH gateway passes its player's client (net.doors.ssh_gateway.client_command):
    parser.add_argument(
        "--ask-name",
        metavar="USER",
        help="ask the player's name first: USER (their SSH user name) cannot be it, a word"
        ' such as "you" or the name of someone playing here now',
    )
    parser.add_argument(
        "--player-folders",
        metavar="DIR",
        type=Path,
        help="with --ask-name: keep the settings and seats in the folder under DIR of the"
        " name given (an SSH gateway's players' folders)",
    )
    parser.add_argument(
        "--ssh-key",
        metavar="FINGERPRINT",
        help="with --player-folders: the player's SSH key, part of their folder's name",
    )
    parser.add_argument(
        "--door",
        metavar="ssh:PORT",
        help="how the player came in: ssh:PORT, the host's SSH gateway, so their way back"
        " is ssh -p PORT NAME@HOST",
    )


def ssh_door(text: str | None) -> int | None:
    """The port of ``--door=ssh:PORT``; :class:`ValueError` saying what is wrong."""
    if text is None:
        return None
    kind, _, port = text.partition(":")
    if kind != "ssh" or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--door: ssh:PORT with a port from 1 to 65535, not {text!r}")
    return int(port)


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
    try:
        door = ssh_door(args.door)
    except ValueError as error:
        raise UsageError(f"{PROG}: {error}") from None
    ask = args.ask_name
    if ask is not None:
        if name is not None:
            raise UsageError(f"{PROG}: --ask-name asks the name --name gives: one or the other")
        if not ask or unsafe_char(ask) is not None:
            raise UsageError(f"{PROG}: --ask-name: a user name of one line, not {ask!r}")
    elif args.player_folders is not None or args.ssh_key is not None:
        raise UsageError(f"{PROG}: --player-folders and --ssh-key go with --ask-name")
    if args.ssh_key is not None and (not args.ssh_key or unsafe_char(args.ssh_key)):
        raise UsageError(f"{PROG}: --ssh-key: a key's fingerprint, not {args.ssh_key!r}")
    need_terminal(PROG)
    from tui.app import ClowderApp

    app = ClowderApp(
        name=name,
        bell=args.bell,
        join=address,
        only_host=args.only_this_host,
        shown_as=shown,
        ask_name=ask,
        player_folders=args.player_folders,
        ssh_key=args.ssh_key,
        ssh_door=door,
    )
    return run_app(app)
