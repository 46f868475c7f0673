"""The host and client over real loopback sockets: games, seats, tokens, bad input."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from engine.bots import make_bot
from net.client.client import Client, ClientError, ConnectionState
from net.client.netbot import play_seats
from net.wire.messages import Act, CreateTable, Error, Join, ListTables, View
from tests.net.hosting import RawClient, running_host

pytestmark = pytest.mark.timeout(60)


async def next_view(client: Client, timeout: float = 5.0) -> View:
    while True:
        message = await asyncio.wait_for(client.incoming.get(), timeout)
        if isinstance(message, View):
            return message


async def next_game_view(client: Client, timeout: float = 5.0) -> dict[str, Any]:
    """The game view of the next ``view`` message that has one (not the waiting room)."""
    while True:
        view = (await next_view(client, timeout)).view
        if view is not None:
            return view


async def test_network_bots_play_whole_catchy_games(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        for _ in range(3):
            table = host.create_table("catchy").table.id
            outcomes = await play_seats(
                "127.0.0.1", host.port, table, 2, delay_s=0.0, log=lambda _: None
            )
            assert outcomes[0] == outcomes[1]
            assert max(outcomes[0]["scores"]) >= 7 and outcomes[0]["winners"]


async def test_create_join_and_bots_fill_a_table(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        client = Client("127.0.0.1", host.port, "Ann")
        welcome = await client.connect()
        assert welcome.host_name == "test" and "catchy" in [g["name"] for g in welcome.games]
        table = await client.create_table("catchy", {"target": 2}, bots=1)
        joined = await client.join(table)
        assert joined.role == "player" and joined.seat == 1 and joined.token
        [summary] = await client.list_tables()
        assert summary["status"] == "playing" and summary["free"] == 0
        assert [seat["bot"] for seat in summary["seats"]] == [True, False]
        await client.close()


async def test_bad_requests_get_clear_errors_and_change_nothing(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        client = Client("127.0.0.1", host.port, "Ann")
        await client.connect()
        for call, code in [
            (client.create_table("chess"), "unknown_game"),
            (client.create_table("catchy", {"target": "lots"}), "invalid_options"),
            (client.create_table("catchy", seats=3), "bad_table"),
            (client.create_table("catchy", bots=5), "invalid_options"),
            (client.join("t99"), "no_such_table"),
        ]:
            with pytest.raises(ClientError) as caught:
                await call
            assert caught.value.code == code and caught.value.message
        assert await client.list_tables() == []
        table = await client.create_table("catchy")
        await client.join(table, seat=0)
        other = Client("127.0.0.1", host.port, "Bea")
        await other.connect()
        with pytest.raises(ClientError, match="Seat 0 at table t1 is taken"):
            await other.join(table, seat=0)
        await other.close()
        await client.close()


async def test_illegal_and_out_of_turn_moves_are_refused_over_the_wire(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy").table.id
        ann = await RawClient.connect(host.port, "Ann")
        bea = await RawClient.connect(host.port, "Bea")
        ann.send(Join(table=table, role="player", seat=0))
        bea.send(Join(table=table, role="player", seat=1))
        await ann.expect("joined")
        await bea.expect("joined")
        view = (await ann.expect("view"))["view"]
        while view is None:  # the waiting room, beside no game view
            view = (await ann.expect("view"))["view"]
        version = host.runners[table].table.version
        idle = bea if view["turn"] == 0 else ann
        idle_name = "Bea" if view["turn"] == 0 else "Ann"
        turn_name = view["players"][view["turn"]]
        idle.send(Act(table=table, action={"type": "swap", "course": 0}, ref=7))
        error = await idle.expect("error")
        assert error["code"] == "not_your_turn" and error["message"] == f"It is {turn_name}'s turn"
        assert error["ref"] == 7 and idle_name != turn_name
        idle.send({"type": "action", "table": table, "action": "swap"})
        assert (await idle.expect("error"))["code"] == "bad_field"
        idle.send(Act(table=table, action={"type": "dance"}))
        error = await idle.expect("error")
        assert error["code"] == "invalid_action" and "Unknown action 'dance'" in error["message"]
        outsider = await RawClient.connect(host.port, "Cy")
        outsider.send(Act(table=table, action={"type": "swap", "course": 0}))
        assert (await outsider.expect("error"))["code"] == "not_at_table"
        assert host.runners[table].table.version == version
        for client in (ann, bea, outsider):
            await client.close()


async def test_a_player_cannot_send_an_action_only_the_host_applies(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("katootsie", {"tie_ms": 120}).table.id
        runner = host.runners[table]
        assert runner.referee.arbiter.tie_threshold_ns == 120 * 1_000_000  # the game's own
        ann = await RawClient.connect(host.port, "Ann")
        bea = await RawClient.connect(host.port, "Bea")
        ann.send(Join(table=table, role="player", seat=0))
        bea.send(Join(table=table, role="player", seat=1))
        await ann.expect("joined")
        await bea.expect("joined")
        while runner.table.state is None:
            await ann.expect("view")
        version = runner.table.version
        forged = {"type": "tie", "reveal": 1, "claims": [{"seat": 0, "action": {}}]}
        ann.send(Act(table=table, action=forged, ref=4))
        error = await ann.expect("error")
        assert error["code"] == "invalid_action" and error["ref"] == 4
        assert "Only the host applies 'tie'" in error["message"]
        assert runner.table.version == version
        for client in (ann, bea):
            await client.close()


async def test_spectators_see_the_game_but_no_hand(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", bots=2).table.id
        watcher = Client("127.0.0.1", host.port, "Cy")
        await watcher.connect()
        joined = await watcher.join(table, role="spectator")
        assert joined.seat is None and joined.token is None
        for _ in range(5):
            view = await next_game_view(watcher)
            assert view["hand"] is None and view["legal"] == []
        await watcher.close()


async def test_reconnecting_with_the_token_restores_the_seat_and_full_view(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        # First to 5: a round gives 3 at most, so the game is still on when the link drops
        # (with 3, the cat could reach an arm in the first tricks and end it before).
        table = host.create_table("catchy", {"target": 5}, bots=1).table.id
        ann = Client("127.0.0.1", host.port, "Ann")
        await ann.connect()
        joined = await ann.join(table)
        bot = make_bot("catchy", "catchy", 5)
        before: dict[str, Any] | None = None
        for step in range(200):
            view = await next_game_view(ann)
            if step == 6:
                before = view
                assert ann._writer is not None
                transport = ann._writer.transport
                assert transport is not None
                transport.abort()  # the link drops mid-game
                break
            action = bot.choose(view)
            if action is not None:
                await ann.act(table, action)
        states = []
        while True:
            message = await asyncio.wait_for(ann.incoming.get(), 5)
            if isinstance(message, ConnectionState):
                states.append(message.connected)
            if isinstance(message, View) and states and states[-1] and message.view is not None:
                after = message.view
                break
        assert states == [False, True]
        assert before is not None and after["seat"] == joined.seat
        assert after["hand"] is not None and after["round"] >= before["round"]
        assert any(host.runners[table].table.seats[s].connected for s in (0, 1))
        # ... and the game goes on to its end.
        view = after
        while view["outcome"] is None:
            action = bot.choose(view)
            if action is not None:
                await ann.act(table, action)
            message = await next_view(ann)
            assert message.view is not None
            view = message.view
        await ann.close()


async def test_a_wrong_token_is_refused(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", bots=1).table.id
        client = await RawClient.connect(host.port, "Mallory", token="not-a-real-token-at-all")
        error = await client.expect("error")
        assert error["code"] == "bad_token" and "holds no seat" in error["message"]
        client.send(Act(table=table, action={"type": "swap", "course": 0}))
        assert (await client.expect("error"))["code"] == "not_at_table"
        await client.close()


async def test_a_dropped_player_is_covered_by_a_bot_and_gets_the_seat_back(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        runner = host.create_table("catchy", {"takeover": 0.1}, bots=1)
        table = runner.table.id
        ann = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        await ann.connect()
        joined = await ann.join(table)
        await next_view(ann)
        await ann.close()
        for _ in range(50):
            await asyncio.sleep(0.1)
            if runner.table.seats[1].bot is not None:
                break
        assert runner.table.seats[1].bot is not None and runner.table.seats[1].public()["covered"]
        back = Client("127.0.0.1", host.port, "Ann", token=joined.token)
        await back.connect()
        view = await next_game_view(back)
        seat = runner.table.seats[1]  # read afresh: the host changed it meanwhile
        assert view["seat"] == 1 and seat.bot is None
        await back.close()


async def test_garbage_on_one_connection_affects_no_other(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy").table.id
        game = asyncio.ensure_future(
            play_seats("127.0.0.1", host.port, table, 2, delay_s=0.001, log=lambda _: None)
        )
        garbage = [
            b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1",  # never-used msgpack byte
            b"\xff\xff\xff\xff",  # a 4 GiB frame header
            b"\x00\x00\x00\x01\x01",  # not a map
            b"GET / HTTP/1.1\r\n\r\n",
        ]
        for data in garbage:
            reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
            writer.write(data)
            await writer.drain()
            assert await asyncio.wait_for(reader.read(65536), 5) is not None
            writer.close()
        outcomes = await asyncio.wait_for(game, 30)
        assert max(outcomes[0]["scores"]) >= 7
        probe = await RawClient.connect(host.port, "Probe")
        probe.send(ListTables(ref=1))
        assert (await probe.expect("tables"))["tables"][0]["status"] == "over"
        probe.send(CreateTable(game="catchy", ref=2))
        assert (await probe.expect("created"))["table"] == "t2"
        await probe.close()


def test_error_message_type_is_in_the_protocol() -> None:
    assert Error(code="bad_token", message="x").code == "bad_token"


def started(runner: Any) -> bool:
    """Whether ``runner``'s game has been dealt (a call, so a type checker does not pin it)."""
    return bool(runner.table.started)


async def test_a_game_starts_at_table_time_zero_however_long_the_table_waited(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path) as host:
        runner = host.create_table("katootsie")
        await asyncio.sleep(0.5)  # the table waits for its players
        host.catch_up()
        assert not runner.table.started and runner.now() >= 0.5
        ann = await RawClient.connect(host.port, "Ann")
        bea = await RawClient.connect(host.port, "Bea")
        ann.send(Join(table=runner.table.id, role="player", seat=0))
        bea.send(Join(table=runner.table.id, role="player", seat=1))
        await ann.expect("joined")
        await bea.expect("joined")
        while not started(runner):
            await ann.expect("view")
        # The engine's first timers count from 0: a clock still at 0.5 s would fire them late.
        assert runner.now() < 0.5
        for client in (ann, bea):
            await client.close()
