"""The Black Cat table: the top card big, your two kitty piles, everyone else's, who got what.

Everything drawn comes from :meth:`engine.blackcat.BlackCat.view` (the piles
are public, the deck below the top card is hidden from everyone) and from the
host's rulings (:mod:`tui.games.blackcat_grabs`). Scoring knowledge comes
from :mod:`engine.blackcat_scoring`, the engine's own pure function, to show
what the top card would add to each pile before you grab it.

Grabs are real-time claims. The screen notes when each new top card was
actually drawn (after Textual's refresh) and when the key was pressed (the
key event's own monotonic stamp), and sends both with the grab, so the host
can rank players by reaction time rather than by whose packet came first.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from engine.blackcat import ASSUMPTIONS, CALL_PHRASE
from engine.blackcat_scoring import (
    BLACK_CAT,
    CAT_NAMES,
    JELLICAL,
    TOMCAT,
    YOWLER,
    card_label,
    is_black,
    score_pile,
)
from tui.games.blackcat_grabs import GrabHistory, headline, ms
from tui.screens.info import InfoScreen
from tui.screens.table import TCSS_DIR, ClaimStamps, TableScreen
from tui.widgets.log import GameLog
from tui.widgets.panel import Panel
from tui.widgets.prompt import PromptLine
from tui.widgets.scores import Scoreboard, ScoreLine

PILES = 2
CELL = 4
"""Screen cells per card in a pile row: ``10♥`` and a space."""

MARKS: Mapping[str, str] = {TOMCAT: "T", YOWLER: "Y", JELLICAL: "J", BLACK_CAT: "B"}
"""The letter under a card for each kind of cat it is part of (readable without colour)."""
LEGEND = "T Tomcat · Y Yowler · J Jellical · B Black Cat"

RED_CARD = "bold red on grey93"
BLACK_CARD = "bold black on grey93"
IN_CAT = "underline"
GAIN_STYLE = "bold green"
DRAWN_KEEP = 8
"""How many reveals' drawn stamps are kept (a grab only ever names the newest)."""
STALL_S = 8.0
"""A top card nobody takes for this long gets a hint: grab it, or call the end."""
KEY_FRESH_NS = 2_000_000_000
"""A key stamp older than this is not the key that triggered the action (it was a mouse click)."""

RULES = f"""
Everyone plays at once from one poker deck lying **face up**: only its top
card shows. At any moment anyone may take the top card and put it on one of
their **two kitty piles**, one card at a time. Piles are never rearranged.

**Values**: Ace 1, 2-10 as printed, Jack and King 0, Queen 7 or 11 (chosen
for you at the end, whichever scores more).

**Cats** (what your piles score):

- **Tomcat** (3 points): two neighbouring cards adding to 10. 8-2-8 is two
  Tomcats; 6-A-3 is none (only pairs count).
- **Yowler** (1 point): every ten.
- **Jellical Cat** (2 points): each face card in a run of the same face
  (J, Q or K) sandwiched between two cards of the same rank: 2-Q-Q-2.
- **Black Cat** (6 points): an unbroken run of black cards (spades, clubs)
  adding to 13.

**The end**: when the deck runs out, or when someone calls *"Black cat,
black cat, crossin' my path. Don't look back or you'll get scratched!"*
(call when you think you are ahead). The highest total wins.

**Variants**: *Long Night on the Fence* (two decks), *Lucky Tom* (a 5-5
Tomcat is worth 5), *Music of the Night* (each Yowler is worth the number of
Yowlers in its pile).

**Fair grabs**: when two players grab the same card, the host compares
reaction times measured on each player's own machine (from the card being
drawn to the key press), allowing for network lag; the log says who got each
card and by how many milliseconds, and **w** shows the host's figures.

**Your piles** show what the top card would add to each, and under each
card the cats it is part of: {LEGEND}.

**Keys**: 1 or ← grabs into pile 1, 2 or → into pile 2; c twice calls the
end; w why; e explains every pile's score; r rules; q leaves.
"""


