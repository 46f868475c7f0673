"""What happened: the game's log lines, newest at the bottom, without redrawing old ones.

The engine sends the latest N lines on every view (a sliding window); this
widget appends only the lines it has not shown yet, so the log never jumps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Self

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog

from tui.log_window import new_lines


class GameLog(RichLog):
    """A scrolling log fed whole windows of lines (:meth:`show`)."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; scrollbar-size-vertical: 1; }
    """
    can_focus = False
    """The keys belong to the table (arrows pick cards); the mouse wheel still scrolls."""

    KEEP: ClassVar[int] = 300
    """How many written lines are kept to wrap again when the width changes."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, min_width=10)
        self._shown: list[str] = []
        self._written: list[RenderableType] = []
        """What was written (game lines, chat), newest last: RichLog keeps only the
        wrapped rows, so a change of width wraps these again (:meth:`on_resize`)."""
        self._wrapped_at = 0
        """The width the kept lines were last wrapped at (0: not yet)."""
        self._rewrapping = False

    def write(self, content: Any, *args: Any, **kwargs: Any) -> Self:
        if not self._rewrapping:
            self._written = [*self._written[-(self.KEEP - 1) :], content]
        return super().write(content, *args, **kwargs)

    def clear(self) -> Self:
        self._written = []
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        """Wrap every kept line again at a new width (a log first laid out narrow, as when
        a board appears after the waiting room, kept its lines cut at ten columns)."""
        self._rewrapping = True
        try:
            super().on_resize(event)  # the writes made before the size was known
            width = self.scrollable_content_region.width
            if self._wrapped_at and width and width != self._wrapped_at:
                super().clear()
                for content in self._written:
                    super().write(content, scroll_end=False)
                self.scroll_end(animate=False, immediate=True)
            if width:
                self._wrapped_at = width
        finally:
            self._rewrapping = False

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
