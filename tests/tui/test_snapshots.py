"""Snapshots of the lobby and the game tables at 80x24 (fixed data, so they are stable).

Update after an intended change with ``pytest tests/tui --snapshot-update``
and look at the SVGs in ``tests/tui/__snapshots__/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.toy_game import GAME as TOY
from tests.toy_game import registered
from tests.tui.games.katootsie.test_table import katootsie_snapshot_view
from tests.tui.games.kiitos.test_table import kiitos_view
from tests.tui.games.kitten.test_table import DAN_BIDS, kitten_view
from tests.tui.harness import (
    BLACKCAT_PLAYERS,
    LobbyHarness,
    TableHarness,
    blackcat_view,
    catchy_view,
)
from tui.games import screen_class
from tui.games.blackcat.screen import BlackCatTable
from tui.games.katootsie.screen import KatootsieTable
from tui.games.kiitos.screen import KiitosTable
from tui.games.kitten.screen import KittenTable

SIZE = (80, 24)


def test_lobby_snapshot(snap_compare: Any) -> None:
    assert snap_compare(LobbyHarness(), terminal_size=SIZE)


def test_table_snapshot_following_with_illegal_cards_dimmed(snap_compare: Any) -> None:
    assert snap_compare(TableHarness(catchy_view(4)), terminal_size=SIZE)


def test_table_snapshot_after_a_trick(snap_compare: Any) -> None:
    assert snap_compare(TableHarness(catchy_view(3)), terminal_size=SIZE)


def test_table_snapshot_swap_prompt(snap_compare: Any) -> None:
    assert snap_compare(TableHarness(catchy_view(0)), terminal_size=SIZE, press=["s"])


def test_blackcat_snapshot_three_players_mid_game(
    snap_compare: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The prompt counts down to when the end may be called ("after 5 s"): the card has been
    # up no time at all, however long a loaded machine takes to draw it (CI drew "after 4 s").
    monkeypatch.setattr(BlackCatTable, "open_for_s", lambda self: 0.0)
    takes = [(0, 0), (1, 0), (2, 1), (1, 1), (0, 0), (2, 0), (0, 1)]
    view = blackcat_view(takes, players=BLACKCAT_PLAYERS)
    app = TableHarness(view, presence=[], screen=BlackCatTable)
    assert snap_compare(app, terminal_size=SIZE)


def test_kitten_snapshot_four_players_bid_bar_open(snap_compare: Any) -> None:
    app = TableHarness(kitten_view(DAN_BIDS), presence=[], screen=KittenTable)
    assert snap_compare(app, terminal_size=SIZE, press=["b", "up"])


def test_katootsie_snapshot_five_players_a_second_b_with_one_out(snap_compare: Any) -> None:
    app = TableHarness(katootsie_snapshot_view(), presence=[], screen=KatootsieTable)
    assert snap_compare(app, terminal_size=SIZE, press=["b", "e", "r"])


def test_kiitos_snapshot_four_players_a_word_typed(snap_compare: Any) -> None:
    said = [
        {"type": "lead", "word": "brief", "letter": "B"},
        {"type": "say", "word": "boom", "letter": "O", "side": "end"},
    ]
    app = TableHarness(kiitos_view(said, seat=2), presence=[], screen=KiitosTable)

    async def type_a_word(pilot: Any) -> None:
        from engine.games.kiitos.words import dictionary

        table = app.table
        assert isinstance(table, KiitosTable)
        table.words_ready(dictionary())
        await pilot.press(*"bothers")

    assert snap_compare(app, terminal_size=SIZE, run_before=type_a_word)


def test_generic_table_snapshot_for_a_game_without_its_own_screen(snap_compare: Any) -> None:
    with registered():
        state = TOY.new_game(["Ann", "Bea", "Cy"], 3, {"mode": "turns"})
        state, _ = TOY.apply(state, state.turn, {"type": "add", "n": 2}, 0.0)
        view = {
            **TOY.view(state, state.turn),
            "turn": state.turn,
            "hand": ["3H", "QS", "JK"],
            "bids": {"Ann": 2, "Bea": None},
            "pile": [["AS", "2S"], ["KD"]],
        }
        app = TableHarness(view, presence=[], screen=screen_class("toy"))
        assert snap_compare(app, terminal_size=SIZE)


def test_replay_snapshot_kitten_every_hand_with_chat(snap_compare: Any) -> None:
    from net.store.replays import Replayer, record_of
    from tests.net.store.test_replays import journal_of
    from tui.screens.replay import ReplayApp

    app = ReplayApp(Replayer(record_of(journal_of("kitten"))), index=4)
    assert snap_compare(app, terminal_size=SIZE)


def test_table_snapshot_with_chat_lines_and_the_chat_open(snap_compare: Any) -> None:
    async def chatted(pilot: Any) -> None:
        pilot.app.table.said("Bea", 1, "nice trick!")
        pilot.app.table.said("Sam", None, "gg all")
        await pilot.pause()
        await pilot.pause()

    app = TableHarness(catchy_view(4))
    assert snap_compare(
        app, terminal_size=SIZE, run_before=chatted, press=["ctrl+t", "t", "h", "x"]
    )
