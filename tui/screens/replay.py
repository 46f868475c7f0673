"""A finished game, step by step: every hand shown, the chat and the rulings in the log.

The game is rebuilt once from its record (:class:`net.store.replays.Replayer`);
moving is only picking a frame. ``←``/``→`` step one move, ``↑``/``↓`` one
round (a change of the views' round key, else of the phase), ``Home``/``End``
the first and last, ``g`` then a number jumps to a move (Enter on the empty
box, or Esc, closes it). ``e`` (or ``Tab``) chooses whose eyes to look
through: *everyone* (every seat's hand side by side, the whole log) or one seat
(its own view, as it saw the game). The game is over, so nothing here is
secret any more (a game not over is never given: the host refuses it).

It works at 80x24: the view on the left, the log on the right.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, RichLog, Static

from engine.core import BASE_VIEW_KEYS
from net.store.replays import Replayer
from tui.games import NoScreen, screen_class
from tui.screens.generic import action_label, cut, printable, value_text
from tui.screens.keys import KEYS_BINDING, show_keys
from tui.widgets.chat import chat_text, rule_text

LOG_LINES = 200
"""The most log lines kept on screen (the newest)."""
QUIET_KEYS = frozenset({"legal", "log", "game", "seat", "reveal"})
"""View keys not listed (the log has its own pane; legal actions do not matter now)."""
EVERYONE_KEYS = ("hand", "cards", "tiles", "rack", "letters")
"""Keys shown per seat in the *everyone* view: the first a seat's view has is its hand."""


def step_text(replayer: Replayer, index: int) -> str:
    """``Move 12/27: Ann: bid count=3 thing=hat`` (or the deal, or a timer)."""
    total = replayer.last
    if index == 0:
        return f"Move 0/{total}: the deal"
    step = replayer.frames[index].step
    assert step is not None
    if step.seat is None or step.action is None:
        return f"Move {index}/{total}: the clock ({step.now:.1f} s)"
    name = replayer.record.players[step.seat]
    return f"Move {index}/{total}: {printable(name)}: {action_label(step.action)}"


def note_text(note: Mapping[str, Any]) -> Text:
    """A chat line, a chat rule or a ruling as a log line, in its own style (not a game line)."""
    if note.get("kind") == "chat":
        who = printable(str(note.get("name", "?")))
        return chat_text(who, note.get("seat"), printable(str(note.get("text", ""))))
    if note.get("kind") == "chat_rule":
        name = note.get("name")
        rule = str(note.get("spectator_chat", "shown"))
        return rule_text(printable(str(name)) if name else None, rule)
    lines = [printable(str(event.get("text", ""))) for event in note.get("events") or []]
    return Text("Ruling: " + "\n  ".join(lines or ["ruling"]), style="magenta")


