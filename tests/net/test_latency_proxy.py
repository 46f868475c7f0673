"""The latency proxy: never early, in order, bounded, and clean when either end closes.

The one timing assertion here is a lower bound (a round trip through the
proxy takes at least the configured delays), which a slow machine cannot
break; nothing asserts how fast anything is.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import pytest

from tests.net.latency_proxy import Delay, DelayLine, LatencyProxy, ProxyError

UP = Delay(0.015, jitter_s=0.005)
DOWN = Delay(0.025, jitter_s=0.005)


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Echo everything back; half-close when the peer does."""
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()
    writer.close()


@pytest.fixture
async def echo_port() -> AsyncIterator[int]:
    server = await asyncio.start_server(_echo, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    server.close()


async def test_a_ping_pong_takes_at_least_both_delays(echo_port: int) -> None:
    async with LatencyProxy("127.0.0.1", echo_port, upstream=UP, downstream=DOWN) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        for index in range(4):
            frame = f"ping {index}\n".encode()
            sent = time.monotonic()
            writer.write(frame)
            assert await reader.readexactly(len(frame)) == frame
            assert time.monotonic() - sent >= UP.base_s + DOWN.base_s
        writer.close()


async def test_jittered_bytes_arrive_whole_and_in_order(echo_port: int) -> None:
    jumpy = Delay(0.0, jitter_s=0.004)
    async with LatencyProxy(
        "127.0.0.1", echo_port, upstream=jumpy, downstream=jumpy, seed=7
    ) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        expected = b""
        for index in range(60):
            piece = f"{index},".encode()
            expected += piece
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.0005)  # separate reads, so chunks get different jitter
        writer.write_eof()
        assert await asyncio.wait_for(reader.read(), 10) == expected
        writer.close()


async def test_the_buffer_stays_bounded_and_everything_still_arrives(echo_port: int) -> None:
    blob = random.Random(1).randbytes(300_000)
    async with LatencyProxy("127.0.0.1", echo_port, max_buffered=4096) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)

        async def send() -> None:
            writer.write(blob)
            await writer.drain()
            writer.write_eof()

        sender = asyncio.create_task(send())
        received = await asyncio.wait_for(reader.read(), 10)
        await sender
        writer.close()
    assert received == blob
    assert 0 < proxy.peak_buffered <= 4096


async def test_the_targets_close_reaches_the_client(echo_port: int) -> None:
    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"bye")
        writer.close()

    server = await asyncio.start_server(hang_up, "127.0.0.1", 0)
    target = server.sockets[0].getsockname()[1]
    async with LatencyProxy("127.0.0.1", target, downstream=Delay(0.005)) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        assert await asyncio.wait_for(reader.read(), 10) == b"bye"
        writer.close()
    server.close()


async def test_closing_the_proxy_ends_its_connections_and_stops_listening(echo_port: int) -> None:
    proxy = LatencyProxy("127.0.0.1", echo_port)
    port = await proxy.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"x")
    assert await reader.readexactly(1) == b"x"
    await proxy.close()
    assert await asyncio.wait_for(reader.read(), 10) == b""
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)
    writer.close()


async def test_an_unreachable_target_closes_the_client() -> None:
    probe = await asyncio.start_server(_echo, "127.0.0.1", 0)
    free_port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    async with LatencyProxy("127.0.0.1", free_port) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()


async def test_connections_beyond_the_limit_are_closed(echo_port: int) -> None:
    async with LatencyProxy("127.0.0.1", echo_port, max_connections=1) as proxy:
        first_reader, first_writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        first_writer.write(b"a")
        assert await first_reader.readexactly(1) == b"a"
        second_reader, second_writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError)):
            await asyncio.wait_for(second_reader.readexactly(1), 10)
        first_writer.write(b"b")
        assert await first_reader.readexactly(1) == b"b"
        first_writer.close()
        second_writer.close()
    assert proxy.connections_served == 1


def test_a_delay_line_is_never_early_never_reorders_and_replays_from_its_seed() -> None:
    delay = Delay(0.010, jitter_s=0.050)
    arrivals = [i * 0.001 for i in range(200)]
    line = DelayLine(delay, random.Random(3))
    dues = [line.due(arrived) for arrived in arrivals]
    assert all(due >= arrived + delay.base_s for due, arrived in zip(dues, arrivals, strict=True))
    assert dues == sorted(dues)
    again = DelayLine(delay, random.Random(3))
    assert [again.due(arrived) for arrived in arrivals] == dues
    other = DelayLine(delay, random.Random(4))
    assert [other.due(arrived) for arrived in arrivals] != dues


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Delay(-0.001), "base_s"),
        (lambda: Delay(0.0, float("nan")), "jitter_s"),
        (lambda: LatencyProxy("192.0.2.1", 80), "target must be a loopback"),
        (lambda: LatencyProxy("127.0.0.1", 80, listen_host="0.0.0.0"), "listening address"),
        (lambda: LatencyProxy("127.0.0.1", 80, max_buffered=0), "at least 1"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(make: object, words: str) -> None:
    with pytest.raises(ProxyError, match=words):
        make()  # type: ignore[operator]
