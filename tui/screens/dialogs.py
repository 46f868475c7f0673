"""Small dialogs: the player's name, a host's address, a new table's game and options.

Each returns plain data with ``dismiss`` (``None`` when cancelled) and
checks what was typed before closing, saying what is wrong in the dialog.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from engine import registry
from net.chat import SPECTATOR_CHAT_OPTION
from net.host import DEFAULT_PORT
from tui.commands.address import parse_address
from tui.config import BadName, clean_name


class Dialog(ModalScreen[Any]):
    """A centred box; escape cancels, enter in the last field submits."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_mount(self) -> None:
        self.add_class("dialog")

    def say(self, problem: str) -> None:
        self.query_one("#problem", Static).update(problem)


NAME_KEYS = "enter: OK · esc: cancel"
"""The name dialog's keys, said in the dialog (it has no footer; first-run players need them)."""


class NameDialog(Dialog):
    """Asks the player's name (shown to the others at the table)."""

    def __init__(self, current: str | None = None) -> None:
        super().__init__()
        self.current = current or ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Your name (the others see it at the table):")
            yield Input(
                self.current, placeholder="e.g. Bea", id="name", max_length=32, compact=True
            )
            yield Static("", id="problem", classes="error")
            yield Static(NAME_KEYS, id="keys", classes="keys")

    @on(Input.Submitted)
    def submit(self) -> None:
        try:
            self.dismiss(clean_name(self.query_one("#name", Input).value))
        except BadName as error:
            self.say(str(error))


class AddressDialog(Dialog):
    """Join by address: ``host[:port]`` when the LAN lookup cannot see the host."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Host address (host or host:port, port {DEFAULT_PORT} by default):")
            yield Input(placeholder="192.168.1.20:7707", id="address", compact=True)
            yield Static("", id="problem", classes="error")

    @on(Input.Submitted)
    def submit(self) -> None:
        try:
            self.dismiss(parse_address(self.query_one("#address", Input).value))
        except ValueError as error:
            self.say(str(error))


@dataclass
class NewTable:
    """What the create dialog returns."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 2
    bots: int = 0


HIDDEN_OPTIONS = {"deck"}
"""Options not offered in the dialog (``deck`` is for tests and replays)."""


def option_widgets(option: Mapping[str, Any]) -> Iterator[Widget]:
    """One game option's widgets: a checkbox (a yes/no), or a label and an input; a long
    description goes under it, wrapped, so it is read whole at 80 columns."""
    name, help_text = str(option["name"]), str(option["help"])
    if option["kind"] == "bool":
        short, _, detail = help_text.partition(": ")
        if not detail and " (" in help_text:
            short, _, rest = help_text.partition(" (")
            detail = "(" + rest
        yield Checkbox(
            short if detail else help_text,
            bool(option["default"]),
            id=f"option-{name}",
            classes="option",
            compact=True,
        )
        if detail:
            yield Static(detail, classes="option-help")
        return
    limits = ""
    if "minimum" in option or "maximum" in option:
        limits = f" ({option.get('minimum', '')}-{option.get('maximum', '')})"
    yield Static(f"{help_text}{limits}:", classes="option-label")
    yield Input(str(option["default"]), id=f"option-{name}", classes="option", compact=True)


class CreateDialog(Dialog):
    """Pick a game, its options, the number of seats and how many of them are bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        Binding("ctrl+s", "create", "create"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game or registry.names()[0]

    def compose(self) -> ComposeResult:
        described = registry.get(self.game).describe()
        games = [(registry.get(name).title, name) for name in registry.names()]
        low, high = described["min_players"], described["max_players"]
        with Vertical():
            yield Label("New table on this computer (others on the LAN can join)")
            yield Select(games, value=self.game, allow_blank=False, id="game", compact=True)
            with Horizontal(classes="buttons"):
                yield Label("Seats ")
                yield Select(
                    [(str(n), n) for n in range(low, high + 1)],
                    value=low,
                    allow_blank=False,
                    id="seats",
                    compact=True,
                )
                yield Label(" bots ")
                yield Select(
                    [(str(n), n) for n in range(high)],
                    value=low - 1,
                    allow_blank=False,
                    id="bots",
                    compact=True,
                )
            # The options scroll between the fixed head and buttons: a game with many (Kiitos)
            # still shows Create and Cancel at 80x24.
            with VerticalScroll(id="options"):
                for option in described["options"]:
                    if option["name"] not in HIDDEN_OPTIONS:
                        yield from option_widgets(option)
                yield Checkbox(
                    "Mute spectators for the players",
                    False,
                    id="mute-spectators",
                    compact=True,
                )
                yield Static(
                    "during the game, so watchers' hints never reach the table (players can "
                    "change it: F4 in the chat)",
                    classes="option-help",
                )
            yield Static("", id="problem", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Create (ctrl+s)", id="create", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    @on(Select.Changed, "#game")
    async def game_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.game:
            self.game = event.value
            await self.recompose()

    @on(Button.Pressed, "#cancel")
    def cancelled(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#create")
    @on(Input.Submitted)
    def action_create(self) -> None:
        game = registry.get(self.game)
        options: dict[str, Any] = {}
        for widget in self.query(".option"):
            name = (widget.id or "").removeprefix("option-")
            if isinstance(widget, Checkbox):
                options[name] = "true" if widget.value else "false"
            elif isinstance(widget, Input):
                options[name] = widget.value.strip()
        seats = self.query_one("#seats", Select).value
        bots = self.query_one("#bots", Select).value
        assert isinstance(seats, int) and isinstance(bots, int)
        if bots >= seats:
            self.say(f"Leave at least one seat for you: at most {seats - 1} bots")
            return
        from engine.core import InvalidOptions, parse_options

        try:
            parsed = parse_options(game.title, game.option_specs, options)
        except InvalidOptions as error:
            self.say(str(error))
            return
        chosen = {name: parsed[name] for name in options}
        if self.query_one("#mute-spectators", Checkbox).value:
            chosen[SPECTATOR_CHAT_OPTION] = "hidden"  # a table option the host takes (net.chat)
        self.dismiss(NewTable(self.game, chosen, seats, bots))
