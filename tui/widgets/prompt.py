"""The prompt line: what the player may do now, or why what they tried was refused."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive

from tui.widgets.lines import TextLines
from tui.widgets.look import component_style


class PromptLine(TextLines):
    """One line, or as many as its text needs (up to three) where it is too long for the
    width (a phone's 48 columns): a prompt is never cut. An error (``! You must follow red``)
    stays until the next prompt replaces it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"prompt--error"}

    DEFAULT_CSS = """
    PromptLine { height: 1; text-style: bold; }
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

    most_rows = 3
    rows_only_grow = True
    """A prompt that came and went between one row and two (a grab's prompt, then the
    refusal of a grab too late) laid the whole screen out twice a card, moving everything
    under it each time: measured in an SSH player's Black Cat session, 11 layouts in 15 s,
    most of a sixth of its CPU. It keeps its rows instead, until the width changes."""

    def watch_text(self) -> None:
        self.fit_rows()

    def watch_error(self) -> None:
        self.fit_rows()

    def render(self) -> Text:
        if self.error:
            return Text(f"! {self.error}", style=component_style(self, "prompt--error"))
        return Text(self.text)
