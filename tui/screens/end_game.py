"""``q`` in ``clowder play`` or ``clowder learn`` while the game is on: end it, or stay.

A solo game lives in this process only (its host is embedded): quitting ends it for good,
so one stray ``q`` must not throw away a game half played. Dismisses with ``"end"`` or
``None`` (stay).
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

END_KEYS = (
    ("y", "end the game and quit (it is not kept)"),
    ("n", "go back to the game (or esc)"),
)


class EndGameDialog(SeenFirst, Dialog):
    """Asks before a game played in this process alone is ended by quitting."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "end", "end the game"),
        Binding("n", "cancel", "back to the game"),
        Binding("q", "cancel", "back", show=False),  # a second q is not a yes
        Binding("escape", "cancel", "back", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="end-game"):
            yield Label("Quit while the game is on?")
            for key, text in END_KEYS:
                yield Static(f"  {key}  {text}")
        yield TableFooter()

    def action_end(self) -> None:
        self.dismiss("end")
