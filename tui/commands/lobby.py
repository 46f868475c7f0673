"""``clowder`` / ``clowder lobby``: the lobby (hosts on the LAN and their tables)."""

from __future__ import annotations

import argparse

from tui.commands._app import add_name, checked_name, need_terminal, run_app

PROG = "clowder lobby"


def configure(parser: argparse.ArgumentParser) -> None:
    add_name(parser)


def run(args: argparse.Namespace) -> int:
    name = checked_name(PROG, args.name)
    need_terminal(PROG)
    from tui.app import ClowderApp

    return run_app(ClowderApp(name=name))
