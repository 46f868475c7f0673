"""``?`` lists every key of the screen it is pressed on, and a line chosen does that key
(issue 36, item 6, and the lobby's help, item 10).

Textual's footer is one line and does not wrap: on a phone held upright (48 columns) most
of a table's or the lobby's keys were cut off, and a key the footer never shows (Esc,
ctrl+k, the digits behind ``1-7``) was found nowhere. Every screen now binds ``?`` where a
phone's footer still shows it; the list it opens names each key the footer offers (and the
hidden ones), and Enter on a line does what that key does, so a key a phone's keyboard
lacks is reached too. Here, for every game's table and for the lobby, at 48 columns.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey

from engine import registry
from tests.tui.harness import LobbyHarness, TableHarness, catchy_view
from tests.tui.test_early_messages import first_view
from tui.games import screen_class
from tui.screens import rules
from tui.screens.dialogs import NameDialog
from tui.screens.keys import KeysScreen
from tui.screens.rules import RulesScreen
from tui.widgets.footer import TableFooter

PHONE = (48, 40)


@pytest.fixture(autouse=True)
def short_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules page of one line (Markdown takes a second to lay out a whole rulebook)."""
    monkeypatch.setattr(rules, "rules_markdown", lambda title, *_: f"# {title}")


def offered(screen: Screen[Any]) -> dict[str, str]:
    """What the screen's footer offers now (shown and usable): action -> description."""
    return {
        active.binding.action: active.binding.description
        for active in screen.active_bindings.values()
        if active.binding.show and active.enabled
    }


def question_mark_fits(screen: Screen[Any]) -> bool:
    """The footer's ``?`` is drawn whole inside the screen's width."""
    footers = screen.query(TableFooter)
    if footers:
        return [key.key for key in footers.first().drawn].count("question_mark") == 1
    keys = [key for key in screen.query(FooterKey) if key.key == "question_mark"]
    return len(keys) == 1 and keys[0].region.x >= 0 and keys[0].region.right <= PHONE[0]


async def choose(pilot: Pilot[Any], keys: KeysScreen, action: str) -> None:
    """Enter on the list's line for ``action``."""
    keys.query_one(OptionList).highlighted = next(
        index for index, line in enumerate(keys.lines) if line.action == action
    )
    await pilot.press("enter")


@pytest.mark.parametrize("game", registry.names())
async def test_question_mark_lists_every_key_a_table_offers_and_a_line_does_it(game: str) -> None:
    app = TableHarness(first_view(game), presence=[], screen=screen_class(game))
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        table = app.table
        table.set_focus(None)  # the table's keys, not an answer line's letters
        await pilot.pause()
        assert question_mark_fits(table)
        footer = offered(table)
        await pilot.press("question_mark")
        keys = app.screen
        assert isinstance(keys, KeysScreen) and keys.below is table
        listed = {line.action for line in keys.lines}
        assert set(footer) - {"show_keys"} <= listed, (footer, listed)
        assert "rules" in listed  # Kiitos's too, whose ? it was
        await choose(pilot, keys, "rules")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)


async def test_question_mark_in_the_lobby_lists_its_keys_hidden_ones_too_and_does_them() -> None:
    app = LobbyHarness()
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        lobby = app.lobby
        assert question_mark_fits(lobby)
        footer = offered(lobby)
        await pilot.press("question_mark")
        keys = app.screen
        assert isinstance(keys, KeysScreen)
        by_action = {line.action: line for line in keys.lines}
        assert set(footer) - {"show_keys"} <= set(by_action)
        assert "bell" in by_action and "b" in by_action["bell"].keys  # not in the footer
        assert by_action["switch"].keys == ["tab", "h"]
        assert by_action["bell"].description == "bell on/off"
        assert keys.query_one(OptionList).region.right <= PHONE[0]  # the list fits the phone
        await choose(pilot, keys, "rename")
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)


async def test_the_lobby_s_footer_draws_whole_keys_at_every_narrow_width() -> None:
    """Issue 36, item 6: on a phone the lobby's footer ended in ``l learn a``, a key cut in
    half read as one. At every width a phone may give, the footer draws whole keys only,
    both ways it is drawn (its own lines, and Textual's from its text)."""
    app = LobbyHarness()
    async with app.run_test(size=(80, 30)) as pilot:
        footer = app.lobby.query_one(TableFooter)
        for width in range(40, 81, 2):  # every other width: a cut key shows at many
            await pilot.resize_terminal(width, 30)
            await pilot.pause()
            keys = {key.render().plain.strip() for key in footer.query(FooterKey)}
            for line in (footer.render_line(0).text, footer.render().plain):
                drawn = set(re.split(r"\s{2,}", line.strip()))
                assert drawn <= keys, (width, line)
            assert "? keys" in drawn and len(footer.drawn) == len(drawn)


@pytest.mark.parametrize("blurred", [False, True], ids=["focused", "blurred"])
@pytest.mark.parametrize("size", [(80, 24), PHONE], ids=["80x24", "phone"])
async def test_the_waiting_room_s_footer_offers_question_mark(
    size: tuple[int, int], blurred: bool
) -> None:
    """Issue 36's LAN walk-through: a browser's waiting room offered ``r rules q quit`` and
    no ``? keys``. A table that came while the window had no focus kept the footer it drew
    then (none: a footer does not follow the keys while the app is blurred, and nothing
    told it when the focus came back, since the waiting room focuses no widget)."""
    waiting = {"seats": [{"name": "Ann"}, {"name": None}], "seat": 0}
    app = TableHarness(None, [], screen_class("catchy"), waiting=waiting, blurred=blurred)
    app.table.doors = (None, 8080)  # a host with a web page: its ways in are shown
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.table
        assert table.view is None and table.query_one("#waiting").display  # the waiting room
        app.app_focus = True  # as Textual's AppFocus does (the page's "focus")
        await pilot.pause()
        await pilot.pause()
        assert question_mark_fits(table), table.query_one(TableFooter).render().plain
        line = table.query_one(TableFooter).render().plain
        assert "? keys" in line and "r rules" in line and "q quit" in line, line
        await pilot.press("question_mark")
        assert isinstance(app.screen, KeysScreen)


async def test_a_table_s_footer_follows_each_change_of_keys_once() -> None:
    """Textual calls ``Footer.on_mount`` itself: the table's footer subscribed to the screen's
    bindings a second time when its own ``on_mount`` called it too, and followed every
    change of the keys twice (issue 35)."""
    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.table.query_one(TableFooter)
        assert len(app.table.bindings_updated_signal._subscriptions[footer]) == 1
