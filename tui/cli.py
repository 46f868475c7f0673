"""The ``clowder`` command: parses arguments and hands over to one subcommand.

Subcommands live in :mod:`tui.commands`, one module each, and only the
chosen one is imported: ``clowder --help`` lists them from the table below
without loading any of them. A mistake in the arguments is one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from tui.commands import UsageError

PROG = "clowder"
DISTRIBUTION = "clowder-cards"
"""The name Clowder is installed by (``pip install clowder-cards``): ``clowder`` on the
package index is another project. The command and the import packages keep their names."""
DEFAULT_COMMAND = "lobby"
FRAME_RATE = 120
"""Textual's frame cap (``TEXTUAL_FPS``, default 60). A change waits for the next frame,
so at 60 a new Black Cat card reaches the screen up to 17 ms late, and every
player's reaction is timed from when it was drawn. Frames are only drawn
when something changed, so a higher cap costs nothing at rest. Set before
Textual is imported; a user's own ``TEXTUAL_FPS`` wins."""


def version() -> str:
    """This installation's version: its metadata, or, run from a source tree that was not
    installed (or was, under an older name), the tree's own pyproject.toml."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    except (OSError, ValueError):
        return "unknown"
    found = project.get("version") if project.get("name") == DISTRIBUTION else None
    return str(found) if found else "unknown"


def use_frame_rate() -> None:
    """Ask Textual for :data:`FRAME_RATE` unless the user chose a rate."""
    os.environ.setdefault("TEXTUAL_FPS", str(FRAME_RATE))


# name -> (module, one-line summary shown by `clowder --help`).
COMMANDS: dict[str, tuple[str, str]] = {
    "lobby": (
        "tui.commands.lobby",
        "the lobby: hosts on the LAN and their tables (what plain `clowder` opens)",
    ),
    "play": (
        "tui.commands.play",
        "play a game at once: host it here, sit with bots (or friends), no LAN needed",
    ),
    "learn": (
        "tui.commands.learn",
        "a coached first game of GAME against easy bots: what you may do, and why",
    ),
    "join": ("tui.commands.join", "go straight to the tables of the host at HOST[:PORT]"),
    "room": (
        "tui.commands.room",
        "a host's tables, tonight's standings and how to join, live, for a TV (read-only)",
    ),
    "selfplay": (
        "tui.commands.selfplay",
        "play whole games between bots (no network, no UI) and count the wins",
    ),
    "host": ("tui.commands.host", "run a headless host that others join over the LAN"),
    "discover": ("tui.commands.discover", "list the hosts and tables found on the LAN"),
    "bot": ("tui.commands.bot", "send bots over the network to play at a host's table"),
    "replay": (
        "tui.commands.replay",
        "list the finished games a host keeps, replay one step by step, or --export it",
    ),
    "scores": (
        "tui.commands.scores",
        "the ratings and wins per game that this machine's host keeps",
    ),
}


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors become :class:`UsageError` (one line, status 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


class VersionAction(argparse.Action):
    """``--version``: looked up only when asked (reading metadata costs every other run)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        print(f"{PROG} {version()} ({DISTRIBUTION})")
        parser.exit()


def build_parser(command: str | None) -> Parser:
    """The parser for ``clowder``; only ``command``'s module is imported, to add its arguments."""
    parser = Parser(
        prog=PROG,
        description="Clowder: cat-themed card games played together in terminals over a LAN.",
    )
    parser.add_argument(
        "--version", action=VersionAction, help="print the version of this installation"
    )
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (module_name, summary) in COMMANDS.items():
        child = subcommands.add_parser(name, help=summary, description=summary)
        if name == command:
            importlib.import_module(module_name).configure(child)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``clowder`` with ``argv`` (default: the process's arguments); return the exit status."""
    use_frame_rate()
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or arguments[0] == "--name":
        arguments.insert(0, DEFAULT_COMMAND)  # plain `clowder` opens the lobby
    chosen = next((word for word in arguments if not word.startswith("-")), None)
    command = chosen if chosen in COMMANDS else None
    try:
        parser = build_parser(command)
        try:
            args = parser.parse_args(arguments)
        except SystemExit as finished:  # --help prints and exits; pass its status on.
            return finished.code if isinstance(finished.code, int) else 0
        if command is None:
            known = ", ".join(COMMANDS)
            raise UsageError(f"{PROG}: choose a command ({known}); see '{PROG} --help'")
        status: int = importlib.import_module(COMMANDS[command][0]).run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `clowder learn | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 0
    return status
