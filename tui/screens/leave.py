"""``q`` at a table while the game is on: leave for now (keep the seat) or give it up.

Dismisses with ``"for_now"``, ``"give_up"`` or ``None`` (stay at the table).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, Static

from tui.keygate import SeenFirst
from tui.screens.dialogs import Dialog
from tui.widgets.footer import TableFooter

CHOICES = (
    ("l", "for_now", "leave for now: your seat waits for you"),
    ("g", "give_up", "give the seat up: a bot plays it from now on"),
    ("q", None, "stay at the table (or esc)"),
)
"""The choices; the first one's words are :func:`for_now_text`'s for the table's takeover."""


def for_now_text(takeover_s: float | None) -> str:
    """What leaving for now does at a table whose host has a bot cover a seat left
    ``takeover_s`` seconds (the table summary's ``takeover``; ``None``: an older host that
    does not say; 0: never).

    "your seat waits" alone was not the whole truth: after the table's takeover a bot
    plays the seat until its player comes back (issue 36, item 4).
    """
    if takeover_s is None:
        return "leave for now: a bot may play your seat until you come back"
    if takeover_s <= 0:
        return "leave for now: your seat waits for you (no bot plays it)"
    return f"leave for now: a bot plays your seat after {takeover_s:g} s, until you come back"


class LeaveDialog(SeenFirst, Dialog):
    """Asks how to leave a table whose game is not over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "choose('for_now')", "leave for now"),
        Binding("g", "choose('give_up')", "give the seat up"),
        Binding("q", "cancel", "stay"),  # the plain key (a phone's keyboard may lack Esc)
        Binding("escape", "cancel", "stay", show=False),
    ]

    def __init__(self, table: str, *, back_by: str = "", takeover_s: float | None = None) -> None:
        super().__init__()
        self.table = table
        self.back_by = back_by
        """How the seat is found again (``Enter on it in the lobby``)."""
        self.takeover_s = takeover_s
        """The table's seconds before a bot covers a seat left (``None``: not known)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="leave"):
            yield Label(f"Leave table {self.table}?")
            for key, choice, text in CHOICES:
                words = for_now_text(self.takeover_s) if choice == "for_now" else text
                yield Static(f"  {key}  {words}")
            if self.back_by:
                yield Static(f"Back later: {self.back_by}", classes="hint")
            yield Static("", id="problem", classes="error")
        yield TableFooter()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
