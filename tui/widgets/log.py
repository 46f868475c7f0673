"""What happened: the game's log lines, newest at the bottom, without redrawing old ones.

The engine sends the latest N lines on every view (a sliding window); this
widget appends only the lines it has not shown yet, so the log never jumps.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import RichLog


def new_lines(shown: Sequence[str], latest: Sequence[str]) -> list[str] | None:
    """The lines of ``latest`` after what ``shown`` ends with, or ``None`` if they do not join.

    ``latest`` is a window over the same growing log: the longest tail of
    ``shown`` that is a head of ``latest`` is where they overlap.
    """
    if not shown:
        return list(latest)
    for overlap in range(min(len(shown), len(latest)), 0, -1):
        if list(shown[-overlap:]) == list(latest[:overlap]):
            return list(latest[overlap:])
    return None


class GameLog(RichLog):
    """A scrolling log fed whole windows of lines (:meth:`show`)."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; scrollbar-size-vertical: 1; }
    """
    can_focus = False
    """The keys belong to the table (arrows pick cards); the mouse wheel still scrolls."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, min_width=10)
        self._shown: list[str] = []

    def show(self, lines: Sequence[str]) -> None:
        """Make the log end with ``lines`` (appending only what is new)."""
        extra = new_lines(self._shown, lines)
        if extra is None:
            self.clear()
            extra = list(lines)
            self._shown = []
        for line in extra:
            self.write(line)
        self._shown = (self._shown + extra)[-200:]
