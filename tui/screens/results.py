"""The results screen: who won, the scores, and the way out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static


class ResultsScreen(Screen[str]):
    """Game over. Dismisses with ``"table"`` (look at the table) or ``"leave"``.

    Every way out has a plain key (a phone's on-screen keyboard may lack Esc): ``t`` for
    the table (Esc too), Enter or ``q`` to leave.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "done('table')", "see the table"),
        Binding("escape", "done('table')", "see the table", show=False),
        Binding("enter", "done('leave')", "leave"),
        Binding("q", "done('leave')", "leave", show=False),
    ]

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        super().__init__()
        self.heading = f"{title}: game over"
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="results"):
            yield Static(self.heading, id="results-title")
            # Many seats (and their ratings) can need more lines than the terminal has:
            # the body scrolls (up/down, page keys) inside a box that fits the screen.
            with VerticalScroll(id="results-scroll"):
                yield Static("\n".join(self.lines), id="results-body")
        yield Footer()

    def action_done(self, choice: str) -> None:
        self.dismiss(choice)
