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

from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.content import Content
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

    def follow_height(self) -> None:
        """Lay the screen out again if this widget's height follows its text
        (``height: auto``: a phone's narrow layout wraps a long line), so a changed text
        gets its rows; a fixed height (one line, at 80 columns) costs nothing more."""
        height = self.styles.height
        if height is not None and height.is_auto and self.is_mounted:
            self.refresh(layout=True)

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

    def _make_lines(self, base: Style) -> list[Strip] | None:
        """Every line of :meth:`render`'s text, or ``None`` when Textual must draw it."""
        text = self.render()
        width, height = self.size
        if not isinstance(text, Text) or not width or "\t" in text.plain:
            return None
        styles = self.styles
        if styles.text_align not in ("left", "start") or tuple(styles.content_align) != (
            "left",
            "top",
        ):
            return None
        theme = self.app.ansi_theme
        if self._kept_for is None or self._kept_for != (base, theme):
            self._kept.clear()
            self._kept_for = (base, theme)
        elif len(self._kept) > MAX_KEPT:
            self._kept.clear()
        lines: list[Strip] = []
        console = self.app.console
        for y, line in enumerate(text.split("\n", allow_blank=True)):
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


def line_strip(line: Text, base: Style, y: int, console: Any) -> Strip:
    """One line as Textual's text path draws it (``_FormattedLine.to_strip``, left aligned):
    each piece's style over the widget's, with its offset for text selection."""
    content = Content.from_rich_text(line, console=console)
    segments: list[Segment] = []
    x = 0
    for part, style in content.render(base, end=""):
        segments.append(Segment(part, (base + style).rich_style_with_offset(x, y)))
        x += len(part)
    return Strip(segments, content.cell_length)
