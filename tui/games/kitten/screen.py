"""The You Gotta Be Kitten Me! table: the standing bid big, your hand, everyone's cards, the calls.

Everything drawn comes from :meth:`engine.games.kitten.rules.Kitten.view` for this seat
(:class:`~engine.games.kitten.rules.KittenView`): your own hand only, everyone's card
counts and deal sizes, this round's bids and specials, and the last reveal
with the engine's own account of how it was counted. The only rules
knowledge here is how a card looks and what your own hand adds to each
accessory or colour (:func:`engine.games.kitten.cards.count_hand`, the engine's
counting).

What may be done comes from ``view["legal"]``: the footer offers only the
keys that are legal now, and a key that is not says why in the prompt line,
in the engine's words. A bid is made in a small bar (``b``, or a digit, an
arrow or a thing's letter): the count is typed (``1`` ``2`` for 12, Backspace
corrects) or moved with up/down; it starts at the lowest legal bid when
raising, and when opening a round near what the table can expect of the
thing (your hand's count plus the deck's average for every card you cannot
see: the coach's :func:`~tui.games.kitten.coach.expected`). Left/right or a
thing's letter (``h`` hats, ``o`` bow ties, ``l`` glasses, ``u`` blue, ``e``
red, ``n`` green) picks the accessory or colour, enter bids, ``x`` (or Esc)
cancels. Go Fish (``g``) opens the same bar for a player and a thing. Each
challenge or Purrfect opens the full reveal over the table until a key is
pressed (a watcher's, a spectator's or an out player's, closes by itself once the table
has moved on, or shows the newest call); ``v`` shows it again.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, ClassVar

from rich import box
from rich.console import Group, RenderableType
from rich.segment import Segment, Segments
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Digits, Footer, Static

from engine.games.kitten.cards import (
    ACCESSORY_NAMES,
    CANT_SEE_ME,
    DOUBLE_TROUBLE,
    DRAW_3,
    FLIP_DOUBLE,
    FLIP_ZERO,
    GO_FISH,
    HANG_IN_THERE,
    SKIP,
    SPECIAL_NAMES,
    THING_WORDS,
    THINGS,
    card_name,
    count_hand,
    parse,
    thing_words,
    value,
)
from engine.games.kitten.rules import CALL_WORDS, CHALLENGE, PURRFECT, KittenView, RevealView
from tui.coach import Coach
from tui.games.kitten.coach import expected
from tui.keygate import SeenFirst
from tui.screens.table import TableScreen
from tui.widgets.footer import TableFooter
from tui.widgets.log import GameLog
from tui.widgets.look import PLAIN, Look
from tui.widgets.panel import Panel, fitting
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import who
from tui.you import Ours, capital, is_you, phrase

HERE = Path(__file__).resolve().parent
"""This game's folder, where its stylesheet lives (the reveal dialog shares it)."""

LOOKS = (
    "blue",
    "red",
    "green",
    "wild",
    "special",
    "muted",
    "turn",
    "key",
    "bid",
    "out",
    "loss",
    "gain",
    "chosen",
)
"""The table's looks, each a component class ``kitten--NAME`` styled in ``kitten.tcss``."""


TIMES = "\u00d7"
"""The multiplication sign of ``x2`` on doubles and in a doubled hand's sum."""

SPECIAL_KEYS: Mapping[str, str] = {SKIP: "s", DRAW_3: "d", GO_FISH: "g"}
"""The key that plays each special card (shown in the card's top border)."""

CARD_INNER = 7
"""A card's face is as wide as its longest word (``Bow Tie``, ``Glasses``, ``TROUBLE``):
every card says what it shows in whole words (issue 36, item 2)."""
CARD_WIDTH = CARD_INNER + 2
CARD_HEIGHT = 5
CARD_GAP = 1
"""Between cards side by side; none when only that lets a hand of five fit 80 columns."""

ACCESSORY_LABELS: Mapping[str, str] = ACCESSORY_NAMES
COLOUR_LABELS: Mapping[str, str] = {"blue": "Blue", "red": "Red", "green": "Green"}
SPECIAL_FACES: Mapping[str, tuple[str, str, str]] = {
    SKIP: ("", "SKIP", ""),
    DRAW_3: ("DRAW", "3", ""),
    GO_FISH: ("GO", "FISH", ""),
    CANT_SEE_ME: ("CAN'T", "SEE", "ME"),
    HANG_IN_THERE: ("HANG", "IN", "THERE"),
    DOUBLE_TROUBLE: ("DOUBLE", "TROUBLE", ""),
}


# Words -------------------------------------------------------------------------------


def name_of(view: KittenView, seat: int | None) -> str:
    """A seat as this player reads it: ``you`` or a name."""
    return who(seat, view["players"], view["seat"])


def flips(view: KittenView, seat: int) -> str:
    """``flips``, or ``flip`` when the dealer is you."""
    return "flip" if seat == view["seat"] else "flips"


def bid_words(view: KittenView, bid: Mapping[str, Any]) -> str:
    """``Bea's 7 hats`` / ``your 3 red``."""
    whose = name_of(view, int(bid["seat"]))
    whose = Ours("your") if is_you(whose) else phrase(whose, "'s")
    return phrase(whose, f" {thing_words(str(bid['thing']), int(bid['count']))}")


def own_counts(hand: Sequence[str]) -> dict[str, int]:
    """What this hand adds to each accessory and colour (Can't See Me, Double Trouble applied)."""
    cards = list(hand)
    return {thing: count_hand(cards, thing).adds for thing in THINGS}


def special_words(view: KittenView, entry: Mapping[str, Any]) -> str:
    """A played special: ``Cy: Skip``, ``Bea: Draw 3 (3)``, ``you: Go Fish on Cy for red: 2``."""
    actor = name_of(view, entry.get("seat"))
    card = str(entry.get("card"))
    name = SPECIAL_NAMES.get(card, card)
    if card == DRAW_3:
        return f"{actor}: {name} ({entry.get('count', 0)})"
    if card == GO_FISH:
        target = name_of(view, entry.get("target"))
        plural = THING_WORDS.get(str(entry.get("thing")), ("?", "?"))[1]
        return f"{actor}: {name} on {target} for {plural}: {entry.get('count', 0)}"
    return f"{actor}: {name}"


def flip_words(reveal: RevealView) -> str:
    """What the flipped card did: ``+2``, ``total → 0``, ``total x2``."""
    if reveal["flip_effect"] == FLIP_ZERO:
        return "total → 0"
    if reveal["flip_effect"] == FLIP_DOUBLE:
        return f"total {TIMES}2"
    return f"+{reveal['flip_adds']}"


def hand_adds_words(hand: Mapping[str, Any]) -> str:
    """How one revealed hand counted: ``3``, ``0 (Can't See Me)``, ``2x2 = 4`` (Double Trouble)."""
    adds = int(hand["adds"])
    if hand["cant_see_me"]:
        return f"{adds} ({SPECIAL_NAMES[CANT_SEE_ME]})"
    doublings = int(hand["doublings"])
    if doublings:
        return f"{hand['base']}{TIMES}{2**doublings} = {adds}"
    return str(adds)


