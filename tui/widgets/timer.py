"""A countdown for timed moments (Katootsie's ten seconds, answer and vote windows).

A real-time table (:class:`tui.screens.realtime.RealtimeTable`) starts it
when a timed reveal is drawn on this screen, for the length the view gives:
the host's clock cannot be read here, but the time since the reveal was
drawn can. It looks a few times a second and redraws when what it shows
changed: whole seconds left plus a bar, so it reads without colour; hidden
while nothing is timed.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

REFRESH_S = 0.2
BAR_WIDTH = 10
URGENT_S = 3.0
"""From this many seconds left the countdown is drawn as urgent."""


class Countdown(Widget):
    """``7s ███████░░░``; hidden when no deadline is set.

    No clock sign before the seconds: the stopwatch (U+23F1) is in neither DejaVu nor
    Liberation (the fonts a Debian browser or terminal draws with), only in emoji fonts, so
    a browser without one drew an empty box there (issue 36, item 10)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"countdown--urgent"}

    DEFAULT_CSS = """
    Countdown { height: 1; width: auto; min-width: 16; display: none; }
    Countdown > .countdown--urgent { color: $error; text-style: bold reverse; }
    """

    deadline: reactive[float | None] = reactive(None)
    """:attr:`clock` time at which time runs out, or ``None``."""
    total_s: reactive[float] = reactive(10.0)

    def __init__(
        self, *, keeps_place: bool = False, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.keeps_place = keeps_place
        """Stopped, the bar stays in its place, blank, instead of hiding: showing or hiding
        it moved what is beside it, a new layout of the screen at every timed moment (a
        table whose label beside the bar is blank when nothing is timed looks the same)."""
        if keeps_place:
            self.display = True

    clock = staticmethod(time.monotonic)
    """Seconds on a monotonic clock (a test gives a countdown a clock of its own)."""
    _drawn: tuple[str, int, bool] | None = None
    """What the last frame showed (:meth:`_look`): a tick redraws only when it changes."""

    def on_mount(self) -> None:
        self._ticks = self.set_interval(REFRESH_S, self._tick, pause=self.deadline is None)

    def _tick(self) -> None:
        """Redraw if what would be drawn changed: the whole seconds, the bar's filled cells or
        the urgency. A 60 s window changes about once a second, not at every tick (five frames
        a second for every player at an open letter, each sent on to SSH and browser players)."""
        left = self.left_s()
        if left is None or self._look(left) != self._drawn:
            self.refresh()

    def _look(self, left: float) -> tuple[str, int, bool]:
        """What the countdown shows with ``left`` seconds to go."""
        return f"{left:>2.0f}", round(BAR_WIDTH * left / self.total_s), left < URGENT_S

    def start(self, seconds: float) -> None:
        self.total_s = max(seconds, 0.001)
        self.deadline = self.clock() + seconds
        self.display = True
        ticks = getattr(self, "_ticks", None)
        if ticks is not None:
            ticks.resume()

    def stop(self) -> None:
        """No deadline: the bar hides (or, keeping its place, goes blank); no redraws."""
        self.deadline = None
        if not self.keeps_place:
            self.display = False
        ticks = getattr(self, "_ticks", None)
        if ticks is not None:
            ticks.pause()

    def left_s(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())

    def render(self) -> Text:
        left = self.left_s()
        if left is None:
            self._drawn = None
            return Text("")
        self._drawn = seconds, filled, urgent = self._look(left)
        # Bold here, not in the widget's style: a stopped bar that keeps its place is blank,
        # not bold blanks.
        style = self.get_component_rich_style("countdown--urgent") if urgent else "bold"
        out = Text(f"{seconds}s ", style=style)
        out.append("█" * filled + "░" * (BAR_WIDTH - filled), style=style)
        return out
