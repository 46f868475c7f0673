"""The Black Cat table: the top card big, your two kitty piles, everyone else's, who got what.

Everything drawn comes from :meth:`engine.games.blackcat.rules.BlackCat.view` (the piles
are public, the deck below the top card is hidden from everyone, and each
pile carries the scoring's own explanation and what the top card would add
to it) and from the host's rulings. The fair stamps on grabs, the rulings
and ``w`` are the real-time base's (:class:`~tui.screens.realtime.RealtimeTable`);
this screen keeps only the board and says what a ruling means here: who got
which card into which pile.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from engine.games.blackcat.rules import CALL_PHRASE, VARIANT_OPTIONS, BlackCatView, PileView
from engine.games.blackcat.scoring import (
    BLACK_CAT,
    CAT_NAMES,
    JELLICAL,
    TOMCAT,
    YOWLER,
    card_label,
    is_black,
)
from tui.coach import Coach
from tui.screens.info import InfoScreen
from tui.screens.realtime import RealtimeTable
from tui.widgets.log import GameLog
from tui.widgets.look import PLAIN, Look
from tui.widgets.panel import Panel
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import RulingHistory, who
from tui.widgets.scores import Scoreboard, ScoreLine
from tui.you import capital

PILES = 2
CELL = 4
"""Screen cells per card in a pile row: ``10♥`` and a space."""

MARKS: Mapping[str, str] = {TOMCAT: "T", YOWLER: "Y", JELLICAL: "J", BLACK_CAT: "B"}
"""The letter under a card for each kind of cat it is part of (readable without colour)."""
LEGEND = "T Tomcat · Y Yowler · J Jellical · B Black Cat"

STALL_S = 8.0
"""A top card nobody takes for this long gets a hint: grab it, or call the end."""

LOOKS = ("red-card", "black-card", "gain", "muted", "marks", "key", "call")
"""The board's looks, each a component class ``blackcat--NAME`` styled in ``blackcat.tcss``."""


# Cards -----------------------------------------------------------------------------


def card_style(code: str, look: Look = PLAIN) -> Style:
    """Black suits in black, red suits in red (the suit symbol says it without colour too)."""
    return look("black-card") if is_black(code) else look("red-card")


def big_card(code: str | None, look: Look = PLAIN) -> list[Text]:
    """The top card, five lines high, rank in two corners and the suit in the middle."""
    if code is None:
        muted = look("muted")
        rows = ("┌╌╌╌╌╌╌╌┐", "╎ deck  ╎", "╎ gone  ╎", "╎       ╎", "└╌╌╌╌╌╌╌┘")
        return [Text(row, style=muted) for row in rows]
    label = card_label(code)
    rank, suit = label[:-1], label[-1]
    style = card_style(code, look)
    lines = [Text("╭───────╮", style="bold")]
    for content in (rank.ljust(7), suit.center(7), rank.rjust(7)):
        line = Text("│", style="bold")
        line.append(content, style=style)
        line.append("│", style="bold")
        lines.append(line)
    lines.append(Text("╰───────╯", style="bold"))
    return lines


def card_marks(pile: PileView) -> list[str]:
    """For each card of a pile, the letters of the cats it belongs to (``"TY"``)."""
    cards = pile["cards"]
    kinds: list[list[str]] = [[] for _ in cards]
    for cat in pile["cats"]:
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


SENT_MARK = "…"
"""Under a card you grabbed that the host has not ruled on yet (it may still go to another)."""


def pile_rows(
    pile: PileView,
    width: int,
    *,
    marks: bool = True,
    look: Look = PLAIN,
    sent: str | None = None,
) -> tuple[Text, Text]:
    """A pile's newest cards that fit ``width`` (older ones counted as ``+n``), and their marks.

    ``sent``: a card grabbed for this pile, on its way to the host: drawn last, muted, marked
    :data:`SENT_MARK` until the host rules."""
    cards = [*pile["cards"], *([sent] if sent else [])]
    letters = [*card_marks(pile), *([SENT_MARK] if sent else [])]
    shown = fitting(len(cards), width)
    hidden = len(cards) - shown
    top, bottom = Text(), Text()
    if not cards:
        top.append("(empty)", style=look("muted"))
    if hidden:
        top.append(f"+{hidden}".ljust(CELL), style=look("muted"))
        bottom.append(" " * CELL)
    for position in range(hidden, len(cards)):
        label = card_label(cards[position])
        red = not is_black(cards[position])
        style = Style(color=look("red-card").color if red else None, bold=True)
        if sent and position == len(cards) - 1:
            style = look("muted")
        elif letters[position]:
            style += Style(underline=True)
        top.append(label, style=style)
        top.append(" " * (CELL - len(label)))
        bottom.append(letters[position].ljust(CELL), style=look("marks"))
    return top, (bottom if marks else Text())