def verdict(view: KittenView, reveal: RevealView) -> str:
    """``5 is less than 7: the bid fails.`` (the engine's comparison, in the same words)."""
    count, total = reveal["bid"]["count"], reveal["total"]
    if reveal["call"] == CHALLENGE:
        if total >= count:
            return f"{total} is at least {count}: the bid holds."
        return f"{total} is less than {count}: the bid fails."
    if total == count:
        return f"Exactly {count}: Purrfect!"
    return f"{total} is not exactly {count}: no Purrfect."


def change_words(view: KittenView, reveal: RevealView) -> list[str]:
    """``Cy loses a card (the bid failed).`` for each change, refused gain and elimination."""
    lines = []
    for change in reveal["changes"]:
        verb = ("lose" if change["delta"] < 0 else "gain") + (
            "" if change["seat"] == view["seat"] else "s"
        )
        lines.append(
            f"{capital(name_of(view, change['seat']))} {verb} a card ({change['reason']})."
        )
    for change in reveal["refused"]:
        lines.append(
            f"{capital(name_of(view, change['seat']))} would gain a card ({change['reason']}),"
            " but the deck has none to spare."
        )
    for seat in reveal["out"]:
        lines.append(
            f"{capital(name_of(view, seat))} {'are' if seat == view['seat'] else 'is'} out."
        )
    return lines


def call_headline(view: KittenView, reveal: RevealView) -> str:
    """``Round 3: Bea called “You Gotta Be Kitten Me!” on Cy's 7 hats``."""
    caller = capital(name_of(view, reveal["caller"]))
    words = CALL_WORDS.get(reveal["call"], reveal["call"])
    return f"Round {reveal['round']}: {caller} called “{words}” on {bid_words(view, reveal['bid'])}"


def call_summary(view: KittenView, reveal: RevealView) -> str:
    """The last call in two short lines: ``Bea challenged Cy's 7 hats; total 5: Cy -1 (out)``."""
    caller = capital(name_of(view, reveal["caller"]))
    verb = "challenged" if reveal["call"] == CHALLENGE else "called Purrfect on"
    parts = []
    for change in reveal["changes"]:
        name = name_of(view, change["seat"])
        if change["delta"] > 0:
            parts.append(f"{name} +1")
        else:
            parts.append(f"{name} -1" + (" (out)" if change["seat"] in reveal["out"] else ""))
    return (
        f"{caller} {verb} {bid_words(view, reveal['bid'])};"
        f" total {reveal['total']}: {', '.join(parts)}"
    )


# Cards -------------------------------------------------------------------------------


def card_look(code: str, look: Look) -> Style:
    """A card's face: its colour's background (a wild's, a special's)."""
    card = parse(code)
    if card is None:
        return look("muted")
    if card.special is not None:
        return look("special")
    if card.wild:
        return look("wild")
    return look(str(card.colour))


def face_lines(code: str) -> tuple[str, str, str]:
    """The three inner lines of a card: count, accessory, colour (or a special's name)."""
    card = parse(code)
    if card is None:
        return ("?", "", "")
    if card.special is not None:
        return SPECIAL_FACES[card.special]
    if card.wild:
        return (f"{TIMES}{card.count}", "WILD", "any")
    return (
        f"{TIMES}{card.count}",
        ACCESSORY_LABELS[str(card.accessory)],
        COLOUR_LABELS[str(card.colour)],
    )


def card_lines(code: str, look: Look = PLAIN, *, key: str = "", dim: bool = False) -> list[Text]:
    """One card: :data:`CARD_HEIGHT` lines of :data:`CARD_WIDTH` cells, ``key`` in its border."""
    face = look("muted") if dim else card_look(code, look)
    border = look("muted") if dim else Style()
    top = "╭" + (key[:1] + "─" * (CARD_INNER - 1) if key else "─" * CARD_INNER) + "╮"
    lines = [Text(top, style=border)]
    if key:
        lines[0].stylize(look("key"), 1, 2)
    for content in face_lines(code):
        line = Text("│", style=border)
        line.append(content[:CARD_INNER].center(CARD_INNER), style=face)
        line.append("│", style=border)
        lines.append(line)
    lines.append(Text("╰" + "─" * CARD_INNER + "╯", style=border))
    return lines


def chip_label(code: str) -> str:
    """A card on one line: ``Red Hat``, ``Blue Bow Tiex2``, ``Wildx3``, ``Go Fish``."""
    card = parse(code)
    if card is None:
        return code
    if card.special is not None:
        return SPECIAL_NAMES[card.special]
    size = f"{TIMES}{card.count}" if card.count > 1 else ""
    if card.wild:
        return f"Wild{size}"
    colour = COLOUR_LABELS[str(card.colour)]
    return f"{colour} {ACCESSORY_LABELS[str(card.accessory)]}{size}"


def chip(code: str, look: Look = PLAIN, *, dim: bool = False) -> Text:
    """A card on one line, in its colour (``dim``: it does not count here)."""
    return Text(f" {chip_label(code)} ", style=look("muted") if dim else card_look(code, look))


def hand_text(
    cards: Sequence[str], width: int, look: Look = PLAIN, keys: Mapping[str, str] = SPECIAL_KEYS
) -> Text:
    """The hand as cards side by side; as one-line chips when they do not fit ``width``.

    ``keys``: the key shown on each card that may be played now.
    """
    if not cards:
        return Text("(no cards)", style=look("muted"))
    gap = card_gap(len(cards), width)
    if gap is not None:
        drawn = [card_lines(code, look, key=keys.get(code, "")) for code in cards]
        out = Text()
        for row in range(CARD_HEIGHT):
            if row:
                out.append("\n")
            for position, lines in enumerate(drawn):
                if position:
                    out.append(" " * gap)
                out.append_text(lines[row])
        return out
    return wrap_chips([chip(code, look) for code in cards], width)


def card_gap(count: int, width: int) -> int | None:
    """The gap between ``count`` cards side by side in ``width`` cells: :data:`CARD_GAP`, or
    none when only that fits (five cards in the board's 48 columns at 80x24); ``None``: they
    do not fit."""
    for gap in (CARD_GAP, 0):
        if count * (CARD_WIDTH + gap) - gap <= width:
            return gap
    return None


# The reveal ----------------------------------------------------------------------------


def wrap_chips(pieces: Sequence[Text], width: int, indent: str = "") -> Text:
    """One-line cards side by side, broken between cards (never inside one) at ``width``,
    each line after ``indent``."""
    out = Text(indent)
    used = len(indent)
    for piece in pieces:
        if used > len(indent) and used + 1 + len(piece) > width:
            out.append("\n" + indent)
            used = len(indent)
        elif used > len(indent):
            out.append(" ")
            used += 1
        out.append_text(piece)
        used += len(piece)
    return out


WATCHER_READS_S = 6.0
"""A watcher's reveal stays this long at least before it closes by itself (the next round's
first bid can come within a second, from a bot)."""
REVEAL_BOX = 78
"""The reveal box's width (``#reveal-box`` in ``kitten.tcss``), or the screen's if narrower."""
REVEAL_FRAME = 6
"""The box's cells around its body: border 2, padding 2, the scroll bar's gutter 2."""
REVEAL_WIDTH = REVEAL_BOX - REVEAL_FRAME
"""The reveal's width inside its box at 80 columns."""
NAME_WIDTH = 12
COLUMN_GAPS = 6
"""Cells the reveal's table puts between its three columns (padding and a divider each)."""