class ReplayScreen(Screen[None]):
    """Step through a finished game (see the module docstring for the keys)."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    #replay-head { height: 2; padding: 0 1; background: $panel; }
    #replay-body { height: 1fr; }
    #replay-view { width: 1fr; padding: 0 1; }
    #replay-log-pane { width: 1fr; border-left: solid $primary-darken-2; padding: 0 1; }
    #replay-jump { dock: bottom; display: none; }
    #replay-jump.open { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        # One footer entry for each pair of arrows, so the footer fits 80 columns.
        Binding("left", "step(-1)", "move", key_display="←→", priority=True),
        Binding("right", "step(1)", "move on", show=False, priority=True),
        Binding("up", "round(-1)", "round", key_display="↑↓", priority=True),
        Binding("down", "round(1)", "round on", show=False, priority=True),
        Binding("home", "go(0)", "first", show=False, priority=True),
        Binding("end", "go(-1)", "last", show=False, priority=True),
        Binding("g", "jump", "go to move"),
        Binding("e", "seat", "whose eyes"),  # the plain key (a phone's keyboard has no tab)
        Binding("tab", "seat", "whose eyes", show=False, priority=True),
        Binding("escape", "close_jump", "close", show=False),
        Binding("q", "quit_replay", "quit"),
    ]

    def __init__(self, replayer: Replayer, *, index: int = 0) -> None:
        super().__init__()
        self.replayer = replayer
        self.index = max(0, min(index, replayer.last))
        self.seat: int | None = None
        """Whose eyes: ``None`` for everyone."""
        self._rounds = replayer.rounds()
        self._card_label: Callable[[str], str] = str
        with contextlib.suppress(NoScreen):
            self._card_label = screen_class(replayer.record.game).card_label

    def compose(self) -> ComposeResult:
        yield Static(id="replay-head")
        with Horizontal(id="replay-body"):
            with VerticalScroll(id="replay-view"):
                yield Static(id="replay-fields")
            yield RichLog(id="replay-log-pane", wrap=True, markup=False, min_width=10)
        yield Input(placeholder="go to move number, Enter", id="replay-jump")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_all()

    # Drawing -------------------------------------------------------------------

    def refresh_all(self) -> None:
        self.query_one("#replay-head", Static).update(self._head())
        self.query_one("#replay-fields", Static).update(self._fields())
        log = self.query_one("#replay-log-pane", RichLog)
        log.clear()
        for line in self._log().split("\n"):
            log.write(line, scroll_end=True)  # the newest line in view once laid out

    def round_number(self) -> int:
        return sum(1 for start in self._rounds if start <= self.index)

    def _head(self) -> Text:
        replayer = self.replayer
        title = replayer.game.title
        rounds = f" · round {self.round_number()}/{len(self._rounds)}"
        eyes = ["everyone", *replayer.record.players]
        chosen = 0 if self.seat is None else self.seat + 1
        head = Text(f"Replay of {title} (table {replayer.record.table}){rounds}", style="bold")
        head.append(f" · {printable(replayer.phase(self.index))}\n")
        head.append(cut(step_text(replayer, self.index), 60) + "  ")
        for number, name in enumerate(eyes):
            style = "reverse bold" if number == chosen else ""  # not dim: it must stay readable
            head.append(f" {printable(name)} ", style=style)
        return head

    def _fields(self) -> Text:
        replayer = self.replayer
        spectator = replayer.view(self.index, None)
        text = Text()
        players = replayer.record.players
        scores = spectator.get("scores") or []
        if self.seat is None:
            for seat, name in enumerate(players):
                view = replayer.view(self.index, seat)
                score = f" ({scores[seat]})" if seat < len(scores) else ""
                text.append(f"{printable(name)}{score}\n", style="bold")
                hand_key = next((key for key in EVERYONE_KEYS if key in view), None)
                if hand_key is not None:
                    text.append(f"  {hand_key}: {cut(self._hand_text(view[hand_key]), 200)}\n")
            view = spectator
        else:
            view = replayer.view(self.index, self.seat)
            text.append(f"As {printable(players[self.seat])} saw it\n", style="bold")
        outcome = view.get("outcome")
        if outcome:
            winners = [players[s] for s in outcome.get("winners", [])]
            text.append(f"Won by {', '.join(map(printable, winners))}\n", style="bold green")
        for key, value in view.items():
            if key in QUIET_KEYS or (key in BASE_VIEW_KEYS and key not in ("scores", "phase")):
                continue
            if self.seat is None and key in EVERYONE_KEYS:
                continue  # each seat's own is shown above
            text.append(f"{printable(str(key))}: ", style="bold")
            text.append(cut(value_text(value), 300) + "\n")
        return text

    def _hand_text(self, hand: Any) -> str:
        """A seat's hand, each card in the game's own words (``Red Hat``, not ``hat-red-1``)."""
        if not isinstance(hand, list) or not all(isinstance(card, str) for card in hand):
            return value_text(hand)
        return "  ".join(printable(self._card_label(card)) for card in hand) or "(none)"

    def _log(self) -> Text:
        """Every event up to this move (those the chosen seat saw), with chat and rulings."""
        lines: list[Text] = []
        notes = self.replayer.record.notes
        for frame in self.replayer.frames[: self.index + 1]:
            for event in frame.events:
                if self.seat is None or event.visible_to(self.seat):
                    style = "bold" if frame.index == self.index else ""
                    lines.append(Text(printable(event.text), style=style))
            lines += [note_text(note) for note in notes if int(note.get("after", 0)) == frame.index]
        # The setup's lines (round 1's deal) are in the first state's log, not in any
        # frame's events: they head the log at every move, not only at move 0.
        state = self.replayer.frames[0].state
        lines = [Text(printable(event.text)) for event in getattr(state, "log", [])] + lines
        return Text("\n").join(lines[-LOG_LINES:])

    # Moving --------------------------------------------------------------------

    def go(self, index: int) -> None:
        self.index = max(0, min(index, self.replayer.last))
        self.refresh_all()

    def action_step(self, delta: int) -> None:
        self.go(self.index + delta)

    def action_round(self, delta: int) -> None:
        if delta < 0:
            earlier = [s for s in self._rounds if s < self.index]
            self.go(earlier[-1] if earlier else 0)
        else:
            later = [s for s in self._rounds if s > self.index]
            self.go(later[0] if later else self.replayer.last)

    def action_go(self, index: int) -> None:
        self.go(self.replayer.last if index < 0 else index)

    def action_seat(self) -> None:
        count = len(self.replayer.record.players)
        self.seat = 0 if self.seat is None else (None if self.seat + 1 >= count else self.seat + 1)
        self.refresh_all()

    def action_jump(self) -> None:
        box = self.query_one("#replay-jump", Input)
        box.value = ""
        box.add_class("open")
        box.focus()

    def action_close_jump(self) -> None:
        box = self.query_one("#replay-jump", Input)
        box.remove_class("open")
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_close_jump()
        text = event.value.strip()
        if text.isdigit():
            self.go(int(text))
        elif text:
            self.notify(f"A move is a number from 0 to {self.replayer.last}", severity="warning")

    def action_quit_replay(self) -> None:
        self.app.exit()

    def action_show_keys(self) -> None:
        show_keys(self)


class ReplayApp(App[None]):
    """``clowder replay``'s whole program: one replay screen."""

    TITLE = "Clowder replay"

    def __init__(self, replayer: Replayer, index: int = 0) -> None:
        super().__init__()
        self._replayer = replayer
        self._index = index

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self._replayer, index=self._index))
