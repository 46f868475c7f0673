"""Every action of the client has a plain key, for a phone's on-screen keyboard.

The web page serves the terminal client to phones, whose on-screen keyboards have no F-keys
and no ctrl chords, and often no Esc or Tab. A plain key is a printable character, Enter,
Backspace, Space or an arrow. The walk below checks every binding of every class of the
client; the tests after it press only plain keys on the screens that are not games (the
games' own are in ``tests/tui/games/<game>/test_table.py`` and ``tests/tui/test_chat.py``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Button, Input

import tui
from net.store.replays import Replayer, record_of
from tests.net.store.test_replays import journal_of
from tests.tui.harness import LobbyHarness
from tui.screens.replay import ReplayApp, ReplayScreen
from tui.widgets.chat import typed_character

pytestmark = pytest.mark.timeout(30)
SIZE = (80, 24)

PLAIN_NAMED = frozenset({"enter", "backspace", "space", "up", "down", "left", "right"})
"""Named keys every on-screen keyboard has (xterm.js sends arrows from its own keys too)."""

NO_PLAIN_KEY: dict[tuple[str, str], str] = {
    ("ClowderApp", "quit"): "ctrl+c: q quits the lobby, and every table has a plain leave key",
    ("RoomApp", "quit"): "ctrl+c: its room screen's q quits (clowder room on a TV)",
    ("*", "react"): "F1-F3's reactions are typed as any chat line (the chat opens on t, "
    "@ at Kiitos, / then t at Katootsie!)",
    ("ChatLine", "close"): "Enter on the empty line closes it",
    ("ChatLine", "rule"): "/mute or /hear sent as a line does what F4 does",
    ("Dialog", "cancel"): "the base of the dialogs: each says its own way out below",
    ("NameDialog", "cancel"): "Enter on an empty name keeps the old one; the first name "
    "asked has no cancel but quitting",
    ("AddressDialog", "cancel"): "Enter on an empty address cancels",
    ("CreateDialog", "create"): "its Create button (a tap, or Enter on it), or Enter in a field",
    ("CreateDialog", "cancel"): "its Cancel button (a tap, or Enter on it)",
    ("KiitosTable", "rules"): "letters are typed there: ? lists the keys, and Enter on its "
    "rules line opens them",
    ("ReplayScreen", "close_jump"): "Enter on the empty move box closes it",
    ("ReplayScreen", "go"): "home/end: g then a number goes to any move (0 the first)",
    ("RevealScreen", "close"): "any key closes it (its on_key), as its hint says",
}
"""(class, action) -> why that action needs no plain key of its own: a plain way that is not
a binding, or nothing lost without it. ``*`` is any class."""


def is_plain(key: str) -> bool:
    """Whether a phone's on-screen keyboard has ``key``: a printable character or a key of
    :data:`PLAIN_NAMED` (never a chord: ``ctrl+...``, nor F-keys, Esc, Tab, Home...)."""
    if key in PLAIN_NAMED:
        return True
    character = typed_character(key)
    return "+" not in key and character is not None and character.isprintable()


def client_classes() -> Iterator[type[DOMNode]]:
    """Every screen, widget and app class of the client (each module of ``tui`` imported)."""
    for module in pkgutil.walk_packages(tui.__path__, "tui."):
        if module.name != "tui.__main__":
            importlib.import_module(module.name)
    seen: set[type[DOMNode]] = set()
    todo: list[type[DOMNode]] = [DOMNode]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    for cls in sorted(seen, key=lambda c: (c.__module__, c.__qualname__)):
        if cls.__module__.startswith("tui."):
            yield cls


def client_bindings(cls: type[DOMNode]) -> list[Binding]:
    """The bindings the client's own classes give ``cls`` (Textual's own are Textual's
    business), merged as Textual merges them: a class that does not inherit its bases'
    bindings starts afresh, and a subclass's bindings for a key replace its bases'."""
    layers: list[list[Binding]] = []
    for base in reversed(cls.__mro__):
        if not (isinstance(base, type) and issubclass(base, DOMNode)):
            continue
        if not base._inherit_bindings:
            layers.clear()
        if base.__module__.startswith("tui.") and "BINDINGS" in vars(base):
            layers.append(list(Binding.make_bindings(vars(base)["BINDINGS"])))
    keys: dict[str, list[Binding]] = {}
    for layer in layers:
        by_key: dict[str, list[Binding]] = {}
        for binding in layer:
            by_key.setdefault(binding.key, []).append(binding)
        keys.update(by_key)
    return [binding for bindings in keys.values() for binding in bindings]


def action_name(action: str) -> str:
    """``react('gg')`` -> ``react``."""
    return action.split("(", 1)[0]


def test_every_action_bound_to_a_key_a_phone_lacks_has_a_plain_key_too() -> None:
    missing: list[str] = []
    used: set[tuple[str, str]] = set()
    classes = list(client_classes())
    assert {"KiitosTable", "KatootsieTable", "LobbyScreen", "ChatLine"} <= {
        cls.__name__ for cls in classes
    }
    for cls in classes:
        bindings = client_bindings(cls)
        plain = {binding.action for binding in bindings if is_plain(binding.key)}
        for binding in bindings:
            if is_plain(binding.key) or binding.action in plain:
                continue
            name = action_name(binding.action)
            exempt = next(
                (pair for pair in ((cls.__name__, name), ("*", name)) if pair in NO_PLAIN_KEY),
                None,
            )
            if exempt is not None:
                used.add(exempt)
            else:
                missing.append(f"{cls.__module__}.{cls.__qualname__}: {binding.key} {name}")
    assert missing == [], "actions with no plain key (a phone has no F-keys, ctrl, esc, tab)"
    assert set(NO_PLAIN_KEY) - used == set(), "exemptions no binding needs any more"


def test_the_plain_key_test_knows_a_phone_keyboard() -> None:
    for key in ("a", "q", "1", "exclamation_mark", "slash", "minus", "at", "enter", "left"):
        assert is_plain(key), key
    for key in ("ctrl+p", "f4", "escape", "tab", "home", "shift+tab"):
        assert not is_plain(key), key


# The games' ways back, with a plain key -------------------------------------------------


def footer_offers(screen: Any) -> dict[str, str]:
    """What the screen's footer offers now (shown and usable): key -> action."""
    return {
        active.binding.key: action_name(active.binding.action)
        for active in screen.active_bindings.values()
        if active.binding.show and active.enabled
    }