def moved_on(view: KittenView, round_: int) -> bool:
    """Whether the table has gone on past round ``round_``'s call: a move made in a later
    round, or the game over. (The next round is dealt with the call itself: its deal alone
    is not moving on.)"""
    if view["phase"] == "over":
        return True
    return view["round"] > round_ and bool(view["bids"] or view["played"])


def reveal_width(screen_width: int) -> int:
    """The reveal body's width on a screen ``screen_width`` columns wide (a phone's 48: 42)."""
    return max(20, min(REVEAL_BOX, screen_width) - REVEAL_FRAME)


RevealRow = tuple[Text, list[Text], Text]
"""A line of the reveal: who (or ``Flipped``, ``Total``), the cards, what they add."""


def reveal_rows(view: KittenView, reveal: RevealView, look: Look = PLAIN) -> list[RevealRow]:
    """Each hand and what it added, the flip and the total (cards as one-line chips)."""
    thing = reveal["bid"]["thing"]
    rows: list[RevealRow] = []
    for hand in reveal["hands"]:
        seat = hand["seat"]
        name = Text(capital(name_of(view, seat)))
        if seat == reveal["bid"]["seat"]:
            name.stylize(look("bid"))
        pieces = []
        for code in hand["cards"]:
            counts = value(code, thing) > 0 and not hand["cant_see_me"]
            effect = code in (CANT_SEE_ME, DOUBLE_TROUBLE) or (
                code == HANG_IN_THERE and seat == reveal["correct"]
            )
            pieces.append(chip(code, look, dim=not (counts or effect)))
        rows.append((name, pieces, Text(hand_adds_words(hand))))
    flipper = capital(name_of(view, reveal["dealer"]))
    flipped = reveal["flipped"]
    counted = value(flipped, thing) > 0 or reveal["flip_effect"] != "adds"
    rows.append(
        (
            Text("Flipped", style="italic"),
            [
                Text(f"{flipper} {flips(view, reveal['dealer'])}"),
                chip(flipped, look, dim=not counted),
            ],
            Text(flip_words(reveal)),
        )
    )
    rows.append(
        (
            Text("Total", style="bold"),
            [Text(f"bid: {thing_words(thing, reveal['bid']['count'])}", style=look("bid"))],
            Text(str(reveal["total"]), style="bold"),
        )
    )
    return rows


def reveal_body(
    view: KittenView, reveal: RevealView, look: Look = PLAIN, width: int = REVEAL_WIDTH
) -> RenderableType:
    """The whole reveal at ``width`` cells, nothing cut: each hand and what it added, the
    flip, the total, who lost or gained. Wide enough, a table (who, cards, adds); narrower
    (a phone), each row's cards go under its name and what they add."""
    plural = THING_WORDS[reveal["bid"]["thing"]][1]
    rows = reveal_rows(view, reveal, look)
    adds_width = max(len(plural), *(len(adds) for _, _, adds in rows))
    room = width - NAME_WIDTH - adds_width - COLUMN_GAPS
    widest = max(len(piece) for _, pieces, _ in rows for piece in pieces)
    if room >= widest:
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
        table.add_column("Player", no_wrap=True, width=NAME_WIDTH)
        table.add_column("Cards", no_wrap=True, width=room)
        table.add_column(plural.capitalize(), justify="right", no_wrap=True, width=adds_width)
        for name, pieces, adds in rows:
            table.add_row(cut(name, NAME_WIDTH), wrap_chips(pieces, room), adds)
        grid: RenderableType = table
    else:
        grid = stacked_rows(rows, plural, width, look)
    lines = Text(verdict(view, reveal), style="bold")
    for line in change_words(view, reveal):
        style = look("gain") if " gain" in line else look("loss")
        lines.append("\n")
        lines.append(line, style=style if "would gain" not in line else look("muted"))
    nxt = reveal["next_dealer"]
    if nxt is not None:
        lines.append(
            f"\n{capital(name_of(view, nxt))} deal{'' if nxt == view['seat'] else 's'} next."
        )
    return Group(Text(coloured_words(reveal), style=look("muted")), grid, lines)


def cut(text: Text, width: int) -> Text:
    """``text`` in ``width`` cells at most (``…`` at the end when cut)."""
    if len(text) <= width:
        return text
    return text[: width - 1] + Text("…")


def stacked_rows(rows: Sequence[RevealRow], plural: str, width: int, look: Look) -> Text:
    """The reveal's rows for a narrow box: who and what they add on a line, their cards
    under it, indented."""
    out = Text("Player", style="bold")
    out.append(plural.capitalize().rjust(width - len(out)), style="bold")
    out.append("\n" + "─" * width, style=look("muted"))
    for name, pieces, adds in rows:
        label = cut(name, width - len(adds) - 1)
        out.append("\n")
        out.append_text(label)
        out.append(" " * (width - len(label) - len(adds)))
        out.append_text(adds)
        out.append("\n")
        out.append_text(wrap_chips(pieces, width, indent="  "))
    return out


def coloured_words(reveal: RevealView) -> str:
    """What the reveal's colours mean, in words: the cards drawn in colour are those that
    count for the bid's thing (a Wild counts as every accessory and colour; the specials
    that change a count too), the grey ones add nothing to it."""
    plural = THING_WORDS[reveal["bid"]["thing"]][1]
    cards = [code for hand in reveal["hands"] for code in hand["cards"]] + [reveal["flipped"]]
    specials = any(code in (CANT_SEE_ME, DOUBLE_TROUBLE, HANG_IN_THERE) for code in cards)
    also = " or are special cards at work" if specials else ""
    return f"Cards in colour count as {plural}{also}; grey cards add nothing."


@dataclass(frozen=True, slots=True)
class RevealPage:
    """One call's reveal as the box shows it."""

    heading: str
    draw_body: Callable[[int], RenderableType]
    """The reveal drawn at a width (:func:`reveal_body` with the table's looks)."""
    round: int = 0
    """The round whose call this reveals."""


