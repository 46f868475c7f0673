"""The replay screen and ``clowder replay`` (list, export) on archived finished games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from net.store.replays import Replayer, read_archived, record_of
from tests.net.store.test_replays import archive, journal_of
from tui.cli import main
from tui.screens.replay import ReplayApp, ReplayScreen, step_text

pytestmark = pytest.mark.timeout(30)


def kitten_replayer() -> Replayer:
    return Replayer(record_of(journal_of("kitten")))


async def test_arrows_step_moves_and_rounds_home_end_and_g_jump() -> None:
    replayer = kitten_replayer()
    app = ReplayApp(replayer)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "right")
        assert screen.index == 2
        await pilot.press("left")
        assert screen.index == 1
        await pilot.press("end")
        assert screen.index == replayer.last
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("down")
        assert screen.index in replayer.rounds() or screen.index == replayer.last
        await pilot.press("g", "5", "enter")
        assert screen.index == 5
        await pilot.press("q")  # after the jump box closed, q quits


async def test_tab_looks_through_each_seat_then_everyone() -> None:
    replayer = kitten_replayer()
    app = ReplayApp(replayer, index=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.seat is None
        await pilot.press("tab")
        seats = [screen.seat]
        await pilot.press("tab", "tab")
        seats.append(screen.seat)
        assert seats == [0, None]


def test_the_chat_and_each_step_are_told() -> None:
    replayer = kitten_replayer()
    assert step_text(replayer, 0).startswith("Move 0/")
    assert "Ann" in step_text(replayer, 1) or "Bot Tom" in step_text(replayer, 1)
    screen = ReplayScreen(replayer, index=replayer.last)
    assert "» Ann: gg" in screen._log().plain


def test_the_setup_lines_stay_at_the_head_of_the_log_after_move_0() -> None:
    """Round 1's deal is told at move 0 and still at every later move (seen lost on lan-sim)."""
    replayer = kitten_replayer()
    first = ReplayScreen(replayer, index=0)._log().plain.splitlines()[0]
    assert "deals" in first
    for index in (1, 2, replayer.last):
        assert ReplayScreen(replayer, index=index)._log().plain.splitlines()[0] == first


def test_clowder_replay_lists_and_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive(tmp_path, journal_of("kitten", table_id="t4"), "t4")
    archive(tmp_path, journal_of("catchy", finish=False, table_id="t5"), "t5")
    assert main(["replay", "--state-dir", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["replays"]
    assert [row["table"] for row in rows] == ["t4"]
    out = tmp_path / "t4.jsonl"
    assert main(["replay", "t4", "--state-dir", str(tmp_path), "--export", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["kind"] == "game" and lines[0]["seed"] == 3
    actions = [line for line in lines if line["kind"] == "action"]
    assert len(actions) == len(read_archived(tmp_path, "t4").steps)
    assert main(["replay", "t5", "--state-dir", str(tmp_path), "--export", str(out)]) == 2
    assert "not over" in capsys.readouterr().err


def test_a_game_just_over_replays_from_the_state_folder_before_it_is_archived(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its results still on show, the journal is in tables/, not yet in archive/ (on lan-sim
    ``clowder replay t1 --state-dir`` said there was no such game); a game still on is
    refused there as from a host."""
    open_tables = tmp_path / "open"  # archive() writes <root>/archive: moved to tables/
    archive(open_tables, journal_of("kitten", table_id="t1"), "t1")
    archive(open_tables, journal_of("catchy", finish=False, table_id="t2"), "t2")
    (open_tables / "archive").rename(tmp_path / "tables")
    assert main(["replay", "--state-dir", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["replays"]
    assert [row["table"] for row in rows] == ["t1"]
    out = tmp_path / "t1.jsonl"
    assert main(["replay", "t1", "--state-dir", str(tmp_path), "--export", str(out)]) == 0
    assert main(["replay", "t2", "--state-dir", str(tmp_path), "--export", str(out)]) == 2
    assert "not over" in capsys.readouterr().err


def test_every_hand_is_in_the_games_own_words() -> None:
    """Kitten's cards read ``Red Hat``, ``Blue Bow`` as at the table, not ``hat-red-1``."""
    replayer = kitten_replayer()
    fields = ReplayScreen(replayer, index=1)._fields().plain
    hands = [line for line in fields.splitlines() if line.startswith("  hand: ")]
    assert len(hands) == len(replayer.record.players)
    assert all("-" not in line for line in hands)
    assert any(word in fields for word in ("Hat", "Bow", "Glass"))