# Cards -----------------------------------------------------------------------------


def card_style(code: str) -> str:
    """Black suits in black, red suits in red (the suit symbol says it without colour too)."""
    return BLACK_CARD if is_black(code) else RED_CARD


def big_card(code: str | None) -> list[Text]:
    """The top card, five lines high, rank in two corners and the suit in the middle."""
    if code is None:
        return [
            Text("┌╌╌╌╌╌╌╌┐", style="bright_black"),
            Text("╎ deck  ╎", style="bright_black"),
            Text("╎ gone  ╎", style="bright_black"),
            Text("╎       ╎", style="bright_black"),
            Text("└╌╌╌╌╌╌╌┘", style="bright_black"),
        ]
    label = card_label(code)
    rank, suit = label[:-1], label[-1]
    style = card_style(code)
    lines = [Text("╭───────╮", style="bold")]
    for content in (rank.ljust(7), suit.center(7), rank.rjust(7)):
        line = Text("│", style="bold")
        line.append(content, style=style)
        line.append("│", style="bold")
        lines.append(line)
    lines.append(Text("╰───────╯", style="bold"))
    return lines


def card_marks(pile: Mapping[str, Any]) -> list[str]:
    """For each card of a pile, the letters of the cats it belongs to (``"TY"``)."""
    cards = list(pile.get("cards") or [])
    kinds: list[list[str]] = [[] for _ in cards]
    for cat in pile.get("cats") or []:
        letter = MARKS.get(str(cat.get("kind")), "?")
        for position in cat.get("cards") or []:
            if 0 <= position < len(cards) and letter not in kinds[position]:
                kinds[position].append(letter)
    order = list(MARKS.values())
    return ["".join(sorted(letters, key=order.index)) for letters in kinds]


