"""The base of every real-time table: fair stamps on claims, the host's rulings, ``w`` why.

At a real-time table (:attr:`engine.core.Game.realtime`) the view's
``reveal`` is the id of the moment open for claims now (a card turned, a
letter shown, a challenge card down). This screen notes, on this machine's
monotonic clock, when each reveal was actually drawn (after Textual's
refresh) and when the player acted (the key event's own stamp), and sends
both with the claim (:meth:`RealtimeTable.claim`), so the host ranks players
by reaction time, not by whose packet came first. It refuses a key pressed
before the moment was drawn, and keeps one claim in flight per reveal.

The host's rulings (``claim`` and ``claim_lost`` events) go into a
:class:`~tui.widgets.rulings.RulingHistory`; the game's screen says what
they mean in its own words (:meth:`RealtimeTable.game_event` calls
:meth:`~tui.widgets.rulings.RulingHistory.award`). ``w`` lists the recent
rulings, newest first. A board that composes a
:class:`~tui.widgets.timer.Countdown` gets it started at each reveal that
lasts a fixed time (:meth:`RealtimeTable.countdown_s`).

At a coached table (``clowder learn``) the screen tells the host the player is learning
(:class:`RealtimeTable.Learn`: the coach's :attr:`~tui.coach.Coach.held_moments` and
:attr:`~tui.coach.Coach.bot_pace`). The host then holds the first moments the player may
claim in (``view.held``) until they claim or press Enter (:meth:`RealtimeTable.go_on`):
the coach's panel says so, and the moment counts as drawn again when it goes on.

A game whose claims are typed (Katootsie!'s answers) says when the typing of
an answer began with :meth:`RealtimeTable.notice_typing`; the app forwards
the :class:`RealtimeTable.Typing` message to the host as a typing notice. It
lives here, not in the game's screen, so the app knows no game.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from tui.coach import Coach
from tui.screens.info import InfoScreen
from tui.screens.table import ClaimStamps, TableScreen, V
from tui.widgets.coach import CoachPanel
from tui.widgets.rulings import RulingHistory, host_closest
from tui.widgets.timer import Countdown

DRAWN_KEEP = 8
"""How many reveals' drawn stamps are kept (a claim only ever names the newest)."""
KEY_FRESH_NS = 2_000_000_000
"""A key stamp older than this is not the key that triggered the action (it was a mouse click)."""


