"""A key that opens a dialog lets no key after it through to the screen below (issue 36,
item 3).

At Katootsie!, after ``/``, an answer that began with ``q`` opened the leave dialog, and
when the keys came in one burst (SSH, a paste) the rest of the word went under the open
dialog into the answer: ``uartz`` was sent. Here each key of every game's table and of the
lobby is posted to the app together with the keys after it, in one go, as a terminal's burst
reaches it; where the key opens a dialog (a screen over the one it was pressed on), every key
after it must be handed to that dialog only. The last test is the issue's own case through
the real app (``clowder play katootsie``): ``/`` then ``quartz`` and Enter.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from engine import registry
from engine.games.katootsie.rules import KatootsieView
from tests.contract import play, players_for
from tests.engine.games.katootsie.helpers import table as katootsie_table
from tests.tui.harness import LobbyHarness, TableHarness
from tests.tui.solo import drawn_screen, solo_app, table_of
from tests.tui.test_early_messages import first_view
from tui.games import screen_class
from tui.games.katootsie.screen import KEYS_MODE_LETTERS, AnswerInput, KatootsieTable
from tui.keygate import SeenFirst
from tui.screens import rules
from tui.screens.end_game import EndGameDialog
from tui.screens.keys import KeysScreen, textual_own
from tui.screens.leave import LeaveDialog
from tui.screens.results import ResultsScreen
from tui.screens.table import TableScreen
from tui.widgets.chat import typed_character
from tui.widgets.prompt import PromptLine

SIZE = (80, 24)
PHONE = (48, 40)
AFTER = ["f7", "f8", "f9", "f10"]
"""The keys of the burst after a key: bound nowhere (one that closes a dialog would rightly
let the next keys reach the screen below again), typed nowhere (a screen that stays up is
not changed by them)."""


class Asking(TableHarness):
    """A table whose ``q`` opens the leave dialog, as the app's does while a game is on."""

    def on_table_screen_leave(self, message: TableScreen.Leave) -> None:
        message.prevent_default()  # not the harness's own handler too
        if message.choice is None:
            self.push_screen(LeaveDialog(self.table.table_id))
        else:
            self.left = True


@contextmanager
def handed_keys() -> Iterator[list[tuple[str, Any]]]:
    """Every key Textual hands to a widget or a screen, with the screen it went to."""
    handed: list[tuple[str, Any]] = []
    widget_forward = Widget._forward_event
    screen_forward = Screen._forward_event

    def on_widget(self: Widget, event: events.Event) -> None:
        if isinstance(event, events.Key):
            handed.append((event.key, self.screen))
        widget_forward(self, event)

    def on_screen(self: Screen[Any], event: events.Event) -> None:
        if isinstance(event, events.Key):
            handed.append((event.key, self))
        screen_forward(self, event)

    Widget._forward_event = on_widget  # type: ignore[method-assign]
    Screen._forward_event = on_screen  # type: ignore[method-assign]
    try:
        yield handed
    finally:
        Widget._forward_event = widget_forward  # type: ignore[method-assign]
        Screen._forward_event = screen_forward  # type: ignore[method-assign]


def key_event(key: str) -> events.Key:
    return events.Key(key, typed_character(key))


def quiet(app: App[Any]) -> bool:
    """No key held or on its way, and every queue of the app, its screens and their widgets
    empty."""
    if getattr(app, "_held_keys", None) or getattr(app, "_key_on_way", 0):
        return False
    pumps: list[Any] = [app]
    for screen in app.screen_stack:
        pumps += [screen, *screen.walk_children(with_self=False)]
    return all(pump._message_queue.empty() for pump in pumps)


async def settle(pilot: Pilot[Any]) -> None:
    """Until everything the keys set going is done (the app quiet a few turns running)."""
    calm = 0
    for _ in range(5000):
        await asyncio.sleep(0)
        calm = calm + 1 if quiet(pilot.app) else 0
        if calm >= 20:
            return
    await pilot.pause()


async def burst(pilot: Pilot[Any], keys: Sequence[str]) -> None:
    """``keys`` posted to the app in one go, as a terminal's burst comes."""
    for key in keys:
        pilot.app.post_message(key_event(key))
    await settle(pilot)


