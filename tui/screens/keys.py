"""``?`` on every screen: the keys of the screen below, one a line, each with what it does.

Textual's footer is one line and does not wrap: on a phone held upright (48
columns) most of a table's keys are cut off, and a key the footer does not
show (Esc, ctrl+k, the digits behind ``1-7``) is found nowhere. Every screen
binds ``?`` (:data:`KEYS_BINDING`, the first key of its footer, so it is the
one key never cut) to :class:`KeysScreen`, which lists every binding of the
screen it was opened over: the focused widget's, the screen's and, above a
screen that is not a dialog, the app's, as Textual's footer finds them, with
those that do nothing now marked. Choosing a line (Enter, or a click or a tap)
closes the list and does what that key does, so a key a phone's keyboard lacks
is reached too.

A screen binds it with :data:`KEYS_BINDING` in its ``BINDINGS`` and an
``action_show_keys`` that calls :func:`show_keys`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

KEYS_ACTION = "show_keys"
"""The action every screen binds to ``?``."""
KEYS_BINDING = Binding("question_mark", KEYS_ACTION, "keys", key_display="?")
"""``?``: the list of this screen's keys (first in a screen's ``BINDINGS``: first in its
footer, the part a narrow screen never cuts)."""

_DIGIT_RANGE = re.compile(r"\d-\d")


def show_keys(screen: Screen[Any]) -> None:
    """Open the key list over ``screen`` (a chosen line does that key's action on it)."""
    screen.app.push_screen(KeysScreen(screen), lambda line: _use(screen, line))


def _use(screen: Screen[Any], line: KeyLine | None) -> None:
    if line is not None and screen.is_attached:
        screen.app.call_later(screen.app.run_action, line.action, line.namespace)


@dataclass(eq=False)
class KeyLine:
    """One thing a screen does by key: its keys as shown, what it does, whether it can now."""

    keys: list[str]
    description: str
    action: str
    """The first binding's action (what choosing the line does)."""
    namespace: DOMNode
    enabled: bool
    shown: list[str] = field(default_factory=list)
    """The keys its footer shows (the others are kept apart: a digit behind ``1-7``)."""

    @property
    def label(self) -> str:
        """The keys, ``1-7`` or ``q`` or ``esc, ^t``, as the list shows them."""
        return ", ".join(self.keys)


def _base(action: str) -> str:
    """``first`` of ``first(3)``: the keys of one action with different arguments go together
    when only the first has a description (``0-9`` who was first)."""
    return action.split("(", 1)[0]


def textual_own(namespace: DOMNode) -> set[tuple[str, str]]:
    """The (action, description) of each binding ``namespace`` has from Textual's own classes
    (a list's cursor keys, every screen's copy key): listed only when the footer shows them."""
    own: set[tuple[str, str]] = {("command_palette", "palette")}
    for cls in type(namespace).__mro__:
        if cls.__module__.startswith("textual."):
            for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", [])):
                own.add((binding.action, binding.description))
    return own


def key_lines(screen: Screen[Any]) -> list[KeyLine]:
    """Every key ``screen`` answers to now, one line per action, in the footer's order, the
    footer's keys first; a key the footer hides is listed too (``esc``, ``^k``), Textual's
    own hidden keys (a list's cursor keys) are not, and neither is ``?`` itself."""
    app = screen.app
    lines: list[KeyLine] = []
    by_action: dict[tuple[int, str, str], KeyLine] = {}
    taken: set[str] = set()
    for namespace, bindings in screen._modal_binding_chain:
        own = textual_own(namespace)
        for key, binding in bindings:
            if key in taken and not binding.priority:
                continue
            if binding.action == KEYS_ACTION or (
                not binding.show and (binding.action, binding.description) in own
            ):
                continue
            state = app._check_action_state(binding.action, namespace)
            display = app.get_key_display(binding)
            described = binding.description or ""
            group = (id(namespace), _base(binding.action), described)
            if not described:
                group = next(
                    (g for g in by_action if g[:2] == group[:2]), (*group[:2], binding.action)
                )
            line = by_action.get(group)
            if line is None:
                line = KeyLine([], described or binding.action, binding.action, namespace, False)
                by_action[group] = line
                lines.append(line)
            if binding.show and display not in line.shown:
                line.shown.append(display)
            if display not in line.keys:
                line.keys.append(display)
            line.enabled = line.enabled or bool(state)
            if state is not False:  # as Textual's footer: the first binding that may act wins
                taken.add(key)
    for line in lines:
        line.keys = _ordered(line)
    return sorted(lines, key=lambda line: not line.shown)


def _ordered(line: KeyLine) -> list[str]:
    """The footer's keys first, then the hidden ones: one a shown key covers left out (``→``
    of ``←→``, a digit of ``1-7``), a run of digits as a range (``1-6``)."""
    ranged = any(_DIGIT_RANGE.search(key) for key in line.shown)
    hidden = [
        key
        for key in line.keys
        if key not in line.shown
        and not any(key in shown for shown in line.shown)
        and not (ranged and key.isdigit())
    ]
    digits = sorted(int(key) for key in hidden if key.isdigit())
    if len(digits) > 2 and digits == list(range(digits[0], digits[-1] + 1)):
        hidden = [key for key in hidden if not key.isdigit()] + [f"{digits[0]}-{digits[-1]}"]
    return [*line.shown, *hidden]


class KeysScreen(ModalScreen[KeyLine | None]):
    """The list of the keys of the screen below; Enter (or a click) on a line uses it."""

    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen #keys {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: heavy $accent; padding: 0 1; background: $surface;
    }
    KeysScreen #keys-title { text-style: bold; dock: top; }
    KeysScreen #keys-hint { color: $text-muted; dock: bottom; }
    KeysScreen OptionList { height: auto; max-height: 1fr; border: none; padding: 0; }
    """
    """The title and the hint are docked to the box's edges, so a list longer than the screen
    scrolls in the rows they leave (undocked, the hint fell below the box at 80x24)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "close", "back"),
        Binding("question_mark", "close", "back", show=False),
        Binding("escape", "close", "back", show=False),
    ]

    def __init__(self, below: Screen[Any]) -> None:
        super().__init__()
        self.below = below
        self.lines = key_lines(below)

    def compose(self) -> ComposeResult:
        with Vertical(id="keys"):
            yield Static("Keys here", id="keys-title")
            width = max((len(line.label) for line in self.lines), default=1)
            width = min(width, 12)
            options = []
            for index, line in enumerate(self.lines):
                text = Text(line.label.rjust(width), style="bold")
                text.append("  " + line.description)
                if not line.enabled:
                    text.append(" (not now)", style="dim")
                options.append(Option(text, id=str(index), disabled=not line.enabled))
            yield OptionList(*options, id="keys-list")
            yield Static("enter (or a tap) on a line does it · q back", id="keys-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int(event.option.id or 0)
        self.dismiss(self.lines[index])

    def action_close(self) -> None:
        self.dismiss(None)
