"""Fuzzing a live host: random bytes and random msgpack values on real sockets.

The host runs in a background thread while a real game plays at another
table. Whatever the fuzzer sends, the host stays up, answers every later
client normally, and the other table's game finishes untouched.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net.host import Host
from net.netbot import play_seats

pytestmark = pytest.mark.timeout(120)


class HostThread:
    """A host on its own event loop in a thread, with a bot game running on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.host = Host(name="fuzz", bind="127.0.0.1", port=0, bot_delay_s=0.0, log=lambda _: None)
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.call(self.host.start()).result(10)
        self.table = self.call(self._create()).result(10)
        self.game: Future[list[dict[str, Any]]] = self.call(
            play_seats(
                "127.0.0.1", self.host.port, self.table, 2, delay_s=0.002, log=lambda _: None
            )
        )

    async def _create(self) -> str:
        return self.host.create_table("catchy", {"target": 15}).table.id

    def call(self, coroutine: Any) -> Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self) -> None:
        self.call(self.host.close()).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def live_host() -> Iterator[HostThread]:
    running = HostThread()
    yield running
    running.stop()


def exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` on a fresh connection and read what comes back until close or a pause."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (TimeoutError, ConnectionResetError):
            pass
    return b"".join(chunks)


def frame(value: Any) -> bytes:
    body = msgpack.packb(value, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
hello = frame({"type": "hello", "protocol": 1, "name": "fuzz"})
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_never_bring_the_host_down(live_host: HostThread, data: bytes) -> None:
    exchange(live_host.host.port, data)
    exchange(live_host.host.port, hello + data)


@FUZZ
@given(value=values)
def test_random_msgpack_values_get_errors_not_crashes(live_host: HostThread, value: Any) -> None:
    reply = exchange(live_host.host.port, hello + frame(value))
    assert reply  # at least the welcome comes back


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(["table", "action", "role", "seat", "game", "options"]), values, max_size=4
    ),
    kind=st.sampled_from(["action", "join", "create_table", "leave", "list_tables", "ping"]),
)
def test_message_shaped_garbage_is_refused(
    live_host: HostThread, fields: dict[str, Any], kind: str
) -> None:
    exchange(live_host.host.port, hello + frame({"type": kind, **fields}))


def test_other_tables_are_unaffected_and_the_host_still_serves(live_host: HostThread) -> None:
    outcomes = live_host.game.result(60)
    assert outcomes[0] == outcomes[1] and max(outcomes[0]["scores"]) >= 15
    reply = exchange(live_host.host.port, hello + frame({"type": "list_tables", "ref": 1}))
    assert b"tables" in reply and b"welcome" in reply
