"""The prompt line: what the player may do now, or why what they tried was refused."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive

from tui.widgets.lines import TextLines
from tui.widgets.look import component_style


class PromptLine(TextLines):
    """A line, or up to three. An error (``! You must follow red``) stays until the next
    prompt replaces it.

    A text longer than the line (a refusal in the engine's words, a long name in a prompt,
    a phone's 48 columns) wraps onto a second and a third row rather than being cut at the
    screen's edge, at every table; the table's board gives up those rows meanwhile (each
    game keeps its essential parts whole: ``TableScreen.essential``). A stylesheet may
    still fix its height (``height: 1``): then it is cut, as any line."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"prompt--error"}

    DEFAULT_CSS = """
    PromptLine { height: auto; max-height: 3; text-style: bold; }
    PromptLine > .prompt--error { color: $error; text-style: bold; }
    """

    text: reactive[str] = reactive("")
    error: reactive[str] = reactive("")

    def prompt(self, text: str) -> None:
        """Show ``text`` as the prompt; clears a shown error."""
        self.error = ""
        self.text = text

    def refuse(self, reason: str) -> None:
        """Show ``reason`` as an error (bold, marked with ``!`` so it reads without colour)."""
        self.error = reason

    def watch_text(self) -> None:
        self._fit()

    def watch_error(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """At ``height: auto``, lay the screen out again when the text needs another number
        of rows (only then: a layout at every prompt would cost every view); a line of a
        fixed height never."""
        height = self.styles.height
        width = self.size.width
        if height is None or not height.is_auto or not width or not self.is_attached:
            return
        rows = len(self.render().wrap(self.app.console, width))
        if rows != self.size.height:
            self.refresh(layout=True)

    def render(self) -> Text:
        if self.error:
            return Text(f"! {self.error}", style=component_style(self, "prompt--error"))
        return Text(self.text)
