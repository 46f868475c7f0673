"""The Katootsie! table: the category and the letter big, an answer line, the ten seconds, votes.

Everything drawn comes from :meth:`engine.games.katootsie.rules.Katootsie.view` and the
host's rulings. The answer line is empty and disabled until a letter is on
screen, then has the focus at once, so typing starts without a key to get
there; Enter sends the answer as a claim stamped where its typing began
(:mod:`net.core.typed`: a long answer is not slower than a short one, and typing
the letter at once gains nothing). Every action has a plain key, for a phone's
on-screen keyboard (no Ctrl, no Esc): ``!`` on the empty answer line (or with
the line left) calls Katootsie! (ctrl+k too, even while typing); ``/`` on the
empty line (or Esc) leaves it, so that single keys (w why, r rules, t chat,
q leaves) act until another letter key brings typing back; an answer never starts
with either sign, so neither can clash with one. Votes take y/n (or
ctrl+y/ctrl+n), and 1-9/0 for who was first. Times in the view are on the
table's clock; :mod:`net.client.tableclock` maps them to this screen's clock from the
views that carry the host's *now*, so the ten-second bar runs in step with the
host.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.widgets import Input, Static

from engine.games.katootsie.rules import (
    CATEGORY_PAUSE_S,
    LETTER_PAUSE_S,
    SUDDEN_DEATH_WINS,
    KatootsieView,
)
from net.client.tableclock import TableClock
from net.core.typed import TypedAnswer, free_prefix
from tui.coach import Coach
from tui.screens.realtime import RealtimeTable
from tui.screens.table import ClaimStamps
from tui.widgets.chat import typed_character
from tui.widgets.log import GameLog
from tui.widgets.look import PLAIN, Look
from tui.widgets.panel import Panel, fitting
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import who
from tui.widgets.timer import Countdown
from tui.you import Ours, capital, is_you

LOOKS = ("letter", "category", "muted", "key", "call", "out", "you", "good", "bad")
"""The board's looks, each a component class ``katootsie--NAME`` in ``katootsie.tcss``."""

