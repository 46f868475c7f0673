"""Seats that come back: a client killed mid-game, ``q`` then "leave for now", the stored tokens.

The host is a real :class:`net.doors.host.Host` on 127.0.0.1; each "run" of Clowder
is a :class:`ClowderApp` started with ``clowder join``'s address and the same
state folder, as a player starting Clowder again would.
"""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from net.client.client import Client
from net.doors.host import Host
from tests.tui.solo import drawn_screen
from tui.app import ClowderApp
from tui.games.catchy.screen import CatchyTable
from tui.screens.leave import LeaveDialog
from tui.screens.lobby import table_row
from tui.screens.results import ResultsScreen
from tui.seats import HeldSeat, SeatStore


async def until(pilot: Pilot[Any], check: Any, what: str, rounds: int = 500) -> None:
    for _ in range(rounds):
        if check():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def join_app(tmp_path: Path, port: int, name: str = "Ann") -> ClowderApp:
    return ClowderApp(
        name=name,
        config_dir=tmp_path / "config",
        state_dir=tmp_path / "state",
        join=("127.0.0.1", port),
        discovery=None,
        advertise=False,
    )


async def catchy_host(takeover_s: float = 30.0) -> tuple[Host, str]:
    host = Host(name="Bea", bind="127.0.0.1", port=0, bot_delay_s=0.05, log=lambda _: None)
    await host.start()
    table = host.create_table("catchy", {"takeover": takeover_s}, bots=1).table.id
    return host, table


async def at_table(pilot: Pilot[Any], app: ClowderApp) -> CatchyTable:
    await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
    screen = app.screen
    assert isinstance(screen, CatchyTable)
    await until(pilot, lambda: screen.view is not None, "the deal")
    return screen


async def left_for_now(
    pilot: Pilot[Any], app: ClowderApp, host: Host, table: str, seat: int
) -> Any:
    """``q``, then ``l`` (leave for now) once the dialog shows; back in the lobby, until a bot
    covers the seat. The host's record of the seat."""
    await pilot.press("q")
    await drawn_screen(pilot, LeaveDialog)
    await pilot.press("l")
    await until(pilot, lambda: app.screen is app.lobby, "the lobby")
    info = host.runners[table].table.seats[seat]
    await until(pilot, lambda: info.bot is not None, "a bot to cover the seat")
    return info


def test_the_store_keeps_tokens_privately_and_drops_them(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    store.keep(HeldSeat("198.18.0.1:7707", "t3", "secret", "catchy"))
    store.keep(HeldSeat("198.18.0.1:7707", "t4", "other"))
    assert store.find("198.18.0.1:7707", "t3") == HeldSeat(
        "198.18.0.1:7707", "t3", "secret", "catchy"
    )
    assert store.tables_at("198.18.0.1:7707") == {"t3", "t4"}
    assert stat.S_IMODE((tmp_path / "seats.json").stat().st_mode) == 0o600
    store.drop("198.18.0.1:7707", "t3")
    assert store.tables_at("198.18.0.1:7707") == {"t4"}
    assert [p.name for p in tmp_path.iterdir()] == ["seats.json"]  # no temporary left over
    (tmp_path / "seats.json").write_text("{not json")
    assert store.all() == []


def test_a_seat_is_held_by_the_name_it_was_taken_under_and_follows_a_rename(
    tmp_path: Path,
) -> None:
    store = SeatStore(tmp_path)
    store.keep(HeldSeat("h:1", "t1", "ann-token", "catchy", name="Ann"))
    store.keep(HeldSeat("h:1", "t1", "bea-token", "catchy", name="Bea"))  # one table, two
    assert store.find("h:1", "t1", "Ann").token == "ann-token"  # type: ignore[union-attr]
    assert store.find("h:1", "t1", "Bea").token == "bea-token"  # type: ignore[union-attr]
    assert store.find("h:1", "t1", "Cy") is None and store.tables_at("h:1", "Cy") == set()
    store.rename("Ann", "Annie")
    assert store.find("h:1", "t1", "Annie").token == "ann-token"  # type: ignore[union-attr]
    assert store.find("h:1", "t1", "Ann") is None
    store.drop("h:1", "t1", "Bea")  # Bea gave up: Annie's seat stays
    assert [seat.name for seat in store.all()] == ["Annie"]
    store.keep(HeldSeat("h:1", "t2", "old-token"))  # kept before names were: anyone's
    assert store.find("h:1", "t2", "Cy") is not None
    store.keep(HeldSeat("h:1", "t2", "old-token", name="Ann"))  # Ann takes it back
    assert store.find("h:1", "t2", "Cy") is None  # no nameless copy left for another name
    store.drop("h:1", "t1")  # the table is over: every seat there
    assert store.tables_at("h:1") == {"t2"}


def test_the_lobby_marks_a_table_where_you_hold_a_seat() -> None:
    table = {"id": "t3", "game": "catchy", "title": "Catchy!", "status": "playing", "free": 0}
    assert table_row({**table, "yours": True})[3] == "your seat"
    assert table_row(table)[3] == "playing"


async def test_a_client_killed_mid_game_comes_back_to_its_seat_with_its_hand(
    tmp_path: Path,
) -> None:
    host, table = await catchy_host()
    try:
        first = join_app(tmp_path, host.port)
        async with first.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: first.lobby and first.lobby.tables, "the tables")
            await pilot.press("enter")
            screen = await at_table(pilot, first)
            seat = screen.view["seat"] if screen.view else None
            hand = screen.view["hand"] if screen.view else None
            assert seat is not None and hand
        # The app is gone without a word to the host (as if killed): the seat waits.
        runner = host.runners[table]
        await asyncio.sleep(0.1)
        assert not runner.table.seats[seat].connected and runner.table.seats[seat].human
        saved = json.loads((tmp_path / "state" / "seats.json").read_text())
        assert [s["table"] for s in saved["seats"]] == [table]

        again = join_app(tmp_path, host.port)
        async with again.run_test(size=(80, 24)) as pilot:
            screen = await at_table(pilot, again)  # straight back, no key pressed
            assert screen.view is not None and screen.view["seat"] == seat
            assert screen.view["hand"]
            assert runner.table.seats[seat].connected
            assert [s.name for s in runner.table.seats].count("Ann") == 1
    finally:
        await host.close()


