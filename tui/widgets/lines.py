"""Rich text drawn line by line, each line's look kept: a repaint redraws only what changed.

Textual turns a widget's text into screen lines through its general path
(the text made into ``Content``, wrapped, aligned, each piece styled), about
a quarter of a millisecond for a three-line panel and a millisecond for the
top card, and does it for the whole widget at each repaint. A table repaints
several of its panels for every view, and most of their lines are as they
were (a pile's name and score when only what the top card would add changed;
the same card drawn again).

:class:`TextLines` draws such a widget's :meth:`render` text itself when the
text is simple (every line fits the width, aligned left and top, no tabs, no
text selected): each line made exactly as Textual's path makes it (the same
styles, over the widget's, with the offsets its text selection reads), and
kept by its text, spans and row, so a line seen before (a card's face, a
name) is not made again. Anything else goes Textual's own way. A test draws
views of every game both ways and compares every line.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.segment import Segment
from rich.text import Text
from textual.content import Content
from textual.css.scalar import Unit
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

MAX_KEPT = 256
"""Lines a widget keeps; more and it starts afresh (a panel has a handful at a time)."""

LineKey = tuple[int, str, tuple[Any, ...], Any]
"""A line as drawn: its row, its text, its spans and the style under them."""


class TextLines(Widget):
    """A widget whose :meth:`render` gives a :class:`~rich.text.Text`, drawn a line at a time.

    The fast way is a drop-in for Textual's (``render_line``): the widget says
    nothing else; :attr:`fast_lines` can turn it off (tests compare both ways).
    """

    fast_lines = True
    """Whether this widget's lines are made here when they can be (else always by Textual)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[LineKey, Strip] = {}
        """Lines made, by what they show (kept while :attr:`_kept_for` holds)."""
        self._kept_for: tuple[Style, object] | None = None
        """The base style and the app's ANSI theme the kept lines were made with."""
        self._lines: list[Strip] | None = None
        """This repaint's lines (``None``: Textual draws the widget)."""
        self._lines_for: tuple[object, ...] | None = None
        """The size and base style :attr:`_lines` were made for."""
        self._splits: list[tuple[Text, list[Text]]] = []
        """The last texts split into lines, newest first (:meth:`lines_of`)."""
        self._fitted_width = 0
        """The width :meth:`fit_rows` last fitted the rows to."""

    most_rows: ClassVar[int] = 0
    """Where this is more than 0, the widget is one row high, or as many rows as its text
    needs at its width, up to this many (:meth:`fit_rows`): a prompt that wraps on a phone
    gets its second row rather than being cut."""

    rows_only_grow: ClassVar[bool] = False
    """Where true, :meth:`fit_rows` never takes a row back while the width stays the same:
    a text of one row after one of two keeps two rows (the second blank)."""

    def rows_needed(self) -> int:
        """The rows :meth:`render`'s text takes at this widget's width, wrapped (0: not laid
        out yet)."""
        width = self.content_region.width
        if width <= 0:
            return 0
        text = self.render()
        if not isinstance(text, Text):
            return 0  # not text: Textual's to measure
        lines = self.lines_of(text)
        if all(line.cell_len <= width for line in lines):
            return len(lines)
        return len(text.wrap(self.app.console, width))

    def fit_rows(self) -> None:
        """Give the widget the rows its text needs (up to :attr:`most_rows`), once laid out.

        Called when the text changes and when the width does. The height is set on the
        widget's styles: Textual lays the screen out again only when it changes, so a text
        that keeps its rows only repaints (a layout of the whole screen costs far more).
        (``height: auto`` would measure the text at each layout, but Textual keeps a
        widget's measured size while a layout it asked for earlier is pending.)"""
        if not self.most_rows:
            return
        rows = min(self.most_rows, self.rows_needed())
        if rows <= 0:
            return
        height = self.styles.height
        now = int(height.value) if height is not None and height.unit == Unit.CELLS else None
        width = self.content_region.width
        if self.rows_only_grow and now is not None and width == self._fitted_width:
            rows = max(rows, now)
        self._fitted_width = width
        if rows != now:
            self.styles.height = rows

    def on_resize(self) -> None:
        self.fit_rows()

    def render_line(self, y: int) -> Strip:
        if not self.fast_lines or self.text_selection is not None:
            self._lines_for = None  # made again once the selection is over
            return super().render_line(y)
        base = self.visual_style
        state = (self.size, base)
        if self._dirty_regions or self._lines_for != state:
            self._lines = self._make_lines(base)
            self._lines_for = state
            if self._lines is None:
                self._render_content()  # Textual's way (it forgets the dirty regions)
            else:
                self._dirty_regions.clear()
        lines = self._lines
        if lines is None:
            return super().render_line(y)
        if y < len(lines):
            return lines[y]
        return Strip.blank(self.size.width, base.rich_style)

    def lines_of(self, text: Text) -> list[Text]:
        """``text``'s lines, kept for the last two texts split: a text is split when it is
        shown (to compare it with the one before), again to draw it, and once more as the
        old text when the next one comes; splitting was most of showing a panel's text.
        (A text is never changed in place once shown: a panel compares texts to repaint.)"""
        for kept, lines in self._splits:
            if kept is text:
                return lines
        lines = list(text.split("\n", allow_blank=True))
        self._splits = [(text, lines), *self._splits[:1]]
        return lines

    def repaint_changed(self, old: Text, new: Text) -> None:
        """Repaint the rows where ``new`` differs from ``old`` (the text just replaced).

        A whole-widget refresh throws away every row Textual has made for the widget and
        asks the screen for the widget's whole box: a scoreboard whose one score changed
        was fifteen rows styled again, and every widget beside it in that box drawn too.
        Row for row is only right where the rows are the text's lines (the fast way's
        text: no line wrapped, left and top aligned, no tab); otherwise, and before the
        widget has been drawn the fast way, the whole widget is repainted."""
        width, height = self.content_region.size
        drawn_fast = self._lines is not None and self.text_selection is None
        fast = self.fast_lines and self.is_mounted and drawn_fast and width
        if not fast or not self._aligned_top_left():
            self.refresh()
            return
        before = self.lines_of(old)
        after = self.lines_of(new)
        if any(line.cell_len > width or "\t" in line.plain for line in (*before, *after)):
            self.refresh()
            return
        changed = [
            Region(0, y, width, 1)
            for y in range(min(height, max(len(before), len(after))))
            if y >= len(before) or y >= len(after) or _looks(before[y]) != _looks(after[y])
        ]
        if changed:
            self.refresh(*changed)

    def _aligned_top_left(self) -> bool:
        """Whether the text sits left and top, where row ``y`` is the text's line ``y``."""
        styles = self.styles
        return styles.text_align in ("left", "start") and tuple(styles.content_align) == (
            "left",
            "top",
        )

    def _make_lines(self, base: Style) -> list[Strip] | None:
        """Every line of :meth:`render`'s text, or ``None`` when Textual must draw it."""
        text = self.render()
        width, height = self.size
        if not isinstance(text, Text) or not width or "\t" in text.plain:
            return None
        if not self._aligned_top_left():
            return None
        theme = self.app.ansi_theme
        if self._kept_for is None or self._kept_for != (base, theme):
            self._kept.clear()
            self._kept_for = (base, theme)
        elif len(self._kept) > MAX_KEPT:
            self._kept.clear()
        lines: list[Strip] = []
        console = self.app.console
        for y, line in enumerate(self.lines_of(text)):
            if y >= height:
                break
            if line.cell_len > width:
                return None  # Textual wraps it
            key: LineKey = (y, line.plain, tuple(line.spans), line.style)
            strip = self._kept.get(key)
            if strip is None:
                strip = self._kept[key] = line_strip(line, base, y, console)
            lines.append(strip)
        return lines


def _looks(line: Text) -> tuple[str, tuple[Any, ...], Any]:
    """What a line draws (its text, spans and style): two lines alike draw the same row."""
    return (line.plain, tuple(line.spans), line.style)


def line_strip(line: Text, base: Style, y: int, console: Any, x: int = 0) -> Strip:
    """One line as Textual's text path draws it (``_FormattedLine.to_strip``, left aligned):
    each piece's style over the widget's, with its offset for text selection (``x``: the
    cell the line starts at, where it is a piece of a row)."""
    content = Content.from_rich_text(line, console=console)
    segments: list[Segment] = []
    for part, style in content.render(base, end=""):
        segments.append(Segment(part, (base + style).rich_style_with_offset(x, y)))
        x += len(part)
    return Strip(segments, content.cell_length)
