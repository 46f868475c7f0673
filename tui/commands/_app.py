"""What the UI commands (``lobby``, ``play``, ``learn``, ``join``) share: ``--name``,
``--bell`` and running the app."""

from __future__ import annotations

import argparse
import os
import sys

from tui.commands import UsageError


def add_name(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name",
        metavar="NAME",
        help="your name at the table (default: the one remembered, else asked once)",
    )


def add_bell(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bell",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ring the terminal's bell when it is your turn or a card or letter is turned "
        "(default: your setting, on until the lobby's b turns it off)",
    )


def checked_name(prog: str, name: str | None) -> str | None:
    if name is None:
        return None
    from tui.config import BadName, clean_name

    try:
        return clean_name(name)
    except BadName as error:
        raise UsageError(f"{prog}: {error}") from None


def run_app(app: object) -> int:
    """Run a :class:`tui.app.ClowderApp`; its exit message (if any) goes to stderr."""
    from tui.app import ClowderApp

    assert isinstance(app, ClowderApp)
    status = app.run()
    return status if isinstance(status, int) else (app.return_code or 0)


WEB_DRIVER_PREFIX = "textual.drivers.web_driver"
"""A client a browser page runs (``clowder host --web``) draws through Textual's web driver:
its standard streams are pipes to the web gateway, not a terminal, and that is right."""


def need_terminal(prog: str) -> None:
    if os.environ.get("TEXTUAL_DRIVER", "").startswith(WEB_DRIVER_PREFIX):
        return
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(f"{prog}: needs a terminal (it draws a full-screen UI)")
