"""The scoreboard: each player's score against the target, whose turn it is, who you are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from net.wire.text import clean_text
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


class Scoreboard(Widget):
    """Players and scores, one per line: ``▶ Ann (you)  3/7``. The turn is marked by ▶ and bold."""

    COMPONENT_CLASSES: ClassVar[set[str]] = component_classes("scores", LOOKS)

    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    Scoreboard > .scores--turn { color: $text-warning; text-style: bold; }
    Scoreboard > .scores--note { color: $text-muted; }
    """

    lines: reactive[tuple[ScoreLine, ...]] = reactive(tuple, layout=True)
    target: reactive[int | None] = reactive(None)

    def set_scores(self, lines: Sequence[ScoreLine], target: int | None) -> None:
        self.target = target
        self.lines = tuple(lines)

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