class RevealScreen(SeenFirst, ModalScreen[None]):
    """A call's full reveal over the table; stays until a key is pressed (at a player's
    screen; a watcher's closes by itself once the table has moved on:
    :meth:`KittenTable.settle_reveal`).

    The body is drawn at the box's width (a phone's 48 columns give it 42 cells, not the
    70 it was drawn for, and cut), and the box is as tall as the screen lets it be.

    One box serves a table for its whole life (:meth:`KittenTable.open_reveal`): calls
    that come while it is open wait in :attr:`pages`, and a key turns to the next in
    place. Making a box (composed, styled, laid out over the table) was most of what a
    reveal cost, about 44 ms of CPU, paid by every player at each call, and an SSH or web
    player pays it on the host's box."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [HERE / "kitten.tcss"]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "back to the table", key_display="any key"),
    ]

    def __init__(self, page: RevealPage, closed: Callable[[], None]) -> None:
        super().__init__()
        self.page = page
        self.closed = closed
        """Called once the box has left the screen after its last page (not when it is
        popped for another reason: the table is going)."""
        self.closing = False
        self.pages: deque[RevealPage] = deque()
        """The calls that came while this one was open, in order: each key shows the next."""
        self.opened = time.monotonic()
        """When the page was put on screen (a watcher's is read a while before it closes by
        itself)."""
        self.settling: Timer | None = None
        """Closes a watcher's box once read a while (:meth:`KittenTable.settle_reveal`)."""
        self.width = REVEAL_WIDTH
        """The width the body is drawn at (the box's, once it is on a screen)."""

    @property
    def heading(self) -> str:
        return self.page.heading

    @property
    def round(self) -> int:
        """The round whose call the page on show reveals."""
        return self.page.round

    @property
    def body(self) -> RenderableType:
        """The reveal as the box draws it now."""
        return self.page.draw_body(self.width)

    def drawn_body(self) -> Segments:
        """The body rendered once, to the lines the box shows: Textual renders a widget's
        content for its height and again for each frame, and the reveal's nested tables
        took about 5 ms each time."""
        console = self.app.console
        lines = console.render_lines(self.body, console.options.update_width(self.width))
        return Segments(segment for line in lines for segment in (*line, Segment.line()))

    def compose(self) -> ComposeResult:
        self.width = reveal_width(self.app.size.width)
        with Vertical(id="reveal-box"):
            yield Static(self.heading, id="reveal-title", markup=False)
            with VerticalScroll(id="reveal-scroll"):
                yield Static(self.drawn_body(), id="reveal-body")
            yield Static("any key: back to the table", id="reveal-hint")
        yield TableFooter()

    def on_mount(self) -> None:
        self.opened = time.monotonic()
        self.fit(self.app.size)

    def on_screen_resume(self) -> None:
        """Shown again (its first showing has :meth:`on_mount`): keys count from its next
        frame, and it fits the screen as it is now (a resize while it was away is not
        told to it)."""
        if self.seen_at is not None:
            self.opened = time.monotonic()
            self.unseen()
            self.fit(self.app.size)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)

    def show(self, page: RevealPage) -> None:
        """Put ``page`` in the box (on screen or not), scrolled to its top."""
        self.page = page
        self.opened = time.monotonic()
        if self.settling is not None:
            self.settling.stop()
            self.settling = None
        if not self.is_mounted:
            return  # compose draws it
        self.query_one("#reveal-title", Static).update(page.heading)
        self.query_one("#reveal-body", Static).update(self.drawn_body())
        self.query_one("#reveal-scroll", VerticalScroll).scroll_home(animate=False)
        self.fit(self.app.size)
        if self.app.screen is self:
            self.unseen()

    def fit(self, size: Size) -> None:
        """Draw the body at the box's width on a screen of ``size``, and let it scroll in
        what the screen's height leaves (less the title's rows, the hint, the box's border
        and the footer)."""
        scrolls = self.query("#reveal-scroll").results(VerticalScroll)
        scroll = next(scrolls, None)
        if scroll is None:  # resized before its box is composed: on_mount fits it
            return
        width = reveal_width(size.width)
        if width != self.width:
            self.width = width
            self.query_one("#reveal-body", Static).update(self.drawn_body())
        inner = max(1, min(REVEAL_BOX, size.width) - 4)
        title = len(Text(self.heading).wrap(self.app.console, inner))
        scroll.styles.max_height = max(3, size.height - title - 4)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("up", "down", "pageup", "pagedown"):
            scroll = self.query_one("#reveal-scroll", VerticalScroll)
            step = {"up": -1, "down": 1, "pageup": -5, "pagedown": 5}[event.key]
            scroll.scroll_relative(y=step, animate=False)
            return
        self.turn()

    def action_close(self) -> None:
        self.turn()

    def turn(self) -> None:
        """The next call waiting, in place; after the last, back to the table."""
        if self.pages:
            self.show(self.pages.popleft())
        else:
            self.close()

    def close(self) -> None:
        """Back to the table (:attr:`closed` is told once the box is off the stack, so the
        table never shows the box again while Textual is still taking it down)."""
        self.closing = True
        self.dismiss(None)

    def on_screen_suspend(self) -> None:
        if self.closing and self not in self.app.screen_stack:
            self.closing = False
            self.closed()


# The screen ----------------------------------------------------------------------------


GAME_KEYS: Mapping[str, tuple[str, str | None]] = {
    "b": ("bid", None),
    "c": (CHALLENGE, None),
    "p": (PURRFECT, None),
    "s": ("play", SKIP),
    "d": ("play", DRAW_3),
    "g": ("play", GO_FISH),
}
"""The keys that ask for one kind of move: refused with the reason when it is not legal now."""

THING_KEYS: Mapping[str, str] = {
    "hat": "h",
    "bowtie": "o",
    "glasses": "l",
    "blue": "u",
    "red": "e",
    "green": "n",
}
"""The letter that picks each thing in the bars: one of its name's that no other key of the
table takes (b, c, p, s, d, g, v, r, q, t and x do; the digits type the count)."""
KEY_THINGS: Mapping[str, str] = {key: thing for thing, key in THING_KEYS.items()}
DIGITS = tuple(str(digit) for digit in range(10))

BAR_KEYS = ("up", "down", "left", "right", *DIGITS, *KEY_THINGS)
"""The keys of the bid bar: pressed with no bar open, they open it (a digit typed as the
count, a letter picking its thing)."""


