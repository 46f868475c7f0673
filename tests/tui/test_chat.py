"""The table's chat line: opens on Ctrl+T (t where letters are free), Enter sends, Esc closes,
F-keys react; chat lines go to the log in their own style; no clash with typed words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.games.kiitos.test_table import BIRD, kiitos_view
from tests.tui.harness import TableHarness, catchy_view
from tui.games.kiitos.screen import KiitosTable
from tui.screens.table import TableScreen
from tui.widgets.chat import CHAT_STYLE, ChatLine, chat_text
from tui.widgets.log import GameLog

pytestmark = pytest.mark.timeout(30)
SIZE = (80, 24)


class ChatHarness(TableHarness):
    """A table harness that also records what the player says."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.said: list[str] = []

        self.rules: list[str] = []

    def on_table_screen_say(self, message: TableScreen.Say) -> None:
        self.said.append(message.text)

    def on_table_screen_set_chat_rule(self, message: TableScreen.SetChatRule) -> None:
        self.rules.append(message.rule)


async def test_t_opens_the_chat_enter_sends_and_esc_closes() -> None:
    app = ChatHarness(catchy_view(4))
    async with app.run_test(size=SIZE) as pilot:
        line = app.table.query_one(ChatLine)
        opened = [line.is_open]
        await pilot.press("t")
        opened.append(line.is_open)
        assert opened == [False, True] and app.focused is line
        await pilot.press("g", "o", "o", "d", "space", "g", "a", "m", "e", "enter")
        await pilot.pause()
        assert app.said == ["good game"] and not line.is_open
        assert app.actions == []  # not a game action
        await pilot.press("ctrl+t", "x", "escape")
        await pilot.pause()
        assert app.said == ["good game"] and not line.is_open and line.value == ""


async def test_quick_reactions_go_out_on_one_key() -> None:
    app = ChatHarness(catchy_view(4))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1", "f2", "f3")
        await pilot.pause()
        assert app.said == ["gg", "nice", "oops"]


async def test_a_chat_line_is_written_to_the_log_in_its_own_style() -> None:
    app = ChatHarness(catchy_view(4))
    async with app.run_test(size=SIZE) as pilot:
        app.table.said("Sam", None, "nice")
        await pilot.pause()
        log = app.table.query_one(GameLog)
        assert any("» Sam (watching): nice" in line.text for line in log.lines)
    assert chat_text("Ann", 0, "gg").style == CHAT_STYLE


async def test_at_kiitos_t_types_the_word_and_ctrl_t_opens_the_chat() -> None:
    app = ChatHarness(kiitos_view(BIRD, seat=1), presence=[], screen=KiitosTable)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.table.query_one(ChatLine)
        await pilot.press("t")
        assert not line.is_open and app.table.typed == "T"  # type: ignore[attr-defined]
        await pilot.press("ctrl+t", "b", "o", "enter")
        await pilot.pause()
        assert app.said == ["bo"] and app.actions == []
        assert app.table.typed == "T"  # type: ignore[attr-defined]


async def test_at_katootsie_letters_stay_in_the_answer_and_ctrl_t_chats() -> None:
    from tests.tui.games.katootsie.test_table import letter_open
    from tui.games.katootsie.screen import KatootsieTable

    view = letter_open().view(0)
    app = ChatHarness(view, presence=[], screen=KatootsieTable)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        answer = app.table.query_one("#answer")
        await pilot.press("t")
        assert answer.value == "t"  # type: ignore[attr-defined]
        await pilot.press("ctrl+t", "h", "i", "enter")
        await pilot.pause()
        assert app.said == ["hi"] and app.actions == []
        assert answer.value == "t"  # type: ignore[attr-defined]


async def test_through_the_real_app_and_host_the_line_comes_back_into_the_log(
    tmp_path: Any,
) -> None:
    from tests.tui.solo import solo_app, table_of
    from tui.games.catchy.screen import CatchyTable

    app = solo_app(tmp_path, "catchy")
    async with app.run_test(size=SIZE) as pilot:
        table = await table_of(pilot, CatchyTable)
        await pilot.press("f1")
        log = table.query_one(GameLog)
        for _ in range(500):
            if any("» Ann: gg" in line.text for line in log.lines):
                break
            await pilot.pause(0.01)
        else:
            raise AssertionError("the chat line never came back from the host")


def footer_keys(app: Any) -> dict[str, str]:
    """The keys the footer offers now: key -> description."""
    return {b.key: b.description for _, b, enabled, _ in app.active_bindings.values() if enabled}


async def test_a_player_mutes_the_spectators_with_f4_in_the_chat_and_hears_them_again() -> None:
    app = ChatHarness(catchy_view(4))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert footer_keys(app)["f4"] == "mute watchers"
        await pilot.press("f4")
        await pilot.pause()
        assert app.rules == ["hidden"]
        app.table.chat_rule("Ann", "hidden")  # the host says so
        await pilot.pause()
        log = app.table.query_one(GameLog)
        assert any("» Ann muted the watchers" in x.text for x in log.lines)
        assert footer_keys(app)["f4"] == "hear watchers"
        await pilot.press("f4")
        await pilot.pause()
        assert app.rules == ["hidden", "shown"]