FONT: Mapping[str, tuple[str, str, str, str, str]] = {
    "A": (".###.", "#...#", "#####", "#...#", "#...#"),
    "B": ("####.", "#...#", "####.", "#...#", "####."),
    "C": (".####", "#....", "#....", "#....", ".####"),
    "D": ("####.", "#...#", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "####.", "#....", "#####"),
    "F": ("#####", "#....", "####.", "#....", "#...."),
    "G": (".####", "#....", "#..##", "#...#", ".###."),
    "H": ("#...#", "#...#", "#####", "#...#", "#...#"),
    "I": ("#####", "..#..", "..#..", "..#..", "#####"),
    "J": ("..###", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "###..", "#..#.", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#...#", "#...#"),
    "N": ("#...#", "##..#", "#.#.#", "#..##", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", ".###."),
    "P": ("####.", "#...#", "####.", "#....", "#...."),
    "Q": (".###.", "#...#", "#.#.#", "#..#.", ".##.#"),
    "R": ("####.", "#...#", "####.", "#..#.", "#...#"),
    "S": (".####", "#....", ".###.", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#.."),
    "U": ("#...#", "#...#", "#...#", "#...#", ".###."),
    "V": ("#...#", "#...#", "#...#", ".#.#.", "..#.."),
    "W": ("#...#", "#...#", "#.#.#", "##.##", "#...#"),
    "X": ("#...#", ".#.#.", "..#..", ".#.#.", "#...#"),
    "Y": ("#...#", ".#.#.", "..#..", "..#..", "..#.."),
    "Z": ("#####", "...#.", "..#..", ".#...", "#####"),
    "?": (".###.", "#...#", "..##.", ".....", "..#.."),
}
"""A five-by-five letter font; each cell is drawn two characters wide."""

NAME_WIDTH = 9
LETTERS_WIDTH = 13


def big_letter(letter: str | None, look: Look = PLAIN) -> Text:
    """The letter, five lines high (a dotted box while none is shown)."""
    if letter is None:
        rows = ("┌╌╌╌╌╌╌╌╌╌╌┐", "╎          ╎", "╎    ··    ╎", "╎          ╎", "└╌╌╌╌╌╌╌╌╌╌┘")
        return Text().append("\n".join(rows), style=look("muted"))
    glyph = FONT.get(letter.upper(), FONT["?"])
    lines = [" " + "".join("██" if cell == "#" else "  " for cell in row) + " " for row in glyph]
    return Text().append("\n".join(lines), style=look("letter"))


def names_of(players: Sequence[str], seats: Sequence[int], me: int | None) -> str:
    words = [who(seat, players, me) for seat in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def letters_text(letters: Sequence[str], width: int = LETTERS_WIDTH) -> str:
    """A player's letters, newest last; ``+n`` for the oldest that do not fit."""
    text = "".join(letters)
    if len(text) <= width:
        return text
    hidden = len(text) - (width - 3)
    return f"+{hidden}".ljust(3) + text[-(width - 3) :] if hidden < 100 else text[-width:]


LINE_KEYS = frozenset({"exclamation_mark", "slash"})
"""The signs that are the table's keys on the empty answer line (no answer starts with one):
``!`` calls Katootsie!, ``/`` leaves the line. Typed once the answer has begun."""


class AnswerInput(Input):
    """The answer line: keeps each key's own time (when it was pressed, before any redraw)."""

    DEFAULT_CSS = """
    AnswerInput { height: 1; border: none; padding: 0 1; }
    """

    cursor_blink = reactive(False, init=False)
    """A steady cursor: the line is open for most of a game, and a blinking one was two frames
    a second for every player at an open letter (each sent on to SSH and browser players)."""

    key_ns: int | None = None

    async def _on_key(self, event: events.Key) -> None:
        self.key_ns = int(event.time * 1_000_000_000)
        await super()._on_key(event)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """On the empty line, ``!`` and ``/`` are the table's (its bindings act and the footer
        shows them); anywhere in an answer they are typed, as every printable key is."""
        if key in LINE_KEYS and not self.value:
            return False
        return super().check_consume_key(key, character or typed_character(key))


HELD_LETTERS = "Typing waits for the letter · / (or Esc) for keys: q leaves, r rules"
"""What a letter typed while the answer line is closed says (it is held back, not a key)."""
CLOSED_AS_TYPED = "The answer line closed as you typed: those letters did nothing"
"""What letters typed just as the answer line closed say (they were meant for the answer)."""
TYPED_ON_S = 0.5
"""Letters that come this soon after the answer line closed, while the player was typing in
it (a key this soon before), were typed for it, before they could see it close (a reaction
takes a few tenths of a second): they do nothing. When a tie went to the vote mid-word,
"sacramento" went on as table keys: its ``r`` opened the rules over the vote, and a ``y`` or
``n`` would have voted."""
KEYS_MODE_LETTERS = "wrtq"
"""The letters that are the table's keys once the answer line is left (any other letter types;
``w`` only once it has a ruling to explain: before, it types as any letter does)."""
KEYS_PROMPT = ("r rules", "t chat", "q leaves", "? all keys", "other letters type")
"""The prompt once the open answer line is left (``/`` or Esc): what the single keys do
(after ``w why`` once the host has ruled on a claim, :attr:`why_key`)."""


class KatootsieTable(RealtimeTable[KatootsieView]):
    """The Katootsie! table for one seat (or a spectator)."""

    look_names = LOOKS
    game = "katootsie"
    essential = ("#stage", "#answer-row")
    rings_at_reveal = True  # a letter turned: everyone may answer
    claimed_word = "answered"

    # The footer shows the plain keys (a phone's on-screen keyboard has no Ctrl or Esc); the
    # Ctrl and Esc keys of a real keyboard do the same, unshown. ``!`` and ``/`` are priority
    # keys so that they act before the answer line, which leaves them to the table only while
    # it is empty (AnswerInput.check_consume_key).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("exclamation_mark", "katootsie", "Katootsie!", key_display="!", priority=True),
        Binding("ctrl+k", "katootsie", "Katootsie!", show=False, priority=True),
        # The vote keys are in the footer only while this player has a vote to cast.
        Binding("y", "vote(True)", "yes"),
        Binding("n", "vote(False)", "no"),
        Binding("ctrl+y", "vote(True)", "yes", show=False, priority=True),
        Binding("ctrl+n", "vote(False)", "no", show=False, priority=True),
        Binding("1", "first(1)", "who was first", key_display="0-9"),
        *[Binding(str(n), f"first({n})", show=False) for n in (0, *range(2, 10))],
        Binding("slash", "leave_line", "table keys", key_display="/", priority=True),
        Binding("escape", "leave_line", "leave the line", show=False),
    ]

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[Any] | None = None
    ) -> None:
        super().__init__(table_id=table_id, place=place, coach=coach)
        self.clock = TableClock()
        self.typed = TypedAnswer()
        self._noticed: ClaimStamps | None = None
        """The last typing notice sent (a new one goes out when the run's start moves)."""
        self._letter_key: tuple[Any, ...] | None = None
        """(round, category, letter, tie-break stake) of the letter the line is open for."""
        self._keys_mode = False
        """Esc (or ``/``) was pressed: single keys (w, r, q...) act until another letter key
        brings typing back."""
        self._line_empty = True
        """Whether the answer line was empty when last typed in (``!`` and ``/`` are the
        table's keys then: the footer follows)."""
        self._line_closed_at = -math.inf
        """When the answer line last closed (``time.monotonic``): see :data:`TYPED_ON_S`."""
        self._seen: dict[str, Any] = {}
        self._timer_key: tuple[Any, ...] | None = None
        self._ruled_reveal: int | None = None
        self._letter_now: str | None = None
        self._seeded = False

    # Composition ------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Panel(id="title")
                with Horizontal(id="stage"):
                    yield Panel(id="letter")
                    yield Panel(id="category")
                with Horizontal(id="timer-row"):
                    yield Countdown(id="timer", keeps_place=True)
                    yield Panel(id="timer-label")
                yield Panel(id="news")
                with Horizontal(id="answer-row"):
                    yield Static("Answer ▸", id="answer-label")
                    # Not select_on_focus: a letter typed after ``/`` focuses the line and is
                    # typed into it, and the focus would then select it for the next key to
                    # replace (``nosferatu`` went as ``osferatu``).
                    yield AnswerInput(
                        placeholder="wait for the letter",
                        id="answer",
                        max_length=60,
                        select_on_focus=False,
                    )
                yield GameLog(id="log")
            with Vertical(id="side"):
                yield Static("Letters won", id="scores-title")
                yield Panel(id="scores")

    # Data in ----------------------------------------------------------------------

    def happened(self, events: Sequence[dict[str, Any]]) -> None:
        for event in events:
            data = event.get("data")
            if event.get("kind") == "claim" and isinstance(data, Mapping):
                reveal = data.get("reveal_id")
                self._ruled_reveal = reveal if isinstance(reveal, int) else None
            elif event.get("kind") == "letter" and isinstance(data, Mapping):
                letter = data.get("letter")
                self._letter_now = letter if isinstance(letter, str) else None
        super().happened(events)

    def game_event(self, event: Mapping[str, Any]) -> None:
        """Each game event goes to the log; the one that a ruling decided says by how much."""
        view = self.view
        names: Sequence[str] = [] if view is None else view["players"]
        me = None if view is None else view["seat"]
        kind = event.get("kind")
        data = event.get("data") if isinstance(event.get("data"), Mapping) else {}
        assert isinstance(data, Mapping)
        text = str(event.get("text", ""))
        reveal, self._ruled_reveal = self._ruled_reveal, None
        seat = data.get("seat")
        if reveal is None or not isinstance(seat, int):
            self.history.say(text)
            return
        letter = self._letter_now or "?"
        if kind == "answer":
            self.history.award(reveal, seat, letter, names, me, f"“{data.get('answer', '')}”")
        elif kind == "katootsie":
            self.history.award(reveal, seat, f"Katootsie! on {letter}", names, me)
        else:  # a disputed, refused or tied answer that won the race
            self.history.said(text, seat)

    def watch_view(self, view: KatootsieView | None) -> None:
        if view is not None:
            self._observe_clock(view)
        super().watch_view(view)

    def _observe_clock(self, view: Mapping[str, Any]) -> None:
        """Note the table instants in ``view`` that were the host's now when it was sent."""
        now = time.monotonic_ns()
        phase = str(view["phase"]).removeprefix("sudden_death_")
        opened = view.get("opened_at")
        fresh = opened != self._seen.get("opened_at")
        if phase == "letter" and isinstance(opened, int | float) and fresh:
            self.clock.observe(float(opened), now)
        letter_at = view.get("letter_at")
        fresh = letter_at != self._seen.get("letter_at")
        if phase in ("category", "between") and isinstance(letter_at, int | float) and fresh:
            pause = CATEGORY_PAUSE_S if phase == "category" else LETTER_PAUSE_S
            self.clock.observe(float(letter_at) - pause, now)
        self._seen = {"opened_at": opened, "letter_at": letter_at}

    def moment_goes_on(self, view: KatootsieView) -> None:
        """The table clock stood still while the letter was held for the learner: its old
        samples are behind by the hold, and it runs on from the moment's opening."""
        self.clock = TableClock()
        opened = view.get("opened_at")
        if isinstance(opened, int | float):
            self.clock.observe(float(opened), time.monotonic_ns())

    def seconds_to(self, table_s: float | None) -> float | None:
        """Seconds from now until table instant ``table_s`` on this screen (``None``: unknown)."""
        if table_s is None:
            return None
        return self.clock.seconds_until(float(table_s), time.monotonic_ns())

    def countdown_s(self, view: Mapping[str, Any]) -> float | None:
        """The ten seconds after a call; else, while nobody has answered, the time until
        the letter is set aside (``quiet_until``: the bar :meth:`_show_timer` labels)."""
        call = view.get("call")
        until = call.get("until") if isinstance(call, Mapping) else view.get("quiet_until")
        if until is None or self.stage(view) != "letter":
            return None
        left = self.seconds_to(until)
        return None if left is None else max(0.0, left)

    # What the view means ----------------------------------------------------------

    @staticmethod
    def stage(view: Mapping[str, Any]) -> str:
        """The phase without its sudden-death prefix."""
        return str(view["phase"]).removeprefix("sudden_death_")

    def may_answer(self, view: Mapping[str, Any]) -> bool:
        return any(action.get("type") == "answer" for action in view["legal"])

    def may_call(self, view: Mapping[str, Any]) -> bool:
        return any(action.get("type") == "katootsie" for action in view["legal"])

    def my_vote(self, view: Mapping[str, Any]) -> str | None:
        """``vote`` or ``first`` when this seat has a vote to cast now."""
        kinds = {action.get("type") for action in view["legal"]}
        if "vote" in kinds:
            return "vote"
        if "first" in kinds:
            return "first"
        return None

    # Drawing ----------------------------------------------------------------------

    def show(self, view: Any) -> None:
        if not self._seeded:
            self._seeded = True
            if not self.history.lines:
                for line in view["log"]:
                    self.history.say(line)
        if view.get("letter"):
            self._letter_now = view["letter"]
        look = self.look
        seat = view["seat"]
        players = view["players"]
        stage = self.stage(view)
        title = self.query_one("#title", Panel)
        width = title.content_region.width
        title.draw(
            (
                view.get("sudden_death"),
                view["round"],
                view["rounds"],
                view["letters_left"],
                seat is None,
                width,
            ),
            lambda: fitting(width, *(self._title(view, short) for short in range(3))),
        )
        letter = view["letter"] if stage in ("letter", "vote", "first_vote") else None
        self.query_one("#letter", Panel).draw(letter, lambda: big_letter(letter, look))
        self.query_one("#category", Panel).draw(
            (
                view.get("category"),
                view.get("anywhere"),
                view.get("letter"),
                stage,
                view.get("category_letter"),
                view.get("tiebreak"),
                view.get("sudden_death"),
                view.get("used"),
                players,
                seat,
            ),
            lambda: self._category(view),
        )
        self._show_timer(view)
        # The news reads the view's vote, result and tie-break, your vote and the rulings.
        self.query_one("#news", Panel).draw(
            (
                stage,
                view.get("vote"),
                view.get("first_vote"),
                view.get("tiebreak"),
                view.get("last"),
                view["legal"],
                self.history.last,
                players,
                seat,
            ),
            lambda: self._news(view),
        )
        self.query_one("#scores", Panel).draw(
            (
                players,
                stage,
                view.get("call"),
                view.get("locked"),
                view.get("players_in"),
                view.get("debts"),
                view["scores"],
                view["won"],
                seat,
            ),
            lambda: self._scores(view),
        )
        self._sync_line(view)
        self.query_one(PromptLine).prompt(self.prompt_text(view))
        self.query_one(GameLog).show(self.history.lines)

    def _title(self, view: Mapping[str, Any], short: int = 0) -> Text:
        """The title line; ``short`` 1 and 2 say less, for a narrow board (a spectator's
        ``watching`` stays)."""
        title = Text(self.game_title, style="bold")
        sudden = view.get("sudden_death")
        if sudden:
            title.append(" · SUDDEN DEATH", style=self.look("call"))
            if short < 2:
                title.append(f" · first to {SUDDEN_DEATH_WINS}{'' if short else ' letters'}")
        elif short < 2:
            title.append(
                f" · round {view['round']}/{view['rounds']}"
                if short
                else f" · round {view['round']} of {view['rounds']}"
            )
        title.append(f" · {view['letters_left']} {'left' if short else 'letters left'}")
        if view["seat"] is None:
            title.append(" · watching", style=self.look("muted"))
        return title

    def _category(self, view: Mapping[str, Any]) -> Text:
        look = self.look
        out = Text()
        category = view.get("category")
        if category is None:
            out.append("No category yet", style=look("muted"))
            return out
        out.append(str(category["title"]).upper(), style=look("category"))
        notes = []
        if view.get("anywhere") and view.get("letter"):
            notes.append(f"Anywhere: {view['letter']} may be anywhere in the answer")
        if category.get("ignore_articles"):
            notes.append("Ignore A/An/The")
        stage = self.stage(view)
        if stage == "letter" and view.get("letter") and not view.get("anywhere"):
            notes.append(f"Letter {view['letter']}: answers start with it")
        elif stage == "category":
            notes.append("A new category: the letter comes next")
        elif stage == "between" and view.get("tiebreak"):
            notes.append("The tie-break letter comes next")
        elif stage == "between":
            notes.append(f"Letter {int(view.get('category_letter', 0)) + 1} of 2 comes next")
        tiebreak = view.get("tiebreak")
        if tiebreak:
            players = names_of(view["players"], tiebreak["players"], view["seat"])
            notes.append(f"Tie-break: {players} · stake {', '.join(tiebreak['stake'])}")
        sudden = view.get("sudden_death")
        if sudden:
            scores = ", ".join(
                f"{who(seat, view['players'], view['seat'])} {sudden['wins'][seat]}"
                for seat in sudden["players"]
            )
            notes.append(f"Sudden death: {scores}")
        for note in notes[:4]:
            out.append("\n" + note, style=look("muted") if "Ignore" not in note else look("key"))
        used = view.get("used") or []
        if used and len(notes) < 4:
            out.append("\nTaken: " + ", ".join(used), style=look("muted"))
        return out

    def _show_timer(self, view: Mapping[str, Any]) -> None:
        """One bar for whatever is timed now: the ten seconds, a vote, the next letter."""
        stage = self.stage(view)
        players = view["players"]
        me = view["seat"]
        call = view.get("call")
        key: tuple[Any, ...] | None = None
        label = Text()
        total = 10.0
        until: float | None = None
        if stage == "letter" and isinstance(call, Mapping):
            until, total = call["until"], float(view.get("katootsie_seconds") or 10.0)
            key = ("call", call["seat"], until)
            if call["seat"] == me:  # the label has about 30 columns at 80x24: the point first
                label.append("Your Katootsie!", style=self.look("call"))
                label.append(" · hold on", style=self.look("muted"))
            else:
                caller = who(call["seat"], players, me)
                called = Text(f"Katootsie! by {caller}", style=self.look("call"))
                room = self.query_one("#timer-label", Panel).size.width or 30
                if len("Answer now! ") + called.cell_len <= room:
                    label.append("Answer now! ", style=self.look("muted"))
                else:  # a long name: the call and who made it, cut at the end if need be
                    called.truncate(room, overflow="ellipsis")
                label.append_text(called)
        elif stage == "letter" and isinstance(view.get("quiet_until"), int | float):
            # Nobody has answered: the letter is set aside when this runs out (a minute by
            # default). Untimed on screen, a coached X waited a silent minute.
            until = float(view["quiet_until"])
            opened = view.get("opened_at")
            total = until - float(opened) if isinstance(opened, int | float) else 60.0
            key = ("quiet", until)
            label.append("Unanswered: set aside at 0", style=self.look("muted"))
        elif stage in ("vote", "first_vote"):
            block = view.get(stage) or {}
            until, total = block.get("until"), 8.0
            key = (stage, until)
            label.append("Vote: " if stage == "vote" else "Who was first? ")
            cast = len(block.get("votes", []))
            label.append(f"{cast} of {len(block.get('voters', []))} voted")
        elif stage in ("category", "between"):
            until = view.get("letter_at")
            total = CATEGORY_PAUSE_S if stage == "category" else LETTER_PAUSE_S
            key = (stage, until)
            label.append("Next letter", style=self.look("muted"))
        timer = self.query_one("#timer", Countdown)
        if key is None or until is None:
            if self._timer_key is not None:
                timer.stop()
            self._timer_key = None
            self.query_one("#timer-label", Panel).show(Text())
            return
        if key != self._timer_key:
            self._timer_key = key
            left = self.seconds_to(until)
            if left is None:
                left = total
            timer.start(max(0.0, left))
            timer.total_s = max(total, left, 0.001)
        self.query_one("#timer-label", Panel).show(label)

    def _news(self, view: Mapping[str, Any]) -> Text:
        """Two lines: a vote to cast, or how the last letter went (and by how many ms)."""
        look = self.look
        players = view["players"]
        me = view["seat"]
        stage = self.stage(view)
        out = Text()
        if stage == "vote" and view.get("vote"):
            vote = view["vote"]
            out.append(f"{capital(who(vote['seat'], players, me))} answered ")
            out.append(f"“{vote['answer']}”", style="bold")
            out.append(" (not in the list).")
            if self.my_vote(view) == "vote":
                out.append("\nAccept it? ", style=look("key"))
                out.append("y yes · n no", style=look("key"))
            else:
                out.append("\nThe others are voting.", style=look("muted"))
            return out
        if stage == "first_vote" and view.get("first_vote"):
            first = view["first_vote"]
            out.append("Too close to call: ")
            out.append(
                " · ".join(
                    f"{number} {who(seat, players, me)} “{text}”"
                    for number, (seat, text) in enumerate(first["answers"], start=1)
                ),
                style="bold",
            )
            if self.my_vote(view) == "first":
                out.append("\nWho was first? 1-9 · 0 the same time", style=look("key"))
            else:
                out.append("\nThe others vote who was first.", style=look("muted"))
            return out
        tiebreak = view.get("tiebreak")
        if tiebreak and stage in ("between", "letter"):
            return self._tiebreak_words(view, tiebreak, stage)
        last = self.history.last
        headline = self.history.headline(last, players, me) if last is not None else ""
        result = view.get("last")
        if result:
            out.append(self._result_words(view, result))
        elif headline:
            out.append(headline)
        else:
            out.append("Nobody has taken a letter yet.", style=look("muted"))
        if headline and result and last is not None and last.ruling is not None:
            # Ours: "tied with ...", "12 ms ahead of ...", "nobody else ..."
            margin = Ours(self.history.margin_words(last, players, me).removeprefix(", "))
            out.append(f"\n{capital(margin)} · w: why", style=look("muted"))
        return out

    def _tiebreak_words(
        self, view: Mapping[str, Any], tiebreak: Mapping[str, Any], stage: str
    ) -> Text:
        """A tie-break is on: who is in it, for which letters, and what decides it (the last
        letter's result would be old news)."""
        me = view["seat"]
        tied = names_of(view["players"], tiebreak["players"], me)
        stake = ", ".join(tiebreak["stake"])
        out = Text(f"Tie-break between {tied} for {stake}.")
        when = "This letter" if stage == "letter" else "The next letter"
        rest = "" if me is None or me in tiebreak["players"] else " Only they answer."
        out.append(
            f"\n{when} decides: its taker takes {stake} too.{rest}", style=self.look("muted")
        )
        return out

    def _result_words(self, view: Mapping[str, Any], result: Mapping[str, Any]) -> str:
        players = view["players"]
        me = view["seat"]
        letters = ", ".join(result.get("letters") or [result["letter"]])
        if result["seat"] is None:
            return f"Nobody took {result['letter']}: set aside."
        taker = capital(who(result["seat"], players, me))
        how = result["how"]
        answer = result.get("answer")
        if how == "katootsie":
            return f"{taker} took {letters} with Katootsie!"
        if how == "caught":
            caller = who(result.get("caller"), players, me)
            whose = "your" if is_you(caller) else f"{caller}'s"
            return f"{taker} took {letters} with “{answer}”, beating {whose} Katootsie!"
        if how == "default":
            return f"{taker} took {letters} by default (everyone else was out)."
        if answer:
            voted = " (voted)" if how == "vote" else ""
            return f"{taker} took {letters} with “{answer}”{voted}."
        return f"{taker} took {letters}."

    def _scores(self, view: Mapping[str, Any]) -> Text:
        look = self.look
        out = Text()
        players = view["players"]
        call = view.get("call") or {}
        locked = set(view.get("locked") or [])
        playing = set(view.get("players_in") or [])
        debts = view.get("debts") or []
        stage = self.stage(view)
        for seat, name in enumerate(players):
            if seat:
                out.append("\n")
            mark, style = "  ", Style()
            if stage == "letter" and call.get("seat") == seat:
                mark, style = "K!", look("call")
            elif stage == "letter" and seat in locked:
                mark, style = "✗ ", look("out")
            elif seat not in playing:
                mark, style = "· ", look("muted")
            out.append(mark, style=style)
            label = (name[: NAME_WIDTH - 1] + "*") if seat == view["seat"] else name
            mine = look("you") if seat == view["seat"] else ""
            out.append(label[:NAME_WIDTH].ljust(NAME_WIDTH), style=mine)
            out.append(f"{view['scores'][seat]:>3} ", style="bold")
            owed = debts[seat] if seat < len(debts) else []
            letters = letters_text(view["won"][seat])
            out.append(letters, style=look("letter") if letters else "")
            if owed:
                out.append(f" owes {len(owed)}", style=look("bad"))
        return out

    # The answer line --------------------------------------------------------------

    def _sync_line(self, view: Mapping[str, Any]) -> None:
        """Open, focus, keep or close the answer line for what the view allows now."""
        line = self.query_one("#answer", AnswerInput)
        stage = self.stage(view)
        category = view.get("category") or {}
        key = (
            view.get("round"),
            category.get("code"),
            view.get("letters_left"),
            tuple((view.get("tiebreak") or {}).get("stake", ())),
            view.get("letter"),
        )
        if stage == "letter" and view["letter"] and key != self._letter_key:
            self._letter_key = key  # a new letter: the line starts empty
            reveal = view["reveal"]
            drawn = self._drawn.get(reveal, time.monotonic_ns())
            # An article is a free prefix in every category: the rule leaves it out of
            # every answer (engine.games.katootsie.answers.ARTICLE_RULE), marked card or not.
            self.typed.open(view["letter"], drawn, articles=True)
            line.value = ""
        open_now = stage == "letter" and self.may_answer(view)
        if open_now:
            line.disabled = False
            line.placeholder = f"an answer with {view['letter']}, then Enter"
            if self.focused is not line:
                line.focus()
                self._keys_mode = False
        else:
            if stage != "letter" or not view["letter"]:
                self._letter_key = None
                self.typed.close()
                line.value = ""
            elif view["seat"] in (view.get("locked") or []):
                line.value = ""  # out for this letter: the line says so (the prompt says why)
            typed = line.key_ns
            now = time.monotonic()
            if not line.disabled and typed is not None and now - typed / 1e9 < TYPED_ON_S:
                self._line_closed_at = now  # closed under the player's fingers
            line.disabled = True
            line.placeholder = self._closed_words(view)

    def _closed_words(self, view: Mapping[str, Any]) -> Ours:
        """Why the answer line is closed, in words of our own (a placeholder, or raised to
        start the prompt)."""
        stage = self.stage(view)
        seat = view["seat"]
        if seat is None:
            return Ours("watching")
        if stage == "letter":
            call = view.get("call") or {}
            if call.get("seat") == seat:
                return Ours("you called Katootsie!: the others answer")
            if seat in (view.get("locked") or []):
                return Ours("you are out for this letter")
            if seat not in (view.get("players_in") or []):
                return Ours("not your letter (tie-break or sudden death)")
        if stage in ("vote", "first_vote"):
            return Ours("a vote is on")
        return Ours("wait for the letter")

    @on(Input.Changed, "#answer")
    def _typed(self, event: Input.Changed) -> None:
        line = self.query_one("#answer", AnswerInput)
        key = line.key_ns
        now = time.monotonic_ns()
        at = key if key is not None and 0 <= now - key <= 2_000_000_000 else now
        self.typed.edit(event.value, at)
        self._notice_typing(at)
        empty = not event.value
        if empty != self._line_empty:  # ! and / change hands (the table's or typed): the footer
            self._line_empty = empty
            self.refresh_bindings()

    def _answer_stamps(self, sent_ns: int) -> tuple[str, ClaimStamps] | None:
        """The answer on the line and the stamps it goes with (``None``: nothing to send)."""
        view = self.view
        if view is None or view["reveal"] is None:
            return None
        stamps = self.typed.stamps(sent_ns)
        if stamps is None:
            return None
        reveal = view["reveal"]
        drawn = self._drawn.get(reveal, stamps.acted_ns)
        acted = max(stamps.acted_ns, drawn)
        return stamps.text, ClaimStamps(reveal=reveal, drawn_ns=drawn, acted_ns=acted)

    def _notice_typing(self, now_ns: int) -> None:
        """Tell the host when the run of typing that will be the answer starts (or restarts)."""
        view = self.view
        if view is None or not self.may_answer(view):
            return
        if self.pending_claim is not None:
            return  # answered already
        if free_prefix(self.typed.text, self.typed.letter, self.typed.articles):
            return  # the letter (or an article) alone says nothing yet
        answer = self._answer_stamps(now_ns)
        if answer is None or answer[1] == self._noticed:
            return
        self._noticed = answer[1]
        self.notice_typing(answer[1])

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        view = self.view
        if view is None:
            return
        line = self.query_one("#answer", AnswerInput)
        sent = line.key_ns or time.monotonic_ns()
        stamps = self.typed.stamps(sent)
        if stamps is None:
            if not self.go_on():  # Enter on the empty line lets a moment held for a learner go
                self.refused("Type an answer first (it must fit the letter)")
            return
        answer = self._answer_stamps(sent)
        acted = stamps.acted_ns if answer is None else answer[1].acted_ns
        if self.claim({"type": "answer", "text": stamps.text}, acted_ns=acted):
            self.query_one(PromptLine).prompt(self.prompt_text(view))

    def action_leave_line(self) -> None:
        """``/`` on the empty line, or Esc: leave the answer line so single keys (w, r, q, t)
        work; another letter key brings typing back."""
        self._keys_mode = True
        if isinstance(self.focused, Input):
            self.set_focus(None)
        self.refresh_bindings()  # "/ table keys" leaves the footer
        if self.view is not None:
            self.query_one(PromptLine).prompt(self.prompt_text(self.view))

    def on_key(self, event: events.Key) -> None:
        """Letters are for answers at this table: never table keys by accident.

        A player types words all game long, often before the letter shows or
        just after another took it. A letter typed while the answer line is
        open goes to it (focused again if need be); one typed while it is
        closed is held back with a word on how to use keys (Esc first), so a
        stray ``q`` then ``g`` can never give the seat away. Votes keep their
        y/n keys; watchers and a finished game keep every key. Letters typed
        just as the line closed under the player's fingers do nothing
        (:data:`TYPED_ON_S`).
        """
        # (Textual runs RealtimeTable.on_key too: handlers run along the MRO.)
        view = self.view
        character = event.character
        if view is None or not event.is_printable or character is None:
            return
        if not character.isalpha():
            return
        line = self.query_one("#answer", AnswerInput)
        if self.focused is line:
            return
        if self._keys_mode and character.lower() in self.keys_mode_letters:
            return  # after Esc: the table's own keys
        if not line.disabled:
            self._type_again(line)  # a letter key goes back to the answer line
            line.insert_text_at_cursor(character)
            event.stop()
            return
        if event.time - self._line_closed_at < TYPED_ON_S:
            event.stop()
            event.prevent_default()
            self.query_one(PromptLine).prompt(CLOSED_AS_TYPED)
            return
        if self._holds_letters(view):
            event.stop()
            event.prevent_default()
            self.query_one(PromptLine).prompt(HELD_LETTERS)

    def on_screen_resume(self) -> None:
        """Back from a dialog (the leave dialog, the rules, all keys): a letter open, typing
        comes back to the answer line, and the prompt and the footer say so. After ``/``,
        ``q`` of ``quartz`` opened the leave dialog; once it closed, Textual gave the line
        the focus again while the prompt still named the single keys."""
        if not self._keys_mode or not self._ready:
            return  # nothing to bring back (or not composed yet: a resume can come first)
        line = self.query_one("#answer", AnswerInput)
        if not line.disabled:
            self._type_again(line)

    def _type_again(self, line: AnswerInput) -> None:
        """Leave the single keys: the answer line has the focus, and the prompt and the footer
        (``!`` and ``/`` on the empty line) follow at once, not at the host's next view."""
        self._keys_mode = False
        if self.focused is not line:
            line.focus()
        self.refresh_bindings()
        if self.view is not None:
            self.query_one(PromptLine).prompt(self.prompt_text(self.view))

    def _holds_letters(self, view: Mapping[str, Any]) -> bool:
        """Whether a letter typed now (the answer line closed) is held back, not a table key."""
        if self._keys_mode or view["seat"] is None or self.my_vote(view) is not None:
            return False
        return view["phase"] != "over" and view.get("outcome") is None

    # Intents ----------------------------------------------------------------------

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({"katootsie", "vote", "first"})

    @property
    def keys_mode_letters(self) -> str:
        """:data:`KEYS_MODE_LETTERS` that act now (``w`` once the host has ruled on a claim)."""
        return KEYS_MODE_LETTERS if self.why_key else KEYS_MODE_LETTERS.replace("w", "")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Each play key is offered when it means something now: Katootsie! while a letter
        is open, yes/no while this player has an answer to vote on, 0-9 for who was first."""
        if action == "leave_line":
            return self._may_leave_line()
        allowed = super().check_action(action, parameters)
        view = self.view
        if not allowed or view is None or action not in self.PLAY_ACTIONS:
            return allowed
        if action == "katootsie":
            return self.stage(view) == "letter"
        return self.my_vote(view) == action

    def _may_leave_line(self) -> bool:
        """Whether leaving the line means something now: typing in it, or letters held back
        while it is closed (after leaving it, or watching, the single keys act already)."""
        try:  # query_one is kept by Textual; the footer asks this for each key, each view
            line: AnswerInput | None = self.query_one("#answer", AnswerInput)
        except NoMatches:
            line = None
        if line is not None and self.focused is line:
            return True
        view = self.view
        return view is not None and self._holds_letters(view)

    def action_katootsie(self) -> None:
        view = self.view
        if view is None:
            return
        if view["seat"] is None:
            self._acted_now()
            self.refused("You are watching: only players call Katootsie!")
            return
        if not self.may_call(view):
            self._acted_now()
            self.refused(self._why_no_call(view))
            return
        if self.claim({"type": "katootsie"}):
            self.query_one(PromptLine).prompt(self.prompt_text(view))

    def _why_no_call(self, view: Mapping[str, Any]) -> str:
        seat = view["seat"]
        if self.stage(view) != "letter":
            return "Katootsie! is called while a letter is open"
        if view.get("call"):
            return "Katootsie! has already been called on this letter"
        if seat in (view.get("locked") or []):
            return "You are out for this letter"
        if seat not in (view.get("players_in") or []):
            return "Only the players of this letter may call"
        return "Nobody else can answer this letter"

    def action_vote(self, accept: bool) -> None:
        view = self.view
        if view is None:
            return
        if self.my_vote(view) != "vote":
            self.refused("There is nothing for you to vote on now")
            return
        self.act({"type": "vote", "accept": accept})

    def action_first(self, number: int) -> None:
        view = self.view
        if view is None or self.my_vote(view) != "first":
            if view is not None and self.stage(view) in ("vote", "first_vote"):
                self.refused("There is nothing for you to vote on now")
            return
        first = view["first_vote"]
        answers = [] if first is None else first["answers"]
        if number == 0:
            self.act({"type": "first", "seat": None})
        elif 1 <= number <= len(answers):
            self.act({"type": "first", "seat": answers[number - 1][0]})
        else:
            self.refused(f"Press 1 to {len(answers)}, or 0 for the same time")

    def moment_words(self, view: Mapping[str, Any]) -> str:
        return f"the letter {view.get('letter') or ''}".strip()

    def claim_words(self, action: Mapping[str, Any]) -> str:
        if action.get("type") == "katootsie":
            return "called Katootsie!"
        return f"answered “{action.get('text', '')}”"

    # Prompt -----------------------------------------------------------------------

    def prompt_text(self, view: Mapping[str, Any]) -> str:
        if view["phase"] == "over":
            return f"Game over{self.why_key} · r rules · q leaves"
        seat = view["seat"]
        stage = self.stage(view)
        if seat is None:
            if self.why_key:
                return "Watching · w why the last letter went where it did · q leaves"
            return "Watching · q leaves"
        pending = self.pending_claim
        if pending is not None and stage == "letter":
            return f"You {self.claim_words(pending)}: the host is comparing times..."
        vote = self.my_vote(view)
        if vote == "vote":
            return "Vote on the answer: y accepts, n rejects"
        if vote == "first":
            return "Who was first? 1-9 picks a player, 0 says the same time"
        if stage == "letter" and self.may_answer(view) and self._keys_mode:
            return "Keys: " + " · ".join((["w why"] if self.why_key else []) + list(KEYS_PROMPT))
        if stage == "letter" and self.may_answer(view):
            call = " · ! on an empty line: Katootsie!" if self.may_call(view) else ""
            return f"Type an answer with {view['letter']}, Enter sends it{call}"
        if stage == "letter":
            return capital(self._closed_words(view)) + f"{self.why_key} · r rules"
        if stage in ("vote", "first_vote"):
            return f"The others are voting{self.why_key} · r rules"
        return f"Get ready: the letter comes next{self.why_key} · r rules · q leaves"

    # Results ----------------------------------------------------------------------

    def results_lines(self, view: Any) -> list[str]:
        players = view["players"]
        outcome = view["outcome"]
        scores = view["scores"] if outcome is None else outcome["scores"]
        seat = view["seat"]
        head = self.winners_line(view)
        lines = [head]
        sudden = view.get("sudden_death")
        if sudden:
            tied = names_of(players, sudden["players"], seat)
            lines.append(f"After sudden death between {tied}.")
        lines.append("")
        for index, name in enumerate(players):
            you = " (you)" if index == seat else ""
            won = "".join(view["won"][index]) or "-"
            score = scores[index] if index < len(scores) else "?"
            lines.append(f"{name}{you}: {score}  {won}")
        contests = self.contest_lines("letter")
        if contests:
            lines += ["", *contests]
        lines += ["", "t or Esc: back to the table · w how the host ruled"]
        return lines
