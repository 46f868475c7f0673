"""A host core driven by hand on a virtual clock, for tests of the host's rules.

No socket, no event loop, no wall time: a test opens connections, sends
messages through real :class:`~net.wire.protocol.ClientProtocol` objects, moves
the clock to any moment (firing every timer due on the way, in order), and
reads what each client received. A minute of host time costs microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net.core.host import Close, HostCore, Send
from net.wire.messages import PROTOCOL_VERSION, Hello, Message, Ping, Pong, to_wire
from net.wire.protocol import ClientProtocol, MessageReceived

SECOND = 1_000_000_000


@dataclass
class CoreClient:
    """One client's end of a connection to the core: its protocol and what it received."""

    conn: int
    protocol: ClientProtocol = field(default_factory=ClientProtocol)
    received: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    answers_pings: bool = True

    def gone(self) -> bool:
        """Whether the host closed this connection (a call: a type checker does not pin it)."""
        return self.closed

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.received if message["type"] == kind]

    def last(self, kind: str) -> dict[str, Any]:
        found = self.of_type(kind)
        assert found, f"no {kind!r} among {[m['type'] for m in self.received]}"
        return found[-1]


class CoreDriver:
    """Drives a :class:`HostCore` (see the module docstring)."""

    def __init__(self, core: HostCore | None = None, **options: Any) -> None:
        options.setdefault("log", lambda line: None)
        self.core = core if core is not None else HostCore(name="virtual", **options)
        self.now_ns = self.core.now_ns
        self.clients: dict[int, CoreClient] = {}

    def connect(self, name: str | None = "Ann", token: str | None = None) -> CoreClient:
        """A new connection; with a ``name``, it says hello (with ``token``, if given)."""
        conn = self.core.open_connection(f"10.0.0.{len(self.clients) + 2}:40000", self.now_ns)
        client = self.clients[conn] = CoreClient(conn)
        if name is not None:
            self.send(client, Hello(protocol=PROTOCOL_VERSION, name=name, token=token))
        else:
            self._deliver()
        return client

    def send(self, client: CoreClient, message: Message) -> None:
        client.protocol.send(message)
        data = client.protocol.data_to_send()
        more = self.core.receive_data(client.conn, data, self.now_ns)
        while more:
            more = self.core.handle_more(client.conn, self.now_ns)
        self._deliver()

    def hang_up(self, client: CoreClient) -> None:
        self.core.connection_lost(client.conn, self.now_ns)
        client.closed = True
        self._deliver()

    def run_until(self, when_ns: int) -> None:
        """Move the clock to ``when_ns``, firing every timer due on the way at its own time."""
        while True:
            due = self.core.next_deadline_ns()
            if due is None or due > when_ns:
                break
            self.now_ns = max(self.now_ns, due)
            self.core.advance(self.now_ns)
            self._deliver()
        self.now_ns = max(self.now_ns, when_ns)

    def run_for(self, seconds: float) -> None:
        self.run_until(self.now_ns + round(seconds * SECOND))

    def _deliver(self) -> None:
        """Hand every output to its client (instantly); clients answer pings at once."""
        while True:
            effects = self.core.outputs()
            if not effects:
                return
            for effect in effects:
                client = self.clients.get(effect.conn)
                if client is None:
                    continue
                if isinstance(effect, Close):
                    client.closed = True
                    continue
                assert isinstance(effect, Send)
                client.protocol.receive_data(effect.data, self.now_ns / SECOND)
                for event in client.protocol.events_received():
                    if not isinstance(event, MessageReceived):
                        continue
                    client.received.append(to_wire(event.message))
                    if isinstance(event.message, Ping) and client.answers_pings:
                        ping = event.message
                        pong = Pong(id=ping.id, t=ping.t, at=self.now_ns)
                        client.protocol.send(pong)
                        self.core.receive_data(
                            client.conn, client.protocol.data_to_send(), self.now_ns
                        )
