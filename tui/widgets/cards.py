"""Cards drawn with rich: a face is a label, a mark and a style; the layout is shared.

A game maps its card codes to :class:`CardFace` (colour *and* letters, so a
card reads the same in a 16-colour or colourless terminal); this module only
draws. A card is :data:`CARD_WIDTH` cells wide and :data:`CARD_HEIGHT` high::

    ╭1──╮
    │R 3│
    │^.^│
    ╰───╯
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

CARD_WIDTH = 5
CARD_HEIGHT = 4
INNER = CARD_WIDTH - 2
GAP = 1
BACK_STYLE = "bright_white on blue"
BORDER_STYLE = "bright_white"
SELECTED_BORDER = "bold bright_yellow"
DIM_STYLE = "bright_black"


@dataclass(frozen=True, slots=True)
class CardFace:
    """How one card looks: ``label`` (e.g. ``R 3``) over ``mark`` (e.g. ``^.^``), in ``style``."""

    label: str
    mark: str = ""
    style: str = "bold"
    name: str = ""
    """The card's name for people (``Red 3``), for prompts and screen readers."""


def _fit(text: str) -> str:
    return text[:INNER].center(INNER)


def card_lines(
    face: CardFace,
    *,
    index: str = "",
    dim: bool = False,
    selected: bool = False,
    barred: bool = False,
) -> list[Text]:
    """The :data:`CARD_HEIGHT` lines of one card.

    ``index`` is shown in the top border (the key that picks it), ``dim``
    greys the card out (it may not be played now), ``barred`` adds a cross
    to the bottom border so a dimmed card also reads as such without colour,
    ``selected`` draws a heavy, bright border.
    """
    border = SELECTED_BORDER if selected else (DIM_STYLE if dim else BORDER_STYLE)
    face_style = Style.parse(DIM_STYLE) if dim else Style.parse(face.style)
    if selected:
        top, bottom, side = "┏━━━┓", ("┗━x━┛" if barred else "┗━━━┛"), "┃"
        if index:
            top = "┏" + index[:1] + "━━┓"
    else:
        top = "╭" + (index[:1] + "──" if index else "───") + "╮"
        bottom = "╰─x─╯" if barred else "╰───╯"
        side = "│"
    lines = [Text(top, style=border)]
    for content in (face.label, face.mark):
        line = Text(side, style=border)
        line.append(_fit(content), style=face_style)
        line.append(side, style=border)
        lines.append(line)
    lines.append(Text(bottom, style=border))
    return lines


def back_lines(*, style: str = BACK_STYLE) -> list[Text]:
    """A face-down card: the same size as a face, its pattern in ``style``."""
    return card_lines(CardFace("░░░", "░░░", style))


def blank_lines() -> list[Text]:
    """An empty slot the size of a card (a dotted outline)."""
    return [
        Text("┌╌╌╌┐", style=DIM_STYLE),
        Text("╎   ╎", style=DIM_STYLE),
        Text("╎   ╎", style=DIM_STYLE),
        Text("└╌╌╌┘", style=DIM_STYLE),
    ]


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


def compact_backs(count: int, *, limit: int = 12, style: str = BACK_STYLE) -> Text:
    """``count`` face-down cards on one line (an opponent's hand), with the number in words."""
    shown = min(count, limit)
    out = Text()
    for position in range(shown):
        if position:
            out.append(" ")
        out.append("▒▒", style=style)
    if count > limit:
        out.append(f" +{count - limit}")
    out.append(f"  {count} card{'s' if count != 1 else ''}")
    return out