def dialog_keys(screen: Screen[Any]) -> list[str]:
    """The keys ``screen`` answers to now, one per action: each may open a dialog (Textual's
    own cursor and focus keys do not, and the keys that quit are not pressed)."""
    seen: set[str] = set()
    keys = []
    for key, active in screen.active_bindings.items():
        binding = active.binding
        own = (binding.action, binding.description) in textual_own(active.node)
        if own or "quit" in binding.action or binding.action in seen or not active.enabled:
            continue
        seen.add(binding.action)
        keys.append(key)
    return keys


async def burst_after(pilot: Pilot[Any], below: Screen[Any], key: str) -> type | None:
    """``key`` and :data:`AFTER` posted in one go over ``below``: the class of the dialog
    ``key`` opened (closed again), every key after it handed to that dialog only; ``None``
    when it opened none."""
    app = pilot.app
    with handed_keys() as handed:
        await burst(pilot, [key, *AFTER])
    dialog = app.screen
    if dialog is below:
        opened = None
    else:
        opened = type(dialog)
        after = handed[1:] if handed and handed[0][0] == key else handed
        under = [(k, type(screen).__name__) for k, screen in after if screen is not dialog]
        assert under == [], f"after {key}, keys went under {opened.__name__}"
        if isinstance(dialog, SeenFirst):  # it asks: keys typed before it was seen are dropped
            assert after == [], f"after {key}, keys typed blind reached {opened.__name__}"
        else:
            assert [k for k, _ in after] == AFTER
    while app.screen is not below and len(app.screen_stack) > 1:
        await app.pop_screen()
        await settle(pilot)
    below.set_focus(None)  # a key that opened a line (the chat's) gave it the focus
    return opened


