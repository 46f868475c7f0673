"""The table's chat line, and how a chat line looks in the log.

Every table screen (:class:`tui.screens.table.TableScreen`) has one, hidden
until ``Ctrl+T`` (or ``t`` where letters are not the game's own: Kiitos and
Katootsie type words with them; ``@`` in Kiitos, ``t`` after ``/`` in
Katootsie) opens it. Enter sends, Esc closes. Quick reactions go out on one
key each (F1 ``gg``, F2 ``nice``, F3 ``oops``). A player mutes the
spectators' chat for the players with F4 (so watchers' hints do not reach
the table), and hears it again with F4.

Each of these has a plain way too, for a phone's on-screen keyboard (no
F-keys, often no Esc): Enter on the empty line closes it, a reaction is
typed like any line, and ``/mute`` or ``/hear`` sent as a line sets the
spectators' rule (:data:`RULE_COMMANDS`; the placeholder names them).

The line posts :class:`ChatLine.Send` instead of Textual's ``Input.Submitted``,
so a game screen that answers its own inputs' ``Submitted`` (a typed word)
never takes a chat line for a move.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.keys import key_to_character
from textual.message import Message
from textual.widgets import Input

from net.core.chat import MAX_CHAT

QUICK: tuple[tuple[str, str], ...] = (("f1", "gg"), ("f2", "nice"), ("f3", "oops"))
"""(key, line): the one-key reactions, shown in the footer."""

RULE_KEY = "f4"
"""In the open chat line, a player's key to hide the spectators' chat from the players
during the game, or to hear it again (``net.core.chat.set_rule``)."""

RULE_COMMANDS: dict[str, str] = {"/mute": "hidden", "/hear": "shown"}
"""The chat lines that set the spectators' rule instead of being said (the F4 key's plain
equivalent): ``/mute`` hides the watchers' lines from the players, ``/hear`` shows them."""

CHAT_BINDINGS: tuple[Binding, ...] = (
    Binding("ctrl+t", "chat", "chat", key_display="^t", priority=True, show=False),
    *(Binding(key, f"react({line!r})", line, show=False) for key, line in QUICK),
)
"""The chat's keys for every table screen (a screen that does not inherit its bindings, as
Kiitos's, lists them itself); ``t`` is added where letters are not typed into the game.
Kept out of the tables' crowded footers: the open chat line shows them in its own."""

RENAMED_CHARACTERS: dict[str, str] = {
    "slash": "/",
    "backslash": "\\",
    "at": "@",
    "minus": "-",
    "plus": "+",
    "underscore": "_",
}
"""Keys whose names Textual shortens (``solidus`` is ``slash``), so that its
``key_to_character`` cannot find their character."""


def typed_character(key: str) -> str | None:
    """The character ``key`` types, if any (``slash`` is ``/``): what a typing line consumes.

    A line's bindings filter (``check_consume_key``) is given Textual's ``key_to_character``,
    which knows no character for ``/``, ``-`` or ``@``: a screen's sign key would then show
    in the footer, or act as a priority key, while the player types that sign into a line.
    """
    return key_to_character(key) or RENAMED_CHARACTERS.get(key)


CHAT_STYLE = "italic cyan"
"""Chat lines in the log: unlike any game line (those are plain or bold)."""


def chat_text(name: str, seat: int | None, text: str) -> Text:
    """``» Ann: gg`` (``» Sam (watching): nice`` for a spectator), in :data:`CHAT_STYLE`."""
    watching = " (watching)" if seat is None else ""
    return Text(f"» {name}{watching}: {text}", style=CHAT_STYLE)


def rule_text(name: str | None, rule: str) -> Text:
    """Who set the table's ``spectator_chat`` rule, and what it means, as a log line.

    ``name`` ``None``: the table was created with the rule.
    """
    muted = rule == "hidden"
    if name:
        said = f"{name} {'muted' if muted else 'unmuted'} the watchers for the players"
    elif muted:
        said = "The watchers are muted for the players"
    else:
        said = "The players hear the watchers"
    return Text(f"» {said}", style=CHAT_STYLE)


