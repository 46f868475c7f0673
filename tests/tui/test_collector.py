"""The cycle collector is settled once per table, when its first view is drawn (tui.collector)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tests.tui.harness import TableHarness, catchy_view
from tui import collector


class Cycle:
    """An object in a reference cycle: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def settling(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The collector on (the suite turns it off), and this process's collector as it was
    afterwards: nothing frozen, Python's thresholds."""
    monkeypatch.setattr(collector, "enabled", True)
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_settle_freezes_what_is_alive_and_frees_it_at_the_next_settle(settling: None) -> None:
    kept = Cycle()
    gone = weakref.ref(kept)
    collector.settle()
    assert gc.get_freeze_count() > 0  # out of the collector's way
    del kept
    gc.collect()
    assert gone() is not None  # frozen: a full collection does not walk it
    collector.settle()
    assert gone() is None  # the next table's settle reclaims the old table's cycles


def test_settle_spaces_the_young_generation_s_collections_out(settling: None) -> None:
    gc.set_threshold(700, 10, 10)  # Python's own
    collector.settle()
    assert gc.get_threshold() == (collector.YOUNG_COLLECTION_EVERY, 10, 10)
    assert collector.YOUNG_COLLECTION_EVERY > 700


async def test_a_table_settles_the_collector_once_its_first_view_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settled: list[Any] = []
    app = TableHarness(None, waiting={"seats": [{"name": "Ann"}, {"name": None}], "seat": 0})
    monkeypatch.setattr(collector, "settle", lambda: settled.append(app.screen))
    first = catchy_view()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert settled == []  # the waiting room: no view yet
        app.table.received(first)
        await pilot.pause()
        assert settled == [app.table]
        app.table.received({**first, "scores": [1, 0]})
        await pilot.pause()
        assert settled == [app.table]  # once a table


class Page(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("drawn, then gone with its page")


async def test_settle_frees_the_drawing_of_a_page_that_is_gone(settling: None) -> None:
    """Textual keeps each widget's ``StylesCache`` (every line it drew) in the key of an
    ``lru_cache`` on a method; a settle empties that cache, so the widgets of a table that
    was left take their lines with them rather than pinning them for 1,024 more draws."""
    app: App[None] = App()
    async with app.run_test(size=(40, 5)) as pilot:
        await app.push_screen(Page())
        await pilot.pause()
        drawing = weakref.ref(app.screen.query_one(Static)._styles_cache)
        await app.pop_screen()
        await pilot.pause()
        collector.settle()
        assert drawing() is None
