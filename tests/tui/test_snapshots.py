"""Snapshots of the lobby and the Catchy! table at 80x24 (fixed data, so they are stable).

Update after an intended change with ``pytest tests/tui --snapshot-update``
and look at the SVGs in ``tests/tui/__snapshots__/``.
"""

from __future__ import annotations

from typing import Any

from tests.tui.harness import LobbyHarness, TableHarness, catchy_view

SIZE = (80, 24)


def test_lobby_snapshot(snap_compare: Any) -> None:
    assert snap_compare(LobbyHarness(), terminal_size=SIZE)


def test_table_snapshot_following_with_illegal_cards_dimmed(snap_compare: Any) -> None:
    assert snap_compare(TableHarness(catchy_view(4)), terminal_size=SIZE)


def test_table_snapshot_after_a_trick(snap_compare: Any) -> None:
    assert snap_compare(TableHarness(catchy_view(3)), terminal_size=SIZE)


def test_table_snapshot_swap_prompt(snap_compare: Any) -> None:
    assert snap_compare(TableHarness(catchy_view(0)), terminal_size=SIZE, press=["s"])
