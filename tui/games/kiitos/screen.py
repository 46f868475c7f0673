"""The Kiitos table: the letters on the table and the target word, your hand, a word entry line.

Everything drawn comes from the engine's view for this seat
(:meth:`engine.games.kiitos.rules.Kiitos._view`): the table's letters, the target word
and who said it, your own letters only, everyone's hand sizes and pile
counts, the rule cards with the lock token. The word entry line checks the
word as it is typed (:mod:`tui.games.kiitos.entry`, with the engine's own
word logic and dictionary, which loads in a thread the first time).

Letters always type into the word line, so the table's commands are on keys
that are not letters, each a plain key a phone's on-screen keyboard has (no
Ctrl, Tab or Esc needed): Enter says the word (or plays the letter you must
play), ``*`` fills in an idea, ``!`` challenges the word just said, ``-``
picks up (into your - pile), ``>`` passes the lead on (the 4-player rule),
digits flip a rule card or choose who starts, Backspace erases (and cancels
a choice), ``?`` lists every key (the rules are there, and on ctrl+r), ``#`` the host's
rulings, ``@`` opens the chat, ``<`` leaves. The keys of a real keyboard work too, unshown:
Tab, ctrl+p, ctrl+n, Esc, ctrl+w, ctrl+t, ctrl+x. A challenge is a real-time claim
(:class:`~tui.screens.realtime.RealtimeTable`): with 3-4 players the first
to grab a challenge card challenges, decided by reaction time.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer

from engine.games.kiitos.rules import MAX_WORD_LENGTH, RULE_TEXT, KiitosView
from engine.games.kiitos.words import frequency
from tui.coach import Coach
from tui.games.kiitos.entry import MARKS, Entry, analyse, choices_words, play_words
from tui.screens.keys import KEYS_ACTION, KEYS_BINDING
from tui.screens.realtime import RealtimeTable
from tui.widgets.chat import CHAT_BINDINGS
from tui.widgets.log import GameLog
from tui.widgets.look import PLAIN, Look
from tui.widgets.panel import Panel
from tui.widgets.prompt import PromptLine
from tui.widgets.rulings import Award, who
from tui.you import Ours, capital, is_you, phrase

LOOKS = (
    "tile",
    "played",
    "lit",
    "muted",
    "ok",
    "bad",
    "warn",
    "wait",
    "key",
    "lock",
    "turn",
    "news",
)
"""The table's looks, each a component class ``kiitos--NAME`` styled in ``kiitos.tcss``."""

TILE_WIDE = ("╭───╮", "│ {} │", "╰───╯")
TILE_NARROW = ("╭─╮", "│{}│", "╰─╯")
TILE_WIDE_LIT = ("┏━━━┓", "┃ {} ┃", "┗━━━┛")
TILE_NARROW_LIT = ("┏━┓", "┃{}┃", "┗━┛")
"""Letter tiles, three lines high; a lit tile (a letter you would or must play) has a heavy
edge, so it reads without colour too."""

RULE_SHORT = {
    "Minimum length 4": "Min. length 4",
    "Minimum length 5": "Min. length 5",
}
"""Rule card sides shortened for the rule cards line."""
FLIP_HEAD = {"length": "min. length", "positive": "positive pile"}
"""The rule cards whose flip reads as a number changing (``min. length 4 → 5``)."""


# Drawing -------------------------------------------------------------------------------

ViewMap = Mapping[str, Any]
"""The drawing helpers read a view as a mapping (tests pass plain dicts)."""


def tiles(
    letters: Sequence[str],
    width: int,
    look: Look = PLAIN,
    *,
    face: str = "tile",
    lit: Container[int] = (),
) -> Text:
    """Letters as tiles side by side: wide ones if they fit ``width``, else narrow, else text.

    ``lit`` are the positions drawn with a heavy edge (letters you would or must play).
    """
    if not letters:
        return Text("")
    count = len(letters)
    if count * 6 - 1 <= width:
        plain, heavy = TILE_WIDE, TILE_WIDE_LIT
    elif count * 4 - 1 <= width:
        plain, heavy = TILE_NARROW, TILE_NARROW_LIT
    else:
        return Text(" ".join(letters), style=look(face))
    out = Text()
    for line in range(3):
        if line:
            out.append("\n")
        for position, letter in enumerate(letters):
            if position:
                out.append(" ")
            shape = heavy if position in lit else plain
            edge = look("lit") if position in lit else Style(bold=True)
            if line == 1:
                inner = len(shape[0]) - 2
                out.append(shape[1][0], style=edge)
                out.append(letter.center(inner), style=look(face))
                out.append(shape[1][-1], style=edge)
            else:
                out.append(shape[line], style=edge)
    return out


