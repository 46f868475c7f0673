"""Fuzzing the host side of the protocol: whatever arrives, it answers with errors, never raises.

Each property feeds one protocol object garbage while a second, independent
one runs a normal session; the second must behave exactly as it does alone.
Example counts are kept modest so the file runs in a few seconds.
"""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net.wire.framing import HOST_LIMITS, FrameReader, decode_body
from net.wire.messages import CATALOG, ERRORS, PROTOCOL_VERSION, Error, Side, Welcome, parse
from net.wire.protocol import HostProtocol, MessageReceived, ProtocolError, ProtocolEvent

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

HELLO = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Ann"}


def frame(value: Any) -> bytes:
    body = msgpack.packb(value, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


# A normal session: hello, then a few requests, fed in one go.
SESSION = [
    HELLO,
    {"type": "list_tables", "ref": 1},
    {"type": "join", "table": "t1", "role": "player", "ref": 2},
    {"type": "action", "table": "t1", "action": {"type": "play", "card": "R3"}},
    {"type": "ping", "id": 1, "t": 5},
]


def run_session(host: HostProtocol) -> list[ProtocolEvent]:
    host.receive_data(b"".join(frame(value) for value in SESSION), 1.0)
    return host.events_received()


REFERENCE = run_session(HostProtocol())


def check_host_output(host: HostProtocol, events: list[ProtocolEvent]) -> None:
    """Everything a host produced is well-formed: events, and error frames only."""
    errors = [event for event in events if isinstance(event, ProtocolError)]
    for event in events:
        assert isinstance(event, MessageReceived | ProtocolError)
    for error in errors:
        assert error.code in ERRORS
        assert error.text and error.text[0].isupper()
    closing = [error for error in errors if error.close]
    assert len(closing) <= 1
    if closing:
        assert host.should_close and events[-1] is closing[0]
    reader = FrameReader(HOST_LIMITS.max_frame)
    reader.feed(host.data_to_send())
    sent: list[Error] = []
    while (body := reader.next_frame()) is not None:
        message = parse(decode_body(body, HOST_LIMITS), Side.HOST)
        assert isinstance(message, Error)
        sent.append(message)
    assert reader.pending == 0
    assert [message.code for message in sent] == [error.code for error in errors]


def feed_alongside(chunks: list[bytes], welcomed: bool) -> None:
    """Feed ``chunks`` to one host while another runs :data:`SESSION`; check both."""
    victim, bystander = HostProtocol(), HostProtocol()
    events: list[ProtocolEvent] = []
    if welcomed:
        victim.receive_data(frame(HELLO), 0.0)
        events += victim.events_received()
        victim.send(Welcome(protocol=PROTOCOL_VERSION, host_name="host", games=[]))
        victim.data_to_send()
    for number, chunk in enumerate(chunks):
        victim.receive_data(chunk, float(number))
        events += victim.events_received()
    assert run_session(bystander) == REFERENCE
    assert bystander.data_to_send() == b""
    check_host_output(victim, events)


@FUZZ
@given(st.lists(st.binary(max_size=64), max_size=8), st.booleans())
def test_random_bytes_only_ever_produce_errors(chunks: list[bytes], welcomed: bool) -> None:
    feed_alongside(chunks, welcomed)


@FUZZ
@given(
    st.lists(st.binary(max_size=48), min_size=1, max_size=6),
    st.lists(st.integers(min_value=0, max_value=200), max_size=6),
)
def test_random_bodies_in_valid_frames_only_ever_produce_errors(
    bodies: list[bytes], sizes: list[int]
) -> None:
    # Honest headers around garbage, and headers that lie about the size.
    chunks = [len(body).to_bytes(4, "big") + body for body in bodies]
    chunks += [size.to_bytes(4, "big") for size in sizes]
    feed_alongside(chunks, welcomed=True)


# Any msgpack value, including the types the protocol refuses.
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=20)
    | st.binary(max_size=8)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8) | st.binary(max_size=4), inner, max_size=5)
    ),
    max_leaves=20,
)

# Maps that look like messages: a known or unknown type, known or random fields.
field_names = st.sampled_from(
    sorted({spec.name for entry in CATALOG.values() for spec in entry.fields} | {"type", "as"})
)
message_like = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from([*CATALOG, "dance", ""]),
    st.dictionaries(field_names, values, max_size=6),
)


@FUZZ
@given(st.lists(values | message_like, max_size=6), st.booleans())
def test_random_msgpack_values_only_ever_produce_errors_or_valid_messages(
    items: list[Any], welcomed: bool
) -> None:
    feed_alongside([frame(item) for item in items], welcomed)


@FUZZ
@given(st.lists(message_like, min_size=1, max_size=6), st.data())
def test_chunking_never_changes_what_is_received(items: list[Any], data: st.DataObject) -> None:
    stream = frame(HELLO) + b"".join(frame(item) for item in items)
    whole = HostProtocol()
    whole.receive_data(stream, 0.0)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    pieces = HostProtocol()
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        pieces.receive_data(stream[start:end], 0.0)
    assert pieces.events_received() == whole.events_received()
    assert pieces.data_to_send() == whole.data_to_send()
