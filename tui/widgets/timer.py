"""A countdown for timed moments (answer windows, Katootsie's ten seconds).

Given a deadline on the local monotonic clock, it redraws a few times a
second and shows whole seconds left plus a bar, so it reads without colour.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

REFRESH_S = 0.2
BAR_WIDTH = 10


class Countdown(Widget):
    """``⏱ 7s ███████░░░``; empty when no deadline is set."""

    DEFAULT_CSS = """
    Countdown { height: 1; width: auto; min-width: 16; }
    """

    deadline: reactive[float | None] = reactive(None)
    """``time.monotonic()`` at which time runs out, or ``None``."""
    total_s: reactive[float] = reactive(10.0)

    def on_mount(self) -> None:
        self.set_interval(REFRESH_S, self.refresh)

    def start(self, seconds: float) -> None:
        self.total_s = max(seconds, 0.001)
        self.deadline = time.monotonic() + seconds

    def stop(self) -> None:
        self.deadline = None

    def left_s(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def render(self) -> Text:
        left = self.left_s()
        if left is None:
            return Text("")
        filled = round(BAR_WIDTH * left / self.total_s)
        style = "bold bright_red" if left < 3 else "bold"
        out = Text(f"⏱ {left:>2.0f}s ", style=style)
        out.append("█" * filled + "░" * (BAR_WIDTH - filled), style=style)
        return out