def fitting(count: int, width: int) -> int:
    """How many cards of a pile of ``count`` fit ``width`` cells (one cell says ``+n``)."""
    room = max(1, width // CELL)
    return count if count <= room else max(1, room - 1)


def pile_rows(pile: Mapping[str, Any], width: int, *, marks: bool = True) -> tuple[Text, Text]:
    """A pile's newest cards that fit ``width`` (older ones counted as ``+n``), and their marks."""
    cards = list(pile.get("cards") or [])
    letters = card_marks(pile)
    shown = fitting(len(cards), width)
    hidden = len(cards) - shown
    top, bottom = Text(), Text()
    if not cards:
        top.append("(empty)", style="bright_black")
    if hidden:
        top.append(f"+{hidden}".ljust(CELL), style="bright_black")
        bottom.append(" " * CELL)
    for position in range(hidden, len(cards)):
        label = card_label(cards[position])
        style = card_style(cards[position]).split(" on ")[0]
        if letters[position]:
            style += " " + IN_CAT
        top.append(label, style=style)
        top.append(" " * (CELL - len(label)))
        bottom.append(letters[position].ljust(CELL), style="bold cyan")
    return top, (bottom if marks else Text())


def cat_summary(pile: Mapping[str, Any]) -> str:
    """``2 Tomcats, 1 Yowler`` (or ``no cats``)."""
    counts = pile.get("counts") or {}
    parts = []
    for kind, (singular, plural) in CAT_NAMES.items():
        count = int(counts.get(kind, 0))
        if count:
            parts.append(f"{count} {singular if count == 1 else plural}")
    return ", ".join(parts) if parts else "no cats"


def gain(pile: Mapping[str, Any], top: str | None, variants: Mapping[str, Any]) -> int | None:
    """What taking ``top`` onto ``pile`` would change its score by (``None``: no top card)."""
    if top is None:
        return None
    cards = [*list(pile.get("cards") or []), top]
    after = score_pile(
        cards,
        lucky_tom=bool(variants.get("lucky_tom")),
        music_of_the_night=bool(variants.get("music_of_the_night")),
    )
    return after.total - int(pile.get("score") or 0)


def explain_pile(cards: Sequence[str], variants: Mapping[str, Any]) -> str:
    """The scoring function's own explanation of a pile (which cards form which cats)."""
    return score_pile(
        list(cards),
        lucky_tom=bool(variants.get("lucky_tom")),
        music_of_the_night=bool(variants.get("music_of_the_night")),
    ).explain()


def capital(text: str) -> str:
    """``text`` with its first letter upper case (``str.capitalize`` would lower the rest)."""
    return text[:1].upper() + text[1:]


def name_of(view: Mapping[str, Any], seat: int | None) -> str:
    players = list(view.get("players") or [])
    if seat is None:
        return "nobody"
    if seat == view.get("seat"):
        return "you"
    return str(players[seat]) if 0 <= seat < len(players) else f"seat {seat + 1}"


# The screen ------------------------------------------------------------------------


class BlackCatTable(TableScreen):
    """The Black Cat table for one seat (or a spectator)."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [TCSS_DIR / "table.tcss", TCSS_DIR / "blackcat.tcss"]
    game_title = "Black Cat"
    rules_text = RULES
    assumptions = ASSUMPTIONS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "grab(0)", "pile 1", key_display="1/←"),
        Binding("left", "grab(0)", "pile 1", show=False),
        Binding("2", "grab(1)", "pile 2", key_display="2/→"),
        Binding("right", "grab(1)", "pile 2", show=False),
        Binding("c", "call", "call end"),
        Binding("w", "why", "why"),
        Binding("e", "explain", "scores"),
        Binding("escape", "cancel", "cancel", show=False),
    ]

    def __init__(self, *, table_id: str = "", place: str = "") -> None:
        super().__init__(table_id=table_id, place=place)
        self.history = GrabHistory()
        self.calling = False
        """After the first ``c``: the second one calls the end."""
        self._drawn: dict[int, int] = {}
        self._claimed: dict[int, int] = {}
        """Reveal id -> the pile this player grabbed it for (waiting for the ruling)."""
        self._key_ns: int | None = None
        self._top_since: tuple[int | None, float] = (None, 0.0)
        """The top card's reveal id and when it came up (``time.monotonic``)."""

    def on_mount(self) -> None:
        # Textual also runs TableScreen.on_mount (handlers run along the MRO).
        self.set_interval(1.0, self._check_stall)

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Panel(id="title")
                with Horizontal(id="top"):
                    yield Panel(id="top-card")
                    yield Panel(id="top-info")
                yield Panel(id="pile-0", classes="pile mine")
                yield Panel(id="pile-1", classes="pile mine")
                yield Panel(Text(LEGEND, style="bright_black"), id="legend", classes="mine")
                yield Panel(id="others")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield Static("Grabs", id="log-title")
                yield GameLog(id="log")

    # Data in ----------------------------------------------------------------------

    def happened(self, events: Sequence[dict[str, Any]]) -> None:
        view = self.view or {}
        self.history.feed(events, list(view.get("players") or []), view.get("seat"))

    def on_key(self, event: events.Key) -> None:
        """Keep the key's own timestamp: the moment the player acted, before any redraw."""
        self._key_ns = int(event.time * 1_000_000_000)

    # Drawing ------------------------------------------------------------------------

    def show(self, view: dict[str, Any]) -> None:
        reveal = view.get("reveal")
        if reveal != self._top_since[0]:
            self._top_since = (reveal, time.monotonic())
        if isinstance(reveal, int) and reveal not in self._drawn:
            self._drawn[reveal] = time.monotonic_ns()  # until the refresh says when
            self.call_after_refresh(self._stamp_drawn, reveal)
            for old in sorted(self._drawn)[:-DRAWN_KEEP]:
                del self._drawn[old]
        if self.history.last is None and view.get("last"):
            self.history.feed(
                [{"kind": "take", "data": view["last"]}],
                list(view.get("players") or []),
                view.get("seat"),
            )
        seat = view.get("seat")
        self.query_one("#title", Panel).show(self._title(view))
        self.query_one("#top-card", Panel).show(Text("\n").join(big_card(view.get("top"))))
        self.query_one("#top-info", Panel).show(self._top_info(view))
        width = self._board_width()
        for pile in range(PILES):
            widget = self.query_one(f"#pile-{pile}", Panel)
            if seat is not None:
                widget.show(self._own_pile(view, pile, width))
        for widget in self.query(".mine"):
            if widget.display != (seat is not None):
                widget.display = seat is not None  # a spectator has no piles of their own
        others = self.query_one("#others", Panel)
        text = self._others(view, width)
        if others.styles.height is None or others.styles.height.value != len(text.split()):
            others.styles.height = len(text.split())
        others.show(text)
        called_by = view.get("called_by")
        self.query_one(Scoreboard).set_scores(
            [
                ScoreLine(
                    name,
                    int((view.get("scores") or [])[index]),
                    you=index == seat,
                    note="called" if index == called_by else "",
                )
                for index, name in enumerate(view.get("players") or [])
            ],
            None,
        )
        self.query_one(PromptLine).prompt(self.prompt_text(view))
        # The card first, the log one frame later: the drawn stamp (where every
        # reaction starts) is not held up by the log's redraw.
        self.call_after_refresh(self._show_log, view)

    def _show_log(self, view: dict[str, Any]) -> None:
        if view is self.view:  # else a newer view is on its way and brings its own
            self.query_one(GameLog).show(self.history.lines)

    def stalled(self) -> bool:
        """Whether the top card has sat there for :data:`STALL_S` with nobody taking it."""
        reveal, since = self._top_since
        return reveal is not None and time.monotonic() - since >= STALL_S

    def _check_stall(self) -> None:
        view = self.view
        if view is None or view.get("phase") != "play" or not self.stalled():
            return
        prompt = self.query_one(PromptLine)
        text = self.prompt_text(view)
        if prompt.text != text and not prompt.error:
            prompt.prompt(text)

    def _stamp_drawn(self, reveal: int) -> None:
        if reveal in self._drawn:
            self._drawn[reveal] = time.monotonic_ns()

    def _board_width(self) -> int:
        width = self.query_one("#board").content_region.width
        return width if width > 0 else 48

    def _title(self, view: Mapping[str, Any]) -> Text:
        title = Text("Black Cat", style="bold")
        left, size = int(view.get("deck_left") or 0), int(view.get("deck_size") or 52)
        title.append(f" · {left} of {size} cards left")
        variants = view.get("variants") or {}
        names = {
            "long_night": "Long Night",
            "lucky_tom": "Lucky Tom",
            "music_of_the_night": "Music of the Night",
        }
        on = [label for key, label in names.items() if variants.get(key)]
        if on:
            title.append(" · " + ", ".join(on), style="italic")
        if view.get("seat") is None:
            title.append(" · watching", style="bright_black")
        return title

    def _top_info(self, view: Mapping[str, Any]) -> Text:
        players = list(view.get("players") or [])
        seat = view.get("seat")
        top = view.get("top")
        out = Text()
        if view.get("phase") == "over":
            out.append("Game over", style="bold")
            out.append(": the deck ran out." if view.get("ended") == "deck" else ".")
        elif top is None:
            out.append("The deck is gone.")
        else:
            out.append(f"On top: {card_label(top)}", style="bold")
            out.append(f"  (card #{view.get('reveal')})", style="bright_black")
        out.append("\n")
        out.append(headline(self.history.last, players, seat))
        ruling = self.history.last.ruling if self.history.last is not None else None
        if ruling is not None:
            out.append("  w: why", style="bright_black")
        if view.get("called_by") is not None:
            caller = capital(name_of(view, view.get("called_by")))
            out.append(f"\n{caller} called: “Black cat, black cat…”", style="bold magenta")
        return out

    def _own_pile(self, view: Mapping[str, Any], index: int, width: int) -> Text:
        seat = int(view["seat"])
        pile = (view.get("piles") or [])[seat][index]
        out = Text(f"Pile {index + 1} ", style="bold")
        out.append(f"[{index + 1}/{'←→'[index]}]", style="bold bright_yellow")
        points = int(pile.get("score") or 0)
        out.append(f" {points:>3} {'pt ' if points == 1 else 'pts'} ", style="bold")
        out.append(cat_summary(pile), style="bright_black")
        change = gain(pile, view.get("top"), view.get("variants") or {})
        if change is not None and view.get("phase") == "play":
            out.append(f"  +{change}" if change >= 0 else f"  {change}", style=GAIN_STYLE)
            out.append(" if taken", style="green")
        cards, marks = pile_rows(pile, width - 2)
        out.append("\n  ")
        out.append_text(cards)
        out.append("\n  ")
        out.append_text(marks)
        return out

    def _others(self, view: Mapping[str, Any], width: int) -> Text:
        seat = view.get("seat")
        players = list(view.get("players") or [])
        piles = list(view.get("piles") or [])
        out = Text()
        label_width = 10
        for other, name in enumerate(players):
            if other == seat or other >= len(piles):
                continue
            for index, pile in enumerate(piles[other]):
                if out:
                    out.append("\n")
                out.append((name[: label_width - 1] if index == 0 else "").ljust(label_width))
                out.append(f"{index + 1}: ", style="bold")
                score = f"{int(pile.get('score') or 0):>3}"
                cards, _ = pile_rows(pile, width - label_width - 4 - len(score), marks=False)
                out.append_text(cards)
                out.append(" " * max(1, width - label_width - 3 - len(cards) - len(score)))
                out.append(score, style="bold")
        if out:
            heading = Text("Everyone else's piles (newest cards right)\n", style="bold")
            if seat is None:
                heading = Text("The piles (newest cards right)\n", style="bold")
            return heading + out
        return out

    def prompt_text(self, view: Mapping[str, Any]) -> str:
        """What the player may do now, in words."""
        if view.get("phase") == "over":
            return "Game over · e explains every pile · r rules · q leaves"
        top = view.get("top")
        if view.get("seat") is None:
            return "Watching · w why the last card went where it did · q leaves"
        if self.calling:
            return "Call the end of the game? Press c again to call (escape: no)"
        reveal = view.get("reveal")
        if isinstance(reveal, int) and reveal in self._claimed and top is not None:
            return (
                f"Grabbing {card_label(top)} into pile {self._claimed[reveal] + 1}..."
                " (the host is comparing reactions)"
            )
        if top is None:
            return "The deck is gone"
        if self.stalled():
            return (
                f"Nobody wants {card_label(top)}? Grab it (1 or 2), or c c calls the end"
                " if you think you are ahead"
            )
        return f"Grab {card_label(top)}: 1 into pile 1, 2 into pile 2 · c c calls the end"

    # Intents ------------------------------------------------------------------------

    def _acted_now(self) -> int:
        now = time.monotonic_ns()
        key = self._key_ns
        self._key_ns = None
        if key is None or not 0 <= now - key <= KEY_FRESH_NS:
            return now
        return key

    def action_grab(self, pile: int) -> None:
        acted = self._acted_now()
        view = self.view
        self.calling = False
        if view is None or view.get("phase") == "waiting":
            return
        if view.get("seat") is None:
            self.refused("You are watching: only players grab cards")
            return
        if view.get("phase") == "over" or view.get("top") is None:
            self.refused("The game is over")
            return
        reveal = int(view["reveal"])
        top = str(view["top"])
        if reveal in self._claimed:
            self.refused(
                f"You already grabbed {card_label(top)} for pile {self._claimed[reveal] + 1};"
                " the host is deciding"
            )
            return
        drawn = self._drawn.get(reveal, acted)
        if acted < drawn:
            last = self.history.last
            gone = "" if last is None else f" ({card_label(last.card)} had just gone)"
            self.refused(f"You pressed before {card_label(top)} was on screen{gone}")
            return
        self._claimed = {reveal: pile}
        self.act(
            {"type": "take", "pile": pile, "reveal": reveal},
            ClaimStamps(reveal=reveal, drawn_ns=drawn, acted_ns=acted),
        )
        self.query_one(PromptLine).prompt(self.prompt_text(view))

    def action_call(self) -> None:
        view = self.view
        if view is None or view.get("phase") == "waiting":
            return
        if view.get("seat") is None:
            self.refused("You are watching: only players call the end")
            return
        if view.get("phase") == "over":
            self.refused("The game is over")
            return
        if not self.calling:
            self.calling = True
        else:
            self.calling = False
            self.act({"type": "call"})
            self.notify(CALL_PHRASE, title="You call", timeout=4)
        self.query_one(PromptLine).prompt(self.prompt_text(view))

    def action_cancel(self) -> None:
        if self.calling:
            self.calling = False
            if self.view is not None:
                self.query_one(PromptLine).prompt(self.prompt_text(self.view))

    def action_why(self) -> None:
        text = self.history.explain_recent()
        if not text:
            self.refused("The host has not ruled on a grab yet: nothing to explain")
            return
        self.app.push_screen(InfoScreen("How the host ruled, newest first", text))

    def action_explain(self) -> None:
        view = self.view
        if view is None or view.get("phase") == "waiting":
            return
        self.app.push_screen(InfoScreen("How the piles score", self.explanation(view)))

    def explanation(self, view: Mapping[str, Any]) -> str:
        """Every pile's score explained, yours first."""
        seat = view.get("seat")
        players = list(view.get("players") or [])
        variants = view.get("variants") or {}
        order = sorted(range(len(players)), key=lambda index: index != seat)
        parts = [f"Marks under your cards: {LEGEND}."]
        for index in order:
            piles = (view.get("piles") or [])[index]
            total = sum(int(pile.get("score") or 0) for pile in piles)
            who = "Your piles" if index == seat else f"{players[index]}'s piles"
            parts.append(f"{who}: {total} point{'' if total == 1 else 's'}")
            for number, pile in enumerate(piles):
                body = explain_pile(pile.get("cards") or [], variants)
                parts.append(f"Pile {number + 1}: {body.removeprefix('Pile: ')}")
        return "\n\n".join(parts)

    def results_lines(self, view: dict[str, Any]) -> list[str]:
        players = list(view.get("players") or [])
        outcome = view.get("outcome") or {}
        winners = list(outcome.get("winners") or [])
        scores = list(outcome.get("scores") or view.get("scores") or [])
        seat = view.get("seat")
        names = " and ".join(players[index] for index in winners if index < len(players))
        if seat is not None and seat in winners:
            head = "You win!" if len(winners) == 1 else f"You share the win ({names})!"
        else:
            head = f"{names} win{'s' if len(winners) == 1 else ''}."
        if view.get("ended") == "call":
            how = f"{capital(name_of(view, view.get('called_by')))} called the end."
        else:
            how = "The deck ran out."
        lines = [head, how, ""]
        for index, name in enumerate(players):
            piles = (view.get("piles") or [])[index]
            split = " + ".join(str(int(pile.get("score") or 0)) for pile in piles)
            you = " (you)" if index == seat else ""
            lines.append(f"{name}{you}: {scores[index] if index < len(scores) else '?'} ({split})")
        contested = [
            grab.ruling
            for grab in self.history.grabs
            if grab.ruling is not None and grab.ruling.margin_ns is not None
        ]
        if contested:
            closest = min(contested, key=lambda ruling: abs(ruling.margin_ns or 0))
            gap = ms(abs(closest.margin_ns or 0))
            how_close = f"a tie ({gap} apart)" if closest.tie else f"won by {gap}"
            count = len(contested)
            lines += [
                "",
                f"{count} card{'s' if count != 1 else ''} contested; the closest was {how_close}.",
            ]
        lines += ["", "Escape: back to the table (e explains every pile)."]
        return lines
