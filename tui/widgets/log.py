"""What happened: the game's log lines, newest at the bottom, without redrawing old ones.

The engine sends the latest N lines on every view (a sliding window); this
widget appends only the lines it has not shown yet, so the log never jumps.

Appending costs one repaint of the log and nothing else: Textual's ``RichLog``
asks for a new layout of the whole screen at every line (its scrollable
height changed) and scrolls to the new line one frame later, so each view
with a new line was drawn twice. The log's size on screen never depends on
its lines (the stylesheet sets it, and its scroll bar is always there), so
here a line only moves the scroll range and the view to the end, at once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, ClassVar, Self

from rich.color import Color
from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widgets import RichLog

from tui.log_window import new_lines


def runs(rows: Sequence[int]) -> Iterator[tuple[int, int]]:
    """``rows`` (ascending) as runs of consecutive rows, each ``(first, past the last)``:
    ``[0, 14]`` is two runs, not the fifteen rows between (a log's top border and its
    newest line were drawn as every row of the log)."""
    start = end = -1
    for row in rows:
        if row != end:  # a run begins
            if start < end:
                yield start, end
            start = row
        end = row + 1
    if start < end:
        yield start, end


class LogScrollBar(ScrollBar):
    """The log's scroll bar, its rows made straight from the bar's segments.

    Every line appended moves the bar, and Textual draws it through Rich's console
    (a renderable made, rendered, split into lines), about a millisecond each time;
    these are the same segments in the same styles (the bar's over the widget's),
    made directly. A test compares them with Textual's own.
    """

    fast_lines = True
    """Whether the rows are made here (else by Textual: tests compare both)."""

    _rows: list[Strip] | None = None
    _held = 0
    _asked = False

    @contextmanager
    def held(self) -> Iterator[None]:
        """Repaints asked for inside are one, when the block ends: a line appended moves
        the bar three times (its range, the window, the position to the end), and a view
        appends several lines; each move made the bar's rows again to compare them."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
            if not self._held and self._asked:
                self._asked = False
                self.refresh()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """A move of the bar repaints the rows that changed: a line appended moves the bar
        (its range grows, its position follows the end) and the thumb seldom crosses a
        cell, but Textual repainted all of the bar's rows each time."""
        if self._held and repaint and not (regions or layout or recompose):
            self._asked = True
            return self
        rows = self._rows
        if (
            regions
            or layout
            or recompose
            or not repaint
            or not self.fast_lines
            or not self.vertical
            or rows is None
            or not self.is_mounted
        ):
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        new = self._make_rows()
        if len(new) != len(rows) or any(
            a.cell_length != b.cell_length for a, b in zip(new, rows, strict=False)
        ):
            return super().refresh()
        self._rows = new
        changed = [
            Region(0, y, self.size.width, 1)
            for y, (a, b) in enumerate(zip(rows, new, strict=True))
            if a != b
        ]
        if changed:
            super().refresh(*changed)
        return self

    def render_line(self, y: int) -> Strip:
        if not self.fast_lines or not self.vertical:
            return super().render_line(y)
        if self._dirty_regions or self._rows is None:
            self._rows = self._make_rows()
            self._dirty_regions.clear()
        rows = self._rows
        if y < len(rows):
            return rows[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _make_rows(self) -> list[Strip]:
        bar = self.render()
        width, height = self.size
        if not isinstance(bar, ScrollBarRender) or not width:
            return [Strip.blank(width, self.visual_style.rich_style)] * height
        base = self.visual_style.rich_style
        style = self.app.console.get_style(bar.style)
        drawn = bar.render_bar(
            size=height,
            window_size=bar.window_size,
            virtual_size=bar.virtual_size,
            position=bar.position,
            vertical=True,
            thickness=width,
            back_color=style.bgcolor or Color.parse("#555555"),
            bar_color=style.color or Color.parse("bright_magenta"),
        )
        return [
            Strip([Segment(segment.text, base + segment.style)], width)
            for segment in drawn.segments[:height]
        ]


class GameLog(RichLog):
    """A scrolling log fed whole windows of lines (:meth:`show`)."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; scrollbar-size-vertical: 1; overflow-y: scroll; }
    """
    can_focus = False
    """The keys belong to the table (arrows pick cards); the mouse wheel still scrolls."""

    KEEP: ClassVar[int] = 300
    """How many written lines are kept to wrap again when the width changes."""
    MAX_ROWS: ClassVar[int] = 600
    """Rows (wrapped lines) kept for scrolling back; older ones are dropped (a long game's
    log would otherwise grow for as long as the table lasts)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, wrap=True, markup=False, min_width=10, max_lines=self.MAX_ROWS
        )
        self._shown: list[str] = []
        self._written: deque[RenderableType] = deque(maxlen=self.KEEP)
        """What was written (game lines, chat), newest last: RichLog keeps only the
        wrapped rows, so a change of width wraps these again (:meth:`on_resize`)."""
        self._wrapped_at = 0
        """The width the kept lines were last wrapped at (0: not yet)."""
        self._rows_seen = 0
        """The log's height (rows) when last laid out (0: not yet)."""
        self._rewrapping = False
        self._appending = False
        """Inside :meth:`write`: the scroll range changes, the widget's size does not."""
        self._styled: LRUCache[tuple[int, int, int, int, Style], Strip] = LRUCache(1024)
        """Rows as drawn (in the log's style), by row number, scroll, width: scrolling by a
        line draws every row on screen again, and each was made anew at every frame."""
        self._style_kept: tuple[object, Style] | None = None
        self._finished: dict[int, Strip] = {}
        """Rows as the screen shows them (the widget's styles, background and the app's
        filters applied: :meth:`render_lines`), by line number, for one :attr:`_look`."""
        self._look: tuple[object, ...] | None = None

    def write(
        self,
        content: Any,
        width: int | None = None,
        expand: bool = False,
        shrink: bool = True,
        scroll_end: bool | None = None,
        animate: bool = False,
    ) -> Self:
        """Append ``content`` and, as ``RichLog`` does, show the end: in this frame."""
        if not self._rewrapping:
            self._written.append(content)
        if width is None and self._size_known and not self.scrollable_content_region.width:
            # Hidden (a waiting room over the board): RichLog would cut the line at
            # min_width, ten columns, and showing the log again at its old size is no
            # change of width to wrap again at. The width it had is the one it comes back at.
            width = self._wrapped_at or None
        with self._bar_held():
            self._appending = True
            try:
                super().write(content, width, expand, shrink, scroll_end=False)
            finally:
                self._appending = False
            if self._size_known:
                self._scroll_update(self.virtual_size)  # the scroll bar's range
                if self.auto_scroll if scroll_end is None else scroll_end:
                    self.scroll_to_end()
        return self

    def _bar_held(self) -> AbstractContextManager[None]:
        """The scroll bar's repaints held to one (:meth:`LogScrollBar.held`), if it has one."""
        bar = self._vertical_scrollbar
        return bar.held() if isinstance(bar, LogScrollBar) else nullcontext()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """A line appended repaints the log; it never needs the screen laid out again."""
        if self._appending:
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def clear(self) -> Self:
        self._written.clear()
        self._styled.clear()
        self._finished.clear()
        return super().clear()

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """The log's scroll bar: a :class:`LogScrollBar` (made as Textual makes its own)."""
        if self._vertical_scrollbar is None:
            bar = LogScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self._vertical_scrollbar = bar
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styled.clear()
        self._style_kept = None
        self._look = None

    def _row_style(self) -> Style:
        """The log's own style (``rich_style``: every ancestor's styles added up, at each
        call), kept while its styles are the same, as Textual keeps ``visual_style``."""
        kept = self._style_kept
        key = self.styles._cache_key
        if kept is None or kept[0] != key:
            kept = self._style_kept = (key, self.rich_style)
        return kept[1]

    def render_line(self, y: int) -> Strip:
        """Row ``y`` on screen, as ``RichLog`` draws it, kept while the row is the same."""
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        if row >= len(self.lines):
            return super().render_line(y)
        width = self.scrollable_content_region.width
        style = self._row_style()
        key = (row + self._start_line, scroll_x, width, self._widest_line_width, style)
        strip = self._styled.get(key)
        if strip is None:
            strip = self._styled[key] = super().render_line(y)
        return strip

    fast_lines = True
    """Whether :meth:`render_lines` reuses finished rows (else Textual's way: tests compare)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop`` as Textual draws them, each finished row kept by its line.

        A new line scrolls the log by a row, which makes every row on screen new to Textual's
        per-widget cache (it keeps rows by their place on screen): each was styled again, a
        tenth of a millisecond a row, most of a view's drawing. Here a row of the log is
        finished once and kept by its line number while the log's look (size, scroll column,
        styles, background, the app's filters) is the same; rows that are not a line (a
        border, the blank rows under a short log) are Textual's every time."""
        if not self.fast_lines:
            return super().render_lines(crop)
        width = self.size.width
        look = (
            self.size,
            self.scroll_offset.x,
            self._widest_line_width,
            self.styles._cache_key,
            self.background_colors,
            self._row_style(),
            tuple(self.get_line_filters()),
        )
        if look != self._look:
            self._finished.clear()
            self._look = look
        top = self.styles.gutter.top
        bottom = top + self.scrollable_content_region.height
        first = self.scroll_offset.y - top  # the line shown at row y is first + y
        count = len(self.lines)
        lines = {  # row -> the number of the line it shows (rows showing one)
            y: first + y + self._start_line
            for y in crop.line_range
            if top <= y < bottom and 0 <= first + y < count
        }
        finished = self._finished
        kept = {y: finished[line] for y, line in lines.items() if line in finished}
        missing = [y for y in crop.line_range if y not in kept]
        for start, end in runs(missing):  # Textual's rows, a call for each run of them
            made = super().render_lines(Region(0, start, width, end - start))
            for y in range(start, end):
                kept[y] = made[y - start]
                if y in lines:
                    finished[lines[y]] = kept[y]
        strips = [kept[y] for y in crop.line_range]
        if len(finished) > 4 * self.MAX_ROWS:
            finished.clear()  # lines long gone (the log keeps MAX_ROWS)
        x1, x2 = crop.column_span
        if (x1, x2) != (0, width):
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def on_resize(self, event: Resize) -> None:
        """Wrap every kept line again at a new width (a log first laid out narrow, as when
        a board appears after the waiting room, kept its lines cut at ten columns), and keep
        the newest line in view when the height changes (:meth:`_keep_the_end`).

        The first size known wraps the writes made before it, at that width; lines
        wrapped with no width at all (the log hidden again by the time its first size
        came: :attr:`_wrapped_at` still 0) are wrapped again at the next width too."""
        first = not self._size_known
        self._rewrapping = True
        try:
            super().on_resize(event)  # the writes made before the size was known
            width = self.scrollable_content_region.width
            if width and width != self._wrapped_at and not first:
                super().clear()
                self._styled.clear()
                self._finished.clear()
                for content in self._written:
                    super().write(content, scroll_end=False)
                self.scroll_end(animate=False, immediate=True)
            if width:
                self._wrapped_at = width
        finally:
            self._rewrapping = False
        self._keep_the_end()

    def _keep_the_end(self) -> None:
        """A log that showed its newest line still does when it gets shorter. Its height
        follows the widgets above it (a coach's panel grows and shrinks with its advice),
        and Textual keeps the top row where it was, so the newest rows went out of sight
        at the bottom. A log scrolled back to older lines stays where it is."""
        height = self.scrollable_content_region.height
        seen, self._rows_seen = self._rows_seen, height
        if seen and height < seen and self.scroll_y >= len(self.lines) - seen:
            self.scroll_to_end()

    def scroll_to_end(self) -> None:
        """Show the newest line now (after a change of this log's height)."""
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)

    def show(self, lines: Sequence[str]) -> None:
        """Make the log end with ``lines`` (appending only what is new)."""
        extra = new_lines(self._shown, lines)
        if extra is None:
            self.clear()
            extra = list(lines)
            self._shown = []
        with self._bar_held():
            for line in extra:
                self.write(line)
        if extra:
            self._shown = (self._shown + extra)[-200:]
