"""Seats that come back and tables that go away: leave for now, give up, close, archive.

The host's sweep is called with a chosen loop time, so no test waits out the
real results or abandon periods.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from net.client.client import Client, ClientError
from net.client.discovery import TableSummary
from net.client.netbot import free_name_for, play_seat
from net.doors.advertise import advertised_tables
from net.doors.host import Host
from net.wire.messages import Act, Join, Leave
from tests import toy_game
from tests.net.hosting import RawClient, open_reveal, running_host

pytestmark = pytest.mark.timeout(30)


def later(seconds: float) -> float:
    return asyncio.get_running_loop().time() + seconds


def finish(host: Host, table_id: str) -> None:
    runner = host.runners[table_id]
    table = runner.table
    if table.outcome is not None:  # a bot already did
        return
    seat = next(s for s in range(len(table.seats)) if table.game.legal_actions(table.state, s))
    runner.act(seat, table.game.legal_actions(table.state, seat)[0])
    assert table.outcome is not None


async def test_a_finished_table_shows_its_results_then_closes_and_is_archived(
    tmp_path: Path,
) -> None:
    with toy_game.registered():
        async with running_host(tmp_path, results_for_s=60) as host:
            table = host.create_table("toy", {"mode": "tie"}, seats=2, bots=1).table.id
            ann = await RawClient.connect(host.port, "Ann")
            ann.send(Join(table=table, role="player"))
            await ann.expect("joined")
            finish(host, table)
            assert [t["status"] for t in host.table_summaries()] == ["over"]
            host._sweep(later(30))  # still showing its results
            assert table in host.runners
            host._sweep(later(61))
            assert table not in host.runners and host.table_summaries() == []
            closed = await ann.expect("error")
            assert closed["code"] == "table_closed" and "ended" in closed["message"]
            assert (await ann.expect("left"))["table"] == table
            assert (tmp_path / "archive" / f"{table}.log").exists()
            assert not (tmp_path / "tables" / f"{table}.log").exists()
            assert host.create_table("toy", {"mode": "stuck"}, seats=2).table.id != table
            await ann.close()


async def test_a_table_whose_people_are_all_gone_is_closed(tmp_path: Path) -> None:
    async with running_host(tmp_path, abandon_after_s=100) as host:
        kept = host.create_table("catchy").table.id  # the host's own empty table stays
        table = host.create_table("catchy", bots=1).table.id
        ann = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        await ann.connect()
        await ann.join(table)
        host._sweep(later(500))
        assert table in host.runners  # Ann is there
        await ann.close()
        for _ in range(100):
            if host.runners[table].unattended_since is not None:
                break
            await asyncio.sleep(0.01)
        host._sweep(later(50))
        assert table in host.runners
        host._sweep(later(101))
        assert table not in host.runners and kept in host.runners
        assert any("nobody has been at it" in line for line in host.log_lines)  # type: ignore[attr-defined]


async def test_bots_never_play_a_table_nobody_is_at(tmp_path: Path) -> None:
    async with running_host(tmp_path, run_unattended=False) as host:
        runner = host.create_table("catchy", bots=2)
        assert runner.table.started
        dealt = runner.table.version
        await asyncio.sleep(0.3)
        assert runner.table.version == dealt  # nobody moved
        watcher = await RawClient.connect(host.port, "Cy")
        watcher.send(Join(table=runner.table.id, role="spectator"))
        for _ in range(200):
            if runner.table.version > dealt + 2:
                break
            await asyncio.sleep(0.01)
        assert runner.table.version > dealt + 2  # someone watches: the bots play
        await watcher.close()


async def test_leave_for_now_keeps_the_seat_and_the_token_brings_it_back(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        runner = host.create_table("catchy", {"takeover": 0.1}, bots=1)
        table = runner.table.id
        ann = await RawClient.connect(host.port, "Ann")
        bea = await RawClient.connect(host.port, "Bea")
        ann.send(Join(table=table, role="player"))
        joined = await ann.expect("joined")
        token, seat = joined["token"], joined["seat"]
        bea.send(Join(table=table, role="spectator"))
        await bea.expect("joined")
        ann.send(Leave(table=table, for_now=True, ref=7))
        assert (await ann.expect("left"))["ref"] == 7
        while True:
            seats = (await bea.expect("presence"))["seats"]
            if seats[seat]["stepped_away"]:
                break
        assert not seats[seat]["connected"] and runner.table.seats[seat].token == token
        for _ in range(300):  # the takeover grace runs out: a bot covers the seat
            if runner.table.seats[seat].bot is not None:
                break
            await asyncio.sleep(0.01)
        assert runner.table.seats[seat].public()["covered"]
        back = await RawClient.connect(host.port, "Ann", token=token)
        assert (await back.expect("joined"))["seat"] == seat
        view = (await back.expect("view"))["view"]
        # The seat's own view (a spectator's has no hand); it may be empty by now: the
        # bot that covered the seat may have played it out (seen 1 run in 10).
        assert view["seat"] == seat and isinstance(view["hand"], list)
        info = runner.table.seats[seat]
        assert info.bot is None and info.connected and not info.stepped_away  # handed back
        for client in (ann, bea, back):
            await client.close()


async def test_giving_the_seat_up_lets_a_bot_play_it_for_good(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        runner = host.create_table("catchy", bots=1)
        table = runner.table.id
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=table, role="player"))
        joined = await ann.expect("joined")
        token = joined["token"]
        ann.send(Leave(table=table, ref=3))
        await ann.expect("left")
        info = runner.table.seats[joined["seat"]]
        assert info.token is None and not info.human and info.bot is not None
        again = await RawClient.connect(host.port, "Ann", token=token)
        assert (await again.expect("error"))["code"] == "bad_token"
        for client in (ann, again):
            await client.close()


async def test_the_advertised_counts_follow_a_table_created_filled_finished(
    tmp_path: Path,
) -> None:
    changes: list[list[TableSummary]] = []
    with toy_game.registered():
        async with running_host(tmp_path, results_for_s=10) as host:
            host.on_tables_changed = lambda: changes.append(advertised_tables(host))
            table = host.create_table("toy", {"mode": "tie"}, seats=2).table.id
            assert changes[-1] == [TableSummary(table, "toy", 2)]
            ann = Client("127.0.0.1", host.port, "Ann")
            await ann.connect()
            await ann.join(table)
            assert changes[-1] == [TableSummary(table, "toy", 1)]
            bea = Client("127.0.0.1", host.port, "Bea")
            await bea.connect()
            await bea.join(table)
            assert changes[-1] == [TableSummary(table, "toy", 0)]
            finish(host, table)
            assert changes[-1] == []
            host._sweep(later(11))
            assert changes[-1] == [] and table not in host.runners
            for client in (ann, bea):
                await client.close()


async def test_a_real_time_game_counts_down_before_anyone_may_act(tmp_path: Path) -> None:
    async with running_host(tmp_path, start_countdown_s=0.4) as host:
        runner = host.create_table("blackcat", bots=1)
        table = runner.table.id
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=table, role="player"))
        await ann.expect("joined")
        first: dict[str, Any] = await ann.expect("view")
        while first["view"] is None:
            first = await ann.expect("view")
        # The game's view as the game built it; the host's countdown is beside it.
        assert first["starting"] is True and first["starts_in"] is not None
        assert "waiting" not in first and first["view"]["reveal"] is not None
        ann.send(Act(table=table, action={"type": "call"}, ref=1))
        refused = await ann.expect("error")
        assert refused["code"] == "not_started" and "starts in" in refused["message"]
        started = await ann.expect("view", timeout=3)
        assert "starting" not in started and "starts_in" not in started
        assert started["view"]["legal"] and started["view"]["reveal"] is not None
        await ann.close()


async def test_a_leave_without_for_now_frees_a_waiting_seat(tmp_path: Path) -> None:
    """A ``leave`` without ``for_now`` (as old clients send it) still gives the seat up."""
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy").table.id
        ann = Client("127.0.0.1", host.port, "Ann")
        await ann.connect()
        await ann.join(table)
        await ann.leave(table)
        assert host.runners[table].table.free_seats == 2
        with pytest.raises(ClientError):
            await ann.leave(table)
        await ann.close()


async def test_network_bots_of_the_same_name_pick_free_names(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        runner = host.create_table("catchy", {"target": 1})
        table = runner.table.id
        first = asyncio.create_task(
            play_seat("127.0.0.1", host.port, table, "NetBot 1", delay_s=0.0, log=lambda _: None)
        )
        while runner.table.free_seats == 2:
            await asyncio.sleep(0.01)
        second = play_seat("127.0.0.1", host.port, table, "NetBot 1", delay_s=0.0, seed=1)
        outcomes = await asyncio.wait_for(asyncio.gather(first, second), 20)
        assert outcomes[0] == outcomes[1]
        assert sorted(seat.name or "" for seat in runner.table.seats) == ["NetBot 1", "NetBot 2"]


def test_a_free_name_counts_on_from_the_given_one() -> None:
    assert free_name_for("NetBot 1", {"NetBot 1", "Ann"}) == "NetBot 2"
    assert free_name_for("NetBot", {"NetBot"}) == "NetBot 2"
    assert free_name_for("Bea", {"Ann"}) == "Bea"


async def test_table_time_stands_still_while_nobody_is_there(tmp_path: Path) -> None:
    """A paused table's clock holds, so no timer falls due while nobody is there (on their
    return a Katootsie! letter is not set aside at once for a deadline that passed)."""
    async with running_host(tmp_path, run_unattended=False) as host:
        runner = host.create_table("catchy", bots=1)
        loop = asyncio.get_running_loop()
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=runner.table.id, role="player"))
        token = (await ann.expect("joined"))["token"]
        await ann.expect("view")
        assert runner.table.started and not runner.paused()
        await ann.close()
        for _ in range(200):
            if runner.paused():
                break
            await asyncio.sleep(0.01)
        host.catch_up()
        held = runner.now()
        await asyncio.sleep(0.3)
        host.catch_up()
        assert runner.now() == held  # nobody here: the clock holds
        before_return = loop.time()
        back = await RawClient.connect(host.port, "Ann", token=token)
        await back.expect("joined")
        ran = runner.now() - held
        assert 0 <= ran <= loop.time() - before_return  # on from where it stood, not the 0.3 s
        await back.close()


async def test_a_countdown_left_running_waits_for_the_players_and_then_ends(
    tmp_path: Path,
) -> None:
    """Paused mid-countdown, the countdown holds; back, it runs out and the first moment
    opens for the player (the timer that had fallen due meanwhile told nobody)."""
    async with running_host(tmp_path, run_unattended=False, start_countdown_s=0.5) as host:
        runner = host.create_table("blackcat", seats=2, bots=1)
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=runner.table.id, role="player"))
        token = (await ann.expect("joined"))["token"]
        for _ in range(200):
            if runner.starts_in() is not None:
                break
            await asyncio.sleep(0.01)
        await ann.close()
        for _ in range(200):
            if runner.paused():
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.8)  # longer than the countdown: it holds while nobody is here
        assert runner.counting_down() and runner.open_reveal() is None
        back = await RawClient.connect(host.port, "Ann", token=token)
        await back.expect("joined")
        while True:  # the countdown runs out with Ann there: she is sent the open moment
            view = await back.expect("view")
            if open_reveal(view) is not None:
                break
        assert not runner.counting_down()
        await back.close()
