"""The scoreboard: each player's score against the target, whose turn it is, who you are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive

from net.wire.text import clean_text
from tui.widgets.lines import TextLines
from tui.widgets.look import component_classes, read_look

LOOKS = ("turn", "note")
"""The ▶ marking whose turn it is, and the short notes after a score."""


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's row."""

    name: str
    score: int
    you: bool = False
    turn: bool = False
    note: str = ""
    """A short extra word, e.g. ``leads`` or ``bot``."""


class Scoreboard(TextLines):
    """Players and scores, one per line: ``▶ Ann (you)  3/7``. The turn is marked by ▶ and bold."""

    COMPONENT_CLASSES: ClassVar[set[str]] = component_classes("scores", LOOKS)

    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    Scoreboard > .scores--turn { color: $text-warning; text-style: bold; }
    Scoreboard > .scores--note { color: $text-muted; }
    """

    lines: reactive[tuple[ScoreLine, ...]] = reactive(tuple)
    target: reactive[int | None] = reactive(None)

    def set_scores(self, lines: Sequence[ScoreLine], target: int | None) -> None:
        """Show ``lines``: a repaint only if they changed, and a new layout of the screen
        only if their number did (the board's height follows it)."""
        new = tuple(lines)
        rows = len(new) != len(self.lines)
        self.target = target
        self.lines = new
        if rows:
            self.refresh(layout=True)

    def render(self) -> Text:
        look = read_look(self, "scores", LOOKS)
        out = Text()
        goal = f"/{self.target}" if self.target is not None else ""
        for position, line in enumerate(self.lines):
            if position:
                out.append("\n")
            out.append("▶ " if line.turn else "  ", style=look("turn"))
            label = clean_text(line.name) + (" (you)" if line.you else "")
            out.append(label[:16].ljust(16), style="bold" if line.turn else "")
            out.append(f"{line.score:>2}{goal}", style="bold")
            if line.note:
                out.append(f" {line.note}", style=look("note"))
        return out
