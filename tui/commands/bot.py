"""``clowder bot HOST[:PORT] --table ID``: bots that join over the network and play."""

from __future__ import annotations

import argparse
import asyncio

from tui.commands import UsageError
from tui.commands.address import ADDRESS_HELP, BadAddress, parse_address
from tui.commands.level import add_bot_level
from tui.commands.reaction import add_bot_reaction, reaction_scale

PROG = "clowder bot"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help=ADDRESS_HELP)
    parser.add_argument(
        "--table",
        required=True,
        metavar="ID",
        help="the table to join, e.g. t1 (see 'clowder discover')",
    )
    parser.add_argument(
        "--seats",
        type=int,
        default=1,
        metavar="N",
        help="how many bots join (default: %(default)s)",
    )
    parser.add_argument(
        "--bot", metavar="NAME", help="which bot plays (default: the --bot-level's, normal)"
    )
    add_bot_level(parser)
    parser.add_argument(
        "--delay",
        type=float,
        default=0.3,
        metavar="S",
        help="seconds each bot waits before it acts (default: %(default)s)",
    )
    add_bot_reaction(parser)
    parser.add_argument(
        "--name", default="NetBot", help="name prefix of the bots (default: %(default)s)"
    )


def run(args: argparse.Namespace) -> int:
    from net.client.client import ClientError
    from net.client.netbot import play_seats

    try:
        host, port = parse_address(args.address)
    except BadAddress as error:
        raise UsageError(f"{PROG}: {error}") from None
    if not 1 <= args.seats <= 10:
        raise UsageError(f"--seats is 1 to 10, not {args.seats}")
    if args.delay < 0:
        raise UsageError("--delay cannot be negative")
    scale = reaction_scale(args.bot_reaction)
    if args.bot is not None and args.bot_level is not None and args.bot != args.bot_level:
        raise UsageError(f"{PROG}: give --bot or --bot-level, not both")
    names = [f"{args.name} {i + 1}" for i in range(args.seats)]
    try:
        outcomes = asyncio.run(
            play_seats(
                host,
                port,
                args.table,
                args.seats,
                bot=args.bot or args.bot_level,
                delay_s=args.delay,
                reaction_scale=scale,
                names=names,
            )
        )
    except ClientError as error:
        print(f"clowder bot: {error.message}", flush=True)
        return 1
    except ValueError as error:  # an unknown bot name
        raise UsageError(str(error)) from None
    outcome = outcomes[0]
    print(f"game over: scores {outcome['scores']}, winning seats {outcome['winners']}", flush=True)
    return 0
