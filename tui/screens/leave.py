"""``q`` at a table while the game is on: leave for now (keep the seat) or give it up.

Dismisses with ``"for_now"``, ``"give_up"`` or ``None`` (stay at the table).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, Static

from tui.screens.dialogs import Dialog
from tui.widgets.footer import TableFooter

CHOICES = (
    ("l", "for_now", "leave for now: your seat waits (the others see you stepped away)"),
    ("g", "give_up", "give the seat up: a bot plays it from now on"),
    ("q", None, "stay at the table (or esc)"),
)


class LeaveDialog(Dialog):
    """Asks how to leave a table whose game is not over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "choose('for_now')", "leave for now"),
        Binding("g", "choose('give_up')", "give the seat up"),
        Binding("q", "cancel", "stay"),  # the plain key (a phone's keyboard may lack Esc)
        Binding("escape", "cancel", "stay", show=False),
    ]

    def __init__(self, table: str, *, back_by: str = "") -> None:
        super().__init__()
        self.table = table
        self.back_by = back_by
        """How the seat is found again (``Enter on it in the lobby``)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="leave"):
            yield Label(f"Leave table {self.table}?")
            for key, _choice, text in CHOICES:
                yield Static(f"  {key}  {text}")
            if self.back_by:
                yield Static(f"Back later: {self.back_by}", classes="hint")
            yield Static("", id="problem", classes="error")
        yield TableFooter()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
