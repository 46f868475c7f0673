"""Small dialogs: the player's name, a host's address, a new table's game and options.

Each returns plain data with ``dismiss`` (``None`` when cancelled) and
checks what was typed before closing, saying what is wrong in the dialog.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option as OptionListItem

from engine import registry
from engine.bots import DEFAULT_LEVEL, bot_levels
from engine.core import InvalidOptions, Option, parse_options
from net.core.chat import SPECTATOR_CHAT_OPTION
from net.doors import DEFAULT_PORT
from net.wire.text import clean_text, stand_in_name
from tui.commands.address import parse_address
from tui.config import BadName, clean_name
from tui.screens.keys import KEYS_BINDING, show_keys
from tui.styles import PHONE_BREAKPOINTS
from tui.widgets.tickbox import TickBox


class Dialog(ModalScreen[Any]):
    """A centred box; escape cancels, enter in the last field submits.

    A phone's on-screen keyboard often has no Esc: each dialog also cancels on a plain key
    or a button (Enter on an empty line, ``q`` in a list, the Cancel button).
    """

    BINDINGS: ClassVar[list[BindingType]] = [KEYS_BINDING, Binding("escape", "cancel", "cancel")]
    HORIZONTAL_BREAKPOINTS = PHONE_BREAKPOINTS
    """Under :data:`tui.styles.NARROW_BELOW` columns (a phone held upright) the dialog has the
    class ``-narrow``: its lines wrap, and ``app.tcss`` lets the box take the rows they need."""

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_show_keys(self) -> None:
        show_keys(self)

    def on_mount(self) -> None:
        self.add_class("dialog")

    def say(self, problem: str) -> None:
        self.query_one("#problem", Static).update(problem)


NAME_KEYS = "enter: OK · esc: cancel"
"""The name dialog's keys, said in the dialog (it has no footer; first-run players need them)."""
RENAME_KEYS = "enter: OK · esc or an empty name: cancel"
"""The keys when a name is changed: an empty name keeps the old one (a phone has no Esc)."""


class NameDialog(Dialog):
    """Asks the player's name (shown to the others at the table)."""

    def __init__(self, current: str | None = None, *, why: str = "") -> None:
        super().__init__()
        self.current = current or ""
        self.why = why
        """Why the name is asked, said above the box (an SSH player's user name that cannot
        be their name: :func:`asked_because`)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            if self.why:
                yield Static(self.why, id="why", markup=False)
            yield Label("Your name (the others see it at the table):")
            yield Input(
                self.current, placeholder="e.g. Bea", id="name", max_length=32, compact=True
            )
            yield Static("", id="problem", classes="error")
            yield Static(RENAME_KEYS if self.current else NAME_KEYS, id="keys", classes="keys")

    @on(Input.Submitted)
    def submit(self) -> None:
        if self.current and not self.query_one("#name", Input).value.strip():
            self.dismiss(None)  # the plain way to cancel a rename: the old name stays
            return
        try:
            self.dismiss(clean_name(self.query_one("#name", Input).value))
        except BadName as error:
            self.say(str(error))


def asked_because(user_name: str) -> str:
    """Why an SSH player whose user name cannot be their name (``--ask-name``) is asked for
    one: a word standing in for a name, or a name another player here has now."""
    shown = clean_text(user_name)
    if stand_in_name(user_name):
        return f'You came in as "{shown}", a word, not a name.'
    return f'Someone else is playing here as "{shown}" now.'


ADDRESS_KEYS = "enter: join · esc or an empty address: cancel"


class AddressDialog(Dialog):
    """Join by address: ``host[:port]`` when the LAN lookup cannot see the host."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Host address (host or host:port, port {DEFAULT_PORT} by default):")
            yield Input(placeholder="192.168.1.20:7707", id="address", compact=True)
            yield Static("", id="problem", classes="error")
            yield Static(ADDRESS_KEYS, id="keys", classes="keys")

    @on(Input.Submitted)
    def submit(self) -> None:
        if not self.query_one("#address", Input).value.strip():
            self.dismiss(None)  # the plain way to cancel (a phone's keyboard may lack Esc)
            return
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
    bot_level: str | None = None
    """The bots' level (``easy``, ``normal``, ``hard``); ``None``: the host's default."""
    coach: bool = False
    """A coached first game (:mod:`tui.coach`): the table screen gets the game's coach."""
    at: tuple[str, int] | None = None
    """The host to create it at (address, port), chosen in the dialog; ``None``: this
    computer's own host (or, for a lobby that plays at one host only, that host)."""


