"""The bell: a table calls a player whose turn it became, or who may grab a turned card.

Issue 36, item 10: a player in another window missed turns and cards; the bell (the
terminal's attention signal) calls them, and a setting (the lobby's ``b``, ``--no-bell``)
keeps it quiet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.harness import LobbyHarness, TableHarness, blackcat_view, catchy_view
from tui.app import ClowderApp
from tui.bell import attention_due
from tui.cli import build_parser
from tui.config import CONFIG_FILE, Settings
from tui.games.blackcat.screen import BlackCatTable
from tui.screens.lobby import LobbyScreen


def test_a_turn_that_begins_calls_the_player_and_one_that_goes_on_does_not() -> None:
    waiting = catchy_view(3)  # Bot Tom's turn
    mine = catchy_view(4)
    assert not waiting["legal"] and mine["legal"]
    assert attention_due(waiting, mine) == "turn"
    assert attention_due(mine, mine) is None
    assert attention_due(None, mine) is None  # the first view: joining is not news
    assert attention_due(mine, waiting) is None


def test_nobody_is_called_when_watching_or_when_the_game_is_over() -> None:
    assert attention_due(catchy_view(3, seat=None), catchy_view(4, seat=None)) is None
    over = {**catchy_view(4), "outcome": {"winners": [0]}}
    assert attention_due(catchy_view(3), over) is None


def test_a_turned_card_calls_everyone_in_a_real_time_game_only() -> None:
    before = blackcat_view([])
    after = blackcat_view([(1, 0)])  # Bea grabbed: the next card is turned
    assert after["reveal"] != before["reveal"]
    assert attention_due(before, after, reveals=True) == "reveal"
    # Kiitos' challenge moments are claims open to all after every word: not a call.
    assert attention_due(before, after, reveals=False) is None


def test_a_claim_open_to_all_is_nobodys_turn() -> None:
    claim_only = {"seat": 0, "outcome": None, "reveal": 3, "legal": [{"type": "c", "reveal": 3}]}
    quiet: dict[str, Any] = {"seat": 0, "outcome": None, "reveal": None, "legal": []}
    assert attention_due(quiet, claim_only, reveals=False) is None
    move = {**claim_only, "legal": [{"type": "say"}]}
    assert attention_due(claim_only, move, reveals=False) == "turn"


async def _rings(app: TableHarness, later: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> int:
    rung: list[None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(app, "bell", lambda: rung.append(None))
        await pilot.pause()
        app.table.received(later)
        app.table.received(later)  # the same again: once is enough
        await pilot.pause()
    return len(rung)


async def test_the_table_rings_once_when_the_turn_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await _rings(TableHarness(catchy_view(3)), catchy_view(4), monkeypatch) == 1


async def test_a_black_cat_table_rings_at_a_turned_card(monkeypatch: pytest.MonkeyPatch) -> None:
    app = TableHarness(blackcat_view([]), screen=BlackCatTable)
    assert await _rings(app, blackcat_view([(1, 0)]), monkeypatch) == 1


async def test_the_bell_turned_off_keeps_the_table_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    app = TableHarness(catchy_view(3))
    app.table.bell_on = False
    assert await _rings(app, catchy_view(4), monkeypatch) == 0


def test_the_lobbys_b_turns_the_bell_off_and_it_is_kept(tmp_path: Path) -> None:
    app = ClowderApp(name="Ann", config_dir=tmp_path, discovery=None)
    assert app.bell_on is True  # on until turned off
    assert app.toggle_bell() is False
    assert Settings.load(tmp_path).bell is False
    assert ClowderApp(name="Ann", config_dir=tmp_path, discovery=None).bell_on is False
    assert ClowderApp(name="Ann", config_dir=tmp_path, discovery=None, bell=True).bell_on is True
    assert app.toggle_bell() is True and Settings.load(tmp_path).bell is True


def test_a_bad_bell_setting_is_the_default(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE).write_text('{"name": "Ann", "bell": "loud"}', encoding="utf-8")
    assert Settings.load(tmp_path).bell is True


@pytest.mark.parametrize("command", ["lobby", "play catchy", "learn catchy", "join 10.0.0.9"])
def test_every_ui_command_takes_no_bell(command: str) -> None:
    parser = build_parser(command.split(maxsplit=1)[0])
    assert parser.parse_args([*command.split(), "--no-bell"]).bell is False
    assert parser.parse_args(command.split()).bell is None


class BellLobby(LobbyHarness):
    def on_lobby_screen_toggle_bell(self, message: LobbyScreen.ToggleBell) -> None:
        self.intents.append("bell")


async def test_b_in_the_lobby_asks_for_the_bell_to_change() -> None:
    app = BellLobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b")
        await pilot.pause()
    assert app.intents == ["bell"]
