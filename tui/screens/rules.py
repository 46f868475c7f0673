"""The rules screen: a game's rules in short, then the assumptions this Clowder makes.

The page is Markdown drawn by Rich into one widget, not Textual's ``Markdown`` widget: that
one makes a widget for every paragraph, list item and inline run (about 460 for Kitten
Me!'s page), and Textual styles each anew whenever the screen is shown, 100-200 ms of an
SSH or web player's session on the host's box for each look at the rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.markdown import Markdown
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tui.screens.keys import KEYS_BINDING, show_keys
from tui.widgets.footer import TableFooter


def rules_markdown(title: str, rules: str, assumptions: Sequence[str]) -> str:
    """The page: the rules, then every assumption as a bullet."""
    parts = [f"# {title}: rules", "", rules.strip()]
    if assumptions:
        parts += ["", "## Where the rulebook is unclear, Clowder assumes", ""]
        parts += [f"- {line}" for line in assumptions]
    return "\n".join(parts)


class RulesScreen(Screen[None]):
    """Scrollable rules; q, r or escape goes back (the footer names q: a phone's on-screen
    keyboard may have no Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        Binding("q", "app.pop_screen", "back"),
        Binding("r", "app.pop_screen", "back", show=False),
        Binding("escape", "app.pop_screen", "back", show=False),
        Binding("up", "scroll(-1)", "scroll", key_display="↑↓"),
        Binding("down", "scroll(1)", "scroll", show=False),
    ]

    def __init__(self, title: str, rules: str, assumptions: Sequence[str] = ()) -> None:
        super().__init__()
        self.page = rules_markdown(title, rules, assumptions)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Static(Markdown(self.page, hyperlinks=False), id="rules-page")
        yield TableFooter()

    def on_mount(self) -> None:
        self.query_one("#rules").focus()

    def action_show_keys(self) -> None:
        show_keys(self)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#rules", VerticalScroll).scroll_relative(y=lines, animate=False)


def show_rules(app: App[Any], title: str, rules: str, assumptions: Sequence[str] = ()) -> None:
    """Open the rules page on top of the screen.

    Why installed: a popped screen that is not installed is thrown away, and making it
    (mounted, styled, its page laid out and drawn) is most of what ``r`` costs: about
    30 ms of CPU the first time, 8 ms to show it again. A player who looks at the rules
    again and again (or an SSH or web player, whose screen runs on the host's box) paid
    the first figure every time. One page is kept per text, a handful of small screens
    for the app's life, and it comes back where it was scrolled.
    """
    page = rules_markdown(title, rules, assumptions)
    name = "rules-" + hashlib.blake2b(page.encode(), digest_size=8).hexdigest()
    if not app.is_screen_installed(name):
        app.install_screen(RulesScreen(title, rules, assumptions), name)
    app.push_screen(name)
