"""The Catchy! table: the course and the cat, the trick, your hand, scores and log.

Everything drawn comes from :meth:`engine.games.catchy.rules.Catchy.view` for this seat;
the only rules knowledge here is how cards look and how to word prompts.
Your end of the course is always on the left (spectators see seat 0 there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive

from engine.games.catchy.rules import JOKER, STARTING, CatchyView, card_name, number
from tui.screens.table import TableScreen
from tui.widgets.cards import CardArea, CardFace, blank_lines, card_lines, compact_backs, row
from tui.widgets.hand import Hand
from tui.widgets.lines import TextLines
from tui.widgets.log import GameLog
from tui.widgets.look import component_style
from tui.widgets.panel import Panel
from tui.widgets.prompt import PromptLine
from tui.widgets.scores import Scoreboard, ScoreLine
from tui.you import YOU, Ours, capital

DIMMED_NOTE = "─x─: not playable now"
"""How the hand's label explains the ``x`` on the bottom edge of a greyed card (drawn as on
the edge, so that it does not read as the ``x`` key, which cancels a swap)."""

CAT_MARK = "^.^"
"""Odd cards show a cat (it matters: two odd cards flip the cat)."""

COLOURS = {"R": "red", "G": "green", "B": "blue"}
"""Each suit's card look (:data:`~tui.widgets.cards.FACE_LOOKS`); the cat's sides too."""
LOOKS = ("muted", "turn")
"""The table's own looks (component classes ``catchy--NAME``): asides, and whose turn it is."""


def face(card: str) -> CardFace:
    """How a Catchy! card looks: ``R 3`` with a cat on odd numbers; the Joker in yellow."""
    if card == JOKER:
        return CardFace("JKR", "★3★", name="Joker", look="yellow")
    if card == STARTING:
        return CardFace("ST", "", name="Starting card", look="white")
    if card == "?":
        return CardFace("?", "", name="a face-down course card", look="back")
    mark = CAT_MARK if number(card) % 2 else ""
    return CardFace(
        f"{card[0]} {card[1]}", mark, name=card_name(card), look=COLOURS.get(card[0], "")
    )


def others(view: CatchyView) -> int:
    """The seat across the table from this view's seat (seat 1 for spectators)."""
    seat = view["seat"]
    return 1 if seat is None else 1 - int(seat)


def who(view: CatchyView, seat: int | None) -> str:
    """A seat's name, or ``you``."""
    if seat is None:
        return Ours("nobody")
    if seat == view["seat"]:
        return YOU
    players = view["players"]
    return str(players[seat]) if seat < len(players) else Ours(f"seat {seat + 1}")


def arms_of(view: CatchyView, seat: int) -> str:
    """``your arms`` (by seat, never by name) or ``Bea's arms``."""
    return "your arms" if seat == view["seat"] else f"{who(view, seat)}'s arms"