def cat_summary(pile: PileView, *, short: bool = False) -> str:
    """``2 Tomcats, 1 Yowler`` (or ``no cats``); ``short``: ``2T 1Y``, the marks the legend
    under the piles explains."""
    parts = []
    for kind, (singular, plural) in CAT_NAMES.items():
        count = int(pile["counts"].get(kind, 0))
        if count:
            name = MARKS[kind] if short else f" {singular if count == 1 else plural}"
            parts.append(f"{count}{name}")
    return (" " if short else ", ").join(parts) if parts else "no cats"


def variant_names(view: BlackCatView) -> list[str]:
    """The variants on at this table, by the names their options give (``Lucky Tom``)."""
    return [spec.title for spec in VARIANT_OPTIONS if view["variants"].get(spec.name)]


def name_of(view: BlackCatView, seat: int | None) -> str:
    return who(seat, view["players"], view["seat"])


def ruled(
    history: RulingHistory, event: Mapping[str, Any], names: Sequence[str], me: int | None
) -> None:
    """What a Black Cat event means for the host's rulings: a take awards the card
    (``8♦``, ``pile 2``); a call is logged, under its ruling if a bot made it as a claim."""
    data = event.get("data")
    if not isinstance(data, Mapping):
        return
    if event.get("kind") == "take":
        try:
            reveal, seat = int(data["reveal"]), int(data["seat"])
            card, pile = str(data["card"]), int(data["pile"])
        except (KeyError, TypeError, ValueError):
            return
        history.award(reveal, seat, card_label(card), names, me, f"pile {pile + 1}")
    elif event.get("kind") == "call" and isinstance(data.get("seat"), int):
        seat = int(data["seat"])
        history.said(f"{capital(who(seat, names, me))} called the end.", seat)


# The screen ------------------------------------------------------------------------


