"""A fixed-size block of rich text that repaints without re-laying out the screen.

``Static.update`` asks Textual for a new layout of the whole screen each
time (its size may depend on its content). A real-time table redraws
several blocks for every card, and a player's reaction is timed from the
moment the card is drawn, so the blocks whose size the stylesheet fixes use
this instead: setting :attr:`Panel.text` repaints only the panel, and only
when the text really changed.

A table draws every panel from its part of the view with :meth:`Panel.draw`:
the part (a key) is compared with the one drawn last, so a view that leaves a
panel's part as it was costs neither building its text nor repainting it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive

from tui.widgets.lines import TextLines

_NOTHING = object()
"""The key of a panel drawn with :meth:`Panel.show` (or not at all): never equal to a part."""


def fitting(width: int, *texts: Text) -> Text:
    """The first of ``texts`` (the fullest first) whose every line fits ``width`` columns, else
    the last: a panel's line says less at a narrow width rather than being cut or wrapped into
    a row it does not have. A ``width`` of 0 (not laid out yet) takes the first."""
    for text in texts:
        if width <= 0 or all(line.cell_len <= width for line in text.split("\n", allow_blank=True)):
            return text
    return texts[-1]


class Panel(TextLines):
    """Rich text in a box whose height and width come from the stylesheet."""

    DEFAULT_CSS = """
    Panel { height: 1; }
    """

    text: reactive[Text] = reactive(Text, layout=False)

    def __init__(
        self, text: Text | str = "", *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.set_reactive(Panel.text, text if isinstance(text, Text) else Text(text))
        self._drawn_for: object = _NOTHING
        """The part of the view the shown text was built from (:meth:`draw`)."""

    def show(self, text: Text | str) -> None:
        """Show ``text`` (a repaint only if it differs from what is shown; a new layout of
        the screen too if the panel's height follows its text and that changed)."""
        self._drawn_for = _NOTHING
        new = text if isinstance(text, Text) else Text(text)
        if new != self.text:
            height = self.styles.height
            reshaped = False
            if height is not None and height.is_auto:
                rows = self._rows(new)
                reshaped = rows != self._rows() or rows < 0
            old = self.text
            self.set_reactive(Panel.text, new)
            if reshaped:
                self.refresh(layout=True)
            else:
                self.repaint_changed(old, new)

    def _rows(self, text: Text | None = None) -> int:
        """How many rows ``text`` (else the shown text) takes (``-1``: one is wrapped)."""
        lines = self.lines_of(self.text if text is None else text)
        width = self.content_region.width
        if any(line.cell_len > width for line in lines):
            return -1  # wraps: its height is Textual's to find
        return len(lines)

    def draw(self, part: object, build: Callable[[], Text | str]) -> bool:
        """Show the text ``build`` makes of ``part``, unless ``part`` equals the part shown:
        then nothing is built or repainted. ``part`` holds everything the text depends on
        (the view's fields, the width); True if the text was built."""
        if self._drawn_for is not _NOTHING and part == self._drawn_for:
            return False
        self.show(build())
        self._drawn_for = part
        return True

    def forget(self) -> None:
        """Build the text again at the next :meth:`draw` (the looks or the width changed)."""
        self._drawn_for = _NOTHING

    def render(self) -> Text:
        return self.text