def played_span(table: str, target: str, super_kiitos: bool) -> tuple[int, int]:
    """Where the table's letters sit in the target word (start, end); (0, 0) if they don't."""
    if not table:
        return 0, 0
    at = target.find(table) if super_kiitos else (0 if target.startswith(table) else -1)
    return (at, at + len(table)) if at >= 0 else (0, 0)


def target_text(view: ViewMap, look: Look = PLAIN) -> Text:
    """``Target [CLA]SP · Bea's word``: the played part in brackets (and lit)."""
    target = view["target"]
    out = Text()
    if target is None:
        if view["phase"] == "lead":
            out.append("No target word yet: ", style="bold")
            out.append(f"{capital(name_of(view, view['turn']))} lead", style="")
            out.append("" if view["turn"] == view["seat"] else "s")
            out.append(" with a new word.")
        return out
    table = "".join(view["table"])
    start, end = played_span(table, target, view["rules"]["super_kiitos"])
    out.append("Target ", style="bold")
    out.append(target[:start], style=look("muted"))
    out.append("[")
    out.append(target[start:end], style=look("played"))
    out.append("]")
    out.append(target[end:], style=look("muted"))
    sayer = view["sayer"]
    if sayer is not None:
        out.append(f"  {capital(possessive(view, sayer))} word")
    return out


def name_of(view: ViewMap, seat: int | None) -> str:
    return who(seat, view["players"], view["seat"])


def possessive(view: ViewMap, seat: int) -> str:
    name = name_of(view, seat)
    return Ours("your") if is_you(name) else phrase(name, "'s")


def rules_line(view: ViewMap, look: Look = PLAIN) -> Text:
    """``Rules 1 Min. length 4 · 2 Positive pile x1 (lock) · 3 Kiitos``."""
    fixed = view["mode"] != "full"
    out = Text("Rule cards" + (" (fixed) " if fixed else " "), style="bold")
    for index, card in enumerate(view["rule_cards"]):
        if index:
            out.append(" · ")
        if not fixed:
            out.append(f"{index + 1} ", style=look("key"))
        text = RULE_SHORT.get(card["text"], card["text"])
        out.append(text, style=look("lock") if card["locked"] else Style(bold=card["alternate"]))
        if card["locked"]:
            out.append(" (lock)", style=look("lock"))
    return out


def title_line(view: ViewMap, look: Look = PLAIN) -> Text:
    out = Text("Kiitos", style="bold")
    out.append(f" · round {view['round']} of {view['rounds']}")
    out.append(f" · {view['mode']} game")
    out.append(f" · deck {view['deck_count']}")
    out.append(f" · challenge cards {view['challenge_cards_left']}")
    if view["check"] == "strict":
        out.append(" · strict", style=look("muted"))
    if view["seat"] is None:
        out.append(" · watching", style=look("muted"))
    return out


def players_text(view: ViewMap, look: Look = PLAIN) -> Text:
    """One line a player: hand size, + positive, - negative, ✗ challenge cards, score."""
    plus = view["rules"]["positive_x2"]
    header = f"{'':10}hand {'+x2' if plus else '  +'}  -  ✗ pts"
    out = Text(header, style=look("muted"), no_wrap=True)
    for seat, name in enumerate(view["players"]):
        out.append("\n")
        turn = seat == view["turn"]
        out.append("▶" if turn else " ", style=look("turn"))
        label = ("you" if seat == view["seat"] else name)[:9]
        out.append(f"{label:<9}", style="bold" if turn else "")
        counts = view["hand_counts"]
        out.append(f"{counts[seat] if seat < len(counts) else 0:>4}")
        positive = view["positive"][seat]
        out.append(f"{positive:>4}")
        out.append(f"{view['negative'][seat]:>3}")
        out.append(f"{view['challenge_cards'][seat]:>3}")
        out.append(f"{view['scores'][seat]:>4}", style="bold")
    return out


def entry_line(entry: Entry, look: Look = PLAIN, *, cursor: bool = True) -> Text:
    out = Text("Word: ", style="bold")
    out.append(entry.word, style=look("played") if entry.word else "")
    if cursor:
        out.append("▏", style=look("key"))
    if entry.hint and entry.word:
        out.append(f"  {entry.hint}", style=look("key"))
    return out