class KittenTable(TableScreen[KittenView]):
    """The Kitten Me! table for one seat (or a spectator)."""

    look_names = LOOKS
    look_paints_background = True
    game = "kitten"
    essential = ("#bid-row", "#hand")

    @staticmethod
    def card_label(card: str) -> str:
        return chip_label(card)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bid", "bid"),
        Binding("c", "challenge", "kitten me!"),
        Binding("p", "purrfect", "purrfect"),
        Binding("s", "special('skip')", "skip"),
        Binding("d", "special('draw-3')", "draw 3"),
        Binding("g", "fish", "go fish"),
        Binding("0", "digit(0)", "count", key_display="0-9"),
        *(Binding(str(n), f"digit({n})", "count", show=False) for n in range(1, 10)),
        Binding("backspace", "erase", "erase", key_display="bksp"),
        Binding("up", "count(1)", "+1/-1", key_display="↑↓"),
        Binding("down", "count(-1)", "+1/-1", show=False),
        Binding("up", "target(-1)", "player", key_display="↑↓"),
        Binding("down", "target(1)", "player", show=False),
        Binding("left", "thing(-1)", "thing", key_display="←→"),
        Binding("right", "thing(1)", "thing", show=False),
        *(
            Binding(key, f"pick({thing!r})", THING_WORDS[thing][1], show=False)
            for thing, key in THING_KEYS.items()
        ),
        Binding("enter", "send_bid", "bid!"),
        Binding("enter", "send_fish", "fish!"),
        Binding("x", "cancel", "cancel"),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("v", "show_reveal", "reveal"),
        Binding("r", "rules", "rules"),
        Binding("q", "leave", "quit"),
    ]

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[Any] | None = None
    ) -> None:
        super().__init__(table_id=table_id, place=place, coach=coach)
        self.mode = ""
        """``bid`` or ``fish`` while that bar is open, else empty."""
        self.count = 1
        self.typed: str | None = None
        """The digits typed for the count since the bar opened (``None``: the count was
        not typed, it is the bar's suggestion or moved by up/down, always legal)."""
        self.suggested = False
        """The count is the bar's suggestion, untouched: an opening bid's follows the thing."""
        self.thing = THINGS[0]
        self.target: int | None = None
        self._reveal_seen: int | None = None
        """The round of the last reveal this screen has shown (or met on its first view)."""
        self._first = True
        self.eliminated: list[tuple[int, int | None]] = []
        """(seat, round) in the order players went out, as this screen saw it (round
        ``None``: out before this screen's first view)."""
        self._revealing = False
        """The reveal box is up (calls after its page wait in :attr:`RevealScreen.pages`)."""
        self._box: RevealScreen | None = None
        """This table's reveal box, made at its first call and kept (installed in the app)
        until the table goes."""
        self.reveal_read_s = WATCHER_READS_S
        """How long a watcher's reveal stays at least before it closes by itself."""
        self._results_after: KittenView | None = None

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Panel(id="title")
                with Horizontal(id="bid-row"):
                    yield Digits("-", id="bid-count")
                    yield Panel(id="bid-words")
                yield Panel(id="history")
                yield Panel(id="last-call")
                yield Panel(id="hand-label")
                yield Panel(id="hand")
                yield Panel(id="hand-note")
            with Vertical(id="side"):
                yield Panel(id="players")
                yield GameLog(id="log")
        yield Panel(id="bar")

    def on_mount(self) -> None:
        self.query_one(Footer).compact = True

    def on_resize(self, _: events.Resize) -> None:
        """The screen's size changed (at 48 columns the phone's layout comes after the first
        view): the panels drawn to their width (the hand, the bids) are drawn again once laid
        out, at their new width; a hand of cards was left as narrow chips."""
        self.after_refresh(self._redraw_widths)

    def _redraw_widths(self) -> None:
        view = self.view
        if view is None or not self.is_attached:
            return
        self._show_hand(view)
        self._show_history(view)

    # Legal moves -----------------------------------------------------------------------

    def legal(self, kind: str, card: str | None = None) -> bool:
        """Whether a move of this kind (and card) is in the view's legal actions."""
        view = self.view
        if view is None:
            return False
        return any(
            action.get("type") == kind and (card is None or action.get("card") == card)
            for action in view["legal"]
        )

    def lowest_bid(self) -> int:
        view = self.view
        counts = [] if view is None else [a["count"] for a in view["legal"] if a["type"] == "bid"]
        return min(counts) if counts else 1

    def targets(self) -> list[int]:
        """The players Go Fish may name now (from the legal actions)."""
        view = self.view
        if view is None:
            return []
        found = {
            int(action["target"])
            for action in view["legal"]
            if action.get("type") == "play" and action.get("card") == GO_FISH
        }
        return sorted(found)

    def why_not(self, kind: str, card: str | None = None) -> str:
        """Why a move is not legal now, in the engine's words."""
        view = self.view
        if view is None:
            return "The game has not started"
        if view["phase"] == "over":
            return "The game is over"
        seat = view["seat"]
        if seat is None:
            return "You are watching: only players bid and call"
        if view["turn"] != seat:
            return f"It is {view['players'][view['turn'] or 0]}'s turn"
        if kind == PURRFECT and not view["purrfect"]:
            return "This table does not play Purrfect (table option 'purrfect')"
        standing = view["bid"]
        if kind in (CHALLENGE, PURRFECT):
            if standing is None:
                return "There is no bid to call yet: the dealer opens with a bid"
            if standing["seat"] == seat:
                return "That is your own bid: make a new bid"
        if kind == "play" and card is not None:
            if card not in (view["hand"] or []):
                return f"You do not hold a {card_name(card)}"
            if standing is None:
                return "The dealer opens the round with a bid"
            if standing["seat"] == seat:
                return "Your own bid came back to you: make a new bid"
            if standing["count"] >= view["max_bid"]:
                extra = " or call Purrfect" if view["purrfect"] else ""
                return f"The bid is already the highest allowed: challenge it{extra}"
        if kind == "bid" and standing is not None and standing["count"] >= view["max_bid"]:
            return f"Bids go up to {view['max_bid']} at this table"
        return "That is not a move you can make now"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows only what is legal now; keys that can never apply are hidden."""
        view = self.view
        if action in ("rules", "leave"):
            return True
        if view is None:
            return False
        hand = view["hand"] or []
        if action == "show_reveal":
            return view["last_reveal"] is not None and not self.mode
        if action == "bid":
            return self.legal("bid") and self.mode != "bid"
        if action == "challenge":
            return self.legal(CHALLENGE) and not self.mode
        if action == "purrfect":
            return view["purrfect"] and self.legal(PURRFECT) and not self.mode
        if action == "special":
            card = str(parameters[0]) if parameters else ""
            return card in hand and self.legal("play", card) and not self.mode
        if action == "fish":
            return GO_FISH in hand and self.legal("play", GO_FISH) and not self.mode
        if action in ("count", "send_bid", "digit", "erase"):
            return self.mode == "bid"
        if action in ("target", "send_fish"):
            return self.mode == "fish"
        if action in ("thing", "pick", "cancel"):
            return self.mode != ""
        return True

    def on_key(self, event: events.Key) -> None:
        """A key for a move that is not legal now says why; arrows and 1-6 open the bid bar."""
        view = self.view
        if view is None:
            return
        if event.key in GAME_KEYS:
            kind, card = GAME_KEYS[event.key]
            if self.mode and event.key != "b":
                self.mode = ""  # another move: the bar closes
                self._redraw()
            if card is None and kind == PURRFECT and not view["purrfect"]:
                pass
            elif self.legal(kind, card):
                return
            event.stop()
            self.refused(self.why_not(kind, card))
        elif event.key in BAR_KEYS and not self.mode:
            event.stop()
            if not self.legal("bid"):
                if view["seat"] is not None and view["phase"] != "over":
                    self.refused(self.why_not("bid"))
                return
            self.open_bid()
            if event.key in DIGITS:
                self.action_digit(int(event.key))
            elif event.key in KEY_THINGS:
                self.action_pick(KEY_THINGS[event.key])

    # Drawing ---------------------------------------------------------------------------

    def show(self, view: KittenView) -> None:
        """Draw each panel from its own part of the view (a panel whose part is as it was is
        neither built again nor repainted): a bid changes the standing bid, the bids, whose
        turn it is and the prompt; a call the hands, the players and the last call."""
        self._note_eliminations(view)
        seat = view["seat"]
        players = view["players"]
        title = self.query_one("#title", Panel)
        width = title.content_region.width
        title.draw(
            (
                view["round"],
                view["deck_set"],
                view["purrfect"],
                view["deck_count"],
                seat is None,
                width,
            ),
            lambda: fitting(width, *(self._title(view, short) for short in range(3))),
        )
        self._show_bid(view)
        self._show_history(view)
        self.query_one("#last-call", Panel).draw(
            (view["last_reveal"], players, seat), lambda: self._last_call(view)
        )
        self._show_hand(view)
        self.query_one("#players", Panel).draw(
            (
                players,
                view["turn"],
                seat,
                view["out"],
                view["hand_counts"],
                view["deal_sizes"],
                view["dealer"],
                None if view["bid"] is None else view["bid"]["seat"],
                view["phase"],
            ),
            lambda: self._players(view),
        )
        self.query_one(GameLog).show(view["log"])
        if self.mode and not self.legal("bid" if self.mode == "bid" else "play"):
            self.mode = ""
        self._clamp()
        self._show_bar()
        self.query_one(PromptLine).prompt(self.prompt_text(view))
        self._follow_bindings()  # the footer offers what is legal now
        self._maybe_reveal(view)
        self.settle_reveal(view)
        self._first = False

    def _show_history(self, view: KittenView) -> None:
        history = self.query_one("#history", Panel)
        history.draw(
            (
                view["bids"],
                view["played"],
                view["players"],
                view["seat"],
                history.content_region.width,
            ),
            lambda: self._history(view),
        )

    def _last_call(self, view: KittenView) -> Text:
        last = view["last_reveal"]
        call = Text()
        if last is not None:
            call.append("Last call: ", style="bold")
            call.append(call_summary(view, last))
            call.append("  v: reveal", style=self.look("key"))
        else:
            call.append("No call yet this game.", style=self.look("muted"))
        return call

    def _note_eliminations(self, view: KittenView) -> None:
        known = {seat for seat, _ in self.eliminated}
        reveal = view["last_reveal"]
        if self._first:
            earlier = [seat for seat in view["out"] if reveal is None or seat not in reveal["out"]]
            self.eliminated += [(seat, None) for seat in earlier]
            known.update(earlier)
        if reveal is not None:
            for seat in reveal["out"]:
                if seat not in known:
                    self.eliminated.append((seat, reveal["round"]))
                    known.add(seat)

    def _maybe_reveal(self, view: KittenView) -> None:
        reveal = view["last_reveal"]
        if reveal is None:
            return
        if self._first:
            self._reveal_seen = reveal["round"]
            return
        if reveal["round"] != self._reveal_seen:
            self._reveal_seen = reveal["round"]
            self.open_reveal(view)

    def open_reveal(self, view: KittenView) -> None:
        """Show the view's last reveal; if one is open, after it (calls can come quickly).

        A watcher's box shows the newest call instead: nobody there presses keys between
        calls, so a queue would keep them a round or more behind the table."""
        reveal = view["last_reveal"]
        if reveal is None:
            return
        page = RevealPage(
            call_headline(view, reveal),
            lambda width: reveal_body(view, reveal, self.look, width),
            reveal["round"],
        )
        box = self._box
        if box is None:
            box = self._box = RevealScreen(page, self._reveal_closed)
            self.app.install_screen(box, f"kitten-reveal-{id(self)}")
        if not self._revealing:
            self._revealing = True
            box.pages.clear()
            box.show(page)
            self.app.push_screen(box)
        elif self.watching(view):
            box.pages.clear()
            box.show(page)
        else:
            box.pages.append(page)

    def _close_page(self) -> None:
        """Close the reveal on screen (only while it is on top: a dialog over it stays)."""
        box = self._box
        if self._revealing and box is not None and self.app.screen is box:
            box.close()

    def _reveal_closed(self) -> None:
        self._revealing = False
        later, self._results_after = self._results_after, None
        if later is not None:
            super().show_results(later)

    def on_unmount(self) -> None:
        """The table goes (the game is left, or the next one has its own table): so does
        its reveal box, which the app would otherwise keep as installed."""
        box, self._box = self._box, None
        if box is None:
            return
        if box in self.app.screen_stack:
            return  # the app is closing with it up: Textual uninstalls it
        self.app.uninstall_screen(box)
        box.remove()

    @staticmethod
    def watching(view: KittenView) -> bool:
        """Whether this screen only watches the game: a spectator, or a player who is out."""
        seat = view["seat"]
        return seat is None or seat in view["out"]

    def settle_reveal(self, view: KittenView) -> None:
        """A watcher's reveal closes once the table has moved on (:func:`moved_on`), as a
        player's does when they play on (any key closes it): it stayed on a spectator's
        screen for the rest of the game (issue 36). It is read for :attr:`reveal_read_s` at
        least first (bots bid within a second of the deal); ``v`` shows it again."""
        box = self._box
        if not self._revealing or box is None:
            return
        if not self.watching(view) or not moved_on(view, box.round):
            return
        left = box.opened + self.reveal_read_s - time.monotonic()
        if box.settling is not None:
            box.settling.stop()
            box.settling = None
        if left <= 0:
            self._close_page()
        else:
            box.settling = box.set_timer(left, self._settle_later)

    def _settle_later(self) -> None:
        if self.view is not None and self.is_attached:
            self.settle_reveal(self.view)

    def show_results(self, view: KittenView) -> None:
        """The results come after the last reveal has been read."""
        if self._revealing:
            self._results_after = view
        else:
            super().show_results(view)

    def _title(self, view: KittenView, short: int = 0) -> Text:
        """The title line; ``short`` 1 leaves out the deck's colour, 2 the Purrfect rule too,
        for a narrow board (a spectator's ``watching`` stays)."""
        look = self.look
        title = Text(f"Round {view['round']}", style="bold")
        deck = {"base": "white deck", "deluxe": "grey deck", "both": "both decks"}
        if short < 1:
            title.append(f" · {deck.get(view['deck_set'], view['deck_set'])}")
        if short < 2:
            title.append(
                " · Purrfect on" if view["purrfect"] else " · no Purrfect", style=look("muted")
            )
        title.append(f" · deck: {view['deck_count']}", style=look("muted"))
        if view["seat"] is None:
            title.append(" · watching", style=look("muted"))
        return title

    def _show_bid(self, view: KittenView) -> None:
        bid = view["bid"]
        digits = self.query_one("#bid-count", Digits)
        shown = "-" if view["phase"] == "over" or bid is None else str(bid["count"])
        if digits.value != shown:
            digits.update(shown)
        self.query_one("#bid-words", Panel).draw(
            (
                view["phase"],
                view["winner"],
                bid,
                view["dealer"],
                view["seat"],
                view["players"],
                sum(view["hand_counts"]),
                view["max_bid"],
            ),
            lambda: self._bid_words(view),
        )

    def _bid_words(self, view: KittenView) -> Text:
        look = self.look
        bid = view["bid"]
        words = Text()
        if view["phase"] == "over":
            winner = view["winner"]
            words.append("Game over\n", style="bold")
            words.append(f"{capital(name_of(view, winner))} won" if winner is not None else "")
        elif bid is None:
            words.append("No bid yet\n", style="bold")
            dealer = capital(name_of(view, view["dealer"]))
            you = view["dealer"] == view["seat"]
            words.append(f"{dealer} deal{'' if you else 's'} and open{'' if you else 's'}\n")
            words.append("any count of 1 or more", style=look("muted"))
        else:
            singular, plural = THING_WORDS[bid["thing"]]
            words.append((singular if bid["count"] == 1 else plural).upper(), style=look("bid"))
            bidder = name_of(view, bid["seat"])
            words.append(f"  bid by {bidder}\n")
            in_hands = sum(view["hand_counts"])
            flipper = name_of(view, view["dealer"])
            flip = f"{flipper} {flips(view, view['dealer'])} 1"
            words.append(f"{in_hands} cards in hands + {flip}\n", style=look("muted"))
            if bid["count"] < view["max_bid"]:
                words.append(f"raise: {bid['count'] + 1} or more of anything", style=look("muted"))
            else:
                words.append("the highest bid allowed", style=look("muted"))
        return words

    def _history(self, view: KittenView) -> Text:
        look = self.look
        width = self.query_one("#history", Panel).content_region.width or 46
        out = Text("Bids: ", style="bold")
        if not view["bids"]:
            out.append("none yet this round", style=look("muted"))
        parts = [
            f"{name_of(view, bid['seat'])} {thing_words(bid['thing'], bid['count'])}"
            for bid in view["bids"]
        ]
        budget = width * 2 - 6
        shown: list[str] = []
        for part in reversed(parts):
            if sum(len(p) + 3 for p in shown) + len(part) > budget:
                shown.insert(0, "…")
                break
            shown.insert(0, part)
        for position, part in enumerate(shown):
            if position:
                out.append(" → ", style=look("muted"))
            last = position == len(shown) - 1
            out.append(part, style=look("bid") if last else Style())
        if view["played"]:
            played = " · ".join(special_words(view, entry) for entry in view["played"])
            out.append("\nPlayed: ", style="bold")
            out.append(played[: max(10, width - 8)])
        return out

    def _show_hand(self, view: KittenView) -> None:
        look = self.look
        seat = view["seat"]
        label = self.query_one("#hand-label", Panel)
        hand_widget = self.query_one("#hand", Panel)
        note = self.query_one("#hand-note", Panel)
        hand = view["hand"] or []
        # Out on the game's last call, a player still holds that round's cards (no deal
        # follows): they are out all the same.
        if seat is None or not hand or seat in view["out"]:
            if seat is None:
                words = "Watching: each hand is secret until a call"
            else:
                words = "You are out: your cards are gone" if seat in view["out"] else "No cards"
            label.draw(words, lambda: Text(words, style=look("muted")))
            hand_widget.display = False
            note.display = False
            return
        hand_widget.display = True
        note.display = True
        deal = view["deal_sizes"][seat] if seat < len(view["deal_sizes"]) else 0
        my_turn = view["turn"] == seat and view["phase"] != "over"
        label.draw((len(hand), deal, my_turn), lambda: self._hand_label(view, hand, deal))
        width = hand_widget.content_region.width or 46
        keys = {card: key for card, key in SPECIAL_KEYS.items() if self.legal("play", card)}
        hand_widget.draw((hand, width, keys), lambda: hand_text(hand, width, look, keys))
        note.draw(hand, lambda: self._hand_note(hand))

    def _hand_label(self, view: KittenView, hand: Sequence[str], deal: int) -> Text:
        look = self.look
        seat = view["seat"]
        text = Text("Your hand", style="bold")
        text.append(f" · {len(hand)} card{'s' * (len(hand) != 1)}")
        if seat in view["out"]:
            text.append(" · you are out", style=look("out"))
        else:
            text.append(f" · dealt {deal}", style=look("muted"))
        if view["turn"] == seat and view["phase"] != "over":
            text.append("  ▶ your turn", style=look("turn"))
        return text

    def _hand_note(self, hand: Sequence[str]) -> Text:
        """What your hand adds to each thing, in whole words: the accessories on one line,
        the colours under them (``hats 2 · bow ties 3 · glasses 1`` / ``blue 3 · ...``)."""
        look = self.look
        counts = own_counts(hand)
        line = Text("You add: ", style="bold")
        if CANT_SEE_ME in hand:
            line.append("nothing (Can't See Me hides your hand)", style=look("muted"))
            return line
        if DOUBLE_TROUBLE in hand:
            line = Text(f"You add ({TIMES}{2 ** hand.count(DOUBLE_TROUBLE)}): ", style="bold")
        indent = len(line)
        for position, thing in enumerate(THINGS):
            if position == 3:
                line.append("\n" + " " * indent)
            elif position:
                line.append(" · ", style=look("muted"))
            style = Style(bold=True) if counts[thing] else look("muted")
            line.append(f"{THING_WORDS[thing][1]} {counts[thing]}", style=style)
        return line

    def _players(self, view: KittenView) -> Text:
        """A line per player: cards in hand now and dealt this round, ``bid`` by the standing
        bid's maker, ``*`` by you; then who deals, in words (no one-letter marks)."""
        look = self.look
        out = Text("  Player    cards dealt", style=look("muted"))
        bid = view["bid"]
        for seat, name in enumerate(view["players"]):
            out.append("\n")
            turn = seat == view["turn"]
            out.append("▶ " if turn else "  ", style=look("turn"))
            label = name[:9] + ("*" if seat == view["seat"] else "")
            is_out = seat in view["out"]
            style = look("out") if is_out else (Style(bold=True) if turn else Style())
            out.append(label.ljust(10)[:10], style=style)
            if is_out:
                out.append("   out", style=look("muted"))
                continue
            hand = view["hand_counts"][seat] if seat < len(view["hand_counts"]) else 0
            deal = view["deal_sizes"][seat] if seat < len(view["deal_sizes"]) else 0
            out.append(f"{hand:>5}{deal:>6}")
            if bid is not None and bid["seat"] == seat:
                out.append(" bid", style=look("bid"))
        dealer = view["dealer"]
        if view["phase"] != "over":
            deals = "deal" if dealer == view["seat"] else "deals"
            out.append(f"\n{capital(name_of(view, dealer))} {deals} this round", style=look("key"))
        return out

    # The bars ----------------------------------------------------------------------------

    def _clamp(self) -> None:
        view = self.view
        if view is None:
            return
        if self.typed is None:  # a typed count is shown as typed; enter says if it is too low
            self.count = max(self.lowest_bid(), min(self.count, view["max_bid"]))
        targets = self.targets()
        if targets and self.target not in targets:
            self.target = targets[0]

    def _show_bar(self) -> None:
        bar = self.query_one("#bar", Panel)
        view = self.view
        if not self.mode or view is None:
            bar.display = False
            return
        bar.draw(
            (
                self.mode,
                self.thing,
                self.count,
                self.typed,
                self.lowest_bid(),
                self.target,
                view["hand"],
                view["players"],
            ),
            lambda: self._bar_text(view),
        )
        bar.display = True

    def _bar_text(self, view: KittenView) -> Text:
        """The bar: the bid (or the Go Fish) being made and its keys, then the things with
        the letter that picks each."""
        look = self.look
        if self.mode == "bid":
            head = Text("Your bid: ", style="bold")
            head.append(f" {self.bid_words()} ", style=look("chosen"))
            lowest = self.lowest_bid()
            if self.count < lowest:
                head.append(f"  a bid now is at least {lowest}", style=look("loss"))
            else:
                mine = count_hand(list(view["hand"] or []), self.thing).adds
                likely = round(expected(view, self.thing))
                head.append(f"  you hold {mine}, ~{likely} likely in all", style=look("muted"))
            head.append(" · type 0-9 or ↑↓", style=look("muted"))
        else:
            target = name_of(view, self.target)
            plural = THING_WORDS[self.thing][1]
            head = Text("Go Fish: ", style="bold")
            head.append(f" {capital(target)}, hand over your {plural} ", style=look("chosen"))
            head.append("   ↑↓ player", style=look("muted"))
        things = Text("thing: ←→ or ", style=look("muted"))
        for number, thing in enumerate(THINGS):
            if number:
                things.append(" · ", style=look("muted"))
            things.append(THING_KEYS[thing], style=look("key"))
            chosen = look("chosen") if thing == self.thing else Style()
            things.append(f" {THING_WORDS[thing][1]}", style=chosen)
        return head + Text("\n") + things

    def bid_words(self) -> str:
        """The bid in the bar: ``12 hats``; ``_ hats`` when every digit typed was erased."""
        if self.typed == "":
            return f"_ {THING_WORDS[self.thing][1]}"
        return thing_words(self.thing, self.count)

    def open_bid(self) -> None:
        """Open the bid bar on your best thing, its count the lowest legal bid when raising
        and, when opening the round, what the table can likely be expected to hold of it."""
        view = self.view
        if view is None:
            return
        self.mode = "bid"
        if view["bid"] is None:
            self.thing = max(THINGS, key=lambda thing: expected(view, thing))
        else:
            counts = own_counts(view["hand"] or [])
            self.thing = max(THINGS, key=lambda thing: counts[thing])
        self.typed = None
        self.suggest()
        self._redraw()

    def suggest(self) -> None:
        """The bar's count for its thing: the lowest legal bid, or when opening the round,
        the count a call would likely find (never outside the legal bids)."""
        view = self.view
        if view is None:
            return
        count = self.lowest_bid()
        if view["bid"] is None:
            count = max(count, min(view["max_bid"], round(expected(view, self.thing))))
        self.count = count
        self.suggested = True

    def _redraw(self) -> None:
        self._clamp()
        self._show_bar()
        if self.view is not None:
            self.query_one(PromptLine).prompt(self.prompt_text(self.view))
        self._follow_bindings()

    def prompt_text(self, view: KittenView) -> str:
        """What the player may do now, in words."""
        seat = view["seat"]
        if view["phase"] == "over":
            return "Game over · v the last reveal · r rules · q leaves"
        turn = name_of(view, view["turn"])
        if seat is None:
            return f"Watching: {turn} to play · v the last reveal · q leaves"
        if seat in view["out"]:
            return f"You are out: watching {turn} play · q leaves"
        if view["turn"] != seat:
            return f"{capital(turn)} to play..."
        if self.mode == "bid":
            if self.count < self.lowest_bid():
                return f"Type a count of at least {self.lowest_bid()} · x cancels"
            return f"Bid {self.bid_words()}? enter bids, x cancels"
        if self.mode == "fish":
            return "Go Fish: pick a player and a thing, enter plays the card, x cancels"
        bid = view["bid"]
        if bid is None:
            return "You open the round: b bids, or type the count (of one accessory or colour)"
        if view["must_bid"]:
            return "Your own bid came back to you: make a new bid (b)"
        more = ["b bids", "c: You Gotta Be Kitten Me!"]
        if self.legal(PURRFECT):
            more.append("p Purrfect")
        return f"Beat {bid_words(view, bid)}? " + ", ".join(more)

    # Intents ---------------------------------------------------------------------------

    def action_bid(self) -> None:
        self.open_bid()

    def action_count(self, delta: int) -> None:
        self.count += delta
        self.typed = None  # clamped to the legal bids again
        self.suggested = False
        self._redraw()

    def action_digit(self, digit: int) -> None:
        """Type the count: each digit goes after those typed (``1`` ``2``: 12); the first
        replaces the suggested count, and one that would pass the highest bid starts anew."""
        view = self.view
        if view is None or self.mode != "bid":
            return
        typed = ((self.typed or "") + str(digit)).lstrip("0")
        if typed and int(typed) > view["max_bid"]:
            typed = str(digit).lstrip("0")
        self.typed = typed
        self.count = int(typed or 0)
        self.suggested = False
        self._redraw()

    def action_erase(self) -> None:
        """Backspace: the count's last digit goes (of the shown count, if none was typed)."""
        if self.mode != "bid":
            return
        shown = str(self.count) if self.typed is None else self.typed
        self.typed = shown[:-1]
        self.count = int(self.typed or 0)
        self.suggested = False
        self._redraw()

    def action_target(self, delta: int) -> None:
        targets = self.targets()
        if targets:
            index = targets.index(self.target) if self.target in targets else 0
            self.target = targets[(index + delta) % len(targets)]
        self._redraw()

    def action_thing(self, delta: int) -> None:
        self.action_pick(THINGS[(THINGS.index(self.thing) + delta) % len(THINGS)])

    def action_pick(self, thing: str) -> None:
        """Bid on (or fish for) ``thing``; an untouched opening count follows it."""
        if thing in THINGS:
            self.thing = thing
            if self.mode == "bid" and self.suggested:
                self.suggest()
        self._redraw()

    def action_cancel(self) -> None:
        self.mode = ""
        self._redraw()

    def action_send_bid(self) -> None:
        view = self.view
        lowest, action = (
            self.lowest_bid(),
            {"type": "bid", "count": self.count, "thing": self.thing},
        )
        if view is not None and action not in view["legal"] and self.legal("bid"):
            typed = "nothing" if self.typed == "" else str(self.count)
            self.refused(f"A bid now is {lowest} to {view['max_bid']}: you typed {typed}")
            return
        self._send(action)

    def action_send_fish(self) -> None:
        self._send({"type": "play", "card": GO_FISH, "target": self.target, "thing": self.thing})

    def _send(self, action: dict[str, Any]) -> None:
        view = self.view
        if view is None:
            return
        if action not in view["legal"]:
            self.refused(self.why_not(str(action["type"]), action.get("card")))
            return
        self.mode = ""
        self.act(action)
        self._redraw()

    def action_challenge(self) -> None:
        self._send({"type": CHALLENGE})

    def action_purrfect(self) -> None:
        self._send({"type": PURRFECT})

    def action_special(self, card: str) -> None:
        self._send({"type": "play", "card": card})

    def action_fish(self) -> None:
        view = self.view
        if view is None:
            return
        self.mode = "fish"
        targets = self.targets()
        counts = view["hand_counts"]
        self.target = max(targets, key=lambda seat: counts[seat]) if targets else None
        self.thing = view["bid"]["thing"] if view["bid"] is not None else THINGS[0]
        self._redraw()

    def action_show_reveal(self) -> None:
        if self.view is not None and not self._revealing:
            self.open_reveal(self.view)

    # The end ---------------------------------------------------------------------------

    def results_lines(self, view: KittenView) -> list[str]:
        players = view["players"]
        seat = view["seat"]
        outcome = view["outcome"]
        winners = [] if outcome is None else outcome["winners"]
        names = [players[index] for index in winners if index < len(players)]
        if seat is not None and seat in winners:
            head = "You win: the last player with cards!"
        else:
            head = f"{' and '.join(names) or 'Nobody'} wins: the last player with cards."
        lines = [head, f"{view['round']} round{'s' * (view['round'] != 1)} played.", ""]
        if self.eliminated:
            lines.append("Out, in order:")
            for place, (out, round_) in enumerate(self.eliminated, start=1):
                when = f"round {round_}" if round_ is not None else "before you sat down"
                you = " (you)" if out == seat else ""
                lines.append(f"  {place}. {players[out]}{you}, {when}")
            lines.append("")
        for index in winners:
            cards = view["deal_sizes"][index]
            lines.append(f"{players[index]} ends with {cards} card{'s' * (cards != 1)}.")
        last = view["last_reveal"]
        if last is not None:
            lines += ["", f"The last call (round {last['round']}):", call_summary(view, last)]
        lines += ["", "t or Esc: back to the table · v the last reveal"]
        return lines
