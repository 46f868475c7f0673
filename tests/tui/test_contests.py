"""The results' "N cards contested" line is the table's count, sent by the host.

Issue 36, item 11: the line counted only the rulings this client's session saw, so after a
new SSH session (or joining late) it was wrong. The host now sends its count with a
finished real-time game's views (``view.contests``); the results use it, and fall back to
the session's own rulings only when a host sends none.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest

from engine import registry
from tests.contract import play, players_for
from tests.tui.harness import TableHarness
from tui import app as app_module
from tui.app import AtTable, ClowderApp
from tui.games import screen_class
from tui.screens.realtime import RealtimeTable
from tui.screens.results import ResultsScreen
from tui.widgets.rulings import Award, Ruling

HOST_COUNT = {"contested": 7, "closest_ns": 1_900_000, "tie": True}
NOUNS = {"blackcat": "cards", "katootsie": "letters", "kiitos": "challenges"}


def over_view(game: str) -> dict[str, Any]:
    """Seat 0's view of a finished game (a seeded random playout)."""
    engine = registry.get(game)
    playout = play(engine, players_for(engine.min_players), 0, max_steps=3000)
    assert engine.outcome(playout.final) is not None
    view: dict[str, Any] = engine.view(playout.final, 0)
    return view


def results_text(screen: ResultsScreen) -> str:
    return str(screen.query_one("#results-body").render())


def saw_one_contest(table: RealtimeTable[Any]) -> None:
    """This session saw one contested ruling of the game (it came late, or came back)."""
    ruling = Ruling(3, 1, 2, 0, 40_000_000, False, "")
    table.history.awards = [Award(3, 1, "it", ruling)]


@pytest.mark.parametrize("game", sorted(NOUNS))
async def test_the_results_count_the_hosts_contests_not_this_sessions(game: str) -> None:
    app = TableHarness(over_view(game), presence=[], screen=screen_class(game))
    table = cast(RealtimeTable[Any], app.table)
    saw_one_contest(table)
    table.contested(HOST_COUNT)  # as the app does, before the view that ends the game
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
        assert isinstance(app.screen, ResultsScreen)
        text = results_text(app.screen)
        assert f"7 {NOUNS[game]} contested; the closest was a tie (1.9 ms apart)." in text


def test_without_the_hosts_count_the_sessions_own_rulings_are_counted() -> None:
    table = cast(RealtimeTable[Any], screen_class("blackcat")())
    saw_one_contest(table)
    assert table.contest_lines("card") == ["1 card contested; the closest was won by 40 ms."]
    table.contested({"contested": 0, "closest_ns": None, "tie": False})
    assert table.contest_lines("card") == []  # the host says none: none, whatever was seen
    table.contested(HOST_COUNT)
    assert table.contest_lines("card") == [
        "7 cards contested; the closest was a tie (1.9 ms apart)."
    ]


@pytest.mark.parametrize(
    "sent",
    [
        {"contested": "7"},
        {"contested": "7", "closest_ns": 1_900_000, "tie": True},
        {"contested": True, "closest_ns": 1_900_000, "tie": True},
        {"contested": -1, "closest_ns": None, "tie": False},
        {"contested": 3, "closest_ns": None, "tie": False},
        {"contested": 0, "closest_ns": 5, "tie": False},
        {"contested": 3, "closest_ns": -5, "tie": False},
        {"contested": 3, "closest_ns": 2.5, "tie": False},
        {"contested": 3, "closest_ns": False, "tie": False},
        {"contested": 3, "closest_ns": 5, "tie": "yes"},
        {"contested": 3, "closest_ns": 5},
        [7, 1_900_000, True],
        "7 cards",
        7,
        None,
    ],
)
def test_a_malformed_count_from_the_host_is_ignored(sent: Any) -> None:
    """Data from the network is checked: what is not the host's shape is ignored (the
    session's own rulings are counted), never drawn as nonsense nor crashing the screen."""
    table = cast(RealtimeTable[Any], screen_class("blackcat")())
    saw_one_contest(table)
    table.contested(sent)
    assert table.contests is None
    assert table.contest_lines("card") == ["1 card contested; the closest was won by 40 ms."]
    table.contested(HOST_COUNT)
    table.contested(sent)  # after the host's count: that count stands
    assert table.contest_lines("card") == [
        "7 cards contested; the closest was a tie (1.9 ms apart)."
    ]


class Incoming:
    """A client as the app's pump reads it: only its queue of messages."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[Any] = asyncio.Queue()


MALFORMED = {"contested": {"7": ["\x1b[2J"]}, "closest_ns": "\x1b]0;owned\x07", "tie": 1}


@pytest.mark.parametrize(
    ("sent", "line"),
    [
        (HOST_COUNT, "7 cards contested; the closest was a tie (1.9 ms apart)."),
        (MALFORMED, None),  # ignored: this session saw no contest, so no line
    ],
    ids=["the hosts count", "malformed"],
)
async def test_the_app_hands_the_hosts_count_from_the_view_message_to_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sent: dict[str, Any], line: str | None
) -> None:
    from net.wire.messages import View

    # The lobby under the table lists no host here; its timer must not tick as the app ends.
    monkeypatch.setattr(app_module, "LIST_EVERY_S", 3600.0)
    app = ClowderApp(name="Ann", config_dir=tmp_path, discovery=None)
    async with app.run_test(size=(80, 24)) as pilot:
        client = Incoming()
        screen = screen_class("blackcat")(table_id="t1", place="127.0.0.1:7707")
        app.at_table = AtTable(cast(Any, client), "t1", screen)
        app.run_worker(app._pump(cast(Any, client)), group="table")
        await app.push_screen(screen)
        over = over_view("blackcat")
        client.incoming.put_nowait(View(table="t1", version=9, view=over, events=[], contests=sent))
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
        assert isinstance(app.screen, ResultsScreen)
        text = results_text(app.screen)
        if line is None:
            assert "contested" not in text and screen.contests is None
        else:
            assert line in text