def checks_line(entry: Entry, look: Look = PLAIN) -> Text:
    out = Text()
    for check in entry.checks:
        if out:
            out.append("  ")
        out.append(f"{MARKS[check.mark]} {check.text}", style=look(check.mark))
    return out


# The screen ----------------------------------------------------------------------------

PICKUP_KEYS = ("minus", "ctrl+p")
PASS_KEYS = ("greater_than_sign", "ctrl+n")
"""The keys that pick up and that use the 4-player rule: refused with the reason when the
move is not yours now (their bindings are off then, so the key would otherwise do nothing)."""


class KiitosTable(RealtimeTable[KiitosView], inherit_bindings=False):
    """The Kiitos table for one seat (or a spectator)."""

    look_names = LOOKS
    game = "kiitos"
    essential = ("#table", "#target", "#hand", "#word")
    claimed_word = "challenged"

    leave_key: ClassVar[str] = "<"
    # Each command has a plain key (a sign: letters are typed into the word line), the one
    # the footer and prompts name, so a phone's on-screen keyboard reaches every action; the
    # Tab, Ctrl and Esc keys of a real keyboard do the same, unshown.
    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        Binding("enter", "send", "say", key_display="⏎"),
        Binding("enter", "send_letter", "play", key_display="⏎"),
        Binding("enter", "send_forfeit", "give up", key_display="⏎"),
        Binding("asterisk", "idea", "idea", key_display="*"),
        Binding("tab", "idea", "idea", show=False),
        Binding("exclamation_mark", "challenge", "challenge", key_display="!"),
        Binding("minus", "pickup", "pick up", key_display="-"),
        Binding("ctrl+p", "pickup", "pick up", show=False),
        Binding("greater_than_sign", "pass_lead", "4-player rule", key_display=">"),
        Binding("ctrl+n", "pass_lead", "4-player rule", show=False),
        *(
            Binding(str(n), f"pick({n})", "choose", key_display="1-9", show=n == 1)
            for n in range(1, 10)
        ),
        *(
            Binding(str(n), f"flip({n})", "flip", key_display="1-3", show=n == 1)
            for n in range(1, 4)
        ),
        *(
            Binding(str(n), f"starter({n})", "who starts", key_display="1-4", show=n == 1)
            for n in range(1, 5)
        ),
        Binding("backspace", "erase", "erase", show=False),
        Binding("backspace", "clear", "cancel", show=False),  # only with a choice open
        Binding("escape", "clear", "clear"),
        Binding("ctrl+r", "rules", "rules", show=False),  # and on the key list (?)
        Binding("number_sign", "why", "why", key_display="#"),
        Binding("ctrl+w", "why", "why", show=False),
        Binding("<", "leave", "leave", key_display="<"),
        Binding("ctrl+x", "leave", "leave", show=False),
        *CHAT_BINDINGS,
        Binding("at", "chat", "chat", show=False),
    ]

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[Any] | None = None
    ) -> None:
        super().__init__(table_id=table_id, place=place, coach=coach)
        self.typed = ""
        """The word on the entry line, upper case."""
        self.words: Container[str] | None = None
        """The dictionary, once loaded (``None`` while it loads)."""
        self.choices: list[dict[str, Any]] = []
        """Several ways to say the word: the player picks one with a digit."""
        self._idea = 0
        self._sent = ""
        """The word last sent, put back on the line if the host refuses it."""
        self._word_reveal: int | None = None
        self._last_challenge: tuple[int, str] | None = None
        """Who challenged which word, since the last word said: a late ``!`` is told so."""
        """The reveal of the last word said (a challenge names it)."""
        self._ending = False
        self._typed_shown = False
        self._legal_of: KiitosView | None = None
        self._legal: dict[str, list[dict[str, Any]]] = {}
        """The legal actions of :attr:`_legal_of` by type (:meth:`legal`)."""
        self.news = Text("")
        """The last challenge decided or word completed, in a sentence under the target."""
        """The events being read end the game (no round-end toast over the results)."""

    def compose_board(self) -> ComposeResult:
        yield Panel(id="title")
        yield Panel(id="rules")
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Panel(id="table-label")
                yield Panel(id="table")
                yield Panel(id="target")
                yield Panel(id="news")
                yield Panel(id="hand-label")
                yield Panel(id="hand")
            with Vertical(id="side"):
                yield Panel(id="players")
                yield GameLog(id="log")
        yield Panel(id="word")
        yield Panel(id="checks")

    def on_mount(self) -> None:
        # Textual also runs TableScreen.on_mount (handlers run along the MRO).
        self.query_one(Footer).compact = True
        self.run_worker(self._load_words, thread=True, group="kiitos-words", exit_on_error=False)

    def _load_words(self) -> None:
        """The dictionary, read in a thread (about 0.1 s) so the table never freezes, and the
        words' frequencies that order the ideas (and the coach's examples)."""
        from engine.games.kiitos.words import dictionary

        words = dictionary()
        frequency()
        self.app.call_from_thread(self.words_ready, words)

    def words_ready(self, words: Container[str]) -> None:
        self.words = words
        self._redraw_entry()

    # State -----------------------------------------------------------------------------

    @property
    def playing(self) -> KiitosView | None:
        """The view, once the game is dealt (``None`` in the waiting room)."""
        return self.view

    def legal(self, kind: str) -> list[dict[str, Any]]:
        """The view's legal actions of ``kind`` (sorted once per view: the footer asks for
        each of its keys, several times a view)."""
        view = self.playing
        if view is None:
            return []
        if self._legal_of is not view:
            by_kind: dict[str, list[dict[str, Any]]] = {}
            for action in view["legal"]:
                by_kind.setdefault(str(action.get("type")), []).append(action)
            self._legal_of, self._legal = view, by_kind
        return list(self._legal.get(kind, ()))

    def entry(self) -> Entry:
        view = self.playing
        if view is None:
            return Entry(self.typed)
        return analyse(view, self.typed, self.words)

    def mine(self, phase: str) -> bool:
        view = self.playing
        return (
            view is not None
            and view["seat"] is not None
            and view["turn"] == view["seat"]
            and view["phase"] == phase
            and view["outcome"] is None
        )

    def free_to_say(self) -> bool:
        """Whether it is this player's turn to lead or to say a new word (not compelled)."""
        view = self.playing
        if view is None or self.starting:  # the host has not begun the game yet
            return False
        if self.mine("lead"):
            return True
        return self.mine("play") and bool(self.legal("pickup"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows only what may be done now (and always rules and leave; why once
        the host has ruled on a challenge)."""
        if action == "why":
            return bool(self.history.explained)
        if action in ("rules", "leave", "why", KEYS_ACTION):
            return True
        view = self.playing
        if view is None:
            return False
        if self.choices:
            return action in ("pick", "clear") and (
                action == "clear" or int(str(parameters[0])) <= len(self.choices)
            )
        compelled = bool(self.legal("play"))
        if action == "send":  # any word may be said (once typed): the legal words are examples
            return self.free_to_say() and not compelled and bool(self.typed)
        if action == "send_letter":
            return compelled
        if action == "send_forfeit":  # the letter to give up is typed first
            return bool(self.legal("forfeit")) and bool(self.typed)
        if action == "idea":
            return bool(self.legal("lead") or self.legal("say"))
        if action == "challenge":
            return bool(self.legal("challenge"))
        if action == "pickup":
            return bool(self.legal("pickup"))
        if action == "pass_lead":
            return bool(self.legal("pass_lead"))
        if action == "flip":
            return bool(self.legal("flip")) and int(str(parameters[0])) <= 3
        if action == "starter":
            return bool(self.legal("choose")) and int(str(parameters[0])) <= len(view["players"])
        if action == "pick":
            return False
        if action in ("erase", "clear"):
            return bool(self.typed)
        return True

    # Keys ------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Letters type the word (whoever's turn it is: a word can be made ready)."""
        character = event.character or ""
        if len(character) == 1 and character.isascii() and character.isalpha():
            event.stop()
            event.prevent_default()
            if self.playing is None or self.view is None or self.view["seat"] is None:
                if self.playing is not None:
                    self.refused("You are watching: only players say words")
                return
            chose = bool(self.choices)
            self.choices = []
            if len(self.typed) < MAX_WORD_LENGTH:
                self.typed += character.upper()
                self._idea = 0
            if chose:
                self._redraw()  # the choice is dropped: its keys leave the footer
            else:
                self._redraw_entry()
            return
        if self.playing is None or event.key in ("enter", "escape", "backspace", "tab"):
            return
        if event.key == "exclamation_mark" and not self.legal("challenge"):
            event.stop()
            self.refused(self.why_no_challenge())
        elif event.key in PICKUP_KEYS and not self.legal("pickup"):
            event.stop()
            self.refused(self.why_not_yours("pick up"))
        elif event.key in PASS_KEYS and not self.legal("pass_lead"):
            event.stop()
            self.refused(self.why_not_yours("pass"))

    def why_no_challenge(self) -> str:
        view = self.playing
        if view is None:
            return "The game has not started"
        if view["seat"] is None:
            return "You are watching: only players challenge"
        if view["outcome"] is not None:
            return "The game is over"
        if view["check"] == "strict":
            return "This table refuses non-words at once: there are no challenges"
        if view["announcer"] is not None and view["announcer"] == view["seat"]:
            return "That is your own word: others may challenge it"
        if self._last_challenge is not None:
            seat, word = self._last_challenge
            challenger = capital(who(seat, view["players"], view["seat"]))
            return f"{challenger} challenged {word} first: a word is challenged once"
        return "There is no word to challenge now (a letter was played after it)"

    def why_not_yours(self, what: str) -> str:
        view = self.playing
        if view is None or view["seat"] is None:
            return f"You are watching: only players {what}"
        if view["turn"] != view["seat"]:
            return f"It is {name_of(view, view['turn'])}'s turn"
        if what == "pick up" and self.legal("play"):
            letters = " or ".join(sorted({str(a["letter"]) for a in self.legal("play")}))
            return f"You hold {letters}: you must continue {view['target']}"
        if what == "pick up":
            return "There is nothing to pick up now"
        return "The 4-player rule applies only right after picking up a 4-letter word"

    def action_send(self) -> None:
        entry = self.entry()
        if entry.problem:
            self.refused(entry.problem)
            return
        if len(entry.actions) == 1:
            self._send(entry.actions[0])
        elif entry.actions:
            self.choices = list(entry.actions)
            self._redraw()

    def action_send_letter(self) -> None:
        self.action_send()

    def action_send_forfeit(self) -> None:
        self.action_send()

    def action_pick(self, number: int) -> None:
        if 1 <= number <= len(self.choices):
            action = self.choices[number - 1]
            self.choices = []
            self._send(action)

    def action_idea(self) -> None:
        """Fill in the next of the legal actions' words, the most used first."""
        ideas = self.legal("lead") + self.legal("say")
        if not ideas:
            return
        order = frequency()
        said = dict.fromkeys(str(a["word"]).lower() for a in ideas)
        words = [word.upper() for word in sorted(said, key=lambda word: (order.key(word), word))]
        self.typed = words[self._idea % len(words)]
        self._idea += 1
        self.choices = []
        self._redraw()

    def action_erase(self) -> None:
        self.typed = self.typed[:-1]
        self._idea = 0
        self._redraw_entry()

    def action_clear(self) -> None:
        self.typed = ""
        self.choices = []
        self._idea = 0
        self._redraw()

    def action_challenge(self) -> None:
        view = self.playing
        if view is None:
            return
        if not self.legal("challenge"):
            self.refused(self.why_no_challenge())
            return
        if self.claim({"type": "challenge"}):
            self.query_one(PromptLine).prompt(self.prompt_text(view))

    def action_pickup(self) -> None:
        if self.legal("pickup"):
            self._send({"type": "pickup"})
        else:
            self.refused(self.why_not_yours("pick up"))

    def action_pass_lead(self) -> None:
        if self.legal("pass_lead"):
            self._send({"type": "pass_lead"})
        else:
            self.refused(self.why_not_yours("pass"))

    def action_flip(self, number: int) -> None:
        view = self.playing
        if view is None or not self.legal("flip"):
            return
        cards = view["rule_cards"]
        card = cards[number - 1]
        if card["locked"]:
            self.refused("That rule card holds the lock token: flip another one")
            return
        self._send({"type": "flip", "card": card["card"]})

    def action_starter(self, number: int) -> None:
        if self.legal("choose"):
            self._send({"type": "choose", "seat": number - 1})

    def _send(self, action: dict[str, Any]) -> None:
        self._sent = self.typed
        self.typed = ""
        self.choices = []
        self._idea = 0
        self.act(action)
        self._redraw()

    def refused(self, reason: str) -> None:
        if self._sent and not self.typed:
            self.typed, self._sent = self._sent, ""  # the host said no: the word comes back
            if self._ready:
                self._redraw_entry()
        super().refused(reason)

    # What the host's rulings mean here ---------------------------------------------------

    def happened(self, events: Sequence[dict[str, Any]]) -> None:
        self._ending = any(event.get("kind") == "game_end" for event in events)
        super().happened(events)

    def game_event(self, event: Mapping[str, Any]) -> None:
        data = event.get("data")
        if not isinstance(data, Mapping):
            return
        kind = event.get("kind")
        view = self.view
        names = [] if view is None else view["players"]
        me = None if view is None else view["seat"]
        if kind in ("lead", "say", "pickup"):
            self.news = Text("")  # a new word, or the table picked up: the last news is over
        if kind in ("lead", "say") and isinstance(data.get("reveal"), int):
            self._word_reveal = int(data["reveal"])
            self._last_challenge = None
        elif kind in ("play", "pickup"):
            self._last_challenge = None  # a letter after the word: the usual reason applies
        elif kind == "challenge" and isinstance(data.get("seat"), int):
            self._last_challenge = (int(data["seat"]), str(data.get("word", "")).upper())
            reveal = self._word_reveal
            if reveal is None and view is not None:
                reveal = view["reveal"]
            word = str(data.get("word", "")).upper()
            valid = bool(data.get("valid"))
            award = self.history.award(
                reveal if reveal is not None else -1,
                int(data["seat"]),
                f"the challenge of {word}",
                names,
                me,
                "a word" if valid else "not a word",
            )
            self.news = Text(self.challenge_words(data, award), style=self.look("news"))
        elif kind == "kiitos" and isinstance(data.get("seat"), int):
            sayer = who(int(data["seat"]), names, me)
            takes = "take" if is_you(sayer) else "takes"
            word = str(data.get("word", "")).upper()
            self.news = Text(f"Kiitos! {word} is complete: {sayer} {takes} {data.get('count')}.")
        elif kind == "round_end" and not self._ending:  # the results say it all
            self.notify(str(event.get("text", "")), title="Round over", timeout=10)

    def challenge_words(self, data: Mapping[str, Any], award: Award) -> str:
        """``Bea challenged CLASP: not a word; Cy takes -1. First, 13 ms ahead of you.``"""
        view = self.view
        names = [] if view is None else view["players"]
        me = None if view is None else view["seat"]
        challenger = capital(who(int(data["seat"]), names, me))
        verdict = "a word" if data.get("valid") else "not a word"
        loser = data.get("loser")
        taker = who(loser if isinstance(loser, int) else None, names, me)
        takes = "take" if is_you(taker) else "takes"
        text = f"{challenger} challenged {str(data.get('word', '')).upper()}: {verdict};"
        text += f" {taker} {takes} the -1."
        if award.contested:
            text += f" First{self.history.margin_words(award, names, me)}."
        return text

    def moment_words(self, view: Mapping[str, Any]) -> str:
        target = view.get("target")
        return str(target) if target else "the word"

    def claim_words(self, action: Mapping[str, Any]) -> str:
        view = self.view
        target = None if view is None else view["target"]
        return f"challenged {target or 'the word'}"

    # Drawing ---------------------------------------------------------------------------

    def show(self, view: KiitosView) -> None:
        """Draw each panel from its own part of the view (a panel whose part is as it was is
        neither built again nor repainted); the log in the same frame."""
        if self.choices and not own_turn_view(view):
            self.choices = []
        self._sent = ""
        look = self.look
        seat = view["seat"]
        self.query_one("#title", Panel).draw(
            (
                view["round"],
                view["rounds"],
                view["mode"],
                view["deck_count"],
                view["challenge_cards_left"],
                view["check"],
                seat is None,
            ),
            lambda: title_line(view, look),
        )
        self.query_one("#rules", Panel).draw(
            (view["mode"], view["rule_cards"]), lambda: rules_line(view, look)
        )
        self.query_one("#table-label", Panel).draw(
            len(view["table"]), lambda: self._table_label(view)
        )
        width = self._board_width()
        self.query_one("#table", Panel).draw(
            (view["table"], width), lambda: tiles(view["table"], width, look, face="played")
        )
        challenge = bool(self.legal("challenge"))
        self.query_one("#target", Panel).draw(
            (
                view["target"],
                view["phase"],
                view["turn"],
                view["table"],
                view["rules"],
                view["sayer"],
                view["players"],
                seat,
                view["refused_words"],
                challenge,
                view["announcer"],
            ),
            lambda: self._target(view),
        )
        self.query_one("#news", Panel).show(self.news)
        self.query_one("#players", Panel).draw(
            (
                view["rules"]["positive_x2"],
                view["players"],
                view["turn"],
                seat,
                view["hand_counts"],
                view["positive"],
                view["negative"],
                view["challenge_cards"],
                view["scores"],
            ),
            lambda: players_text(view, look),
        )
        self._redraw()
        self.query_one(GameLog).show(view["log"])

    def _redraw(self) -> None:
        view = self.playing
        if view is None or not self._ready:
            return
        self._redraw_entry()
        self.query_one(PromptLine).prompt(self.prompt_text(view))
        self._follow_bindings()

    def _redraw_entry(self) -> None:
        view = self.playing
        if view is None or not self._ready:
            return
        look = self.look
        entry = self.entry()
        hand = view["hand"]
        label = self.query_one("#hand-label", Panel)
        if hand is None:
            label.show(Text("Watching: the hands are hidden.", style=look("muted")))
            self.query_one("#hand", Panel).show("")
            self.query_one("#word", Panel).show("")
            self.query_one("#checks", Panel).show("")
            return
        lit = lit_positions(hand, entry.plays)
        title = Text(f"Your hand ({len(hand)})", style="bold")
        if not hand and view["outcome"] is None:
            title.append(": dealt when the round starts", style=look("muted"))
        if view["compelled"]:
            must = " or ".join(sorted({str(a["letter"]) for a in self.legal("play")}))
            title.append(f"  you must play {must}", style=look("lit"))
        label.show(title)
        self.query_one("#hand", Panel).show(tiles(hand, self._board_width(), look, lit=lit))
        word = self.query_one("#word", Panel)
        checks = self.query_one("#checks", Panel)
        if self.choices:
            word.show(entry_line(Entry(self.typed), look, cursor=False))
            checks.show(self._choices_text(view))
        elif view["phase"] in ("flip", "choose", "over"):
            word.show(entry_line(Entry(self.typed), look))
            checks.show(self._menu_text(view))
        else:
            word.show(entry_line(entry, look))
            shown = checks_line(entry, look)
            if not entry.checks and entry.problem and self.typed:
                shown = Text(f"✗ {entry.problem}", style=look("bad"))
            elif view["compelled"] and not self.typed:
                shown = self._must_text(view)
            elif not entry.checks and not self.typed and entry.hint:
                shown = Text(entry.hint, style=look("muted"))
            checks.show(shown)
        if bool(self.typed) != self._typed_shown:  # esc clear: in the footer or not
            self._typed_shown = bool(self.typed)
            self._follow_bindings()

    def _menu_text(self, view: KiitosView) -> Text:
        """The rule cards to flip, or the players to choose from, numbered for the keys."""
        look = self.look
        out = Text()
        if self.legal("flip"):
            for index, card in enumerate(view["rule_cards"]):
                if card["locked"]:
                    continue
                if out:
                    out.append(" · ")
                out.append(f"{index + 1} ", style=look("key"))
                now, after = (RULE_SHORT.get(text, text) for text in flip_texts(card))
                out.append(f"{now} → {after}")
        elif self.legal("choose"):
            for seat, name in enumerate(view["players"]):
                if out:
                    out.append(" · ")
                out.append(f"{seat + 1} ", style=look("key"))
                out.append("you" if seat == view["seat"] else name)
        return out

    def _must_text(self, view: KiitosView) -> Text:
        """Why a letter must be played: ``You hold E, the next letter of AIDES: play it``."""
        plays = self.legal("play")
        letters = " or ".join(sorted({str(action["letter"]) for action in plays}))
        if view["rules"]["super_kiitos"]:
            why = f"You hold {letters}, which continues {view['target']}: you must play it"
        else:
            why = f"You hold {letters}, the next letter of {view['target']}: you must play it"
        return Text(why, style=self.look("muted"))

    def _choices_text(self, view: KiitosView) -> Text:
        look = self.look
        out = Text("Play which? ", style="bold")
        super_kiitos = view["rules"]["super_kiitos"]
        for index, action in enumerate(self.choices):
            if index:
                out.append(" · ")
            out.append(f"{index + 1} ", style=look("key"))
            out.append(play_words(action, super_kiitos))
        out.append(" · backspace cancels", style=look("muted"))
        return out

    def _board_width(self) -> int:
        width = self.query_one("#board").content_region.width
        return width if width > 0 else 46

    def _table_label(self, view: KiitosView) -> Text:
        table = view["table"]
        out = Text("On the table", style="bold")
        if table:
            out.append(f" ({len(table)})")
        else:
            out.append(": nothing yet", style=self.look("muted"))
        return out

    def _target(self, view: KiitosView) -> Text:
        look = self.look
        out = target_text(view, look)
        if view["refused_words"]:
            out.append(f"\nFailed this turn: {', '.join(view['refused_words'])}", style=look("bad"))
        elif self.legal("challenge"):
            out.append("\n")
            out.append("! ", style=look("key"))
            out.append(f"challenges {view['target']} (before the next letter)")
        elif view["announcer"] is not None and view["announcer"] == view["seat"]:
            out.append("\nOthers may challenge it until the next letter.", style=look("muted"))
        return out

    def prompt_text(self, view: KiitosView) -> str:
        """What the player may do now, in words."""
        if view["outcome"] is not None:
            return "Game over · ? keys and rules · < leaves"
        if self.starting:  # a real-time table counts down before the game begins
            left = self.starts_in
            when = f"in {left:.0f} s" if isinstance(left, int | float) else "when all are here"
            return f"The game begins {when}: the first word may be typed already"
        seat = view["seat"]
        turn = view["turn"]
        pending = self.pending_claim
        if pending is not None:
            return f"Challenging {view['target']}... (the host is deciding)"
        if self.choices:
            return "Which one? Press its number (backspace cancels)"
        if seat is None:
            why = " · # why" if self.history.explained else ""  # once there is a ruling
            return f"Watching · {capital(name_of(view, turn))} to play{why} · < leaves"
        challenge = f" · ! challenges {view['target']}" if self.legal("challenge") else ""
        if turn != seat:
            doing = {
                "lead": "to lead a word",
                "play": "to play",
                "flip": "to flip a rule card",
                "forfeit": "to give up a card",
                "choose": "to choose who starts",
            }.get(view["phase"], "")
            return f"{capital(name_of(view, turn))} {doing}{challenge}"
        phase = view["phase"]
        if phase == "flip":
            return "Kiitos! Flip a rule card that does not hold the lock: press its number"
        if phase == "forfeit":
            return "The challenge cards are gone: type a letter of your hand to give up, ⏎"
        if phase == "choose":
            return f"You have the lowest score: who starts round {view['round']}? Press a number"
        plays = self.legal("play")
        if plays:
            what = choices_words(plays, view["rules"]["super_kiitos"])
            return f"⏎ plays {what} (it continues {view['target']}){challenge}"
        extra = " · > the 4-player rule" if self.legal("pass_lead") else ""
        idea = bool(self.legal("lead") or self.legal("say"))  # * is offered only then
        if phase == "lead":
            return f"Your lead: type a word, ⏎ says it{' (* an idea)' if idea else ''}{extra}"
        count = len(view["table"])
        if not idea:  # no word of the list fits: * would have nothing to offer
            return f"A new word if you know one, ⏎ says it · - picks up {count}{challenge}"
        return f"New word (* idea), ⏎ says it · - picks up {count}{challenge}"

    # Results ---------------------------------------------------------------------------

    def results_lines(self, view: KiitosView) -> list[str]:
        players = view["players"]
        outcome = view["outcome"]
        totals = view["totals"] if outcome is None else list(outcome["scores"])
        winners = [] if outcome is None else list(outcome["winners"])
        seat = view["seat"]
        best = totals[winners[0]] if winners else 0
        names = " and ".join(players[index] for index in winners if index < len(players))
        if seat is not None and seat in winners:
            head = f"You win with {best}!" if len(winners) == 1 else f"You share the win ({names})!"
        elif len(winners) == 1:
            head = f"{names} wins with {best}."
        else:
            head = f"{names} share the win with {best}."
        rounds = view["round_scores"]
        header = f"{'':12}" + "".join(f"{'R' + str(n + 1):>5}" for n in range(len(rounds)))
        lines = [head, "", header + "  total"]
        for index, name in enumerate(players):
            label = f"{name} (you)" if index == seat else name
            row = "".join(f"{scores[index]:>5}" for scores in rounds if index < len(scores))
            lines.append(f"{label[:12]:<12}{row}{totals[index]:>7}")
        contests = self.contest_lines("challenge")
        if contests:
            lines += ["", *contests]
        lines += ["", "t or Esc: back to the table"]
        return lines


def flip_texts(card: Mapping[str, Any]) -> tuple[str, str]:
    """A rule card's side now and the side a flip shows, short: ``min. length 4``, ``5``."""
    sides = RULE_TEXT[str(card["card"])]
    now, after = sides[bool(card["alternate"])], sides[not card["alternate"]]
    head = FLIP_HEAD.get(str(card["card"]))
    if head:
        return f"{head} {now.split()[-1]}", after.split()[-1]
    return now, after


def own_turn_view(view: KiitosView) -> bool:
    return view["seat"] is not None and view["turn"] == view["seat"]


def lit_positions(hand: Sequence[str], letters: Container[str]) -> set[int]:
    """The first tile of each letter in ``letters`` (one card of it would be played)."""
    lit: set[int] = set()
    seen: set[str] = set()
    for position, letter in enumerate(hand):
        if letter in letters and letter not in seen:
            lit.add(position)
            seen.add(letter)
    return lit