class RealtimeTable(TableScreen[V]):
    """A table whose claims race for the open reveal (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "why", "why"),
        Binding("enter", "go_on", "go on", key_display="⏎"),
    ]

    claimed_word: ClassVar[str] = "claimed"
    """The game's verb for a claim, in the past (``grabbed``), for prompts and rulings."""

    class Typing(Message):
        """A typing run started: the app sends the host a typing notice with these stamps.

        The answer sent later with the same stamps is credited against the
        notice's arrival, not its own (``Typed answers`` in ``net/PROTOCOL.md``).
        """

        def __init__(self, stamps: ClaimStamps) -> None:
            super().__init__()
            self.stamps = stamps

    class Learn(Message):
        """The player learns the game (a coached table): the app sends the host ``learn``.

        ``hold``: how many moments to hold for them (``None``: let the held one go on and
        keep the count); ``pace``: how many times slower the bots claim (``None``: as is).
        """

        def __init__(self, hold: int | None = None, pace: int | None = None) -> None:
            super().__init__()
            self.hold = hold
            self.pace = pace

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[Any] | None = None
    ) -> None:
        super().__init__(table_id=table_id, place=place, coach=coach)
        self._learning = False
        """The host was told this player learns here (once, at the first view)."""
        self._was_held: int | None = None
        """The moment the host held for this player at the last view (``None``: none)."""
        self.history = RulingHistory(self.claimed_word)
        self._drawn: dict[int, int] = {}
        """Reveal id -> when it was drawn here (``time.monotonic_ns``)."""
        self._claimed: dict[int, dict[str, Any]] = {}
        """Reveal id -> the claim this player sent for it (waiting for the ruling)."""
        self._key_ns: int | None = None
        self._countdowns: list[Countdown] | None = None
        """The board's countdowns, found at the first reveal drawn."""
        self._open_since: tuple[int | None, float] = (None, 0.0)
        """The open reveal and when it came up here (``time.monotonic``)."""

    # Data in ----------------------------------------------------------------------

    def happened(self, events: Sequence[dict[str, Any]]) -> None:
        explained = bool(self.history.explained)
        for event in events:
            if not self.history.note(event):
                self.game_event(event)
        if self._ready and bool(self.history.explained) != explained:
            self._follow_bindings()  # ``w`` (why) has something to explain now

    def game_event(self, event: Mapping[str, Any]) -> None:
        """One of the game's own events: call ``self.history.award`` for one that
        applied a claim (what was won, in the game's words). Default: nothing."""

    def on_key(self, event: events.Key) -> None:
        """Keep the key's own timestamp: the moment the player acted, before any redraw."""
        self._key_ns = int(event.time * 1_000_000_000)

    def watch_view(self, view: V | None) -> None:
        if view is not None and self._ready:
            self._learn(view)
            self._note_reveal(view["reveal"], view)
        super().watch_view(view)
        if view is not None and self._ready:
            self._show_held()

    # A coached game waits for its learner ---------------------------------------------

    def _learn(self, view: V) -> None:
        """At a coached table, tell the host once that the player learns here; when a held
        moment goes on, it counts as drawn now (the host restarts it for everyone)."""
        coach = self.coach
        learns = coach is not None and (coach.held_moments > 0 or coach.bot_pace > 1)
        if learns and not self._learning and view["seat"] is not None and not view["outcome"]:
            assert coach is not None
            self._learning = True
            self.post_message(self.Learn(hold=coach.held_moments, pace=coach.bot_pace))
        held = view["reveal"] if self.held else None
        was, self._was_held = self._was_held, held
        if was is not None and held is None and view["reveal"] == was:
            self._drawn.pop(was, None)  # drawn anew by _note_reveal, as the host restarts it
            self.moment_goes_on(view)

    def moment_goes_on(self, view: V) -> None:
        """A moment held for this learner goes on (table time stood still while it was held,
        and runs again from now). Default: nothing."""

    def _show_held(self) -> None:
        """The coach's panel says the game waits (and for which key) while a moment is held."""
        if self.coach is None:
            return  # no coach, no panel (a query of the whole screen at every view)
        for panel in self.query(CoachPanel):
            panel.waiting(self.held)

    def go_on(self) -> bool:
        """Let the moment held for this player go on (the bots may claim it now); False when
        none is held."""
        if not self.held:
            return False
        self.held = False  # one Enter is one go: the host's next view says what is held
        self.post_message(self.Learn())
        self._show_held()
        self._follow_bindings()
        return True

    def action_go_on(self) -> None:
        if not self.go_on():
            self.refused("Nothing waits for you now")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter (go on) is offered only while a moment is held for this player, ``w`` once
        the host has ruled on a claim here (before, it has nothing to explain)."""
        if action == "go_on":
            return self.held
        if action == "why":
            return bool(self.history.explained)
        return super().check_action(action, parameters)

    def _note_reveal(self, reveal: int | None, view: Mapping[str, Any]) -> None:
        if reveal != self._open_since[0]:
            self._open_since = (reveal, time.monotonic())
        if reveal is None or reveal in self._drawn:
            return
        self._drawn[reveal] = time.monotonic_ns()  # until the refresh says when
        self.after_refresh(self._stamp_drawn, reveal)
        for old in sorted(self._drawn)[:-DRAWN_KEEP]:
            del self._drawn[old]
        seconds = self.countdown_s(view)
        if self._countdowns is None:  # a query walks the whole screen: once is enough
            self._countdowns = list(self.query(Countdown))
        for countdown in self._countdowns:
            if seconds is None:
                countdown.stop()
            else:
                countdown.start(seconds)

    def _stamp_drawn(self, reveal: int) -> None:
        """The reveal is on screen now: this is when the player could first see it."""
        if reveal in self._drawn:
            self._drawn[reveal] = time.monotonic_ns()

    def countdown_s(self, view: Mapping[str, Any]) -> float | None:
        """How long the open reveal lasts, counted from when it is drawn here (``None``: untimed).

        Games with a timed window (Katootsie's ten seconds) put it in their
        view as ``countdown_s``; the host's own deadline stays authoritative.
        """
        seconds = view.get("countdown_s")
        return float(seconds) if isinstance(seconds, int | float) else None

    def open_for_s(self) -> float:
        """How long the open reveal has been on screen (0 when none is open)."""
        reveal, since = self._open_since
        return 0.0 if reveal is None else time.monotonic() - since

    # Claims -----------------------------------------------------------------------

    def _acted_now(self) -> int:
        now = time.monotonic_ns()
        key = self._key_ns
        self._key_ns = None
        if key is None or not 0 <= now - key <= KEY_FRESH_NS:
            return now
        return key

    @property
    def pending_claim(self) -> dict[str, Any] | None:
        """The claim sent for the open reveal, while the host decides it."""
        view = self.view
        reveal = None if view is None else view["reveal"]
        return None if reveal is None else self._claimed.get(reveal)

    def claim(self, action: Mapping[str, Any], acted_ns: int | None = None) -> bool:
        """Stamp ``action`` (with the open reveal's id) and send it; False, and why, if not.

        Refused here: watching, nothing open, a second claim on the same
        reveal, and a key pressed before the reveal was drawn (it was meant
        for what was there before). ``acted_ns``: when the player acted, if
        not the last key (a typed answer is stamped where its typing began).
        """
        acted = self._acted_now() if acted_ns is None else acted_ns
        view = self.view
        if view is None:
            return False
        if view["seat"] is None:
            self.refused("You are watching: only players play")
            return False
        reveal = view["reveal"]
        if reveal is None:
            self.refused("The game is over" if view["phase"] == "over" else "Nothing is open")
            return False
        sent = self._claimed.get(reveal)
        if sent is not None:
            self.refused(f"You already {self.claim_words(sent)}; the host is deciding")
            return False
        drawn = self._drawn.get(reveal, acted)
        if acted < drawn:
            last = self.history.last
            gone = "" if last is None else f" ({last.label} had just gone)"
            self.refused(f"You pressed before {self.moment_words(view)} was on screen{gone}")
            return False
        stamped = {**action, "reveal": reveal}
        self._claimed = {reveal: stamped}
        self.act(stamped, ClaimStamps(reveal=reveal, drawn_ns=drawn, acted_ns=acted))
        return True

    def act_refused(self, reason: str) -> None:
        """The host refused this player's claim without ruling on it (too fast to be a
        person's, or for a moment no longer open): it is no longer waiting for a ruling, so
        the player may claim again (before, every later try was refused here as "You already
        answered", and a letter held for a learner stayed held for ever)."""
        self._claimed = {}
        super().act_refused(reason)

    def notice_typing(self, stamps: ClaimStamps) -> None:
        """The typing of the answer to send began (``stamps.acted_ns``): tell the host now, so
        that the answer, which arrives later, is timed from this notice (optional: the app
        ignores a refusal, and an answer without a notice is judged on its own arrival)."""
        self.post_message(self.Typing(stamps))

    def moment_words(self, view: Mapping[str, Any]) -> str:
        """The open moment in the game's words (``2♥``, ``the letter K``)."""
        return f"#{view.get('reveal')}"

    def claim_words(self, action: Mapping[str, Any]) -> str:
        """A claim sent, after "You already": ``grabbed 2♥ for pile 2``."""
        return f"{self.claimed_word} this one"

    # w ----------------------------------------------------------------------------

    @property
    def why_key(self) -> str:
        """`` · w why`` for a prompt once ``w`` has a ruling to explain, else nothing: a
        prompt offers only the keys that do something now (the footer hides ``w`` too)."""
        return " · w why" if self.history.explained else ""

    def action_why(self) -> None:
        text = self.history.explain_recent()
        if not text:
            self.refused("The host has not ruled on a claim yet: nothing to explain")
            return
        self.app.push_screen(InfoScreen("How the host ruled, newest first", text))

    def contest_lines(self, noun: str) -> list[str]:
        """For the results: ``3 cards contested; the closest was won by 4.0 ms.``

        The host's count (``view.contests``: every contest at the table, also those before
        this session came); from a host that sends none (or nothing valid), the rulings this
        screen saw."""
        if self.contests is not None:
            closest = host_closest(self.contests)
        else:
            closest = self.history.closest()
        if closest is None:
            return []
        count, how_close = closest
        plural = "" if count == 1 else "s"
        return [f"{count} {noun}{plural} contested; the closest was {how_close}."]
