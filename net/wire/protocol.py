"""The Clowder wire protocol, sans-I/O: feed it bytes, get messages and bytes to send.

There is one protocol object per connection, on each end:
:class:`HostProtocol` is the host's end of one client's connection,
:class:`ClientProtocol` is a client's end. Neither touches a socket, asyncio
or a clock; the adapter that owns the socket drives them::

    proto = HostProtocol()                      # one per accepted connection
    proto.receive_data(chunk, now)              # every chunk read; now = host seconds
    for event in proto.events_received():
        match event:
            case MessageReceived(message=Hello(name=name, token=token)):
                proto.send(Welcome(protocol=PROTOCOL_VERSION, host_name="h", games=[]))
            case MessageReceived(message=Ping(id=ping_id, t=t)):
                proto.send(Pong(id=ping_id, t=t))
            case MessageReceived(message=message):
                ...                             # a valid, typed message (net.wire.messages)
            case ProtocolError(code=code, text=text, close=close):
                ...                             # log it; the error reply is already queued
    writer.write(proto.data_to_send())          # after every receive_data/send
    if proto.should_close:                      # after writing: close this one socket
        writer.close()

A client is the mirror image: ``ClientProtocol()``, ``send(Hello(...))``
first (it may send more right after, without waiting), then the host's first
message is ``welcome`` (or an ``error`` and the close).

The API, all of it:

``receive_data(data, now)``
    Bytes from the peer, in any chunking; ``now`` is a monotonic time in
    seconds (it feeds the rate limit, nothing else).
``events_received() -> list[MessageReceived | ProtocolError]``
    What the bytes fed since the last call produced, in order.
``send(message, frame=None)``
    Queue a message (a :mod:`net.wire.messages` dataclass). Raises
    :class:`SendError` for a message this side may not send now or that
    breaks the catalog or the limits: that is a bug in the caller, not the
    peer. The host's first message after ``hello`` must be ``welcome`` (or
    an ``error``). Does nothing once :attr:`should_close` is set. ``frame``
    is the message pre-encoded by ``encode(message)``, for broadcasts.
``encode(message) -> bytes``
    The frame for ``message`` within this side's limits, without sending it.
``send_error(code, text, about=None)`` (host only)
    Queue an ``error``; a code whose entry in :data:`net.wire.messages.ERRORS`
    closes sets :attr:`should_close`. ``about`` is the message being refused
    (its ``ref`` and type are echoed).
``data_to_send() -> bytes``
    The bytes queued since the last call (possibly empty).
``handshake_done``
    ``hello`` accepted (host) / ``welcome`` received (client).
``should_close``
    A protocol violation, a closing ``error`` sent (host) or received
    (client): write the pending bytes, then close the transport. Later input
    is ignored.

What the protocol object does by itself:

* It checks every frame against the limits (:mod:`net.wire.framing`), every
  message against the catalog (:mod:`net.wire.messages`), the handshake (the
  first client message is ``hello`` with a supported version; the first
  host message is ``welcome`` or ``error``) and the rate limit (host side).
* On the host side it answers every problem with an ``error`` message and
  reports it as :class:`ProtocolError`; ``close`` says whether the
  connection must end (the code's entry in ``ERRORS`` says so, and every
  error before the handshake is complete closes). A client never sends
  ``error``: its problems with the host are only reported.
* It does not answer anything by itself, so replies leave in the order the
  adapter handles events: the host's ``welcome`` before anything else, a
  ``pong`` for a ``ping`` (``proto.send(Pong(id=ping.id, t=ping.t))``) in turn.

Nothing is shared between protocol objects, so one connection's garbage
cannot affect another.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass

from net.wire.framing import (
    CLIENT_LIMITS,
    HOST_LIMITS,
    FrameError,
    FrameReader,
    Limits,
    decode_body,
    encode_frame,
    encode_shaped_frame,
)
from net.wire.messages import (
    ERRORS,
    MAX_ERROR_TEXT,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Error,
    Hello,
    Message,
    MessageError,
    Side,
    Welcome,
    closes,
    parse,
    to_wire,
)

__all__ = [
    "ClientProtocol",
    "HostProtocol",
    "MessageReceived",
    "ProtocolError",
    "ProtocolEvent",
    "ProtocolState",
    "SendError",
    "TokenBucket",
    "version_mismatch",
]


def version_mismatch(host_speaks: Iterable[int], client_speaks: int) -> str:
    """What a player reads when the two ends speak different protocol versions.

    It names both versions, so a player can tell which end is older without
    knowing the protocol, and says what helps (one of them must be updated:
    any host and client of one Clowder release match). Both ends use it: the
    host in its ``unsupported_version`` error (the usual case: a client is
    refused by a host of another release, and shows that error as it is), a
    client for a ``welcome`` of another version. The numbers come from
    :data:`net.wire.messages.PROTOCOL_VERSION`, so bumping it changes one line.
    """
    spoken = " or ".join(str(version) for version in sorted(host_speaks))
    return (
        f"This host speaks protocol {spoken}; your Clowder speaks {client_speaks}: "
        "update one of them"
    )


@dataclass(frozen=True, slots=True)
class MessageReceived:
    """A valid message from the peer, as its :mod:`net.wire.messages` dataclass."""

    message: Message


@dataclass(frozen=True, slots=True)
class ProtocolError:
    """The peer sent something the protocol refuses.

    ``code`` is a stable code from :data:`net.wire.messages.ERRORS`, ``text`` a
    sentence for people, ``about`` the type of the refused message when it
    had a known one. When ``close`` is true the connection must be closed
    (after writing :meth:`data_to_send`, which holds the error reply on the
    host side); otherwise only that message was dropped.
    """

    code: str
    text: str
    close: bool
    about: str | None = None


ProtocolEvent = MessageReceived | ProtocolError


class SendError(ValueError):
    """The caller tried to send something this side may not send (a programming error)."""


class TokenBucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up.

    Times are passed in (seconds, monotonic); a time earlier than the last
    one is treated as no time passing.
    """

    def __init__(self, rate: float, burst: int) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._last: float | None = None

    def take(self, now: float) -> bool:
        """Spend one token if there is one; whether there was."""
        if self._last is not None and now > self._last:
            self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        if self._last is None or now > self._last:
            self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class ProtocolState(enum.Enum):
    """A connection's life, on either end."""

    HANDSHAKE = "handshake"
    """Before ``hello`` is accepted (host) or ``welcome`` received (client)."""
    OPEN = "open"
    CLOSING = "closing"
    """A protocol violation or a closing ``error``: write what is pending, then close."""
    CLOSED = "closed"
    """The peer's end is gone (:meth:`receive_eof`): nothing more is read or sent."""


