"""Cards drawn with rich: a face is a label, a mark and a look; the layout is shared.

A game maps its card codes to :class:`CardFace` (colour *and* letters, so a
card reads the same in a 16-colour or colourless terminal); this module only
draws. The colours are the component classes of :class:`CardArea`, the base
of every widget that draws cards (a red, green, blue, yellow and white face,
a back, the edge, the cursor's edge, muted). A card is :data:`CARD_WIDTH`
cells wide and :data:`CARD_HEIGHT` high::

    ╭1──╮
    │R 3│
    │^.^│
    ╰───╯
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from tui.widgets.look import PLAIN, Look, component_classes, read_look

CARD_WIDTH = 5
CARD_HEIGHT = 4
INNER = CARD_WIDTH - 2
GAP = 1

FACE_LOOKS = ("red", "green", "blue", "yellow", "white")
"""The face colours a game may give a card (``CardFace.look``); cards of a colour look alike."""
CARD_LOOKS = (*FACE_LOOKS, "back", "edge", "selected", "dim", "muted")
"""Every look :class:`CardArea` reads: faces, the back, a card's edge, the cursor's edge,
a card that may not be played (and an empty slot), words said in passing."""


@dataclass(frozen=True, slots=True)
class CardFace:
    """How one card looks: ``label`` (e.g. ``R 3``) over ``mark`` (e.g. ``^.^``).

    ``look`` names its colour, one of :data:`FACE_LOOKS` or ``back`` (from the
    stylesheet); a face without one is drawn plain in ``style``.
    """

    label: str
    mark: str = ""
    style: str = "bold"
    name: str = ""
    """The card's name for people (``Red 3``), for prompts and screen readers."""
    look: str = ""


class CardArea(Widget):
    """A widget that draws cards: the card looks are its component classes (``card--red``...).

    The face colours are fixed, not the theme's: a red card stays red whatever
    the theme, and each is a colour that a 16-colour terminal turns into the
    same colour (bright red, green, blue, yellow, white), with bold text in
    black or white on it. A game may restyle them in its own ``.tcss``.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = component_classes("card", CARD_LOOKS)

    DEFAULT_CSS = """
    CardArea > .card--red { color: #ffffff; background: #d32f2f; text-style: bold; }
    CardArea > .card--green { color: #000000; background: #4caf50; text-style: bold; }
    CardArea > .card--blue { color: #ffffff; background: #1e63d6; text-style: bold; }
    CardArea > .card--yellow { color: #000000; background: #fdd835; text-style: bold; }
    CardArea > .card--white { color: #000000; background: #e0e0e0; text-style: bold; }
    CardArea > .card--back { color: $foreground; background: $primary-muted; text-style: bold; }
    CardArea > .card--edge { color: $foreground; }
    CardArea > .card--selected { color: $text-warning; text-style: bold; }
    CardArea > .card--dim { color: $text-disabled; }
    CardArea > .card--muted { color: $text-muted; }
    """

    _card_look: tuple[object, Look] | None = None

    @property
    def card_look(self) -> Look:
        """The card looks from the stylesheet (pass to :func:`card_lines` and friends).

        Read once and kept until the styles change (a theme, the stylesheet, a
        background behind this widget): reading ten component styles again on
        every redraw was a tenth of a key press's work.
        """
        behind = self.background_colors  # a look's colours are worked out against these
        kept = self._card_look
        if kept is None or kept[0] != behind:
            kept = self._card_look = (behind, read_look(self, "card", CARD_LOOKS))
        return kept[1]

    def notify_style_update(self) -> None:
        """The stylesheet or theme changed: read the looks again when next drawn."""
        super().notify_style_update()
        self._card_look = None


def _fit(text: str) -> str:
    return text[:INNER].center(INNER)


def face_style(face: CardFace, look: Look = PLAIN) -> Style:
    """The style a face is drawn in: its look from the stylesheet, else its own ``style``."""
    return look(face.look) if face.look else Style.parse(face.style)


def card_lines(
    face: CardFace,
    *,
    index: str = "",
    dim: bool = False,
    selected: bool = False,
    barred: bool = False,
    look: Look = PLAIN,
) -> list[Text]:
    """The :data:`CARD_HEIGHT` lines of one card.

    ``index`` is shown in the top border (the key that picks it), ``dim``
    greys the card out (it may not be played now), ``barred`` adds a cross
    to the bottom border so a dimmed card also reads as such without colour,
    ``selected`` draws a heavy, bright border. ``look`` is the drawing
    widget's :attr:`CardArea.card_look` (plain by default, for tests).
    """
    border = look("selected") if selected else look("dim" if dim else "edge")
    inside = look("dim") if dim else face_style(face, look)
    if selected:
        top, bottom, side = "┏━━━┓", ("┗━x━┛" if barred else "┗━━━┛"), "┃"
        if index:
            top = "┏" + index[:1] + "━━┓"
    else:
        top = "╭" + (index[:1] + "──" if index else "───") + "╮"
        bottom = "╰─x─╯" if barred else "╰───╯"
        side = "│"
    lines = [Text.assemble((top, border))]
    for content in (face.label, face.mark):
        lines.append(Text.assemble((side, border), (_fit(content), inside), (side, border)))
    lines.append(Text.assemble((bottom, border)))
    return lines


def blank_lines(look: Look = PLAIN) -> list[Text]:
    """An empty slot the size of a card (a dotted outline)."""
    dim = look("dim")
    return [Text(line, style=dim) for line in ("┌╌╌╌┐", "╎   ╎", "╎   ╎", "└╌╌╌┘")]


def row(cards: Sequence[list[Text]], *, gap: int = GAP, captions: Sequence[str] = ()) -> Text:
    """Cards side by side (each a list of lines), with optional captions under them."""
    if not cards:
        return Text("")
    height = max(len(lines) for lines in cards)
    out = Text()
    for line_number in range(height):
        if line_number:
            out.append("\n")
        for position, lines in enumerate(cards):
            if position:
                out.append(" " * gap)
            if line_number < len(lines):
                out.append_text(lines[line_number])
            else:
                out.append(" " * CARD_WIDTH)
    if captions:
        out.append("\n")
        for position, caption in enumerate(captions):
            if position:
                out.append(" " * gap)
            out.append(caption[:CARD_WIDTH].center(CARD_WIDTH))
    return out


def compact_backs(count: int, *, limit: int = 12, look: Look = PLAIN) -> Text:
    """``count`` face-down cards on one line (an opponent's hand), with the number in words."""
    shown = min(count, limit)
    out = Text()
    for position in range(shown):
        if position:
            out.append(" ")
        out.append("▒▒", style=look("back"))
    if count > limit:
        out.append(f" +{count - limit}")
    out.append(f"  {count} card{'s' if count != 1 else ''}")
    return out