class CourseTrack(CardArea, TextLines):
    """The course cards and the line the cat walks, your Arms on the left.

    The cat shows the colour of its side up (the red and blue cards' looks);
    while the Starting card is being swapped, the course cards are lit
    (``course--swap``).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {*CardArea.COMPONENT_CLASSES, "course--swap"}

    DEFAULT_CSS = """
    CourseTrack { height: 4; }
    CourseTrack > .course--swap { color: $background; background: $text-warning; text-style: bold; }
    """

    view: reactive[CatchyView | None] = reactive(None, always_update=True)
    swapping: reactive[bool] = reactive(False)

    def follow(self, view: CatchyView, swapping: bool) -> None:
        """Draw ``view``'s course and cat, repainting only if they changed."""
        part = (view["course"], view["cat"], view["seat"], view["players"])
        self.swapping = swapping
        if part != self._part:
            self._part = part
            self.view = view

    _part: object = None

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        look = self.card_look
        out = Text("Course ", style="bold")
        for index, card in enumerate(view["course"]):
            style = look("back") if card == "?" else look("white")
            if self.swapping:
                style = component_style(self, "course--swap")
            out.append(f"[{index + 1}:{'ST' if card == STARTING else '??'}]", style=style)
            out.append(" ")
        cat = view["cat"]
        side = str(cat.get("side", "red"))
        mood = look(side) if side in ("red", "blue") else Style(bold=True)
        says = f"  cat: {side.upper()} side up"
        if self.size.width and out.cell_len + len(says) > self.size.width:
            says = f"  cat: {side.upper()} up"  # a phone's 46 columns
        out.append(says, style=mood)
        left_seat = view["seat"] or 0
        right_seat = 1 - left_seat
        arms = int(cat.get("arms", 3))
        position = int(cat.get("position", 0))
        shown = position if left_seat == 0 else -position
        cells = 2 * arms + 1
        cell = max(3, min(5, (self.size.width - 2) // cells)) if self.size.width else 5
        left_label = f"◀ {arms_of(view, left_seat)}"
        right_label = f"{arms_of(view, right_seat)} ▶"
        span = cells * cell + 2
        gap = max(1, span - len(left_label) - len(right_label))
        out.append("\n" + left_label + " " * gap + right_label)
        out.append("\n┃")
        for place in range(-arms, arms + 1):
            if place == shown:
                content, style = "=^.^=", mood
            elif abs(place) == arms:
                content, style = "ARMS", Style(bold=True)
            else:
                content, style = ("◆" if place == 0 else "·"), look("muted")
            out.append(content[:cell].center(cell), style=style)
        out.append("┃")
        steps = abs(position)
        if steps == 0:
            where = "the cat sits in the centre"
        else:
            toward = 0 if position < 0 else 1
            if steps >= arms:
                where = f"the cat is in {arms_of(view, toward)}"
            else:
                step_words = f"{steps} step{'s' if steps > 1 else ''}"
                where = f"the cat is {step_words} toward {who(view, toward)}"
        out.append("\n" + where, style=look("muted"))
        return out


class TrickArea(CardArea, TextLines):
    """The trick under way (or the last one, dimmed, with how it went)."""

    DEFAULT_CSS = """
    TrickArea { height: 5; }
    """

    view: reactive[CatchyView | None] = reactive(None, always_update=True)

    def follow(self, view: CatchyView, sent: str | None = None) -> None:
        """Draw ``view``'s trick, and the card ``sent`` (played, not yet in the host's view)
        on it; repaint only if they changed."""
        part = (
            sent,
            view["trick"],
            view["tricks"][-1:],
            len(view["tricks"]),
            view["leader"],
            view["tricks_per_round"],
            view["seat"],
            view["players"],
        )
        if part != self._part:
            self._part = part
            self.sent = sent
            self.view = view

    _part: object = None
    sent: str | None = None
    """The player's card on its way to the host: drawn on the trick, its edge bright."""

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        look = self.card_look
        trick = view["trick"]
        tricks = view["tricks"]
        done = len(tricks)
        total = view["tricks_per_round"]
        sent = self.sent
        if sent is not None:
            title = Text(f"Trick {min(done + 1, total)} of {total}", style="bold")
            led = bool(trick)
            if led:
                title.append(f" · {who(view, view['leader'])} led")
            title.append(f" · your {card_name(sent)}: sent", style=look("muted"))
            cards = [card_lines(face(card), look=look) for card in trick]
            cards.append(card_lines(face(sent), look=look, selected=True))
            cards += [blank_lines(look) for _ in range(2 - len(cards))]
            notes = ""
        elif trick or not tricks:
            leader = view["leader"]
            title = Text(f"Trick {min(done + 1, total)} of {total}", style="bold")
            if trick:
                title.append(f" · {who(view, leader)} led")
            cards = [card_lines(face(card), look=look) for card in trick]
            cards += [blank_lines(look) for _ in range(2 - len(trick))]
            notes = ""
        else:
            last = tricks[-1]
            title = Text(f"Trick {done} of {total} done", style="bold")
            title.append(f" · {who(view, last['leader'])} led", style="")
            cards = [card_lines(face(card), look=look) for card in last["cards"]]
            notes = trick_summary(view, last)
        body = row(cards)
        out = title
        out.append("\n")
        lines = body.split("\n")
        note_lines = wrap(notes, max(10, self.size.width - 13)) if notes else []
        for index, line in enumerate(lines):
            if index:
                out.append("\n")
            out.append_text(line)
            if index < len(note_lines):
                out.append("  " + note_lines[index], style="italic")
        return out


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap (no hyphenation)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    return lines


def trick_summary(view: CatchyView, trick: dict[str, Any]) -> str:
    """``Tom won. Both odd: the cat flips to blue and moves toward you.``"""
    parts = []
    winner = trick.get("winner")
    parts.append(
        "Joker and 3: nobody won." if winner is None else f"{capital(who(view, winner))} won."
    )
    side = str(trick.get("side", "red")).lower()
    toward = trick.get("toward")
    moves = "stays put" if toward is None else f"moves toward {who(view, toward)}"
    if trick.get("flipped"):
        parts.append(f"Both odd: the cat flips to {side} and {moves}.")
    else:
        parts.append(f"The {side} cat {moves}.")
    return " ".join(parts)


class CatchyTable(TableScreen[CatchyView]):
    """The Catchy! table for one seat (or a spectator)."""

    look_names = LOOKS
    DEFAULT_CSS = """
    CatchyTable > .catchy--muted { color: $text-muted; }
    CatchyTable > .catchy--turn { color: $text-warning; text-style: bold; }
    """
    """Here, not in ``catchy.tcss``: a screen's CSS file comes after its first view is drawn."""
    game = "catchy"
    essential = ("#track", "#trick", "#hand")

    # Each key is offered only when it does something now (check_action): digits name a
    # course card while you swap the Starting card, a card of your hand on your turn.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "pick", key_display="←→"),
        Binding("right", "move(1)", "pick", show=False),
        Binding("enter", "play", "play"),
        Binding("space", "play", "play", show=False),
        Binding("1", "course(1)", "swap for course card", key_display="1-3"),
        *(Binding(str(n), f"course({n})", "swap", show=False) for n in (2, 3)),
        Binding("1", "number(1)", "card", key_display="1-7"),
        *(Binding(str(n), f"number({n})", "card", show=False) for n in range(2, 10)),
        Binding("s", "swap", "swap", show=False),  # then 1-3: the digits alone do it too
        Binding("x", "cancel", "cancel"),  # a plain key: Esc is slow over SSH, off a phone's
        Binding("escape", "cancel", "cancel", show=False),
    ]

    swapping: reactive[bool] = reactive(False)
    """After ``s``: the next number key names a course card."""

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Panel(id="title")
                yield Panel(id="opponent")
                yield CourseTrack(id="track")
                yield TrickArea(id="trick")
                yield Panel(id="hand-label")
                yield Hand(face, id="hand")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield Panel(id="last-round")
                yield GameLog(id="log")

    # Drawing -------------------------------------------------------------------

    def show(self, view: CatchyView) -> None:
        """Draw each part from its own part of the view (a panel whose part is as it was is
        neither built again nor repainted): a card played changes the trick, the hands,
        whose turn it is and the prompt; the course, the cat, scores and the last round
        change only as tricks and rounds end."""
        seat = view["seat"]
        players = view["players"]
        opponent = others(view)
        turn = view["turn"]
        phase = view["phase"]
        counts = view["hand_counts"]
        hand = self.query_one(Hand)
        self.query_one("#title", Panel).draw(
            (view["round"], seat is None), lambda: self._title(view)
        )
        self.query_one("#opponent", Panel).draw(
            (players, opponent, counts, turn), lambda: self._opponent(view, hand)
        )
        self.query_one(CourseTrack).follow(view, self.swapping)
        sent = self._sent_card()
        self.query_one(TrickArea).follow(view, sent)
        own = [card for card in view["hand"] or [] if card != sent]
        my_turn = seat is not None and turn == seat
        dimmed = set(view["unplayable"])
        if STARTING in own:
            dimmed.add(STARTING)
        hand.dimmed = frozenset(dimmed)
        self.query_one("#hand-label", Panel).draw(
            (seat, players, counts, turn, my_turn and phase == "play", hand.dimmed),
            lambda: self._hand_label(view, hand),
        )
        hand.cards = tuple(own)
        hand.show_cursor = my_turn and phase == "play"
        if hand.show_cursor:
            self._cursor_to_playable(view, hand)
        hand.display = seat is not None
        self.query_one(Scoreboard).set_scores(
            [
                ScoreLine(
                    name,
                    view["scores"][index],
                    you=index == seat,
                    turn=index == turn,
                    note="leads" if index == view["leader"] and phase == "play" else "",
                )
                for index, name in enumerate(players)
            ],
            view["target"],
        )
        self._show_last_round(view)
        self.query_one(GameLog).show(view["log"])
        if sent is not None:
            self.query_one(PromptLine).prompt(f"Playing {card_name(sent)}... (sent to the host)")
        else:
            self.query_one(PromptLine).prompt(self.prompt_text(view))

    # Your card on its way --------------------------------------------------------------

    def shows_sent(self, action: Mapping[str, Any]) -> bool:
        """A card played leaves the hand for the trick at once (marked as sent)."""
        return action.get("type") == "play"

    def still_sending(self, view: CatchyView, sent: Mapping[str, Any]) -> bool:
        """Still your turn with the card in your hand: the host has not played it yet."""
        return (
            sent.get("card") in (view["hand"] or [])
            and view["turn"] == view["seat"]
            and view["phase"] == "play"
        )

    def _sent_card(self) -> str | None:
        sent = self.sent
        return None if sent is None else str(sent.get("card"))

    def _cursor_to_playable(self, view: CatchyView, hand: Hand) -> None:
        """At the start of each of your turns the cursor rests on a card you may play (the
        first), so that Enter plays one; later it stays where you put it."""
        turn = (view["round"], len(view["tricks"]), len(view["trick"]))
        if turn == self._cursor_turn:
            return
        self._cursor_turn = turn
        if hand.current in hand.dimmed:
            playable = [i for i, card in enumerate(hand.cards) if card not in hand.dimmed]
            if playable:
                hand.cursor = playable[0]

    _cursor_turn: object = None
    """The turn the cursor was last placed for (round, tricks done, cards on the trick)."""

    def _title(self, view: CatchyView) -> Text:
        title = Text(f"{self.game_title} · Round {view['round']}", style="bold")
        if view["seat"] is None:
            title.append(" · watching", style=self.look("muted"))
        return title

    def _opponent(self, view: CatchyView, hand: Hand) -> Text:
        players, counts = view["players"], view["hand_counts"]
        opponent = others(view)
        line = Text(players[opponent] if opponent < len(players) else "?", style="bold")
        line.append("  ")
        backs = compact_backs(
            counts[opponent] if opponent < len(counts) else 0,
            look=hand.card_look,  # the same backs as every card drawn here
        )
        line.append_text(backs)
        if view["turn"] == opponent:
            line.append("  ◀ to play", style=self.look("turn"))
        return line

    def _hand_label(self, view: CatchyView, hand: Hand) -> Text:
        players, counts, turn = view["players"], view["hand_counts"], view["turn"]
        if view["seat"] is None:
            # A spectator has no hand: the near seat's hand is its backs, like the far one's.
            near = 1 - others(view)
            label = Text(players[near] if near < len(players) else "?", style="bold")
            label.append("  ")
            label.append_text(
                compact_backs(counts[near] if near < len(counts) else 0, look=hand.card_look)
            )
            if turn == near:
                label.append("  ◀ to play", style=self.look("turn"))
            return label
        label = Text("Your hand", style="bold")
        if turn == view["seat"] and view["phase"] == "play":
            label.append("  ▶ your turn", style=self.look("turn"))
        if hand.dimmed & set(view["hand"] or []):  # the mark on a card's bottom edge
            label.append(f"  {DIMMED_NOTE}", style=self.look("muted"))
        return label

    def _show_last_round(self, view: CatchyView) -> None:
        last = view["last_round"]
        panel = self.query_one("#last-round", Panel)
        if not last:
            panel.draw(None, lambda: Text("No round finished yet", style=self.look("muted")))
            return
        points = last.get("points") or [0, 0]
        gained = ", ".join(
            f"{who(view, index)} +{value}" for index, value in enumerate(points) if value
        )

        def text() -> Text:
            course = " ".join(
                face(card).label.replace(" ", "") for card in last.get("course") or []
            )
            out = Text(f"Round {last.get('round')}: ", style="bold")
            out.append(f"{gained}\ncourse was {course}")
            return out

        panel.draw((last, view["seat"], view["players"]), text)
        previous = getattr(self, "_last_round_seen", None)
        game_over = view["outcome"] is not None  # the results screen says it all
        if previous is not None and previous != last.get("round") and not game_over:
            score = "-".join(str(s) for s in last.get("scores") or [])
            self.notify(f"Round {last.get('round')} over: {gained}. Score {score}.", timeout=4)
        self._last_round_seen = last.get("round")

    def prompt_text(self, view: CatchyView) -> str:
        """What the player may do now, in words."""
        seat = view["seat"]
        turn = view["turn"]
        phase = view["phase"]
        if phase == "over":
            return "Game over · r rules · q leaves"
        if phase == "between":
            return "The round is over: the next one is being dealt..."
        if seat is None:
            return f"Watching: {who(view, turn)} to play · q leaves"
        if turn != seat:
            if phase == "swap":
                return f"{who(view, turn)} holds the Starting card and swaps it..."
            return f"{who(view, turn)} to play..."
        if phase == "swap":
            if self.swapping:
                return "Swap: which course card, 1, 2 or 3? x cancels"
            return "You hold the Starting card: press 1, 2 or 3 to swap it for that course card"
        trick = view["trick"]
        if trick:
            led = trick[0]
            if led == JOKER:
                return "Follow the Joker with any card: ←→/1-7 pick, enter plays"
            colour = card_name(led).split()[0].lower()
            joker = " (or the Joker)" if JOKER in (view["hand"] or []) else ""
            return f"Follow {card_name(led)}: {colour} if you can{joker} · enter plays"
        return "Your lead: ←→ or 1-7 pick a card, enter plays it"

    # Keys ----------------------------------------------------------------------

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"move", "play", "number", "course", "swap", "cancel"}
    )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Each play key only while it does something: the swap keys for the Starting card's
        holder during the swap (``x`` or Esc while ``s`` waits for a digit), the hand's keys on
        your turn in play (a digit only for a card you hold)."""
        allowed = super().check_action(action, parameters)
        if not allowed or action not in self.PLAY_ACTIONS:
            return allowed
        if action in ("course", "swap"):
            return self._my_turn("swap")
        if action == "cancel":
            return self.swapping
        if not self._my_turn("play"):
            return False
        if action == "number":
            view = self.view
            return view is not None and int(str(parameters[0])) <= len(view["hand"] or [])
        return True

    def watch_swapping(self) -> None:
        self.refresh_bindings()  # x (or Esc) cancels only while a digit is awaited

    def _my_turn(self, phase: str) -> bool:
        view = self.view
        return (
            view is not None
            and view["seat"] is not None
            and view["turn"] == view["seat"]
            and view["phase"] == phase
        )

    def action_move(self, delta: int) -> None:
        self.query_one(Hand).move(delta)

    def action_number(self, value: int) -> None:
        view = self.view
        if view is None:
            return
        if view["phase"] == "swap" or self.swapping:
            self.swap(value)
            return
        hand = self.query_one(Hand)
        if value <= len(hand.cards):
            hand.cursor = value - 1
            card = hand.cards[value - 1]
            reason = view["unplayable"].get(card)
            if reason:
                self.query_one(PromptLine).refuse(f"{card_name(card)}: {reason}")

    def action_course(self, value: int) -> None:
        self.swap(value)

    def action_swap(self) -> None:
        view = self.view
        if view is None or view["phase"] != "swap":
            self.refused("There is nothing to swap now: the Starting card was swapped")
            return
        if not self._my_turn("swap"):
            self.refused(f"{who(view, view['turn'])} holds the Starting card, not you")
            return
        self.swapping = True
        self.show(view)

    def action_cancel(self) -> None:
        if self.swapping:
            self.swapping = False
            if self.view is not None:
                self.show(self.view)

    def swap(self, value: int) -> None:
        view = self.view
        assert view is not None
        self.swapping = False
        if not self._my_turn("swap"):
            self.refused(f"{who(view, view['turn'])} holds the Starting card, not you")
            return
        if not 1 <= value <= len(view["course"]):
            self.refused("The course cards are numbered 1, 2 and 3")
            return
        self.act({"type": "swap", "course": value - 1})

    def action_play(self) -> None:
        view = self.view
        hand = self.query_one(Hand)
        card = hand.current
        if view is None or card is None or view["seat"] is None:
            return
        self.try_play(card)

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        self.try_play(message.card)

    def try_play(self, card: str) -> None:
        """Play ``card`` if the view says it may be played, else say why not."""
        view = self.view
        assert view is not None
        phase = view["phase"]
        if self.sent is not None:  # one card at a time: the first is on its way
            sent = self._sent_card() or "card"
            self.query_one(PromptLine).refuse(f"Your {card_name(sent)} is on its way to the host")
        elif phase == "over":
            self.refused("The game is over")
        elif phase == "swap" and self._my_turn("swap"):
            self.refused("Swap the Starting card first: press 1, 2 or 3 for a course card")
        elif view["turn"] != view["seat"]:
            self.refused(f"It is {who(view, view['turn'])}'s turn")
        elif card == STARTING:
            self.refused("The Starting card is never played")
        elif card in view["unplayable"]:
            self.refused(f"{card_name(card)}: {view['unplayable'][card]}")
        else:
            self.act({"type": "play", "card": card})

    def results_lines(self, view: CatchyView) -> list[str]:
        players = view["players"]
        outcome = view["outcome"]
        seats = [] if outcome is None else outcome["winners"]
        winners = [players[seat] for seat in seats if seat < len(players)]
        scores = view["scores"] if outcome is None else outcome["scores"]
        if view["seat"] is not None and view["seat"] in seats:
            head = "You win!" if len(winners) == 1 else "You share the win!"
        else:
            head = f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}."
        lines = [head, ""]
        lines += [
            f"{name}{' (you)' if index == view['seat'] else ''}: {scores[index]} point"
            f"{'' if scores[index] == 1 else 's'}"
            for index, name in enumerate(players)
            if index < len(scores)
        ]
        last = view["last_round"]
        if last:
            course = ", ".join(card_name(card) for card in last.get("course") or [])
            lines += ["", f"Last round ({last.get('round')}): course was {course}."]
        target = view["target"]
        lines += ["", f"Target was {target} point{'' if target == 1 else 's'}."]
        return lines
