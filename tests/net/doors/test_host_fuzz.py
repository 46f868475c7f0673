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
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from net.client.netbot import play_seats
from net.doors.host import Host
from net.wire.framing import HOST_LIMITS, FrameReader, decode_body
from net.wire.messages import CATALOG, PROTOCOL_VERSION, closes

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
        """Close the host, end what still runs on the loop, then the loop. The bots' game is
        still going where no test waited for it (a worker of the parallel suite runs only
        some of this module's tests): left pending, its coroutines were finalized later,
        with their loop gone ("Event loop is closed", in whichever test ran then)."""
        self.call(self.host.close()).result(10)
        self.call(self._end_the_rest()).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    @staticmethod
    async def _end_the_rest() -> None:
        rest = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)


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


def decoded(reply: bytes) -> list[dict[str, Any]]:
    """The host's reply as messages; fails unless it is whole, valid frames of known types."""
    frames = FrameReader(HOST_LIMITS.max_frame)
    frames.feed(reply)
    messages = []
    while (body := frames.next_frame()) is not None:
        message = decode_body(body, HOST_LIMITS)
        assert isinstance(message, dict) and message.get("type") in CATALOG, message
        messages.append(message)
    assert not frames.pending, "the host sent a partial frame"
    return messages


UNASKED = {"ping", "tables"}
"""What the host may send any connection unasked: its clock pings, the table list as it changes."""


def answers(reply: list[dict[str, Any]]) -> list[str]:
    """The types of what the host sent in answer (its unasked messages left out)."""
    return [m["type"] for m in reply if m["type"] not in UNASKED or "ref" in m]


def assert_refused(reply: list[dict[str, Any]], ref: int | None = None) -> None:
    """After ``hello``, one bad message: one error, echoing ``ref`` (if given) unless it closed.

    A frame the host cannot even decode closes the connection, so that error may
    come without a welcome; any other refusal leaves the client welcomed.
    """
    errors = [m for m in reply if m["type"] == "error"]
    assert len(errors) == 1, reply
    (error,) = errors
    if closes(error["code"]):
        assert set(answers(reply)) <= {"welcome", "error"}, reply
    else:
        assert sorted(answers(reply)) == ["error", "welcome"], reply
        assert ref is None or error.get("ref") == ref, error


def assert_host_serves(port: int) -> None:
    """A fresh, well-behaved client is welcomed and gets the table list."""
    reply = decoded(exchange(port, hello + frame({"type": "list_tables", "ref": 5})))
    assert [m["type"] for m in reply[:1]] == ["welcome"], reply
    assert any(m["type"] == "tables" and m.get("ref") == 5 for m in reply), reply


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
hello = frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "fuzz"})
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_never_bring_the_host_down(live_host: HostThread, data: bytes) -> None:
    port = live_host.host.port
    tables = len(live_host.host.runners)
    for reply in (decoded(exchange(port, data)), decoded(exchange(port, hello + data))):
        # Whatever came back is whole frames: a welcome, maybe replies, errors.
        assert set(answers(reply)) <= {"welcome", "error", "pong"}, reply
    assert len(live_host.host.runners) == tables
    assert_host_serves(port)


@FUZZ
@given(value=values)
def test_random_msgpack_values_get_errors_not_crashes(live_host: HostThread, value: Any) -> None:
    assert_refused(decoded(exchange(live_host.host.port, hello + frame(value))))


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
    assume(fields or kind != "list_tables")  # a bare list_tables is a good request
    tables = len(live_host.host.runners)
    reply = decoded(
        exchange(live_host.host.port, hello + frame({"type": kind, **fields, "ref": 9}))
    )
    assert_refused(reply, ref=9)
    assert len(live_host.host.runners) == tables


def test_the_welcome_comes_before_the_error_of_a_pipelined_bad_message(
    live_host: HostThread,
) -> None:
    reply = decoded(exchange(live_host.host.port, hello + frame({"type": "action", "ref": 3})))
    assert answers(reply) == ["welcome", "error"], reply


def test_other_tables_are_unaffected_and_the_host_still_serves(live_host: HostThread) -> None:
    outcomes = live_host.game.result(60)
    assert outcomes[0] == outcomes[1] and max(outcomes[0]["scores"]) >= 15
    reply = exchange(live_host.host.port, hello + frame({"type": "list_tables", "ref": 1}))
    assert b"tables" in reply and b"welcome" in reply