class _Protocol(ABC):
    """What both ends share: framing, decoding, events, the outgoing buffer."""

    side: Side

    def __init__(self, incoming: Limits, outgoing: Limits) -> None:
        self._incoming = incoming
        self._outgoing = outgoing
        self._reader = FrameReader(incoming.max_frame)
        self._events: list[ProtocolEvent] = []
        self._out = bytearray()
        self.state = ProtocolState.HANDSHAKE
        """Where the connection is in its life (:class:`ProtocolState`)."""
        self._open_seen = False
        """Whether the handshake ever completed (a fact, kept once the connection closes)."""
        self._bucket = (
            TokenBucket(incoming.rate, incoming.burst) if incoming.rate is not None else None
        )
        self._refused_in_a_row = 0

    # Public API ------------------------------------------------------------

    @property
    def handshake_done(self) -> bool:
        """Whether the handshake completed (it stays true once the connection closes)."""
        return self._open_seen

    @property
    def should_close(self) -> bool:
        return self.state in (ProtocolState.CLOSING, ProtocolState.CLOSED)

    def receive_data(self, data: bytes, now: float) -> None:
        """Feed bytes from the peer; ``now`` is monotonic seconds (for the rate limit)."""
        if self.should_close or not data:
            return
        self._reader.feed(data)
        while not self.should_close:
            try:
                body = self._reader.next_frame()
            except FrameError as error:
                self._fail(error.code, error.text, None, None)
                return
            if body is None:
                return
            if self._rate_allows(now):
                self._receive_frame(body)

    def receive_eof(self) -> None:
        """The peer closed its end (or the socket is gone): nothing more is read or sent."""
        self.state = ProtocolState.CLOSED

    def events_received(self) -> list[ProtocolEvent]:
        events, self._events = self._events, []
        return events

    def data_to_send(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data

    def send(self, message: Message, frame: bytes | None = None) -> None:
        """Queue ``message``; raises :class:`SendError` if this side may not send it now.

        ``frame`` is ``message`` already encoded by :meth:`encode` with the same
        limits: a broadcast encodes a view that several peers share only once.
        """
        if self.should_close:
            return
        if self.side not in message.SENDERS:
            raise SendError(f"The {self.side.value} does not send {message.TYPE!r} messages")
        self._check_send_order(message)
        self._out += frame if frame is not None else self.encode(message)
        self._sent(message)

    def encode(self, message: Message, *, shape_tested: bool = False) -> bytes:
        """``message`` as a frame within this side's outgoing limits (no state changes).

        ``shape_tested``: its depth and value types are fixed by code the contract
        tests check (a view), so only what its size does not settle is checked
        (:func:`~net.wire.framing.encode_shaped_frame`).
        """
        encode = encode_shaped_frame if shape_tested else encode_frame
        try:
            return encode(to_wire(message), self._outgoing)
        except (FrameError, MessageError) as error:
            raise SendError(f"Cannot send {message.TYPE!r}: {error}") from None

    # Steps -----------------------------------------------------------------

    def _rate_allows(self, now: float) -> bool:
        if self._bucket is None or self._bucket.take(now):
            self._refused_in_a_row = 0
            return True
        self._refused_in_a_row += 1
        if self._refused_in_a_row > self._incoming.flood:
            self._fail(
                "flooding",
                f"More than {self._incoming.flood} messages in a row came faster than "
                f"{self._incoming.rate:g} a second; closing the connection",
                None,
                None,
            )
        elif self._refused_in_a_row == 1:
            # One error per run of refusals: answering each one would amplify a flood.
            self._fail(
                "rate_limited",
                f"Messages are coming faster than {self._incoming.rate:g} a second; "
                "this one was dropped",
                None,
                None,
            )
        return False

    def _receive_frame(self, body: bytes) -> None:
        try:
            value = decode_body(body, self._incoming)
        except FrameError as error:
            self._fail(error.code, error.text, None, None)
            return
        problem = self._check_first(value)
        if problem is not None:
            code, text, about = problem
            self._fail(code, text, about, None)
            return
        try:
            message = parse(value, self.side.other)
        except MessageError as error:
            self._fail(error.code, error.text, error.about, error.ref)
            return
        if self._accept_order(message):
            self._events.append(MessageReceived(message))

    def _fail(self, code: str, text: str, about: str | None, ref: int | None) -> None:
        close = closes(code) or not self._open_seen
        self._events.append(ProtocolError(code, text, close, about))
        self._reply_error(code, text, about, ref)
        if close:
            self._closing()

    def _closing(self) -> None:
        if self.state is not ProtocolState.CLOSED:
            self.state = ProtocolState.CLOSING

    def _open(self) -> None:
        self.state = ProtocolState.OPEN
        self._open_seen = True

    # Side-specific hooks ------------------------------------------------------

    def _check_first(self, value: object) -> tuple[str, str, str | None] | None:
        """A handshake problem seen before full validation (e.g. a wrong version)."""
        return None

    @abstractmethod
    def _accept_order(self, message: Message) -> bool:
        """Whether a valid incoming ``message`` may come now (the side's ordering rules)."""

    @abstractmethod
    def _check_send_order(self, message: Message) -> None:
        """Raise :class:`SendError` if this side may not send ``message`` now."""

    def _sent(self, message: Message) -> None:
        """Note that ``message`` was queued (for ordering rules); most sides need not."""
        return

    def _reply_error(self, code: str, text: str, about: str | None, ref: int | None) -> None:
        """Send the peer an ``error`` (the host does; a client never does)."""
        return


def _error(code: str, text: str, ref: int | None, about: str | None) -> Error:
    """An ``error`` message; an overlong sentence is shortened rather than refused."""
    if len(text) > MAX_ERROR_TEXT:
        text = text[: MAX_ERROR_TEXT - 3] + "..."
    return Error(code=code, message=text or code, ref=ref, about=about)


class HostProtocol(_Protocol):
    """The host's end of one client connection.

    ``incoming`` bounds what the client may send (and its rate),
    ``outgoing`` what the host sends; the defaults are the protocol's.
    """

    side = Side.HOST

    def __init__(self, incoming: Limits = CLIENT_LIMITS, outgoing: Limits = HOST_LIMITS) -> None:
        super().__init__(incoming, outgoing)
        self._welcomed = False
        self._held_errors = bytearray()
        """Errors about messages that came after ``hello`` but before the adapter sent
        ``welcome``: they follow the welcome, which must be the host's first message."""

    def data_to_send(self) -> bytes:
        if self.should_close and self._held_errors:
            # Closing without a welcome (the adapter refused the hello): say why anyway.
            self._out += self._held_errors
            self._held_errors.clear()
        return super().data_to_send()

    def send_error(self, code: str, text: str, about: Message | None = None) -> None:
        """Refuse something with an ``error``; a closing ``code`` sets :attr:`should_close`.

        ``code`` must be in :data:`net.wire.messages.ERRORS`; ``about`` is the
        message being refused, whose ``ref`` and type the error echoes.
        """
        if code not in ERRORS:
            raise SendError(f"{code!r} is not an error code of the protocol")
        ref = getattr(about, "ref", None) if about is not None else None
        self.send(
            _error(
                code,
                text,
                ref if isinstance(ref, int) else None,
                about.TYPE if about is not None else None,
            )
        )
        if closes(code):
            self._closing()

    def _check_first(self, value: object) -> tuple[str, str, str | None] | None:
        if self._open_seen:
            return None
        if not (isinstance(value, dict) and value.get("type") == "hello"):
            kind = value.get("type") if isinstance(value, dict) else None
            shown = f"{kind[:64]!r}" if isinstance(kind, str) else "something else"
            return (
                "handshake_required",
                f"The first message must be 'hello', not {shown}",
                None,
            )
        version = value.get("protocol")
        if isinstance(version, int) and version not in SUPPORTED_VERSIONS:
            return ("unsupported_version", version_mismatch(SUPPORTED_VERSIONS, version), "hello")
        return None

    def _accept_order(self, message: Message) -> bool:
        if isinstance(message, Hello):
            if self._open_seen:
                self._fail(
                    "out_of_order", "'hello' is sent once, at the start", "hello", message.ref
                )
                return False
            self._open()
        return True

    def _check_send_order(self, message: Message) -> None:
        if isinstance(message, Error):
            return
        if not self._open_seen:
            raise SendError(f"The host sends {message.TYPE!r} only after the client's 'hello'")
        if isinstance(message, Welcome) == self._welcomed:
            wanted = "'welcome' once" if self._welcomed else "'welcome' first"
            raise SendError(f"The host sends {wanted}, not {message.TYPE!r} now")

    def _sent(self, message: Message) -> None:
        if isinstance(message, Welcome):
            self._welcomed = True
            self._out += self._held_errors
            self._held_errors.clear()

    def _reply_error(self, code: str, text: str, about: str | None, ref: int | None) -> None:
        frame = encode_frame(to_wire(_error(code, text, ref, about)), self._outgoing)
        if self._open_seen and not self._welcomed:
            self._held_errors += frame
        else:
            self._out += frame


class ClientProtocol(_Protocol):
    """A client's end of its connection to a host.

    The first message sent must be :class:`~net.wire.messages.Hello` (more may
    follow it before the ``welcome`` arrives). Problems with what the host
    sends are reported as :class:`ProtocolError`, never answered.
    """

    side = Side.CLIENT

    def __init__(self, incoming: Limits = HOST_LIMITS, outgoing: Limits = CLIENT_LIMITS) -> None:
        super().__init__(incoming, outgoing)
        self._hello_sent = False

    def _check_first(self, value: object) -> tuple[str, str, str | None] | None:
        if self._open_seen:
            return None
        kind = value.get("type") if isinstance(value, dict) else None
        if kind not in ("welcome", "error"):
            shown = f"{kind[:64]!r}" if isinstance(kind, str) else "something else"
            return (
                "handshake_required",
                f"The host's first message must be 'welcome' or 'error', not {shown}",
                None,
            )
        return None

    def _accept_order(self, message: Message) -> bool:
        if isinstance(message, Welcome):
            if self._open_seen:
                self._fail("out_of_order", "The host sent 'welcome' twice", "welcome", None)
                return False
            if message.protocol != PROTOCOL_VERSION:
                text = version_mismatch([message.protocol], PROTOCOL_VERSION)
                self._fail("unsupported_version", text, "welcome", None)
                return False
            self._open()
        elif isinstance(message, Error) and closes(message.code):
            # The host closes after a closing error; so should this end.
            self._closing()
        return True

    def _check_send_order(self, message: Message) -> None:
        if isinstance(message, Hello) and self._hello_sent:
            raise SendError("'hello' is sent once, at the start")
        if not isinstance(message, Hello) and not self._hello_sent:
            raise SendError(f"The client sends 'hello' before {message.TYPE!r}")

    def _sent(self, message: Message) -> None:
        if isinstance(message, Hello):
            self._hello_sent = True
