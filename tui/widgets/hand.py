"""A player's hand: a row of cards with a cursor; some cards may be dimmed (not playable now).

Data down: :attr:`Hand.cards` (codes), :attr:`Hand.faces` (how each looks),
:attr:`Hand.dimmed` (codes that may not be played), :attr:`Hand.cursor`.
Up: :class:`Hand.Chosen` when a card is clicked. Keys are bound by the
screen (it knows whether number keys mean cards or something else now).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from tui.widgets.cards import CARD_HEIGHT, CARD_WIDTH, GAP, CardArea, CardFace, card_lines, row


class Hand(CardArea):
    """The cards the player holds, drawn side by side, numbered 1-9 for the keyboard."""

    DEFAULT_CSS = """
    Hand { height: 4; width: 1fr; }
    """

    cards: reactive[tuple[str, ...]] = reactive(tuple, layout=False)
    dimmed: reactive[frozenset[str]] = reactive(frozenset)
    cursor: reactive[int] = reactive(0)
    show_cursor: reactive[bool] = reactive(True)

    class Chosen(Message):
        """The player clicked a card (the screen decides what that means)."""

        def __init__(self, index: int, card: str) -> None:
            super().__init__()
            self.index = index
            self.card = card

    def __init__(
        self,
        face_of: Callable[[str], CardFace],
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.face_of = face_of

    def validate_cursor(self, cursor: int) -> int:
        return max(0, min(cursor, len(self.cards) - 1)) if self.cards else 0

    def watch_cards(self) -> None:
        self.cursor = self.validate_cursor(self.cursor)

    @property
    def current(self) -> str | None:
        """The card under the cursor, if any."""
        return self.cards[self.cursor] if self.cards else None

    def move(self, delta: int) -> None:
        """Move the cursor, wrapping around the ends."""
        if self.cards:
            self.cursor = (self.cursor + delta) % len(self.cards)

    def render(self) -> Text:
        look = self.card_look
        if not self.cards:
            return Text("(no cards)", style=look("muted"))
        drawn = [
            card_lines(
                self.face_of(card),
                index=str(position + 1) if position < 9 else "",
                dim=card in self.dimmed,
                barred=card in self.dimmed,
                selected=self.show_cursor and position == self.cursor,
                look=look,
            )
            for position, card in enumerate(self.cards)
        ]
        return row(drawn)

    def on_click(self, event: events.Click) -> None:
        if event.y >= CARD_HEIGHT or not self.cards:
            return
        index = event.x // (CARD_WIDTH + GAP)
        if 0 <= index < len(self.cards) and event.x % (CARD_WIDTH + GAP) < CARD_WIDTH:
            self.cursor = index
            self.post_message(self.Chosen(index, self.cards[index]))