class ChatLine(Input):
    """A one-line chat input at the bottom of a table, hidden while closed."""

    DEFAULT_CSS = """
    ChatLine {
        dock: bottom; display: none; margin-bottom: 1; height: 1; border: none;
        padding: 0 1; background: $primary-background;
    }
    ChatLine:focus { border: none; background: $primary-background; }
    ChatLine.-open { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close", key_display="esc"),
        *(Binding(key, f"react({line!r})", line) for key, line in QUICK),
        # One key, two meanings: check_action keeps the one that changes the rule.
        Binding(RULE_KEY, "rule('hidden')", "mute watchers"),
        Binding(RULE_KEY, "rule('shown')", "hear watchers"),
    ]

    class Send(Message):
        """The player said ``text`` (not yet checked by the host)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class SetRule(Message):
        """The player asks that the spectators' chat be ``rule`` (``"hidden"``/``"shown"``)."""

        def __init__(self, rule: str) -> None:
            super().__init__()
            self.rule = rule

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=self.placeholder_for("shown", False), id=id)
        self.max_length = MAX_CHAT
        self.can_focus = False  # closed: never the screen's first focus, keys stay the game's
        self._rule = "shown"
        self._may_set_rule = False

    def show_rule(self, rule: str, may_set: bool) -> None:
        """The table's spectator-chat rule now, and whether this client may change it
        (players may, spectators may not): which of the rule keys the footer offers."""
        if (rule, may_set) != (self._rule, self._may_set_rule):
            self._rule, self._may_set_rule = rule, may_set
            self.placeholder = self.placeholder_for(rule, may_set)
            self.refresh_bindings()

    @staticmethod
    def placeholder_for(rule: str, may_set: bool) -> str:
        """What the empty line says: how to send and close without Esc, and to a player the
        command that changes the spectators' rule (a phone's keyboard has no F4)."""
        said = "Say something · Enter sends (empty: closes)"
        if not may_set:
            return said
        if rule == "hidden":
            return f"{said} · /hear: hear the watchers"
        return f"{said} · /mute: mute the watchers"

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Every sign typed goes into the line (``/mute``), never to a screen's sign key."""
        return super().check_consume_key(key, character or typed_character(key))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rule":
            return self._may_set_rule and parameters[0] != self._rule
        return True

    def action_rule(self, rule: str) -> None:
        self.post_message(self.SetRule(rule))

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def open(self) -> None:
        self.add_class("-open")
        self.can_focus = True
        self.focus()

    def action_close(self) -> None:
        self.value = ""
        self.remove_class("-open")
        self.can_focus = False
        self.screen.set_focus(None)

    def action_react(self, line: str) -> None:
        """A quick reaction while the chat is open: sent at once, the line stays open."""
        self.post_message(self.Send(line))

    async def action_submit(self) -> None:
        """Enter: send the line (when it has words) and close; ``/mute`` or ``/hear`` set the
        spectators' rule instead (:data:`RULE_COMMANDS`)."""
        text = " ".join(self.value.split())
        rule = RULE_COMMANDS.get(text.casefold())
        if rule is not None:
            self._command_rule(rule)
        elif text:
            self.post_message(self.Send(text))
        self.action_close()

    def _command_rule(self, rule: str) -> None:
        """``/mute`` or ``/hear`` typed: as F4 would, or why not (never said to the table)."""
        if not self._may_set_rule:
            self.app.bell()
            self.notify("Only the players mute or hear the watchers", severity="warning")
        elif rule == self._rule:
            muted = "muted" if rule == "hidden" else "heard"
            self.notify(f"The watchers are already {muted} by the players", timeout=4)
        else:
            self.post_message(self.SetRule(rule))
