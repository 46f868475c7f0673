"""The prompt line: what the player may do now, or why what they tried was refused."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive

from tui.widgets.lines import TextLines
from tui.widgets.look import component_style


class PromptLine(TextLines):
    """One line. An error (``! You must follow red``) stays until the next prompt replaces it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"prompt--error"}

    DEFAULT_CSS = """
    PromptLine { height: 1; text-style: bold; }
    PromptLine > .prompt--error { color: $error; text-style: bold; }
    """

    text: reactive[str] = reactive("")
    error: reactive[str] = reactive("")

    def watch_text(self) -> None:
        self.follow_height()

    def watch_error(self) -> None:
        self.follow_height()

    def prompt(self, text: str) -> None:
        """Show ``text`` as the prompt; clears a shown error."""
        self.error = ""
        self.text = text

    def refuse(self, reason: str) -> None:
        """Show ``reason`` as an error (bold, marked with ``!`` so it reads without colour)."""
        self.error = reason

    def render(self) -> Text:
        if self.error:
            return Text(f"! {self.error}", style=component_style(self, "prompt--error"))
        return Text(self.text)
