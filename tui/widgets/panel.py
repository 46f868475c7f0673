"""A fixed-size block of rich text that repaints without re-laying out the screen.

``Static.update`` asks Textual for a new layout of the whole screen each
time (its size may depend on its content). A real-time table redraws
several blocks for every card, and a player's reaction is timed from the
moment the card is drawn, so the blocks whose size the stylesheet fixes use
this instead: setting :attr:`Panel.text` repaints only the panel, and only
when the text really changed.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class Panel(Widget):
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

    def show(self, text: Text | str) -> None:
        """Show ``text`` (a repaint only if it differs from what is shown)."""
        new = text if isinstance(text, Text) else Text(text)
        if new != self.text:
            self.text = new

    def render(self) -> Text:
        return self.text