@dataclass(frozen=True)
class Place:
    """A host the lobby lists where a terminal player may create a table instead of on
    this computer: a LAN host, or one added by address. Its SSH and browser players see
    only that host, so a table made there is one they can join too (issue 36)."""

    key: str
    """The lobby's key for the host (the dialog's choice)."""
    name: str
    """The host's name as announced: hostile text, cleaned before it is drawn."""
    address: str
    port: int
    shown: str
    """Where other people reach it (``host:port``), as the lobby shows it."""

    @property
    def label(self) -> str:
        return clean_text(f"{self.name} ({self.shown})")


HERE = "here"
"""The create dialog's choice of this computer (the other choices are :attr:`Place.key`)."""


def first_game(game: str) -> NewTable:
    """The table of a coached first game of ``game``: the coach's seats and options, every
    seat but the player's taken by an easy bot."""
    from tui.coach import FIRST_GAME_LEVEL
    from tui.games import coach_class

    coach = coach_class(game)
    seats = max(coach.seats, registry.get(game).min_players)
    return NewTable(game, dict(coach.first_game), seats, seats - 1, FIRST_GAME_LEVEL, coach=True)


LEARN_KEYS = "↑/↓ choose · enter: play a coached game · q or esc: back"


class LearnDialog(Dialog):
    """Pick a game to learn: a solo game against easy bots with a coach (``l`` in the lobby)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "cancel", "back")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Learn a game: play easy bots, a coach beside you")
            yield OptionList(
                *(OptionListItem(learn_label(name), id=name) for name in registry.names()),
                id="games",
                compact=True,
            )
            yield Static(LEARN_KEYS, id="keys", classes="keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#games", OptionList).focus()

    @on(OptionList.OptionSelected, "#games")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(first_game(event.option.id))


def learn_label(game: str) -> str:
    """``Catchy! (2 players)``: a game as the learn dialog lists it."""
    described = registry.get(game).describe()
    low, high = described["min_players"], described["max_players"]
    players = f"{low} players" if low == high else f"{low}-{high} players"
    return f"{described['title']} ({players})"


def option_limits(spec: Option) -> str:
    """What an option typed as text accepts, after its label: `` (1-99)``, `` (full/simple)``."""
    if spec.choices:
        return f" ({'/'.join(spec.choices)})"
    if spec.minimum is not None or spec.maximum is not None:
        low = "" if spec.minimum is None else spec.minimum
        high = "" if spec.maximum is None else spec.maximum
        return f" ({low}-{high})"
    return ""


def option_widgets(spec: Option) -> Iterator[Widget]:
    """One game option's widgets: a checkbox with its label (a yes/no), or its label and an
    input; then its help, wrapped under it, so it is read whole at 80 columns.

    An option without a default (``None``: the game decides, Kiitos's first leader) starts
    empty rather than reading ``None``, which no option accepts.
    """
    option_id = f"option-{spec.name}"
    if spec.kind is bool:
        yield TickBox(spec.title, bool(spec.default), id=option_id, classes="option", compact=True)
    else:
        yield Static(f"{spec.title}{option_limits(spec)}:", classes="option-label", markup=False)
        value = "" if spec.default is None else str(spec.default)
        yield Input(value, id=option_id, classes="option", compact=True)
    if spec.help:
        yield Static(spec.help, classes="option-help", markup=False)


class CreateDialog(Dialog):
    """Pick a game, its options, the number of seats and how many of them are bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        Binding("ctrl+s", "create", "create"),
    ]

    def __init__(
        self,
        game: str | None = None,
        *,
        at: str = "",
        places: Sequence[Place] = (),
        chosen: str = HERE,
    ) -> None:
        super().__init__()
        self.game = game or registry.names()[0]
        self.at = at
        """Where the table is created when not on this computer (the lobby's only host,
        as an SSH gateway's player reaches it): the title says so, and nothing is chosen."""
        self.places = {place.key: place for place in places} if not at else {}
        """The other hosts a table can be created at instead of on this computer: a LAN
        host's SSH and browser players see only that host, so a table made here is one
        they never can join (issue 36's LAN walk-through)."""
        self.where = chosen if chosen in self.places else HERE
        """The key of the host chosen (:data:`HERE`: this computer); the lobby's highlighted
        host is the first choice."""

    def compose(self) -> ComposeResult:
        described = registry.get(self.game).describe()
        games = [(registry.get(name).title, name) for name in registry.names()]
        low, high = described["min_players"], described["max_players"]
        with Vertical():
            if self.places:
                with Horizontal(id="where-line"):
                    yield Label("New table at ")
                    # Text, not markup: a host's name is its owner's to choose.
                    choices = [(Text(place.label), key) for key, place in self.places.items()]
                    yield Select(
                        [*choices, (Text("this computer"), HERE)],
                        value=self.where,
                        allow_blank=False,
                        id="where",
                        compact=True,
                    )
            elif self.at:
                yield Label(f"New table at {self.at} (others can join)", id="head", markup=False)
            else:
                yield Label("New table on this computer (others on the LAN can join)", id="head")
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
                levels = bot_levels(self.game)
                if levels:
                    yield Label(" level ")
                    yield Select(
                        [(level, level) for level in levels],
                        value=DEFAULT_LEVEL if DEFAULT_LEVEL in levels else levels[0],
                        allow_blank=False,
                        id="bot-level",
                        compact=True,
                    )
            # The options scroll between the fixed head and buttons: a game with many (Kiitos)
            # still shows Create and Cancel at 80x24.
            with VerticalScroll(id="options"):
                for spec in registry.get(self.game).option_specs:
                    if not spec.hidden:  # testing aids (a fixed deck) stay on the command line
                        yield from option_widgets(spec)
                yield TickBox(
                    "Mute spectators for the players",
                    False,
                    id="mute-spectators",
                    compact=True,
                )
                yield Static(
                    "during the game, so watchers' hints never reach the table (players can "
                    "change it in the chat: F4 or /mute)",
                    classes="option-help",
                )
            yield Static("", id="problem", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Create (ctrl+s)", id="create", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    @on(Select.Changed, "#game")
    async def game_changed(self, event: Select.Changed) -> None:
        """Another game: its seats and options replace the last one's, and the focus stays
        on the game's list, closed, so Tab goes on to the seats (the recomposed dialog had
        no focus, and Tab went back to the game's list, as if choosing had not happened;
        issue 36, item 11; with the focus moved on to the seats, the Tab a player pressed
        after choosing skipped them, on a LAN walk-through)."""
        if isinstance(event.value, str) and event.value != self.game:
            self.game = event.value
            await self.recompose()
            self.query_one("#game", Select).focus()

    @on(Select.Changed, "#where")
    def where_changed(self, event: Select.Changed) -> None:
        """Another host (or this computer): kept when another game recomposes the dialog."""
        if isinstance(event.value, str):
            self.where = event.value

    @on(Button.Pressed, "#cancel")
    def cancelled(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#create")
    @on(Input.Submitted)
    def action_create(self) -> None:
        game = registry.get(self.game)
        specs = {spec.name: spec for spec in game.option_specs}
        options: dict[str, Any] = {}
        for widget in self.query(".option"):
            name = (widget.id or "").removeprefix("option-")
            if isinstance(widget, Checkbox):
                options[name] = "true" if widget.value else "false"
            elif isinstance(widget, Input):
                value = widget.value.strip()
                if value or specs[name].default is not None:  # empty: the game decides
                    options[name] = value
        seats = self.query_one("#seats", Select).value
        bots = self.query_one("#bots", Select).value
        assert isinstance(seats, int) and isinstance(bots, int)
        if bots >= seats:
            self.say(f"Leave at least one seat for you: at most {seats - 1} bots")
            return
        try:
            parsed = parse_options(game.title, game.option_specs, options)
        except InvalidOptions as error:
            self.say(str(error))
            return
        chosen = {name: parsed[name] for name in options}
        if self.query_one("#mute-spectators", Checkbox).value:
            chosen[SPECTATOR_CHAT_OPTION] = (
                "hidden"  # a table option the host takes (net.core.chat)
            )
        level = next((select.value for select in self.query("#bot-level").results(Select)), None)
        place = self.places.get(self.where)
        self.dismiss(
            NewTable(
                self.game,
                chosen,
                seats,
                bots,
                level if isinstance(level, str) else None,
                at=(place.address, place.port) if place is not None else None,
            )
        )
