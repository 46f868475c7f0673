"""``clowder join HOST[:PORT]``: straight to that host's tables (no LAN search needed)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
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
        metavar="ssh:PORT|web:HOST[:PORT]",
        help="how the player came in: ssh:PORT, the host's SSH gateway, so their way back"
        " is ssh -p PORT NAME@HOST; web:HOST[:PORT], the host's web page at the address in"
        " the player's browser, so their way back is that page",
    )


DOOR_FORMS = "ssh:PORT with a port from 1 to 65535, or web:HOST[:PORT]"


@dataclass(frozen=True)
class Door:
    """How a gateway's player came in (``--door``): their way back is the same way."""

    ssh: int | None = None
    """``ssh:PORT``: the host's SSH gateway's port."""
    web: tuple[str, int] | None = None
    """``web:HOST[:PORT]``: the host's web page, as the player's browser addressed it (the
    browser's cookie, which is the player, goes to that name only)."""


def door(text: str | None) -> Door:
    """What ``--door`` says; :class:`ValueError` saying what is wrong."""
    if text is None:
        return Door()
    kind, _, rest = text.partition(":")
    if kind == "ssh" and rest.isascii() and rest.isdigit() and 0 < int(rest) < 65536:
        return Door(ssh=int(rest))
    if kind == "web" and rest:
        try:
            return Door(web=parse_address(rest, default_port=80))
        except BadAddress:
            pass
    raise ValueError(f"--door: {DOOR_FORMS}, not {text!r}")


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
        came_by = door(args.door)
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
        ssh_door=came_by.ssh,
        web_page=came_by.web,
    )
    return run_app(app)
