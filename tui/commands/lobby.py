"""``clowder`` / ``clowder lobby``: the lobby (hosts on the LAN and their tables)."""

from __future__ import annotations

import argparse

from tui.commands._app import add_bell, add_name, checked_name, need_terminal, run_app
from tui.commands.reaction import add_bot_reaction, reaction_scale

PROG = "clowder lobby"


def configure(parser: argparse.ArgumentParser) -> None:
    add_name(parser)
    add_bell(parser)
    add_bot_reaction(parser)


def run(args: argparse.Namespace) -> int:
    name = checked_name(PROG, args.name)
    scale = reaction_scale(args.bot_reaction)
    need_terminal(PROG)
    from tui.app import ClowderApp

    return run_app(ClowderApp(name=name, bell=args.bell, bot_reaction_scale=scale))