async def test_a_spectator_is_not_offered_the_mute_key_and_sees_the_rule() -> None:
    view = catchy_view(4)
    app = ChatHarness({**view, "seat": None})
    async with app.run_test(size=SIZE) as pilot:
        app.table.chat_rule(None, "hidden")
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert "f4" not in footer_keys(app)
        await pilot.press("f4")
        await pilot.pause()
        assert app.rules == []
        log = app.table.query_one(GameLog)
        assert any("» The watchers are muted" in line.text for line in log.lines)


async def test_the_create_dialog_offers_muting_spectators() -> None:
    from textual.app import App
    from textual.widgets import Checkbox

    from tui.screens.dialogs import CreateDialog, NewTable

    results: list[NewTable | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateDialog("catchy"), results.append)

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#mute-spectators", Checkbox).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert results and results[0] is not None
    assert results[0].options["spectator_chat"] == "hidden"


def test_a_host_table_spec_may_hide_spectators_chat() -> None:
    from tui.commands.tablespec import parse_table_spec

    spec = parse_table_spec("kitten:spectator_chat=hidden,bots=1")
    assert spec.options == {"spectator_chat": "hidden"} and spec.bots == 1


# Plain keys: a phone's on-screen keyboard has no F-keys and often no Esc -------------------


async def test_the_chat_line_closes_with_a_plain_key_for_phone_keyboards() -> None:
    """Enter on the empty line closes it (as Esc does); a reaction is typed like any line."""
    app = ChatHarness(catchy_view(4))
    async with app.run_test(size=SIZE) as pilot:
        line = app.table.query_one(ChatLine)
        await pilot.press("t")
        opened = [line.is_open]
        assert "empty: closes" in line.placeholder
        await pilot.press("enter")
        await pilot.pause()
        opened.append(line.is_open)
        assert opened == [True, False] and app.said == []
        await pilot.press("t", "g", "g", "enter")  # F1's reaction, typed
        await pilot.pause()
        assert app.said == ["gg"] and not line.is_open


async def test_muting_the_watchers_has_a_plain_command_for_phone_keyboards() -> None:
    """``/mute`` and ``/hear`` sent as a line do what F4 does; they are never said."""
    app = ChatHarness(catchy_view(4))
    async with app.run_test(size=SIZE) as pilot:
        line = app.table.query_one(ChatLine)
        await pilot.press("t")
        await pilot.pause()
        assert "/mute: mute the watchers" in line.placeholder
        await pilot.press(*"/mute", "enter")
        await pilot.pause()
        assert app.rules == ["hidden"] and app.said == [] and not line.is_open
        app.table.chat_rule("Ann", "hidden")  # the host says so
        await pilot.pause()
        assert "/hear: hear the watchers" in line.placeholder
        await pilot.press("t", *"/MUTE", "enter")  # already muted: nothing is sent
        await pilot.pause()
        assert app.rules == ["hidden"] and app.said == []
        await pilot.press("t", *"/hear", "enter")
        await pilot.pause()
        assert app.rules == ["hidden", "shown"] and app.said == []


async def test_a_spectator_mute_command_is_refused_and_never_said() -> None:
    view = catchy_view(4)
    app = ChatHarness({**view, "seat": None})
    async with app.run_test(size=SIZE) as pilot:
        line = app.table.query_one(ChatLine)
        await pilot.press("t")
        await pilot.pause()
        assert "/mute" not in line.placeholder
        await pilot.press(*"/mute", "enter")
        await pilot.pause()
        assert app.rules == [] and app.said == []


async def test_at_kiitos_the_chat_opens_on_a_plain_key_for_phone_keyboards() -> None:
    """``@`` opens it (letters are the word's); signs typed in it are the line's own."""
    app = ChatHarness(kiitos_view(BIRD, seat=1), presence=[], screen=KiitosTable)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.table.query_one(ChatLine)
        await pilot.press("at")
        assert line.is_open and app.focused is line
        assert not {"minus", "at", "asterisk"} & {
            b.key for _, b, enabled, _ in app.active_bindings.values() if enabled and b.show
        }  # the table's sign keys leave the footer while the line takes them
        await pilot.press("o", "k", "space", "minus", "at", "enter")
        await pilot.pause()
        assert app.said == ["ok -@"] and app.actions == []


async def test_at_katootsie_the_chat_opens_with_plain_keys_for_phone_keyboards() -> None:
    """``/`` leaves the empty answer line, then ``t`` opens the chat; ``/mute`` in it is the
    chat's command, not the answer line's key."""
    from tests.tui.games.katootsie.test_table import letter_open
    from tui.games.katootsie.screen import KatootsieTable

    app = ChatHarness(letter_open().view(0), presence=[], screen=KatootsieTable)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        line = app.table.query_one(ChatLine)
        await pilot.press("slash", "t")
        assert line.is_open and app.focused is line
        await pilot.press(*"/mute", "enter")
        await pilot.pause()
        assert app.rules == ["hidden"] and app.said == [] and app.actions == []
