"""The table screen every game shares: view in, intents out, errors and presence shown.

A game's screen subclasses :class:`TableScreen` (parametrised by the game's
view type, e.g. ``TableScreen[CatchyView]``), names its game
(``game = "catchy"``), composes its board from :mod:`tui.widgets` and
implements :meth:`TableScreen.show`. Its title and the assumptions on the
rules page come from the engine's game object; what sits in the game's folder
beside the screen (``tui/games/<game>/``: ``<game>.tcss``, ``rules.md``) and
its styles' names are found from ``game`` when the class is made
(:meth:`TableScreen.__init_subclass__`), so a screen declares none of it. Data flows
down: the app hands each ``view`` message to :meth:`TableScreen.received`, which
sets :attr:`TableScreen.view` (the game's view for this seat, of the game's view
type) and keeps the host's fields beside it (the waiting room, the real-time
start countdown), and calls :meth:`presence`, :meth:`link` and :meth:`refused`. Intents flow
up as messages (:class:`TableScreen.Act`, :class:`TableScreen.Leave`); the
app sends them to the host. The screen never talks to the network, so tests
can drive it with fixed views.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, ClassVar, Generic, TypeVar, cast

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from engine import registry
from engine.core import BaseView
from net.wire.text import clean_text
from tui import collector
from tui.bell import attention_due
from tui.coach import Coach
from tui.compositor import ChangedOnlyCompositor, QuietWhenCovered
from tui.refresh import after_own_refresh
from tui.screens.keys import KEYS_BINDING, show_keys
from tui.styles import PHONE_BREAKPOINTS, TCSS_DIR
from tui.widgets.chat import CHAT_BINDINGS, ChatLine, chat_text, rule_text
from tui.widgets.coach import CoachPanel, coach_line
from tui.widgets.connection import ConnectionLine
from tui.widgets.footer import TableFooter
from tui.widgets.log import GameLog
from tui.widgets.look import PLAIN, Look, component_classes, read_full_look, read_look
from tui.widgets.panel import Panel
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import HostContests, checked_contests

V = TypeVar("V", bound=BaseView)
"""The game's view type (:class:`engine.core.BaseView` or a game's own extension of it)."""

RATINGS_ONE_PER_LINE = 4
"""Up to this many seats, the results give each seat's rating a line of its own."""
COMPACT_NAME = 11
COMPACT_COLUMN = 27
"""Two ratings to a line: names cut to 11 characters, each entry in 27 of the results'
54 columns left of the scroll bar (``Mathilda-R…: 1,601 (+101)`` is 25)."""
WIDE_ENOUGH_FOR_CODE = 76
"""The waiting room draws the web address's QR code (29 columns) beside its text from this
width on; narrower (a phone), the address alone."""
RECONNECTED_SHOWN_S = 5.0
"""How long the connection line says "Reconnected to ..." before it names the place again."""
RULES_FILE = "rules.md"
"""A game's rules in short, in its screen's folder (Markdown: the rules screen draws it)."""