async def test_a_second_name_on_the_same_machine_never_takes_the_first_ones_seat(
    tmp_path: Path,
) -> None:
    """Two terminals of one user (one state folder), ``--name Ann`` and ``--name Bea``."""
    host = Host(name="Cy", bind="127.0.0.1", port=0, bot_delay_s=0.05, log=lambda _: None)
    await host.start()
    table = host.create_table("catchy", {"takeover": 30.0}, seats=2).table.id
    try:
        ann = join_app(tmp_path, host.port)
        bea = join_app(tmp_path, host.port, name="Bea")
        async with ann.run_test(size=(80, 24)) as ann_pilot:
            await until(ann_pilot, lambda: ann.lobby and ann.lobby.tables, "Ann's tables")
            await ann_pilot.press("enter")
            await until(ann_pilot, lambda: isinstance(ann.screen, CatchyTable), "Ann's table")
            async with bea.run_test(size=(80, 24)) as bea_pilot:
                await until(bea_pilot, lambda: bea.lobby and bea.lobby.tables, "Bea's tables")
                await bea_pilot.press("enter")
                screen = await at_table(bea_pilot, bea)
                runner = host.runners[table]
                assert sorted(s.name or "" for s in runner.table.seats) == ["Ann", "Bea"]
                seat = screen.view["seat"] if screen.view is not None else None
                assert seat is not None and runner.table.seats[seat].name == "Bea"
                assert all(s.connected for s in runner.table.seats)  # Ann was not pushed out
    finally:
        await host.close()


async def test_q_then_leave_for_now_then_enter_returns_and_the_bot_hands_the_seat_back(
    tmp_path: Path,
) -> None:
    host, table = await catchy_host(takeover_s=0.1)
    # Someone watches, so the table goes on while Ann is away (a table nobody is at holds
    # still, its clock too: no bot would cover her seat then, nor need to).
    watcher = Client("127.0.0.1", host.port, "Sam", reconnect=False)
    try:
        await watcher.connect()
        await watcher.join(table, "spectator")
        app = join_app(tmp_path, host.port)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: lobby.tables, "the tables")
            await pilot.press("enter")
            screen = await at_table(pilot, app)
            seat = screen.view["seat"] if screen.view else None
            assert seat is not None
            info = await left_for_now(pilot, app, host, table, seat)
            assert info.human and info.token is not None
            await app._list_selected()
            rows = lobby.query_one("#tables", DataTable)
            assert str(rows.get_row_at(0)[3]).startswith("your seat")
            await pilot.press("enter")
            back = await at_table(pilot, app)
            assert back.view is not None and back.view["seat"] == seat and back.view["hand"]
            assert info.bot is None and info.connected  # the bot handed the seat back
            await pilot.press("q")
            await drawn_screen(pilot, LeaveDialog)
            await pilot.press("g")  # give it up: the token is forgotten
            await until(pilot, lambda: app.screen is lobby, "the lobby again")
            assert app.seats.all() == [] and not info.human
    finally:
        await watcher.close()
        await host.close()


async def test_the_leave_dialog_says_when_a_bot_plays_the_seat_the_table_s_takeover(
    tmp_path: Path,
) -> None:
    """Issue 36, item 4: "leave for now: your seat waits", but after the table's takeover a
    bot played the seat: the dialog says so, with the host's own seconds for that table."""
    host, table = await catchy_host(takeover_s=45)
    try:
        app = join_app(tmp_path, host.port)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: lobby.tables, "the tables")
            await pilot.press("enter")
            await at_table(pilot, app)
            await pilot.press("q")
            await drawn_screen(pilot, LeaveDialog)
            text = " ".join(str(line.render()) for line in app.screen.query(Static))
            seconds = host.runners[table].table.takeover_s
            assert f"l  leave for now: a bot plays your seat after {seconds:g} s" in text
            assert "until you come back" in text and "your seat waits" not in text
    finally:
        await host.close()


