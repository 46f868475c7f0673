"""The generic table: any registered game, before (or without) a screen of its own.

It draws what every view has (players, scores, phase, the log), whose turn
it is and this seat's hand when the view says so, every other field of the
view as a compact ``key: value`` list, and this seat's legal actions as a
menu (arrows pick, enter sends). At a real-time game (the engine's
``realtime``) it is a :class:`~tui.screens.realtime.RealtimeTable`: claims
carry their drawn/acted stamps and ``w`` explains the host's rulings.

:func:`generic_table` makes the screen class for one game; :mod:`tui.games`
uses it for every game that has no screen of its own.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine import registry
from engine.core import BASE_VIEW_KEYS, BaseView
from tui.coach import Coach
from tui.screens.realtime import RealtimeTable
from tui.screens.table import TableScreen
from tui.styles import TCSS_DIR
from tui.widgets.log import GameLog
from tui.widgets.prompt import PromptLine
from tui.widgets.scores import Scoreboard, ScoreLine
from tui.widgets.timer import Countdown

OWN_KEYS = frozenset({"turn", "hand"})
"""View keys the generic table draws in their own place (not in the field list)."""
VALUE_LIMIT = 120
"""The longest value shown in the field list (longer ones end with ``…``)."""
QUIET_ACTION_KEYS = frozenset({"type", "reveal"})
"""Action fields left out of a menu label (the type leads it; a claim's reveal is stamped)."""


def printable(text: str) -> str:
    """``text`` without control characters (network strings are never drawn raw)."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def value_text(value: Any) -> str:
    """A view value in a few words: lists space-separated, maps as ``k=v``, None as ``-``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{printable(str(key))}={value_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        parts = [
            f"[{value_text(item)}]"
            if isinstance(item, list | tuple | Mapping)
            else value_text(item)
            for item in value
        ]
        return " ".join(parts) if parts else "(none)"
    return printable(str(value))


def cut(text: str, limit: int = VALUE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def action_label(action: Mapping[str, Any]) -> str:
    """``bid count=3 thing=hat``: the type, then every other field."""
    fields = " ".join(
        f"{printable(str(key))}={value_text(value)}"
        for key, value in action.items()
        if key not in QUIET_ACTION_KEYS
    )
    kind = printable(str(action.get("type", "?")))
    return cut(f"{kind} {fields}" if fields else kind)


def field_lines(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The game's own view fields, as ``(key, value)`` text, in the view's order."""
    return [
        (printable(str(key)), cut(value_text(value)))
        for key, value in view.items()
        if key not in BASE_VIEW_KEYS and key not in OWN_KEYS
    ]


class GenericTable(TableScreen[BaseView]):
    """Any game's table, drawn from its view alone (see the module docstring)."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [TCSS_DIR / "table.tcss", TCSS_DIR / "generic.tcss"]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "play", key_display="↑↓ enter", priority=True),
    ]

    def __init__(
        self, *, table_id: str = "", place: str = "", coach: Coach[Any] | None = None
    ) -> None:
        super().__init__(table_id=table_id, place=place, coach=coach)
        self._legal: list[dict[str, Any]] = []

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Static("", id="title")
                yield Static("", id="fields")
                yield Static("", id="hand")
                yield Static("", id="moves-title")
                yield OptionList(id="moves")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield GameLog(id="log")

    # Drawing ------------------------------------------------------------------------

    def show(self, view: BaseView) -> None:
        extra = cast(Mapping[str, Any], view)
        seat, players = view["seat"], view["players"]
        turn = extra.get("turn")
        title = Text(self.game_title, style="bold")
        title.append(f" · {printable(view['phase'])}")
        if seat is None:
            title.append(" · watching", style="italic")  # not dim: grey on black reads badly
        elif turn == seat and view["phase"] != "over":
            title.append(" · your turn", style="bold")
        self.query_one("#title", Static).update(title)
        self.query_one("#fields", Static).update(self.fields_text(view))
        hand = self.query_one("#hand", Static)
        hand.display = "hand" in extra and seat is not None
        if hand.display:
            hand.update(Text.assemble(("Your hand: ", "bold"), value_text(extra["hand"])))
        self.query_one(Scoreboard).set_scores(
            [
                ScoreLine(
                    printable(name),
                    view["scores"][index] if index < len(view["scores"]) else 0,
                    you=index == seat,
                    turn=index == turn,
                )
                for index, name in enumerate(players)
            ],
            None,
        )
        self._show_moves(view)
        self.query_one(GameLog).show([printable(line) for line in view["log"]])
        self.query_one(PromptLine).prompt(self.prompt_text(view))

    def fields_text(self, view: BaseView) -> Text:
        out = Text()
        for key, value in field_lines(view):
            if out:
                out.append("\n")
            out.append(f"{key}: ", style="bold")
            out.append(value)
        return out

    def _show_moves(self, view: BaseView) -> None:
        legal = view["legal"]
        title = self.query_one("#moves-title", Static)
        menu = self.query_one("#moves", OptionList)
        title.update(Text("Your moves" if legal else "No move for you now", style="bold"))
        if legal == self._legal:
            return
        self._legal = [dict(action) for action in legal]
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options([Option(action_label(action)) for action in legal])
        if legal:
            menu.highlighted = min(highlighted or 0, len(legal) - 1)
            menu.focus()

    def prompt_text(self, view: BaseView) -> str:
        """What the player may do now, in words."""
        if view["phase"] == "over":
            return "Game over · r rules · q leaves"
        if view["seat"] is None:
            return "Watching · q leaves"
        if view["legal"]:
            return "Your move: ↑↓ pick, enter plays · r rules · q leaves"
        turn = cast(Mapping[str, Any], view).get("turn")
        if isinstance(turn, int) and 0 <= turn < len(view["players"]):
            return f"{printable(view['players'][turn])} to play..."
        return "Waiting for the others..."

    # Intents ------------------------------------------------------------------------

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.choose(message.option_index)

    def action_choose(self) -> None:
        highlighted = self.query_one("#moves", OptionList).highlighted
        if highlighted is not None:
            self.choose(highlighted)

    def choose(self, index: int) -> None:
        """Send the legal action at ``index`` of the menu."""
        if 0 <= index < len(self._legal):
            self.send(self._legal[index])

    def send(self, action: dict[str, Any]) -> None:
        self.act(action)


class RealtimeGenericTable(GenericTable, RealtimeTable[BaseView]):
    """The generic table of a real-time game: claims go out stamped, ``w`` explains rulings."""

    def compose_board(self) -> ComposeResult:
        yield Countdown(id="countdown")
        yield from super().compose_board()

    def send(self, action: dict[str, Any]) -> None:
        if registry.get(self.game).is_claim(action):
            if self.claim(action):
                self.query_one(PromptLine).prompt("Sent: the host is comparing reactions...")
        else:
            self.act(action)

    def game_event(self, event: Mapping[str, Any]) -> None:
        """A game event naming a reveal and a seat applied that seat's claim."""
        data = event.get("data")
        if not isinstance(data, Mapping):
            return
        reveal, seat = data.get("reveal"), data.get("seat")
        if isinstance(reveal, int) and isinstance(seat, int) and not isinstance(seat, bool):
            view = self.view
            players = [] if view is None else view["players"]
            me = None if view is None else view["seat"]
            kind = printable(str(event.get("kind")))
            self.history.award(reveal, seat, f"#{reveal}", players, me, kind)

    def fields_text(self, view: BaseView) -> Text:
        out = super().fields_text(view)
        line = self.history.headline(self.history.last, view["players"], view["seat"])
        if line:
            out.append(f"\n{line}", style="italic")
        return out

    def results_lines(self, view: BaseView) -> list[str]:
        return [*super().results_lines(view), *self.contest_lines("moment")]


@functools.cache
def generic_table(game: str) -> type[TableScreen[Any]]:
    """The generic table class for ``game`` (real-time or not, as its engine says)."""
    engine_game = registry.get(game)
    base: type[GenericTable] = RealtimeGenericTable if engine_game.realtime else GenericTable
    module = inspect.getmodule(type(engine_game))
    doc = inspect.cleandoc(module.__doc__ or "") if module is not None else ""
    rules = (
        "*This game has no table screen of its own yet: the generic table shows "
        "its view and your legal moves. Here is the engine's own description.*\n\n" + doc
    )
    attributes = {"game": game, "rules_text": rules}
    return cast(type[TableScreen[Any]], type(base.__name__, (base,), attributes))