def _cut(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


@dataclass(frozen=True, slots=True)
class ClaimStamps:
    """How fast the player reacted to a real-time moment, on this machine's monotonic clock.

    The host only uses ``acted_ns - drawn_ns`` (the reaction time), so the two
    stamps must come from the same clock: :func:`time.monotonic_ns`, which is
    also the clock Textual stamps key events with.
    """

    reveal: int
    """The moment's id (the view's ``reveal``)."""
    drawn_ns: int
    """When that moment was drawn on this screen."""
    acted_ns: int
    """When the player pressed the key."""


class TableScreen(QuietWhenCovered[None], Generic[V]):
    """Base of every game's table: waiting room, prompt, connection line, rules and results."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [TCSS_DIR / "table.tcss"]
    HORIZONTAL_BREAKPOINTS = PHONE_BREAKPOINTS
    """Under :data:`tui.styles.NARROW_BELOW` columns (a phone held upright) the screen has the class
    ``-narrow``, and ``table.tcss`` puts the side column (scores, log) under the board."""

    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        Binding("r", "rules", "rules"),
        Binding("q", "leave", "quit"),
        *CHAT_BINDINGS,
        Binding("t", "chat", "chat", show=False),
    ]

    view: reactive[V | None] = reactive(None, always_update=True, init=False, repaint=False)
    """The host's latest view for this seat (``None`` until the first arrives). Setting it
    repaints nothing by itself: each part of the screen repaints when its part changed."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """Textual's ``Screen.focused``, without its repaint of the whole screen: the widgets
    whose focus styles change are restyled and repaint themselves (Katootsie!'s answer line
    takes and gives the focus at every letter)."""

    game: ClassVar[str] = ""
    """The engine's name for the game this screen draws (``"catchy"``): how
    :mod:`tui.games` finds a game's screen."""
    rings_at_reveal: ClassVar[bool] = False
    """The game turns cards or letters for everyone to go for at once: the bell rings at each
    (:func:`tui.bell.attention_due`), not only when it becomes the player's turn."""
    leave_key: ClassVar[str] = "q"
    """The key that leaves the table, as the prompts name it (a game where letters are
    typed binds another)."""
    rules_text: ClassVar[str] = ""
    """The rules in short (Markdown); the engine's assumptions follow them. A game's screen
    gets them from ``rules.md`` in its folder (:meth:`__init_subclass__`)."""
    essential: ClassVar[tuple[str, ...]] = ()
    """The board's parts (selectors) a player needs whole to play: the hand, the cards out.
    The prompt line grows to three rows for a long notice (:class:`PromptLine`) and takes
    them from the rest (the log, spare rows); the tests keep these whole while it does, at
    80x24 and at a phone's 48 columns."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Fill in what a game's screen would otherwise copy, from its ``game`` and folder.

        Only a class that names its own ``game`` gets these (intermediate bases such as
        :class:`~tui.screens.realtime.RealtimeTable` do not), and only what the class does
        not set itself (a class may still override any). The generic table's class for a
        game is made in ``tui/screens/``, where no game's files lie: it keeps its sheets.

        - ``CSS_PATH``: the inherited sheets (``table.tcss``), then ``<game>.tcss`` from
          the folder of the module defining the class, if there is one;
        - ``look_prefix``: the game's name, so its looks are ``<game>--NAME``;
        - ``COMPONENT_CLASSES``: the class's own, plus one per name in ``look_names``
          (Textual refuses to style a component class a widget does not declare);
        - ``rules_text``: ``rules.md`` from that folder, if there is one.
        """
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        game = own.get("game")
        if not game:
            return
        folder = cls.game_folder()
        if folder is None:
            return
        if "look_prefix" not in own:
            cls.look_prefix = game
        if cls.look_names:
            declared = own.get("COMPONENT_CLASSES", set())
            cls.COMPONENT_CLASSES = {*declared, *component_classes(cls.look_prefix, cls.look_names)}
        sheet = folder / f"{game}.tcss"
        if "CSS_PATH" not in own and sheet.is_file():
            cls.CSS_PATH = [*cls.CSS_PATH, sheet]
        rules = folder / RULES_FILE
        if "rules_text" not in own and rules.is_file():
            cls.rules_text = rules.read_text(encoding="utf-8")

    @classmethod
    def game_folder(cls) -> Path | None:
        """The folder of the module that defines this class (a game's ``tui/games/<game>/``),
        where its stylesheet and rules live; ``None`` for a class made outside a file."""
        module = sys.modules.get(cls.__module__)
        filename = getattr(module, "__file__", None)
        return None if filename is None else Path(filename).resolve().parent

    class Act(Message):
        """The player wants ``action`` done (the app sends it to the host).

        ``stamps`` make it a real-time claim (a grab in Black Cat).
        """

        def __init__(self, action: dict[str, Any], stamps: ClaimStamps | None = None) -> None:
            super().__init__()
            self.action = action
            self.stamps = stamps

    class Say(Message):
        """The player says ``text`` in the table's chat (the app sends it; not a game action)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class SetChatRule(Message):
        """The player hides (``"hidden"``) or shows the spectators' chat to the players."""

        def __init__(self, rule: str) -> None:
            super().__init__()
            self.rule = rule

    class Leave(Message):
        """The player leaves the table.

        ``choice``: ``"for_now"`` (keep the seat), ``"give_up"``, or ``None``: the app asks
        when the game is on (:class:`tui.screens.leave.LeaveDialog`).
        """

        def __init__(self, choice: str | None = None) -> None:
            super().__init__()
            self.choice = choice

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[V] | None = None
    ) -> None:
        super().__init__()
        self._compositor = ChangedOnlyCompositor()  # a frame renders only what changed
        self.table_id = table_id
        self.coach = coach
        """A coached first game (:mod:`tui.coach`): its advice is shown above the log."""
        self._offered: tuple[tuple[str, str, bool], ...] | None = None
        """The keys the footer offered when last refreshed (:meth:`_follow_bindings`)."""
        self._coached: V | None = None
        """The last view the coach read (what :meth:`Coach.after` compares with)."""
        self.place = place
        """Where the table is (``127.0.0.1:7707``), for the connection line."""
        self._results_shown = False
        self._settled = False
        """Whether the cycle collector was settled once this table drew its first view."""
        self._mounted = False
        """Set once composed and mounted (see :attr:`_ready`)."""
        self.doors: tuple[int | None, int | None] = (None, None)
        """The host's SSH gateway and web page ports (its ``welcome``), for the waiting room."""
        self._seats: list[dict[str, Any]] = []
        self._link = (True, place)
        self._settle_link: Timer | None = None
        """Puts the place back on the connection line once a reconnection was said."""
        self._look: Look | None = None
        self.spectator_chat = "shown"
        """The table's rule for spectators' chat (``net.core.chat``), as the host last said."""
        self.ratings: list[dict[str, int] | None] | None = None
        """Once the game is over and the host rated it: each seat's rating and its change
        (``net.store.ratings.checked_changes``; ``None`` for a seat not rated)."""
        self.contests: HostContests | None = None
        """Once a real-time game is over: the host's count of its contested moments
        (``view.contests``, checked); ``None``: the host sent none, or nothing valid."""
        self.waiting: dict[str, Any] | None = None
        """The host's waiting room while the table fills (``{"seats": [...], "seat": ...}``,
        the ``view`` message's ``waiting``); ``None`` once the game is dealt."""
        self.starting = False
        """A dealt real-time game has not begun (the host's start countdown): nobody may act."""
        self.starts_in: float | None = None
        """While :attr:`starting`: the countdown's seconds left when the view came (``None``:
        the host still waits for every player's screen)."""
        self.sent: dict[str, Any] | None = None
        """The player's move sent to the host and drawn as sent (:meth:`shows_sent`) until
        the host's view has it or the host refuses it."""
        self.paused: str | None = None
        """Why the host holds the table (it cannot save it: its disk is full), as the host
        said it; ``None``: not held. Nobody may act meanwhile."""
        self.held = False
        """The open moment waits for this player, who is learning the game (``view.held``:
        :class:`~tui.screens.realtime.RealtimeTable` lets it go on)."""
        self.again: dict[str, Any] | None = None
        """The proposal to play again open at this finished table (``view.again``)."""
        self.tonight: dict[str, Any] | None = None
        """Tonight's standings on the host, sent with a finished game's views."""
        self._results: Any = None
        """The results screen on show (:class:`tui.screens.results.ResultsScreen`)."""
        self._early_lines: list[Text] = []
        """Chat lines that came before the screen was mounted (written once it is)."""
        self.notices: list[str] = []
        """This Clowder's words to the player not yet said (:meth:`notice`)."""
        self._early_refusal: str | None = None
        """The host's last refusal before the screen was mounted (shown once it is)."""
        self.bell_on = True
        """Ring the terminal's bell when the player's attention is due (the player's setting,
        given by the app; :mod:`tui.bell`)."""
        self._board: Widget | None = None
        """The game's board (``#board``), found once mounted: its width is what panels are
        drawn for."""
        self._drawn_for: int | None = None
        """The board's width when the view was last drawn (:meth:`_laid_out`)."""

    # Keys ----------------------------------------------------------------------

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """The actions of keys that play: offered only to a seated player while the game is on."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers the play keys only to a seated player while the game is on (and
        not held by the host: :attr:`paused`)."""
        if action not in self.PLAY_ACTIONS:
            return True
        view = self.view
        if view is None or view.get("seat") is None or self.paused:
            return False
        return view["phase"] != "over"

    # Styles from the stylesheet --------------------------------------------------

    look_prefix: ClassVar[str] = ""
    """A game that draws Rich text itself names its component classes ``PREFIX--NAME``
    (the prefix is the game's name unless the class sets another)..."""
    look_names: ClassVar[tuple[str, ...]] = ()
    """...and lists the names; :attr:`look` reads them (they are declared in its
    ``COMPONENT_CLASSES`` for it, and styled in its ``.tcss`` file)."""
    look_paints_background: ClassVar[bool] = False
    """Whether each look keeps the screen's background (Textual's full component style)
    rather than only a background its own rule sets (:func:`read_look`)."""

    @property
    def look(self) -> Look:
        """The game's styles from its stylesheet (read once per theme; plain without names)."""
        if self._look is None:
            if not self.look_names:
                self._look = PLAIN
            elif self.look_paints_background:
                self._look = read_full_look(self, self.look_prefix, self.look_names)
            else:
                self._look = read_look(self, self.look_prefix, self.look_names)
        return self._look

    def notify_style_update(self) -> None:
        """The stylesheet or theme changed: redraw once the new styles are in place."""
        super().notify_style_update()
        if self.look_names:
            self.after_refresh(self._restyle)

    def _restyle(self) -> None:
        old, self._look = self._look, None
        view = self.view
        if self.look != old and self._ready and view is not None:
            for panel in self.query(Panel):
                panel.forget()  # their texts were built with the old looks
            self.show(view)

    @property
    def game_title(self) -> str:
        """The game's name as people read it (the engine's ``title``)."""
        return registry.get(self.game).title if self.game in registry.names() else "Table"

    @property
    def assumptions(self) -> Sequence[str]:
        """Where the rulebook is silent and the engine chose (shown with the rules)."""
        return registry.get(self.game).assumptions if self.game in registry.names() else ()

    # Composition ---------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        """The game's own widgets (the subclass's part of the screen)."""
        yield from ()

    def compose(self) -> ComposeResult:
        yield Static("", id="waiting")
        yield from self.compose_board()
        yield PromptLine(id="prompt")
        yield ChatLine(id="chat")
        yield ConnectionLine(id="connection")
        yield TableFooter()

    @property
    def _ready(self) -> bool:
        """Whether the screen's widgets are up to draw on: mounted, and not being taken down.
        Before, data is kept and drawn on mount; while the screen goes (the player left, a
        new table came) and after, what is still on its way to it is dropped: its widgets
        are being removed, and a ``presence`` then raised ``NoMatches`` in the app's pump."""
        return self._mounted and not (self._closing or self._closed or self._pruning)

    def on_mount(self) -> None:
        self._mounted = True
        boards = self.query("#board")
        self._board = boards.first() if boards else None
        self.screen_layout_refresh_signal.subscribe(self, self._laid_out)
        if self.coach is not None:
            self._mount_coach()
        self.query_one(ConnectionLine).set_link(*self._link)
        self.query_one(ConnectionLine).set_seats(self._seats, self.seat)
        if self.spectator_chat != "shown":  # said before the screen was up
            self.after_refresh(self.said_line, rule_text(None, self.spectator_chat))
        for line in self._early_lines:  # chat that came before the screen was up
            self.after_refresh(self.said_line, line)
        self._early_lines.clear()
        if self.view is None:
            self._show_waiting()
        else:
            # Drawn once the whole board is mounted (a view can come before the screen is up).
            self.after_refresh(self._draw_pending)
        if self._early_refusal is not None:  # over the view's own prompt, once it is drawn
            self.after_refresh(self.refused, self._early_refusal)
            self._early_refusal = None

    def _mount_coach(self) -> None:
        """The coach's panel, just above the table's log (above the prompt if it has none);
        the screen's ``-coached`` class lets a stylesheet make room for it."""
        self.add_class("-coached")
        logs = self.query(GameLog)
        if logs:
            log = logs.first()
            parent = log.parent
            assert isinstance(parent, Widget)
            parent.mount(CoachPanel(id="coach"), before=log)
        else:
            self.mount(CoachPanel(id="coach"), before=self.query_one(PromptLine))

    def _coach_view(self, view: V) -> None:
        """Let the coach read ``view``: explanations into the log, advice into its panel."""
        coach = self.coach
        if coach is None or view["seat"] is None:
            return
        before, self._coached = self._coached, view
        said = coach.opening(view) if before is None else coach.after(before, view)
        if said:  # after the game's own lines, which some screens write after a refresh
            self.after_refresh(self._coach_said, said)
        panels = self.query(CoachPanel)
        if panels:
            panels.first().advise(coach.now(view))

    def _coach_said(self, lines: list[str]) -> None:
        for line in lines:
            self.said_line(coach_line(line))

    def _draw_pending(self) -> None:
        if self.view is not None and self.is_attached:
            self.watch_view(self.view)

    # Data down -----------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """This player's seat (``None``: watching)."""
        if self.view is not None:
            return self.view["seat"]
        seat = None if self.waiting is None else self.waiting.get("seat")
        return seat if isinstance(seat, int) else None

    def received(
        self,
        view: V | None,
        *,
        waiting: Mapping[str, Any] | None = None,
        starting: bool = False,
        starts_in: float | None = None,
        paused: str | None = None,
        held: bool = False,
    ) -> None:
        """A ``view`` message: the game's view (``None`` before the deal) and the host's own
        fields beside it (``waiting``, ``starting``, ``starts_in``, ``paused``, ``held``;
        net/PROTOCOL.md).

        While the game is ``starting`` or ``paused`` nobody may act, so the view drawn is the
        game's with no legal action and no open reveal: the same type, and every screen's
        reading of ``legal`` and ``reveal`` holds without knowing about the countdown or the
        hold. A hold is said once when it begins (in the prompt line and a toast), and once
        when it ends.
        """
        self.waiting = None if view is not None else dict(waiting or {})
        self.starting = starting and view is not None
        self.starts_in = starts_in if self.starting else None
        self.held = held and view is not None
        was_paused, self.paused = self.paused, paused
        if paused and paused != was_paused:
            self.notify(paused, title="Game held", severity="warning", timeout=10)
            self.ring()
        elif was_paused and not paused:
            self.notify("The host can save again: the game goes on.", timeout=5)
        if view is not None and (self.starting or self.paused):
            view = cast(V, {**view, "legal": [], "reveal": None})
        if self.sent is not None and (view is None or not self.still_sending(view, self.sent)):
            self.sent = None  # the host's view has it (or has moved on): it says what happened
        due = None if view is None else attention_due(self.view, view, reveals=self.rings_at_reveal)
        self.view = view
        if due is not None:
            self.ring()

    def watch_view(self, view: V | None) -> None:
        if not self._ready:
            return  # on_mount draws it
        if view is None:
            if self.waiting is not None:
                self._follow_bindings()
                self._show_waiting()
            return
        self._follow_bindings()
        self.query_one(ChatLine).show_rule(self.spectator_chat, self.seat is not None)
        self.query_one("#waiting").display = False
        self.set_class(False, "-waiting")
        self.show(view)
        self._drawn_for = self._laid_out_width()
        if not self._settled:  # the deal, or a real-time start countdown: nobody waits on it
            self._settled = True
            self.after_refresh(self._first_view_drawn)
        if self.paused:  # over the game's own prompt, for as long as the hold lasts
            self.query_one(PromptLine).refuse(self.paused)
        self._coach_view(view)
        if self.notices:
            self.after_refresh(self._say_notices)  # under the lines the view drew
        if view["outcome"] is not None and not self._results_shown:
            self._results_shown = True
            if self.coach is not None:  # once the coach has had its last say, in the log
                self.after_refresh(self.show_results, view)
            else:
                self.show_results(view)

    def _laid_out_width(self) -> int:
        """The width the board is laid out at now (the screen's, for a screen without one)."""
        return self.size.width if self._board is None else self._board.content_region.width

    def _laid_out(self, _screen: Screen[Any]) -> None:
        """After each layout: a board laid out at another width than the view was drawn for
        (a terminal resized, a phone turned, the board shown at last when the waiting room
        goes) is drawn again; a pile's cards, a track and a title are made for its width.
        (Not when only its height changed: a prompt that takes a second row does that.)"""
        if self.view is not None and self._laid_out_width() != self._drawn_for:
            self.call_later(self._draw_for_width)

    def _draw_for_width(self) -> None:
        """Draw the view again, every panel built afresh (they were built for another width)."""
        view = self.view
        if not self._ready or view is None or not self.is_attached:
            return
        self._drawn_for = self._laid_out_width()
        for panel in self.query(Panel):
            panel.forget()
        prompt = self.query_one(PromptLine)
        error = prompt.error  # a refusal (or the host's hold) stays until the next prompt
        self.show(view)
        if error:
            prompt.refuse(error)

    def _follow_bindings(self) -> None:
        """The footer follows the view (a game's :meth:`check_action`), redrawn only when the
        keys it offers changed: the footer rebuilds itself on every refresh, which cost a
        fifth of drawing a view when done for each."""
        offered = tuple(
            (key, active.binding.action, active.enabled)
            for key, active in self.active_bindings.items()
        )
        if offered != self._offered:
            self.refresh_bindings()
            self._offered = offered

    def refresh_bindings(self) -> None:
        """Refresh the footer; any refresh (a game's own, a focus change) forgets what
        :meth:`_follow_bindings` last offered, so the next view compares afresh."""
        self._offered = None
        super().refresh_bindings()

    def _show_waiting(self) -> None:
        """The waiting room (:attr:`waiting`): who is seated, how many seats are free."""
        seats = [] if self.waiting is None else self.waiting.get("seats") or []
        free = sum(1 for seat in seats if not seat.get("name"))
        names = ", ".join(
            seat["name"] for seat in seats if seat.get("name") and not seat.get("reserved")
        )
        deciding = ", ".join(seat["name"] for seat in seats if seat.get("reserved"))
        lines = [f"{self.game_title}: waiting for players"]
        if names:
            lines.append(f"Seated: {names}")
        if deciding:  # a table that plays again: seats held while their people decide
            lines.append(f"Deciding whether to play again: {deciding}")
        if free:
            lines.append(
                f"{free} seat{'s' if free != 1 else ''} free: friends join from their lobby"
            )
        lines += self.ways_in()
        waiting = self.query_one("#waiting", Static)
        waiting.update(self._with_code(lines))
        waiting.display = True
        self.set_class(True, "-waiting")
        self.query_one(PromptLine).prompt(
            f"Waiting for the table to fill · {self.leave_key} leaves"
        )

    @property
    def place_address(self) -> str:
        """The host part of :attr:`place` (``192.168.1.20`` of ``192.168.1.20:7707``)."""
        return self.place.rsplit(":", 1)[0]

    def ways_in(self) -> list[str]:
        """How friends join this table: ``clowder join``, and the host's SSH gateway and web
        page when it has them (its ``welcome`` said so)."""
        if not self.place:
            return []
        from net.client.discovery import ssh_command, web_url

        address = self.place_address
        ssh, web = self.doors
        lines = ["", f"Join with Clowder: clowder join {self.place}"]
        if ssh is not None:
            lines.append(f"Nothing installed: {ssh_command(address, ssh)}")
        if web is not None:
            lines.append(f"A browser or a phone: {web_url(address, web)}")
        return lines

    def _with_code(self, lines: list[str]) -> RenderableType:
        """The waiting room's text, with a QR code of the web address beside it when the host
        has a page and the screen is wide enough for both (a phone's camera reads it)."""
        text = Text("\n".join(lines))  # names are the players': never markup
        web = self.doors[1]
        if web is None or not self.place or self.size.width < WIDE_ENOUGH_FOR_CODE:
            return text
        from net.client.discovery import web_url
        from tui.widgets.qr import qr_text

        code = qr_text(web_url(self.place_address, web))
        if code is None:
            return text
        grid = Table.grid(padding=(0, 2))
        grid.add_column(justify="left", vertical="middle")
        grid.add_column(justify="right", vertical="middle")
        grid.add_row(text, code)
        self.query_one("#waiting", Static).styles.padding = (1, 1)  # room for the code
        return grid

    def show(self, view: V) -> None:
        """Draw ``view`` (the subclass's job)."""

    def happened(self, events: Sequence[dict[str, Any]]) -> None:
        """The events that came with the next view (before :attr:`view` is set to it).

        Most games draw everything from the view and ignore these; a real-time
        game learns here how the host ruled on each grab (``claim`` and
        ``claim_lost`` events are the host's, not in the game's log).
        """

    def evening(self, again: dict[str, Any] | None, tonight: dict[str, Any] | None) -> None:
        """The host's ``view.again`` and ``view.tonight`` (already cleaned), passed on to the
        results screen when it is on show."""
        self.again = again
        if tonight is not None:
            self.tonight = tonight
        results = self._results
        if results is not None:
            results.show_again(again)
            if tonight is not None:
                results.show_tonight(tonight)

    def rated(self, ratings: Any) -> None:
        """The host's rating changes for this finished game (from the ``view`` message; the
        host's data, so checked here: anything but whole numbers is ignored)."""
        from net.store.ratings import checked_changes

        self.ratings = checked_changes(ratings)

    def contested(self, contests: Any) -> None:
        """The host's tally of a finished real-time game's contested moments (the ``view``
        message's ``contests``): the whole table's, not only what this session saw. From the
        network, so checked: anything else is ignored (:func:`checked_contests`), and the
        count the host sent before, if any, stands."""
        checked = checked_contests(contests)
        if checked is not None:
            self.contests = checked

    def show_results(self, view: V) -> None:
        """The game ended: open the results screen (subclasses give it their summary; the
        host's ratings, when it rates, follow it)."""
        from tui.screens.results import ResultsScreen

        self.app.clear_notifications()  # round-end toasts would cover the results
        lines = [*self.results_lines(view), *self.rating_lines(view)]
        self._results = ResultsScreen(
            self.game_title,
            lines,
            my_seat=view["seat"],
            again=self.again,
            tonight=self.tonight,
        )
        self.app.push_screen(self._results, self._after_results)

    def rating_lines(self, view: V) -> list[str]:
        """``Ann (you): 1,601 (+101)`` per seat, after a blank line and a heading; none when
        the host sent no ratings (it keeps no scores, or cannot rate). Past
        :data:`RATINGS_ONE_PER_LINE` seats, two to a line (``you: ...``, names cut), so a
        table of ten needs five lines for them, not ten, below the game's own results."""
        from net.store.ratings import as_text, checked_changes

        players = view["players"]
        changes = checked_changes(self.ratings, len(players))
        if changes is None:
            return []
        lines = ["", "Ratings here (change this game):"]
        compact = len(changes) > RATINGS_ONE_PER_LINE
        entries = []
        for seat, change in enumerate(changes):
            name = clean_text(players[seat])
            if compact:
                name = "you" if seat == view["seat"] else _cut(name, COMPACT_NAME)
            elif seat == view["seat"]:
                name += " (you)"
            if change is None:
                rating = "not rated" if compact else "not rated (a bot played most of the game)"
            else:
                rating = as_text(change["rating"], change["change"])
            entries.append(f"{name}: {rating}")
        if not compact:
            return lines + [f"  {entry}" for entry in entries]
        pairs = [entries[i : i + 2] for i in range(0, len(entries), 2)]
        lines += [
            ("  " + pair[0].ljust(COMPACT_COLUMN) + "".join(pair[1:])).rstrip() for pair in pairs
        ]
        if None in changes:
            lines.append("  (not rated: a bot played most of that seat's game)")
        return lines

    def _after_results(self, choice: str | None) -> None:
        self._results = None
        if choice == "leave":
            self.action_leave()

    @staticmethod
    def card_label(card: str) -> str:
        """A card of this game in words, where its code alone says little (the replay's
        hands). Codes that read well (Catchy!'s ``JD``) are kept as they are."""
        return card

    def winners_line(self, view: V) -> str:
        """Who won, said to this player: "You win!", "You share the win (Ann and you)!"..."""
        players = view["players"]
        outcome = view["outcome"]
        winners = [] if outcome is None else outcome["winners"]
        names = " and ".join(players[index] for index in winners if index < len(players))
        seat = view["seat"]
        if seat is not None and seat in winners:
            return "You win!" if len(winners) == 1 else f"You share the win ({names})!"
        if not winners:
            return "Nobody won."
        return f"{names} win{'s' if len(winners) == 1 else ''}."

    def results_lines(self, view: V) -> list[str]:
        outcome = view["outcome"]
        players = view["players"]
        scores = view["scores"] if outcome is None else outcome["scores"]
        winners = [] if outcome is None else outcome["winners"]
        lines = [
            f"{players[seat] if seat < len(players) else seat}: {score}"
            for seat, score in enumerate(scores)
        ]
        names = " and ".join(players[seat] for seat in winners if seat < len(players))
        return [f"{names} won!" if names else "Nobody won.", *lines]

    def presence(self, seats: Sequence[dict[str, Any]]) -> None:
        """Who sits where, connected or not, and their round trips."""
        self._seats = [dict(seat) for seat in seats]
        if self._ready:
            self.query_one(ConnectionLine).set_seats(self._seats, self.seat)

    def link(self, connected: bool, detail: str) -> None:
        """Our own connection to the host went down or came back.

        "Reconnected to ..." is news for a few seconds (:data:`RECONNECTED_SHOWN_S`); then
        the line names the place again, as before the drop (it stayed until the game's end,
        issue 36, item 11).
        """
        if self._settle_link is not None:
            self._settle_link.stop()
            self._settle_link = None
        self._link = (connected, detail)
        if self._ready:
            self.query_one(ConnectionLine).set_link(connected, detail)
        if connected and detail != self.place:
            self._settle_link = self.set_timer(
                RECONNECTED_SHOWN_S, lambda: self.link(True, self.place)
            )

    def refused(self, reason: str) -> None:
        """The host (or the screen itself) refused what the player tried: a move shown as
        sent goes back where it was (the view is drawn again without it), with the reason."""
        if self.sent is not None:
            self.sent = None
            if self._ready and self.view is not None:
                self.show(self.view)
        if self._ready:
            self.query_one(PromptLine).refuse(reason)
            self.ring()
        else:
            self._early_refusal = reason

    def after_refresh(self, callback: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        """Call ``callback`` once this screen has drawn what is pending, even with a dialog
        opened and closed meanwhile (:mod:`tui.refresh`; Textual's ``call_after_refresh``
        could lose the coach's lines, or the results)."""
        after_own_refresh(self, lambda: callback(*args, **kwargs))

    def act_refused(self, reason: str) -> None:
        """The host refused a move this player sent (an ``action``): as :meth:`refused`; a screen
        that keeps what it sent until the host rules (a real-time claim) forgets it here."""
        self.refused(reason)

    def ring(self) -> None:
        """The terminal's bell, unless the player turned it off."""
        if self.bell_on:
            self.app.bell()

    # Intents up ----------------------------------------------------------------

    def said(self, name: str, seat: int | None, text: str) -> None:
        """A chat line from the host (already cleaned): into the log, else a toast."""
        if self._ready:
            self.said_line(chat_text(name, seat, text))
        else:
            self._early_lines.append(chat_text(name, seat, text))

    def notice(self, text: str) -> None:
        """A word from this Clowder to the player (not the game's, not chat), ``A bot played
        your seat while you were away``: into the log under the game's lines once a game is
        drawn (before them, the first view's lines would push it out of sight), and a toast."""
        self.notices.append(text)
        if self._ready and self.view is not None:
            self._say_notices()

    def _say_notices(self) -> None:
        for text in self.notices:
            self.said_line(Text(text, style="bold"))
            self.notify(text, timeout=8)
        self.notices = []

    def said_line(self, line: Text) -> None:
        """A line of the table's talk into the log (a toast on a screen without one)."""
        logs = self.query(GameLog)
        if logs:
            log = logs.first()
            log.write(line, scroll_end=True)
            self.after_refresh(log.scroll_end, animate=False)  # once the line is laid out
        else:
            self.notify(line.plain, timeout=6)

    def chat_rule(self, name: str | None, rule: str) -> None:
        """The table's spectator-chat rule from the host: kept, and said in the log when a
        player changed it or it is not the default."""
        changed = rule != self.spectator_chat
        self.spectator_chat = rule
        if not self._ready:
            return
        self.query_one(ChatLine).show_rule(rule, self.seat is not None)
        if changed or name:
            self.said_line(rule_text(name, rule))

    def action_chat(self) -> None:
        self.query_one(ChatLine).open()
        for log in self.query(GameLog):  # the open line takes a row: keep the newest in view
            self.after_refresh(log.scroll_end, animate=False)

    def action_react(self, line: str) -> None:
        self.post_message(self.Say(line))

    def on_chat_line_send(self, message: ChatLine.Send) -> None:
        message.stop()
        self.post_message(self.Say(message.text))

    def on_chat_line_set_rule(self, message: ChatLine.SetRule) -> None:
        message.stop()
        self.post_message(self.SetChatRule(message.rule))

    def act(self, action: dict[str, Any], stamps: ClaimStamps | None = None) -> None:
        """Ask the app to send ``action`` to the host. A move this game can show before the
        host answers (:meth:`shows_sent`) is drawn as sent at once, for the frame after the
        key; a real-time claim (``stamps``) only once the app has sent it (:meth:`sent_off`),
        so it leaves exactly as it did (its stamps were taken at the key)."""
        self.post_message(self.Act(action, stamps))
        if stamps is None:
            self._draw_sent(action)

    def sent_off(self, action: Mapping[str, Any]) -> None:
        """The app has sent ``action`` (a refusal, if any, comes to :meth:`refused`)."""
        if self.sent != action:
            self._draw_sent(action)

    def _draw_sent(self, action: Mapping[str, Any]) -> None:
        if self.shows_sent(action) and self.view is not None:
            self.sent = dict(action)
            self.show(self.view)

    # A move shown as sent ------------------------------------------------------------

    def shows_sent(self, action: Mapping[str, Any]) -> bool:
        """Whether this game draws ``action`` as sent until the host's view has it (a card
        played leaves the hand at once). Default: no move is drawn before the host's view."""
        return False

    def still_sending(self, view: V, sent: Mapping[str, Any]) -> bool:
        """Whether the host's ``view`` does not have the move ``sent`` yet (it is drawn as sent
        a while longer); once it does, or the game moved on without it, the view alone is
        drawn. A refusal (:meth:`refused`) ends it too."""
        return False

    def action_leave(self) -> None:
        self.post_message(self.Leave())

    def action_show_keys(self) -> None:
        show_keys(self)

    def _first_view_drawn(self) -> None:
        """What is best done while nobody waits on the screen (the deal, a start countdown).

        The rules page's module is imported here rather than at the first ``r``: it brings
        Rich's Markdown and its parser (25 ms on a quiet machine; at 16 SSH and web players
        on a 2-core box, the first ``r`` of each Kitten Me! player took 220-320 ms, every
        later one 5-13 ms). Then the cycle collector settles (:mod:`tui.collector`), with
        the import's objects frozen too."""
        import tui.screens.rules  # noqa: F401  (imported for its cost, not a name)

        collector.settle()

    def action_rules(self) -> None:
        from tui.screens.rules import show_rules

        show_rules(self.app, self.game_title, self.rules_text, self.assumptions)
