"""A player's hand: a row of cards with a cursor; some cards may be dimmed (not playable now).

Data down: :attr:`Hand.cards` (codes), :attr:`Hand.faces` (how each looks),
:attr:`Hand.dimmed` (codes that may not be played), :attr:`Hand.cursor`.
Up: :class:`Hand.Chosen` when a card is clicked. Keys are bound by the
screen (it knows whether number keys mean cards or something else now).

Moving the cursor redraws the hand on every key press, so the hand draws
itself line by line from each card's segments, kept between redraws: a key
that moves the cursor re-renders only the two cards whose border changed.
The segments are those Textual makes of :meth:`Hand.render`'s text (the
same styles, the same text-selection offsets); while text is being selected
in the hand, or if the cards do not fit on one row, Textual draws
:meth:`Hand.render` itself.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style

from tui.widgets.cards import CARD_HEIGHT, CARD_WIDTH, GAP, CardArea, CardFace, card_lines, row
from tui.widgets.look import Look

CardKey = tuple[CardFace, str, bool, bool]
"""What a card's drawing depends on: its face, its number, dimmed (and barred), selected."""

MAX_KEPT = 512
"""Segment lists kept (cards x positions x lines); more and the store starts afresh."""


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
        self._kept: dict[tuple[CardKey | None, int, int], tuple[list[Segment], int]] = {}
        """(card or the gap before it, its column, line) -> its segments and their length in
        characters, drawn in ``_kept_in``."""
        self._kept_in: tuple[Style, Look] | None = None
        """The base style and card looks the kept segments were drawn with."""
        self._drawn: tuple[tuple[object, ...], Look, list[Strip] | None] | None = None
        """The state last drawn, its looks, and its lines (see :meth:`_strips`)."""

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

    def _card_key(self, position: int, card: str) -> CardKey:
        dimmed = card in self.dimmed
        return (
            self.face_of(card),
            str(position + 1) if position < 9 else "",
            dimmed,
            self.show_cursor and position == self.cursor,
        )

    def render(self) -> Text:
        look = self.card_look
        if not self.cards:
            return Text("(no cards)", style=look("muted"))
        return row(
            [
                _lines(self._card_key(position, card), look)
                for position, card in enumerate(self.cards)
            ]
        )

    def render_line(self, y: int) -> Strip:
        if not self.cards or self.text_selection is not None:
            return super().render_line(y)
        strips = self._strips()
        if strips is None:  # wider than the widget: Textual wraps the text
            return super().render_line(y)
        if y < len(strips):
            return strips[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _strips(self) -> list[Strip] | None:
        """The hand's lines (``None`` if the cards do not fit on one row), kept until it changes."""
        base, look, width = self.visual_style, self.card_look, self.size.width
        state = (self.cards, self.dimmed, self.cursor, self.show_cursor, width, base)
        drawn = self._drawn
        if drawn is not None and drawn[0] == state and drawn[1] is look:
            return drawn[2]
        if self._kept_in is None or self._kept_in[0] != base or self._kept_in[1] is not look:
            self._kept.clear()
            self._kept_in = (base, look)
        elif len(self._kept) > MAX_KEPT:
            self._kept.clear()
        keys = [self._card_key(position, card) for position, card in enumerate(self.cards)]
        lines: list[Strip] = []
        for y in range(CARD_HEIGHT):
            segments: list[Segment] = []
            x = 0
            for position, key in enumerate(keys):
                if position:
                    x = self._add(segments, None, x, y)
                x = self._add(segments, key, x, y)
            lines.append(Strip(segments))
        strips = None if any(line.cell_length > width for line in lines) else lines
        self._drawn = (state, look, strips)
        return strips

    def _add(self, segments: list[Segment], key: CardKey | None, x: int, y: int) -> int:
        """Add line ``y`` of card ``key`` (``None``: a gap) drawn at ``x``; the next ``x``."""
        kept = self._kept.get((key, x, y))
        if kept is None:
            kept = self._kept[key, x, y] = self._draw(key, x, y)
        segments.extend(kept[0])
        return x + kept[1]

    def _draw(self, key: CardKey | None, x: int, y: int) -> tuple[list[Segment], int]:
        """Line ``y`` of a card as Textual draws that part of :meth:`render`'s text.

        Each span's style over the widget's, with the text offsets Textual's
        text selection reads (``Content`` rendering a line, as in ``_FormattedLine``).
        """
        assert self._kept_in is not None
        base, look = self._kept_in
        text = Text(" " * GAP) if key is None else _lines(key, look)[y]
        segments = []
        start = x
        for part, style in Content.from_rich_text(text).render(base, end=""):
            segments.append(Segment(part, (base + style).rich_style_with_offset(x, y)))
            x += len(part)
        return segments, x - start

    def on_click(self, event: events.Click) -> None:
        if event.y >= CARD_HEIGHT or not self.cards:
            return
        index = event.x // (CARD_WIDTH + GAP)
        if 0 <= index < len(self.cards) and event.x % (CARD_WIDTH + GAP) < CARD_WIDTH:
            self.cursor = index
            self.post_message(self.Chosen(index, self.cards[index]))


def _lines(key: CardKey, look: Look) -> list[Text]:
    """The lines of the card ``key`` describes (:func:`card_lines`; a dimmed card is barred)."""
    face, index, dimmed, selected = key
    return card_lines(face, index=index, dim=dimmed, barred=dimmed, selected=selected, look=look)
