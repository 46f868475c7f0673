"""The results screen: who won, tonight's standings, playing again, and the way out.

After a game the evening goes on from here (``net.core.again``): ``a`` asks everyone at
the table to play the same game again (or says yes when someone already asked), ``x``
says no, ``n`` picks another game for the same people. Everyone's answer and the
countdown show below the results, with tonight's standings on this host; when the new
game starts the app moves the player to it (the host's ``joined`` with ``moved_from``). A
spectator's ``a`` takes a seat someone left free.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from net.store.night import tonight_lines
from net.wire.text import clean_text
from tui.keygate import SeenFirst
from tui.screens.keys import KEYS_BINDING, show_keys
from tui.widgets.footer import TableFooter

ANSWER_MARKS = {"yes": "✓", "no": "✗", "waiting": "…"}


def again_lines(
    status: dict[str, Any], left_s: float, my_seat: int | None, finished: str | None = None
) -> list[str]:
    """The proposal to play again, for people: who asked, each answer, the time left.

    ``finished``: the title of the game just played; a proposal of another game says
    "next", not "again" (nobody played it yet)."""
    title = clean_text(str(status.get("title") or status.get("game") or "?"))
    by = clean_text(str(status.get("by") or "?"))
    same = finished is None or title == finished
    lines = [
        f"{by} asks to play {title} {'again' if same else 'next'} ({max(0, round(left_s))} s):"
    ]
    marks = []
    mine = None
    for seat in status.get("seats") or []:
        name = clean_text(str(seat.get("name") or "?"))
        answer = str(seat.get("answer") or "waiting")
        if seat.get("seat") == my_seat and my_seat is not None:
            name, mine = "you", answer
        marks.append(f"{name} {ANSWER_MARKS.get(answer, '?')}")
    lines.append("  " + "  ".join(marks))
    free = int(status.get("free") or 0)
    if mine == "waiting":
        lines.append(f"  a: yes, {'play again' if same else 'play it'}   x: no thanks")
    elif mine == "yes":
        lines.append("  You are in: the game starts when everyone has answered.")
    elif mine == "no":
        lines.append("  You said no: your seat is free for someone else.")
    elif my_seat is None and free:
        lines.append(f"  {free} seat{'s' if free != 1 else ''} free: a takes one")
    return lines


class ResultsScreen(SeenFirst, Screen[str]):
    """Game over. Dismisses with ``"table"`` (look at the table) or ``"leave"``; posts
    :class:`PlayAgain`, :class:`Answer` and :class:`NextGame` for the evening's next game.

    Every way out has a plain key (a phone's on-screen keyboard may lack Esc): ``t`` for
    the table (Esc too), Enter or ``q`` to leave.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        Binding("a", "again", "play again"),
        Binding("x", "decline", "no thanks"),
        Binding("n", "next_game", "next game"),
        Binding("t", "done('table')", "see the table"),
        Binding("escape", "done('table')", "see the table", show=False),
        Binding("enter", "done('leave')", "leave"),
        Binding("q", "done('leave')", "leave", show=False),
    ]

    class PlayAgain(Message):
        """Ask everyone to play the same game again (or say yes to the open proposal)."""

    class Answer(Message):
        """The player's answer to the proposal open at the table."""

        def __init__(self, accept: bool) -> None:
            super().__init__()
            self.accept = accept

    class NextGame(Message):
        """Pick another game for the same people (the app opens the picker)."""

    class TakeSeat(Message):
        """A spectator takes a free seat at the table that plays again."""

        def __init__(self, table: str) -> None:
            super().__init__()
            self.table = table

    def __init__(
        self,
        title: str,
        lines: Sequence[str],
        *,
        my_seat: int | None = None,
        again: dict[str, Any] | None = None,
        tonight: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.title_of_game = title
        self.heading = f"{title}: game over"
        self.lines = list(lines)
        self.my_seat = my_seat
        """The player's seat at the finished table (``None``: a spectator)."""
        self.again: dict[str, Any] | None = None
        self._again_at = 0.0
        self.tonight: dict[str, Any] | None = tonight
        self._first_again = again
        self._ready = False
        self._again_line = Static("", id="results-again")
        self._tonight_line = Static("", id="results-tonight")

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="results"):
            yield Static(self.heading, id="results-title")
            # Many seats (and their ratings) can need more lines than the terminal has:
            # the body scrolls (up/down, page keys) inside a box that fits the screen.
            with VerticalScroll(id="results-scroll"):
                yield Static("\n".join(self.lines), id="results-body")
            # Docked at the box's foot, so the proposal (who answered, the time left, the
            # keys) and tonight's standings stay on screen at 80x24, and the body above
            # scrolls in the rows they leave (undocked, they fell below the box's edge).
            # Kept, not queried: the screen's mount can come before theirs (an app that closes
            # just after pushing it), and a line drawn early is shown once they are up.
            with Vertical(id="results-evening"):
                yield self._again_line
                yield self._tonight_line
        yield TableFooter()

    def on_mount(self) -> None:
        self._ready = True
        self.show_again(self._first_again)
        self.show_tonight(self.tonight)
        self.set_interval(1.0, self._tick)

    # Attributes down ------------------------------------------------------------------

    def show_again(self, status: dict[str, Any] | None) -> None:
        """The proposal to play again as the host last sent it (``None``: none is open)."""
        self.again = status
        self._again_at = time.monotonic()
        self._draw_again()
        self.refresh_bindings()

    def show_tonight(self, data: dict[str, Any] | None) -> None:
        """Tonight's standings on this host (``None``: it keeps none)."""
        self.tonight = data
        if not self._ready:
            return
        widget = self._tonight_line
        widget.display = data is not None
        if data is not None:
            widget.update("\n".join(clean_text(line) for line in tonight_lines(data)))

    def _tick(self) -> None:
        if self.again is not None:
            self._draw_again()

    def _draw_again(self) -> None:
        if not self._ready:
            return
        widget = self._again_line
        status = self.again
        widget.display = status is not None
        if status is None:
            return
        left = float(status.get("ends_in") or 0) - (time.monotonic() - self._again_at)
        widget.update("\n".join(again_lines(status, left, self.my_seat, self.title_of_game)))

    def my_answer(self) -> str | None:
        """The player's answer to the open proposal (``None``: none open, or a spectator)."""
        if self.again is None or self.my_seat is None:
            return None
        for seat in self.again.get("seats") or []:
            if seat.get("seat") == self.my_seat:
                return str(seat.get("answer"))
        return None

    # Keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer only what can be done now: ``a`` and ``n`` to a player with no answer
        given (``a`` to a spectator when a seat is free), ``x`` while asked."""
        if action == "again":
            if self.my_seat is None:
                return self.again is not None and bool(self.again.get("free"))
            return self.my_answer() in (None, "waiting")
        if action == "decline":
            return self.my_answer() == "waiting"
        if action == "next_game":
            return self.my_seat is not None and self.again is None
        return True

    def action_again(self) -> None:
        if self.my_seat is None:
            if self.again is not None and self.again.get("table"):
                self.post_message(self.TakeSeat(str(self.again["table"])))
            return
        if self.my_answer() == "waiting":
            self.post_message(self.Answer(True))
        else:
            self.post_message(self.PlayAgain())

    def action_decline(self) -> None:
        self.post_message(self.Answer(False))

    def action_next_game(self) -> None:
        self.post_message(self.NextGame())

    def action_done(self, choice: str) -> None:
        self.dismiss(choice)

    def action_show_keys(self) -> None:
        show_keys(self)
