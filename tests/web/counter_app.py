"""A tiny Textual app for the browser harness's own test, served one process per session.

It shows "Count: N" (N starts at 0), adds one on "+", and on "q" shows "Bye" and then
exits after a short pause, so a test can see the last screen before the session ends.
Run as ``python -m tests.web.counter_app``; with ``--pid-file PATH`` it first writes its
process id there, so that a test can check the process has ended.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

# How long "Bye" stays on screen before the app exits, in seconds.
BYE_SECONDS = 0.5


class CounterApp(App[None]):
    """Shows a count and the terminal's size; "+" counts up, "q" says "Bye" and exits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus", "count", "Count"),
        Binding("q", "bye", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Static(self._label(), id="count")
        yield Static("", id="size")

    def on_mount(self) -> None:
        self._show_size()

    def on_resize(self) -> None:
        self._show_size()

    def _label(self) -> str:
        return f"Count: {self.count}"

    def _show_size(self) -> None:
        self.query_one("#size", Static).update(f"Size: {self.size.width}x{self.size.height}")

    def action_count(self) -> None:
        self.count += 1
        self.query_one("#count", Static).update(self._label())

    def action_bye(self) -> None:
        self.query_one("#count", Static).update("Bye")
        self.set_timer(BYE_SECONDS, self.exit)


def main(argv: list[str] | None = None) -> None:
    """Runs the app; writes this process's id to --pid-file first, where given."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pid-file", type=Path, help="write this process's id here")
    args = parser.parse_args(argv)
    if args.pid_file is not None:
        args.pid_file.write_text(f"{os.getpid()}\n", encoding="utf-8")
    CounterApp().run()


if __name__ == "__main__":
    main()