def key_list_keys(screen: Any, action: str) -> list[str]:
    """The keys the ``?`` list names for ``action`` on ``screen``."""
    from tui.screens.keys import key_lines

    return [key for line in key_lines(screen) if line.action == action for key in line.keys]


async def test_kitten_me_closes_its_bars_with_a_plain_key_for_phone_keyboards() -> None:
    """Issue 36, item 3: the bid bar and the Go Fish bar closed only with Esc (slow over SSH,
    missing on a phone): ``x`` closes them, and the footer, the prompt and ``?`` say so."""
    from tests.tui.games.kitten.test_table import DAN_BIDS, kitten_view
    from tests.tui.harness import TableHarness
    from tui.games.kitten.screen import KittenTable
    from tui.widgets.prompt import PromptLine

    app = TableHarness(kitten_view(DAN_BIDS), presence=[], screen=KittenTable)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, KittenTable)
        assert "x" not in footer_offers(table)  # no bar open: nothing to cancel
        for opens in ("b", "g"):
            await pilot.press(opens)
            assert table.mode and footer_offers(table).get("x") == "cancel"
            assert "x cancels" in str(table.query_one(PromptLine).render())
            assert key_list_keys(table, "cancel")[0] == "x"
            await pilot.press("x")
            assert table.mode == "" and "x" not in footer_offers(table)
        assert app.actions == []


async def test_black_cat_takes_back_a_call_with_a_plain_key_for_phone_keyboards() -> None:
    """Issue 36, item 3: the first ``c`` of ``c c`` was taken back only with Esc: ``x`` does
    it, offered in the footer, the prompt and ``?`` while a call waits for its second ``c``."""
    from tests.tui.harness import TableHarness, blackcat_view
    from tui.games.blackcat.screen import BlackCatTable
    from tui.widgets.prompt import PromptLine

    app = TableHarness(blackcat_view([(0, 0), (1, 0)]), presence=[], screen=BlackCatTable)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, BlackCatTable)
        offered = [footer_offers(table).get("x")]
        await pilot.press("c")
        calling = [table.calling]
        offered.append(footer_offers(table).get("x"))
        assert "x not to" in str(table.query_one(PromptLine).render())
        assert key_list_keys(table, "cancel")[0] == "x"
        await pilot.press("x")
        calling.append(table.calling)
        offered.append(footer_offers(table).get("x"))
        assert calling == [True, False] and offered == [None, "cancel", None]
        await pilot.press("c")  # a first c again, not the second
        assert app.actions == []


async def test_catchy_cancels_a_swap_with_a_plain_key_for_phone_keyboards() -> None:
    """Issue 36, item 2: after ``s`` the swap waited for a digit and only Esc took it back:
    ``x`` does, offered in the footer, the prompt and ``?`` while a digit is awaited."""
    from tests.tui.harness import TableHarness, catchy_view
    from tui.games.catchy.screen import CatchyTable
    from tui.widgets.prompt import PromptLine

    app = TableHarness(catchy_view(0), presence=[], screen=CatchyTable)  # Ann swaps
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, CatchyTable)
        offered = [footer_offers(table).get("x")]
        await pilot.press("s")
        swapping = [table.swapping]
        offered.append(footer_offers(table).get("x"))
        assert "x cancels" in str(table.query_one(PromptLine).render())
        assert key_list_keys(table, "cancel")[0] == "x"
        await pilot.press("x")
        swapping.append(table.swapping)
        offered.append(footer_offers(table).get("x"))
        assert swapping == [True, False] and offered == [None, "cancel", None]
        assert "x cancels" not in str(table.query_one(PromptLine).render())
        assert app.actions == []
        await pilot.press("2")  # the digits still swap without s
        assert app.actions == [{"type": "swap", "course": 1}]


