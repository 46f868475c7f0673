"""``n`` on the results: pick the next game for the people at the table.

Only the games that fit the people present are offered (everyone who played, their bots
included); a game that needs more players is offered with the bots that reach its
fewest, and one that takes fewer is left out. Each is offered with one bot more too,
where one more seat fits. The seats and the bots' levels carry over (``net.core.again``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option as OptionListItem

from engine import registry
from tui.keygate import SeenFirst
from tui.screens.dialogs import Dialog

NEXT_KEYS = "↑/↓ choose · enter: ask everyone · q or esc: back"


@dataclass(frozen=True)
class NextGame:
    """A game for the same people, and the bots added to reach its fewest players."""

    game: str
    title: str
    bots: int

    @property
    def key(self) -> str:
        return f"{self.game}+{self.bots}"

    @property
    def label(self) -> str:
        extra = f" (+{self.bots} bot{'s' if self.bots != 1 else ''})" if self.bots else ""
        return f"{self.title}{extra}"


def games_for(players: int) -> list[NextGame]:
    """Every registered game ``players`` people (with their bots) can play together: with
    the bots it needs to reach its fewest, and with one bot more where that fits."""
    found = []
    for name in registry.names():
        game = registry.get(name)
        if players > game.max_players:
            continue
        needed = max(0, game.min_players - players)
        found.append(NextGame(name, game.title, needed))
        if players + needed + 1 <= game.max_players:
            found.append(NextGame(name, game.title, needed + 1))
    return found


class NextGameDialog(SeenFirst, Dialog):
    """The games that fit the table's people; dismisses with a :class:`NextGame` or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "cancel", "back")]

    def __init__(self, players: int, current: str) -> None:
        super().__init__()
        self.players = players
        self.current = current
        self.choices = {choice.key: choice for choice in games_for(players)}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Next game for the {self.players} of you")
            yield OptionList(
                *(
                    OptionListItem(
                        choice.label + (" (again)" if choice.game == self.current else ""),
                        id=key,
                    )
                    for key, choice in self.choices.items()
                ),
                id="games",
                compact=True,
            )
            yield Static(NEXT_KEYS, id="keys", classes="keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#games", OptionList).focus()

    @on(OptionList.OptionSelected, "#games")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(self.choices[event.option.id])
