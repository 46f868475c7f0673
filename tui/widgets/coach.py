"""The coach's panel at a coached table: what may be done now, and why (:mod:`tui.coach`).

It sits just above the table's log, in the same column, and takes only the
rows its text needs (up to :data:`MOST_ROWS`); the log keeps the rest. What
the coach explains after a move goes into the log itself (:func:`coach_line`),
so the explanations stay in order with what happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from net.wire.text import clean_text
from tui.coach import PANEL_ROWS

MOST_ROWS = PANEL_ROWS + 1
"""The panel's height at most: its text rows and its top border (which carries the title)."""
MARK = "Coach: "
WAITING_TITLE = "Coach · waiting: ⏎ goes on"
"""The panel's title while the game waits for the learner (a moment held for them): at 80x24
it fits the side column's panel (28 columns)."""


def coach_line(text: str) -> Text:
    """One of the coach's explanations as the log shows it: marked, so it reads as the coach's
    and not the game's, in colour and without."""
    line = Text(MARK, style="bold italic")
    line.append(clean_text(text), style="italic")
    return line


class CoachPanel(Widget):
    """The coach's advice for this moment; replaced whole at each view."""

    DEFAULT_CSS = f"""
    CoachPanel {{
        height: auto;
        max-height: {MOST_ROWS};
        border-top: solid $accent;
        border-title-color: $text-accent;
        border-title-style: bold;
        background: $boost;
    }}
    """

    lines: reactive[tuple[str, ...]] = reactive((), layout=True)

    def on_mount(self) -> None:
        self.border_title = "Coach"

    def waiting(self, held: bool) -> None:
        """Say in the title whether the game waits for the learner to read (and which key lets
        it go on)."""
        title = WAITING_TITLE if held else "Coach"
        if self.border_title != title:
            self.border_title = title

    def advise(self, lines: Sequence[str]) -> None:
        """Show ``lines`` (the coach's :meth:`~tui.coach.Coach.now`)."""
        self.lines = tuple(clean_text(line) for line in lines)

    def render(self) -> Text:
        return Text("\n".join(self.lines or ("Watch the table: your turn comes.",)))