def test_every_game_s_results_name_the_plain_key_back_to_the_table() -> None:
    """The results said "Escape: back to the table" at Black Cat and Kitten Me!: their
    plain key is ``t``, as at the other games. The line fits one row of the results' box at
    80 columns (50 characters beside its scroll bar): longer, it wrapped below the rows
    shown and read "back to the table (e explains every" (issue 36 walk-through)."""
    from engine import registry
    from tests.contract import play, players_for
    from tui.games import screen_class

    for game in registry.names():
        engine = registry.get(game)
        playout = play(engine, players_for(max(engine.min_players, 2)), 3)
        view = engine.view(playout.steps[-1].state if playout.steps else playout.first, 0)
        lines = screen_class(game)().results_lines(view)
        back = [line for line in lines if "back to the table" in line]
        assert all(line.startswith("t or Esc: ") for line in back), (game, back)
        assert all(len(line) <= 50 for line in back), (game, back)
        assert back or game not in ("blackcat", "kitten")


# Screens that are not games, driven with plain keys only -------------------------------


async def test_the_results_go_back_to_the_table_with_a_plain_key_for_phone_keyboards() -> None:
    from tui.screens.results import ResultsScreen

    chosen: list[str | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ResultsScreen("Catchy!", ["Ann won!"]), chosen.append)

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        keys = {b.key for _, b, enabled, _ in app.active_bindings.values() if b.show}
        assert "t" in keys and "escape" not in keys  # the footer names the plain key
        await pilot.press("t")
        await pilot.pause()
    assert chosen == ["table"]


async def test_the_lobby_switches_panes_with_a_plain_key_for_phone_keyboards() -> None:
    app = LobbyHarness()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.focused is app.lobby.query_one("#hosts")
        await pilot.press("h")
        assert app.focused is app.lobby.query_one("#tables")
        await pilot.press("h")
        assert app.focused is app.lobby.query_one("#hosts")


async def test_the_lobby_says_the_plain_key_back_to_the_hosts() -> None:
    from textual.widgets import Static

    app = LobbyHarness()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # two tables: Enter goes to the list first
        status = str(app.lobby.query_one("#lobby-status", Static).render())
        assert "h back to the hosts" in status


async def test_the_replay_changes_eyes_with_a_plain_key_for_phone_keyboards() -> None:
    app = ReplayApp(Replayer(record_of(journal_of("kitten"))), index=3)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        seats = [screen.seat]
        await pilot.press("e")
        seats.append(screen.seat)
        await pilot.press("g")  # the move box: Enter on it empty closes it
        box = screen.query_one("#replay-jump", Input)
        opened = [box.has_class("open")]
        await pilot.press("enter")
        opened.append(box.has_class("open"))
        assert opened == [True, False] and screen.index == 3
        await pilot.press("e")  # the box is closed: e is the eyes' key again
        seats.append(screen.seat)
        assert seats == [None, 0, 1]


async def dialog_result(dialog: Any, *keys: str) -> list[Any]:
    """What ``dialog`` dismisses with after ``keys`` (``["open"]`` if it is still up)."""
    results: list[Any] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(dialog, results.append)

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        if not results:
            results.append("open")
    return results


async def test_the_rename_dialog_cancels_with_a_plain_key_for_phone_keyboards() -> None:
    from tui.screens.dialogs import RENAME_KEYS, NameDialog

    assert await dialog_result(NameDialog("Ann"), *["backspace"] * 3, "enter") == [None]
    assert await dialog_result(NameDialog("Ann"), "enter") == ["Ann"]  # kept, as it was
    assert "an empty name: cancel" in RENAME_KEYS
    assert await dialog_result(NameDialog(), "enter") == ["open"]  # a first name is needed


async def test_the_address_dialog_cancels_with_a_plain_key_for_phone_keyboards() -> None:
    from tui.screens.dialogs import AddressDialog

    assert await dialog_result(AddressDialog(), "enter") == [None]
    assert await dialog_result(AddressDialog(), *"10.0.0.9", "enter") == [("10.0.0.9", 7707)]


async def test_the_learn_dialog_cancels_with_a_plain_key_for_phone_keyboards() -> None:
    from tui.screens.dialogs import LEARN_KEYS, LearnDialog

    assert await dialog_result(LearnDialog(), "q") == [None]
    assert "q or esc: back" in LEARN_KEYS


async def test_the_create_dialog_has_buttons_for_a_keyboard_without_ctrl_or_esc() -> None:
    from tui.screens.dialogs import CreateDialog

    results: list[Any] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateDialog("catchy"), results.append)

    for button in ("cancel", "create"):
        app = Host()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.screen.query_one(f"#{button}", Button).focus()  # a tap on it, on a phone
            await pilot.press("enter")
            await pilot.pause()
    assert results[0] is None and results[1] is not None and results[1].game == "catchy"
