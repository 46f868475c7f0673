"""The generic table: any registered game without a screen of its own, driven by keys.

The toy game (:mod:`tests.toy_game`) has no TUI screen, so it gets the
generic table: its view's fields, the scores, the log and the legal actions
as a menu. A real-time variant of it checks that a claim picked from the
menu goes out with its drawn/acted stamps.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.core import Seat
from tests.toy_game import CARDS, GAME, ToyGame, ToyState, registered
from tests.tui.harness import TableHarness
from tui.app import ClowderApp, PlayRequest
from tui.games import has_screen, own_screens, screen_class
from tui.screens.generic import GenericTable, RealtimeGenericTable, action_label, field_lines
from tui.screens.info import InfoScreen
from tui.screens.realtime import RealtimeTable
from tui.screens.rules import RulesScreen
from tui.widgets.prompt import PromptLine

SIZE = (80, 24)
PLAYERS = ["Ann", "Bea", "Cy"]


class RealtimeToy(ToyGame):
    """The toy's ``together`` mode as a real-time game: each opened card is a reveal."""

    name = "toyrt"
    title = "Toy Rush"
    realtime = True
    claim_types = frozenset({"grab"})

    def reveal(self, state: ToyState) -> int | None:
        return CARDS - state.cards_left + 1 if state.is_open else None


@pytest.fixture
def toy() -> Iterator[ToyGame]:
    with registered() as game:
        yield game


def toy_view(seat: Seat | None = 0, mode: str = "turns") -> dict[str, Any]:
    state = GAME.new_game(PLAYERS, 3, {"mode": mode})
    view: dict[str, Any] = GAME.view(state, seat)
    return view


def text_of(widget: object) -> str:
    return str(widget.render())  # type: ignore[attr-defined]


def test_each_game_is_shown_by_its_own_screen_or_the_generic_table(toy: ToyGame) -> None:
    screens = own_screens()
    assert screens, "no game has a screen of its own"
    for name in registry.names():
        screen = screen_class(name)
        if name in screens:
            assert screen is screens[name] and screen.game == name
            assert screen.__module__ == f"tui.games.{name}.screen"
        else:
            assert issubclass(screen, GenericTable) and screen.game == name
        assert has_screen(name)
    assert set(screens) <= set(registry.names()), "a screen for a game the engine does not know"
    generic = screen_class("toy")
    assert issubclass(generic, GenericTable) and not issubclass(generic, RealtimeTable)
    assert "toy" not in screens
    assert not has_screen("no-such-game")


def test_action_labels_and_fields_read_as_words() -> None:
    assert action_label({"type": "bid", "count": 3, "thing": "hat"}) == "bid count=3 thing=hat"
    assert action_label({"type": "take", "pile": 1, "reveal": 9}) == "take pile=1"
    view = {**toy_view(), "cards": ["A", "B"], "who": {"x": 1}, "name": "Bea\x1b[2J"}
    fields = dict(field_lines(view))
    assert fields["total"] == "0" and fields["cards"] == "A B" and fields["who"] == "x=1"
    assert "\x1b" not in fields["name"]


async def test_the_generic_table_plays_the_toy_game_by_arrows_and_enter(toy: ToyGame) -> None:
    state = GAME.new_game(PLAYERS, 3, {"mode": "turns"})
    view = GAME.view(state, state.turn)
    app = TableHarness(view, presence=[], screen=screen_class("toy"))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert "Toy" in str(table.query_one("#title").render())
        assert "total: 0" in str(table.query_one("#fields").render())
        await pilot.press("down", "enter")
        assert app.actions == [{"type": "add", "n": 2}]
        assert app.stamps == [None]
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        assert "# Toy: rules" in app.screen.page and "generic table" in app.screen.page


async def test_a_seat_without_a_move_is_told_whose_turn_it_is(toy: ToyGame) -> None:
    state = GAME.new_game(PLAYERS, 3, {"mode": "turns"})
    idle = (state.turn + 1) % len(PLAYERS)
    app = TableHarness(GAME.view(state, idle), presence=[], screen=screen_class("toy"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert app.actions == []
        assert "No move for you now" in str(app.table.query_one("#moves-title").render())


async def test_a_realtime_game_sends_claims_with_stamps_and_w_explains(toy: ToyGame) -> None:
    game = RealtimeToy()
    registry.register(game)
    try:
        state = game.new_game(PLAYERS, 3, {"mode": "together"})
        state, _ = game.tick(state, 1.0)
        view = game.view(state, 0)
        screen = screen_class("toyrt")
        assert issubclass(screen, RealtimeGenericTable)
        app = TableHarness(view, presence=[], screen=screen)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter")
            assert app.actions == [{"type": "grab", "reveal": view["reveal"]}]
            stamps = app.stamps[0]
            assert stamps is not None and stamps.reveal == view["reveal"]
            assert stamps.drawn_ns <= stamps.acted_ns
            await pilot.press("enter")  # one claim in flight per reveal
            assert len(app.actions) == 1
            assert "the host is deciding" in text_of(app.table.query_one(PromptLine))
            await pilot.press("w")
            assert not isinstance(app.screen, InfoScreen)  # no ruling yet
    finally:
        registry.unregister(game.name)


async def test_clowder_play_seats_you_at_the_generic_table_of_a_game_without_a_screen(
    toy: ToyGame, tmp_path: Path
) -> None:
    app = ClowderApp(
        name="Ann",
        config_dir=tmp_path,
        play=PlayRequest("toy", {}),
        host_bind="127.0.0.1",
        advertise=False,
        bot_delay_s=0.0,
    )
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            await pilot.pause()
            table = app.screen
            if isinstance(table, GenericTable) and table.view is not None and table.view["legal"]:
                break  # the bot cannot finish the game alone: Ann's turn comes
        else:
            raise AssertionError("the generic table never offered a move")
        await pilot.press("enter")
        for _ in range(400):
            await pilot.pause()
            if "Ann played add" in "\n".join(table.view["log"]):
                break
        else:
            raise AssertionError("Ann's move never reached the host")