@pytest.fixture
def short_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules page of one line: Markdown takes a second to lay out a game's whole rules, and
    what is tested here is where the keys go, not the page."""
    monkeypatch.setattr(rules, "rules_markdown", lambda title, *_: f"# {title}")


@pytest.mark.parametrize("game", registry.names())
@pytest.mark.usefixtures("short_rules")
async def test_keys_after_a_tables_dialog_key_reach_only_the_dialog(game: str) -> None:
    app = Asking(first_view(game), presence=[], screen=screen_class(game))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.table
        table.set_focus(None)  # its keys, not a line's letters
        if "slash" in table.active_bindings:  # Katootsie!: the line left, letters are keys
            await burst(pilot, ["slash"])
        await settle(pilot)
        found = {}
        for key in dialog_keys(table):
            opened = await burst_after(pilot, table, key)
            if opened is not None:
                found[key] = opened
        assert {KeysScreen, LeaveDialog} <= set(found.values()), found
        assert not app.left


async def test_keys_after_the_lobbys_dialog_keys_reach_only_the_dialog() -> None:
    app = LobbyHarness()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.lobby
        found = {}
        for key in dialog_keys(lobby):
            if key != "enter":  # joins (the app's work, not a dialog)
                opened = await burst_after(pilot, lobby, key)
                if opened is not None:
                    found[key] = opened
        assert {"question_mark", "c", "l", "a", "n"} <= set(found), found


async def test_a_burst_after_slash_neither_types_under_the_dialog_nor_answers_it(
    tmp_path: Path,
) -> None:
    """The issue's case through the real app: at a letter, ``/`` then ``quietly`` and Enter
    in one burst (SSH, a paste): ``q`` asks before the game ends, nothing reaches the answer
    line, and the ``y`` typed with it, before the question was on screen, does not end the
    game (at a LAN table the ``g`` of ``quagmire`` gave the seat up); a key pressed once the
    question shows answers it."""

    def letter_open(table: KatootsieTable) -> bool:
        view: KatootsieView | None = table.view
        return view is not None and table.stage(view) == "letter" and table.may_answer(view)

    app = solo_app(tmp_path, "katootsie")
    async with app.run_test(size=SIZE) as pilot:
        table = await table_of(pilot, KatootsieTable, letter_open, rounds=1500)
        await pilot.press("slash")
        await burst(pilot, [*"quietly", "enter"])
        dialog = app.screen
        assert isinstance(dialog, EndGameDialog) and app.is_running
        assert table.query_one("#answer", AnswerInput).value == ""
        assert table.pending_claim is None
        await pilot.pause()
        await pilot.press("n")  # seen now: "back to the game"
        assert app.screen is table and app.is_running


@pytest.mark.parametrize("key", ["g", "l"])
async def test_the_leave_dialog_takes_no_key_typed_before_it_showed(key: str) -> None:
    app = TableHarness(first_view("catchy"), presence=[])
    chosen: list[str | None] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = LeaveDialog("t1")
        app.push_screen(dialog, chosen.append)
        app.post_message(key_event(key))  # in the same burst as the key that opened it
        await settle(pilot)
        assert app.screen is dialog and chosen == []
        await pilot.pause()
        await pilot.press(key)
        assert chosen == [{"g": "give_up", "l": "for_now"}[key]]


@pytest.mark.parametrize("size", [SIZE, PHONE])
async def test_after_a_dialog_from_katootsies_table_keys_the_letters_type_again(
    size: tuple[int, int],
) -> None:
    """Seen on a phone (48x40): after ``/``, ``quartz`` opened the leave dialog and ``q``
    closed it; then the line had the focus again, the footer said so (``/ table keys``) and
    the prompt still named the single keys (``Keys: r rules ...``). Back from a dialog, the
    answer line has the typing again, and the prompt and the footer say so: every letter
    types."""
    game = katootsie_table(players=3, first="BB", categories=("Fruits",))
    game.to_letter()
    view = game.view(0)
    app = Asking(view, presence=[], screen=KatootsieTable)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        table = app.table
        line = table.query_one("#answer", AnswerInput)
        prompt = table.query_one(PromptLine)
        await pilot.press("slash", *"quartz")
        dialog = app.screen
        assert isinstance(dialog, LeaveDialog)
        await pilot.press("q")  # stay
        await settle(pilot)
        assert app.screen is table and table.focused is line and line.value == ""
        assert str(prompt.render()).startswith("Type an answer with B")
        shown = {b.key for _, b, enabled, _ in table.active_bindings.values() if enabled and b.show}
        assert {"slash", "exclamation_mark"} <= shown  # the empty line's keys, as the prompt
        await pilot.press(*"Lambrusco", "enter")  # r, t and q among them: each types
        assert app.screen is table and not app.left
        assert app.actions == [{"type": "answer", "text": "Lambrusco", "reveal": view["reveal"]}]


async def test_katootsies_prompt_after_slash_says_which_letters_are_keys_and_which_type() -> None:
    """It said "a letter types again", yet q, r, w and t are keys there: each letter that acts
    is named, and only the other letters type."""
    game = katootsie_table(players=3, first="BB", categories=("Fruits",))
    game.to_letter()
    app = TableHarness(game.view(0), presence=[], screen=KatootsieTable)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        prompt = str(app.table.query_one(PromptLine).render())
        assert "a letter types" not in prompt and "other letters type" in prompt
        for letter in KEYS_MODE_LETTERS.replace("w", ""):  # w: once there is a ruling
            assert f" {letter} " in prompt, (letter, prompt)
        for letter in "abcxyzw":  # not a key there: it types
            assert f" {letter} " not in prompt
        await pilot.press("w")  # no ruling to explain yet: w is a letter like any other
        assert app.table.query_one("#answer", AnswerInput).value == "w"


async def test_enter_typed_as_the_game_ends_does_not_leave_the_results_unseen() -> None:
    """An answer's Enter (or a card's) typed just as the last view came: the results, whose
    Enter leaves the table, come up and stay until a key pressed once they show."""
    engine = registry.get("catchy")
    playout = play(engine, players_for(2), 0, max_steps=3000)
    over = engine.view(playout.final, 0)
    app = TableHarness(first_view("catchy"), presence=[])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.table.received(over)
        app.post_message(key_event("enter"))
        results = await drawn_screen(pilot, ResultsScreen)
        await settle(pilot)
        on_top: Screen[Any] = app.screen
        assert on_top is results
        await pilot.press("t")  # seen now: back to the table
        assert app.screen is not results and app.screen is app.table
