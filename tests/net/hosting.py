"""Helpers for host tests: a host on loopback and a raw wire-level test client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from net.doors.host import Host
from net.wire.framing import CLIENT_LIMITS, HOST_LIMITS, FrameReader, decode_body, encode_frame
from net.wire.messages import PROTOCOL_VERSION, Hello, Message, to_wire


def open_reveal(message: Mapping[str, Any]) -> int | None:
    """The moment open for claims in a raw ``view`` message, read as PROTOCOL.md says: the
    game view's ``reveal``, unless there is no game view yet or the game is ``starting``."""
    view = message.get("view")
    if not isinstance(view, dict) or message.get("starting"):
        return None
    reveal = view.get("reveal")
    return reveal if isinstance(reveal, int) else None


def outcome_of(message: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game's outcome in a raw ``view`` message (``None``: no view yet, or still on)."""
    view = message.get("view")
    outcome = view.get("outcome") if isinstance(view, dict) else None
    return outcome if isinstance(outcome, dict) else None


@contextlib.asynccontextmanager
async def running_host(state_dir: Path | None, **options: Any) -> AsyncIterator[Host]:
    """A host on 127.0.0.1 (any free port) that logs into a list, closed afterwards."""
    lines: list[str] = []
    options.setdefault("bot_delay_s", 0.0)
    # Most tests drive tables nobody watches and want real-time games to begin at once;
    # the life-cycle tests (tests/net/doors/test_lifecycle.py) set these themselves.
    options.setdefault("run_unattended", True)
    options.setdefault("start_countdown_s", 0.0)
    host = Host(
        name="test", bind="127.0.0.1", port=0, state_dir=state_dir, log=lines.append, **options
    )
    await host.start()
    host.log_lines = lines  # type: ignore[attr-defined]
    try:
        yield host
    finally:
        await host.close()


class RawClient:
    """Speaks the wire format by hand and keeps every decoded frame the host sent.

    The secrecy tests read these frames: they are exactly what crossed the wire.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames = FrameReader(HOST_LIMITS.max_frame)
        self.received: list[dict[str, Any]] = []
        self.raw_bytes = 0

    @classmethod
    async def connect(cls, port: int, name: str, token: str | None = None) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        client = cls(reader, writer)
        client.send(Hello(protocol=PROTOCOL_VERSION, name=name, token=token))
        await client.expect("welcome")
        return client

    def send(self, message: Message | dict[str, Any]) -> None:
        wire = message if isinstance(message, dict) else to_wire(message)
        self.writer.write(encode_frame(wire, CLIENT_LIMITS))

    def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            frame = self.frames.next_frame()
            if frame is not None:
                message = decode_body(frame, HOST_LIMITS)
                assert isinstance(message, dict)
                self.received.append(message)
                return message
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                raise ConnectionError("closed by the host")
            self.raw_bytes += len(data)
            self.frames.feed(data)

    async def expect(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of type ``kind`` (others are kept in :attr:`received`)."""
        while True:
            message = await self.next(timeout)
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