class BlackCatTable(RealtimeTable[BlackCatView]):
    """The Black Cat table for one seat (or a spectator)."""

    look_names = LOOKS
    look_paints_background = True
    game = "blackcat"
    essential = ("#top-card", "#pile-0", "#pile-1", "#others")
    rings_at_reveal = True  # a card turned: everyone may grab it
    claimed_word = "grabbed"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "grab(0)", "pile 1", key_display="1/←"),
        Binding("left", "grab(0)", "pile 1", show=False),
        Binding("2", "grab(1)", "pile 2", key_display="2/→"),
        Binding("right", "grab(1)", "pile 2", show=False),
        Binding("c", "call", "call end"),
        Binding("e", "explain", "scores"),
        Binding("x", "cancel", "cancel"),
        Binding("escape", "cancel", "cancel", show=False),
    ]

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[Any] | None = None
    ) -> None:
        super().__init__(table_id=table_id, place=place, coach=coach)
        self.calling = False
        """After the first ``c``: the second one calls the end."""
        self._view_at = time.monotonic()
        """When the latest view arrived (the start countdown counts from it)."""
        self._mine: list[Widget] | None = None
        """Your own piles and their legend (hidden for a spectator), found once."""

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
                yield Panel(id="others")
                # Last: what a long notice's rows take first (its blank row, then it).
                yield Panel(LEGEND, id="legend", classes="mine")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield Static("Grabs", id="log-title")
                yield GameLog(id="log")

    # What a ruling means here ---------------------------------------------------------

    def game_event(self, event: Mapping[str, Any]) -> None:
        if self.view is not None:
            ruled(self.history, event, self.view["players"], self.view["seat"])

    def moment_words(self, view: Mapping[str, Any]) -> str:
        top = view.get("top")
        return card_label(str(top)) if top else "the card"

    def claim_words(self, action: Mapping[str, Any]) -> str:
        top = self.view["top"] if self.view is not None else None
        card = card_label(top) if top else "the card"
        return f"grabbed {card} for pile {int(action.get('pile', 0)) + 1}"

    # Drawing ------------------------------------------------------------------------

    def show(self, view: BlackCatView) -> None:
        """Draw each panel from its own part of the view: a panel whose part is as it was is
        neither built again nor repainted (a new card changes the top card, its line, the
        title and what each pile would gain; a grab also the piles, scores and log)."""
        if self.history.last is None and view["last"]:
            self.game_event({"kind": "take", "data": view["last"]})
        seat = view["seat"]
        players = view["players"]
        width = self._board_width()
        self.query_one("#title", Panel).draw(
            (view["deck_left"], view["deck_size"], view["variants"], seat is None),
            lambda: self._title(view),
        )
        self.query_one("#top-card", Panel).draw(
            view["top"], lambda: Text("\n").join(big_card(view["top"], self.look))
        )
        self.query_one("#top-info", Panel).draw(
            (
                view["phase"],
                view["ended"],
                view["top"],
                view["reveal"],
                view["called_by"],
                self.history.last,
                players,
                seat,
            ),
            lambda: self._top_info(view),
        )
        if seat is not None:
            grab = self.sent if self.sent and self.sent.get("reveal") == view["reveal"] else None
            for pile in range(PILES):
                sent = view["top"] if grab is not None and grab.get("pile") == pile else None
                self.query_one(f"#pile-{pile}", Panel).draw(
                    (view["piles"][seat][pile], view["phase"] == "play", width, sent),
                    lambda pile=pile, sent=sent: self._own_pile(view, pile, width, sent),  # type: ignore[misc]
                )
        if self._mine is None:  # a query walks the whole screen: once is enough
            self._mine = list(self.query(".mine"))
        for mine in self._mine:
            if mine.display != (seat is not None):
                mine.display = seat is not None  # a spectator has no piles of their own
        others = self.query_one("#others", Panel)
        seen = [
            [(pile["cards"], pile["cats"], pile["score"]) for pile in piles]
            for other, piles in enumerate(view["piles"])
            if other != seat
        ]  # not what the top card would add: that is drawn for your own piles only
        if others.draw((seen, players, seat, width), lambda: self._others(view, width)):
            rows = len(others.text.split())
            if others.styles.height is None or others.styles.height.value != rows:
                others.styles.height = rows
        called_by = view["called_by"]
        self.query_one(Scoreboard).set_scores(
            [
                ScoreLine(
                    name,
                    view["scores"][index],
                    you=index == seat,
                    note="called" if index == called_by else "",
                )
                for index, name in enumerate(players)
            ],
            None,
        )
        self.query_one(PromptLine).prompt(self.prompt_text(view))
        self.query_one(GameLog).show(self.history.lines)

    def stalled(self) -> bool:
        """Whether the top card has sat there long enough that calling the end is allowed.

        The host says so (``stalled``, after the table's ``stall_s``); a host without the
        stall rule allows calls at once, and the hint comes after :data:`STALL_S`.
        """
        view = self.view
        if view is not None and "stall_s" in view:
            return bool(view.get("stalled")) or self.open_for_s() >= view["stall_s"]
        return self.open_for_s() >= STALL_S

    def call_in_s(self) -> int | None:
        """Whole seconds until a call is allowed (``None``: it is, or this host has no rule)."""
        view = self.view
        if view is None or "stall_s" not in view or self.stalled():
            return None
        return max(1, math.ceil(view["stall_s"] - self.open_for_s()))

    def starts_in_s(self) -> int | None:
        """Whole seconds of the host's start countdown left (``None``: the game is on; 0: the
        host still waits for every player's screen)."""
        if self.view is None or not self.starting:
            return None
        left = self.starts_in
        if left is None:
            return 0
        return max(1, math.ceil(left - (time.monotonic() - self._view_at)))

    def watch_view(self, view: BlackCatView | None) -> None:
        self._view_at = time.monotonic()
        super().watch_view(view)

    def _check_stall(self) -> None:
        view = self.view
        if view is None or view["phase"] != "play":
            return
        if not self.stalled() and self.call_in_s() is None and self.starts_in_s() is None:
            return
        prompt = self.query_one(PromptLine)
        text = self.prompt_text(view)
        if prompt.text != text and not prompt.error:
            prompt.prompt(text)

    def _board_width(self) -> int:
        width = self.query_one("#board").content_region.width
        return width if width > 0 else 48

    def _title(self, view: BlackCatView) -> Text:
        title = Text(self.game_title, style="bold")
        title.append(f" · {view['deck_left']} of {view['deck_size']} cards left")
        on = variant_names(view)
        if on:
            title.append(" · " + ", ".join(on), style="italic")
        if view["seat"] is None:
            title.append(" · watching", style=self.look("muted"))
        return title

    def _top_info(self, view: BlackCatView) -> Text:
        look = self.look
        top = view["top"]
        out = Text()
        if view["phase"] == "over":
            out.append("Game over", style="bold")
            out.append(": the deck ran out." if view["ended"] == "deck" else ".")
        elif top is None:
            out.append("The deck is gone.")
        else:
            out.append(f"On top: {card_label(top)}", style="bold")
            if view["reveal"] is not None:  # none during the start countdown
                out.append(f"  (card #{view['reveal']})", style=look("muted"))
        out.append("\n")
        last = self.history.last
        headline = self.history.headline(last, view["players"], view["seat"])
        out.append(headline or "Nobody has taken a card yet.")
        if last is not None and last.ruling is not None:
            out.append("  w: why", style=look("muted"))
        if view["called_by"] is not None:
            caller = capital(name_of(view, view["called_by"]))
            out.append(f"\n{caller} called: “Black cat, black cat…”", style=look("call"))
        return out

    def _own_pile(
        self, view: BlackCatView, index: int, width: int, sent: str | None = None
    ) -> Text:
        seat = view["seat"]
        assert seat is not None
        pile = view["piles"][seat][index]
        # The pile's line in full, else its cats as marks, else without "if taken": one line
        # (the board has no row to spare at 80x24; on a phone it has 46 columns).
        for short, words in ((False, True), (True, True), (True, False)):
            out = self._pile_line(view, pile, index, sent, short=short, words=words)
            if out.cell_len <= width:
                break
        look = self.look
        cards, marks = pile_rows(pile, width - 2, look=look, sent=sent)
        out.append("\n  ")
        out.append_text(cards)
        out.append("\n  ")
        out.append_text(marks)
        return out

    def _pile_line(
        self,
        view: BlackCatView,
        pile: PileView,
        index: int,
        sent: str | None,
        *,
        short: bool,
        words: bool,
    ) -> Text:
        """``Pile 1 [1/←]   4 pts 1 Tomcat, 1 Yowler  +2 if taken`` (``short``: ``1T 1Y``;
        without ``words``: ``+2``)."""
        look = self.look
        out = Text(f"Pile {index + 1} ", style="bold")
        out.append(f"[{index + 1}/{'←→'[index]}]", style=look("key"))
        points = pile["score"]
        out.append(f" {points:>3} {'pt ' if points == 1 else 'pts'} ", style="bold")
        out.append(cat_summary(pile, short=short), style=look("muted"))
        change = pile["if_taken"]
        if sent:
            out.append("  grabbing...", style=look("muted"))
        elif change is not None and view["phase"] == "play":
            out.append(f"  +{change}" if change >= 0 else f"  {change}", style=look("gain"))
            if words:
                out.append(" if taken", style=look("gain") + Style(bold=False))
        return out

    def _others(self, view: BlackCatView, width: int) -> Text:
        seat = view["seat"]
        piles = view["piles"]
        out = Text()
        label_width = 10
        for other, name in enumerate(view["players"]):
            if other == seat or other >= len(piles):
                continue
            for index, pile in enumerate(piles[other]):
                if out:
                    out.append("\n")
                out.append((name[: label_width - 1] if index == 0 else "").ljust(label_width))
                out.append(f"{index + 1}: ", style="bold")
                score = f"{pile['score']:>3}"
                room = width - label_width - 4 - len(score)
                cards, _ = pile_rows(pile, room, marks=False, look=self.look)
                out.append_text(cards)
                out.append(" " * max(1, width - label_width - 3 - len(cards) - len(score)))
                out.append(score, style="bold")
        if out:
            heading = Text("Everyone else's piles (newest cards right)\n", style="bold")
            if seat is None:
                heading = Text("The piles (newest cards right)\n", style="bold")
            return heading + out
        return out

    # Your grab on its way ----------------------------------------------------------------

    def shows_sent(self, action: Mapping[str, Any]) -> bool:
        """A grab shows the card in the pile at once, marked as sent (its stamps are taken
        before: what the host is told of your reaction does not change)."""
        return action.get("type") == "take"

    def still_sending(self, view: BlackCatView, sent: Mapping[str, Any]) -> bool:
        """The same card still on top: the host has not ruled on it yet."""
        return view["reveal"] is not None and view["reveal"] == sent.get("reveal")

    def prompt_text(self, view: BlackCatView) -> str:
        """What the player may do now, in words."""
        if view["phase"] == "over":
            return "Game over · e explains every pile · r rules · q leaves"
        top = view["top"]
        if view["seat"] is None:
            if self.why_key:
                return "Watching · w why the last card went where it did · q leaves"
            return "Watching · q leaves"
        if self.calling:
            return "Call the end of the game? Press c again to call, x not to"
        pending = self.pending_claim
        if pending is not None and top is not None:
            return (
                f"Grabbing {card_label(top)} into pile {int(pending['pile']) + 1}..."
                " (the host is comparing reactions)"
            )
        if top is None:
            return "The deck is gone"
        starts = self.starts_in_s()
        if starts == 0:
            return "Waiting for every player's screen; the game starts with a countdown"
        if starts is not None:
            return f"Get ready: the game starts in {starts} s (first card {card_label(top)})"
        call_in = self.call_in_s()
        if call_in is not None:
            return (
                f"Grab {card_label(top)}: 1 into pile 1, 2 into pile 2"
                f" · c c calls the end after {call_in} s untaken"
            )
        if self.stalled():
            return (
                f"Nobody wants {card_label(top)}? Grab it (1 or 2), or c c calls the end"
                " if you are ahead"  # one line at 80 columns
            )
        return f"Grab {card_label(top)}: 1 into pile 1, 2 into pile 2 · c c calls the end"

    # Intents ------------------------------------------------------------------------

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({"grab", "call", "cancel"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``x`` (or Esc) is offered only after a first ``c``: it takes that back."""
        if action == "cancel" and not self.calling:
            return False
        return super().check_action(action, parameters)

    def _calling(self, calling: bool) -> None:
        """Between the two presses of ``c c`` (or not): the footer offers ``x`` then."""
        if self.calling != calling:
            self.calling = calling
            self._follow_bindings()

    def action_grab(self, pile: int) -> None:
        self._calling(False)
        view = self.view
        if view is not None and view["seat"] is None:
            self._acted_now()
            self.refused("You are watching: only players grab cards")
            return
        # The prompt ("Grabbing 8♦ into pile 1...") is not written here: the app sends the
        # claim straight after this key and calls ``sent_off``, whose redraw writes it with
        # the card marked as sent in its pile, in one frame. Written here, it was a frame of
        # its own and the pile the next one, 17 ms later (Textual's frame pace): three frames
        # for each card instead of two, each repainted for an SSH or web player on the host.
        self.claim({"type": "take", "pile": pile})

    def action_call(self) -> None:
        view = self.view
        if view is None:
            return
        if view["seat"] is None:
            self.refused("You are watching: only players call the end")
            return
        if view["phase"] == "over":
            self.refused("The game is over")
            return
        if not self.calling:
            self._calling(True)
        else:
            self._calling(False)
            self.act({"type": "call"})
            self.notify(CALL_PHRASE, title="You call", timeout=4)
        self.query_one(PromptLine).prompt(self.prompt_text(view))

    def action_cancel(self) -> None:
        if self.calling:
            self._calling(False)
            if self.view is not None:
                self.query_one(PromptLine).prompt(self.prompt_text(self.view))

    def action_explain(self) -> None:
        view = self.view
        if view is None:
            return
        self.app.push_screen(InfoScreen("How the piles score", self.explanation(view)))

    def explanation(self, view: BlackCatView) -> str:
        """Every pile's score explained, yours first (the scoring's own words, from the view)."""
        seat = view["seat"]
        players = view["players"]
        order = sorted(range(len(players)), key=lambda index: index != seat)
        parts = [f"Marks under your cards: {LEGEND}."]
        for index in order:
            piles = view["piles"][index]
            total = sum(pile["score"] for pile in piles)
            whose = "Your piles" if index == seat else f"{players[index]}'s piles"
            parts.append(f"{whose}: {total} point{'' if total == 1 else 's'}")
            for number, pile in enumerate(piles):
                parts.append(f"Pile {number + 1}: {pile['explain'].removeprefix('Pile: ')}")
        return "\n\n".join(parts)

    def results_lines(self, view: BlackCatView) -> list[str]:
        players = view["players"]
        outcome = view["outcome"]
        scores = view["scores"] if outcome is None else outcome["scores"]
        seat = view["seat"]
        head = self.winners_line(view)
        if view["ended"] == "call":
            how = f"{capital(name_of(view, view['called_by']))} called the end."
        else:
            how = "The deck ran out."
        lines = [head, how, ""]
        for index, name in enumerate(players):
            piles = view["piles"][index]
            split = " + ".join(str(pile["score"]) for pile in piles)
            you = " (you)" if index == seat else ""
            lines.append(f"{name}{you}: {scores[index] if index < len(scores) else '?'} ({split})")
        contests = self.contest_lines("card")
        if contests:
            lines += ["", *contests]
        lines += ["", "t or Esc: back to the table · e explains each pile"]
        return lines
