"""A page of plain text over the table: an explanation the player asked for.

Used for "why did Bea get that card?" and "how does my pile score?": the
text comes from the host's ruling or the scoring function, word for word.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.screens.keys import KEYS_BINDING, show_keys
from tui.widgets.footer import TableFooter


class InfoScreen(ModalScreen[None]):
    """A scrollable box with a title; q, enter or escape closes it (the footer names q: a
    phone's on-screen keyboard may have no Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        Binding("q", "close", "back"),
        Binding("enter", "close", "back", show=False),
        Binding("escape", "close", "back", show=False),
        Binding("up", "scroll(-1)", "scroll", key_display="↑↓"),
        Binding("down", "scroll(1)", "scroll", show=False),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.heading = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="info"):
            yield Static(self.heading, id="info-title")
            with VerticalScroll(id="info-scroll"):
                yield Static(self.text, id="info-body", markup=False)
        yield TableFooter()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_show_keys(self) -> None:
        show_keys(self)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#info-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)