def test_the_leave_dialog_says_what_a_host_that_never_covers_or_does_not_say_does() -> None:
    from tui.screens.leave import for_now_text

    assert for_now_text(30.0) == (
        "leave for now: a bot plays your seat after 30 s, until you come back"
    )
    assert for_now_text(0.0) == "leave for now: your seat waits for you (no bot plays it)"
    assert for_now_text(None) == "leave for now: a bot may play your seat until you come back"


async def test_coming_back_to_a_seat_a_bot_covered_says_so(tmp_path: Path) -> None:
    """Issue 36, item 4: back at a seat a bot played (the lobby's listing showed it
    covered), the player is told, in the log and a toast; a seat nobody covered is not."""
    from tui.app import COVERED_NOTICE, was_covered
    from tui.widgets.log import GameLog

    host, table = await catchy_host(takeover_s=0.1)
    watcher = Client("127.0.0.1", host.port, "Sam", reconnect=False)
    try:
        await watcher.connect()
        await watcher.join(table, "spectator")  # the table goes on while Ann is away
        app = join_app(tmp_path, host.port)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: lobby.tables, "the tables")
            await pilot.press("enter")
            screen = await at_table(pilot, app)
            assert COVERED_NOTICE not in [n.message for n in app._notifications]
            seat = screen.view["seat"] if screen.view else None
            assert seat is not None
            await left_for_now(pilot, app, host, table, seat)
            await app._list_selected()
            assert was_covered(next(iter(lobby.tables.values()))[0], seat)
            await pilot.press("enter")
            back = await at_table(pilot, app)
            log = back.query_one(GameLog)

            def logged() -> list[str]:
                return [getattr(line, "plain", str(line)) for line in log._written]

            await until(pilot, lambda: COVERED_NOTICE in logged(), "the notice in the log")
            assert COVERED_NOTICE in [n.message for n in app._notifications]
            assert logged().index(COVERED_NOTICE) > 0  # under the game's lines, not above
    finally:
        await watcher.close()
        await host.close()


async def test_a_finished_table_leaves_the_lobby(tmp_path: Path) -> None:
    host = Host(
        name="Bea", bind="127.0.0.1", port=0, log=lambda _: None, results_for_s=5, bot_delay_s=0.05
    )
    await host.start()
    runner = host.create_table("catchy", {"target": 1}, bots=2, created_by="Bea")
    try:
        app = join_app(tmp_path, host.port)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: lobby.tables, "the tables")
            await pilot.press("w")  # somebody watches: the bots play it out
            await until(pilot, lambda: runner.table.outcome is not None, "the end", rounds=1500)
            await drawn_screen(pilot, ResultsScreen)
            await pilot.press("q")
            await until(pilot, lambda: app.screen is lobby, "the lobby")
            await app._list_selected()
            assert [row["status"] for row in next(iter(lobby.tables.values()))] == ["over"]
            host._sweep(asyncio.get_running_loop().time() + 6)
            await app._list_selected()
            assert next(iter(lobby.tables.values())) == []
            assert lobby.query_one("#tables", DataTable).row_count == 0
    finally:
        await host.close()


async def test_an_unreachable_host_is_said_plainly_and_offers_no_table_there(
    tmp_path: Path,
) -> None:
    app = join_app(tmp_path, 1)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.lobby
        assert lobby is not None
        await until(pilot, lambda: lobby.problems, "the listing to fail")
        await pilot.press("enter")
        status = str(lobby.query_one("#lobby-status").render())
        assert "Nothing is listening at 127.0.0.1:1" in status and "trying again" in status
        assert "Errno" not in status and "create" not in status


def test_the_connection_line_tells_stepped_away_from_dropped() -> None:
    from tui.widgets.connection import seat_text

    base = {"name": "Bea", "bot": False, "human": True, "connected": False, "covered": False}
    assert seat_text({**base, "stepped_away": True}, you=False).plain == "Bea stepped away"
    assert seat_text(base, you=False).plain == "Bea dropped"
    covered = {**base, "bot": True, "covered": True}
    assert seat_text(covered, you=False).plain == "Bea dropped (bot covers)"
    assert seat_text({"name": None}, you=False).plain == "(free seat)"


async def test_a_host_that_answers_again_takes_its_problem_off_the_status_line(
    tmp_path: Path,
) -> None:
    """Issue 36, item 11: after a host's restart, "Nothing is listening at ..." stayed in
    the lobby's status line (40 s on a LAN walk-through) though its tables were back."""
    host, _ = await catchy_host()
    port = host.port
    app = join_app(tmp_path, port)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: lobby.tables, "the tables")
            await host.close()
            await until(pilot, lambda: lobby.problems, "the listing to fail")
            status = lobby.query_one("#lobby-status")
            assert "Nothing is listening" in str(status.render())
            host = Host(name="Bea", bind="127.0.0.1", port=port, log=lambda _: None)
            await host.start()
            await until(pilot, lambda: not lobby.problems, "the host to answer again")
            assert "Nothing is listening" not in str(status.render())
            assert "answers again" in str(status.render())
    finally:
        await host.close()
