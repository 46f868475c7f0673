"""Byte-level tests of the sans-I/O protocol: framing, limits, handshake, catalog, errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgpack
import pytest

from net.wire import framing
from net.wire.framing import (
    CLIENT_LIMITS,
    HOST_LIMITS,
    MAX_CLIENT_BURST,
    MAX_CLIENT_CONTAINER,
    MAX_CLIENT_DEPTH,
    MAX_CLIENT_FLOOD,
    MAX_CLIENT_FRAME,
    MAX_CLIENT_RATE,
    MAX_CLIENT_STR,
    FrameError,
    FrameReader,
    decode_body,
    encode_frame,
    encode_shaped_frame,
    with_field,
)
from net.wire.messages import (
    CATALOG,
    ERRORS,
    MAX_ERROR_TEXT,
    PROTOCOL_VERSION,
    Act,
    Again,
    AgainAnswer,
    Chat,
    ChatRule,
    Created,
    CreateTable,
    Error,
    GetReplay,
    GetScores,
    Hello,
    Join,
    Joined,
    Learn,
    Leave,
    Left,
    ListReplays,
    ListTables,
    Message,
    MessageError,
    Ping,
    Pong,
    Presence,
    Replay,
    Replays,
    Scores,
    Side,
    Tables,
    Typing,
    View,
    Welcome,
    closes,
    parse,
    to_wire,
)
from net.wire.protocol import (
    ClientProtocol,
    HostProtocol,
    MessageReceived,
    ProtocolError,
    SendError,
    TokenBucket,
)

PROTOCOL_MD = Path(__file__).resolve().parents[3] / "net" / "PROTOCOL.md"

# One valid instance of every message type in the catalog.
SAMPLES: dict[str, Message] = {
    "hello": Hello(protocol=PROTOCOL_VERSION, name="Ann", token="tok-1", player="key-1", ref=1),
    "list_tables": ListTables(ref=2),
    "create_table": CreateTable(game="catchy", options={"target": 5}, seats=2, bots=1, ref=3),
    "join": Join(table="t1", role="player", seat=0, ref=4),
    "leave": Leave(table="t1"),
    "action": Act(
        table="t1",
        action={"type": "play", "card": "R3"},
        reveal=9,
        drawn_ns=1_000,
        acted_ns=1_250,
        ref=5,
    ),
    "typing": Typing(table="t1", reveal=9, drawn_ns=1_000, acted_ns=1_250),
    "learn": Learn(table="t1", hold=5, pace=3, ref=14),
    "again": Again(table="t1", game="kitten", options={"purrfect": True}, seats=3, bots=1),
    "again_answer": AgainAnswer(table="t1", accept=False, ref=13),
    "ping": Ping(id=7, t=-12),
    "pong": Pong(id=7, t=-12),
    "welcome": Welcome(protocol=PROTOCOL_VERSION, host_name="attic", games=[{"name": "catchy"}]),
    "tables": Tables(tables=[{"id": "t1", "game": "catchy"}], ref=2),
    "created": Created(table="t1", ref=3),
    "joined": Joined(table="t2", role="player", seat=1, token="tok-1", moved_from="t1"),
    "left": Left(table="t1"),
    "view": View(
        table="t1",
        version=3,
        view={"players": ["Ann", "Bea"], "seat": 0, "log": [], "legal": []},
        events=[{"kind": "play", "text": "Ann plays R3", "data": {}}],
        starting=True,
        starts_in=2.5,
        ratings=[{"rating": 1510, "change": 10}, None],
        again={"game": "catchy", "table": "t2", "ends_in": 12.5, "seats": []},
        tonight={"games": 1, "standings": [{"name": "Ann", "wins": 1, "games": 1}]},
        paused="The host cannot save this table: its disk is full.",
        held=True,
        contests={"contested": 2, "closest_ns": 1_900_000, "tie": True},
    ),
    "presence": Presence(table="t1", seats=[{"seat": 0, "connected": True}]),
    "error": Error(code="bad_field", message="'join' needs the field 'table'", ref=4, about="join"),
    "chat": Chat(table="t1", text="gg", name="Ann", seat=0),
    "chat_rule": ChatRule(table="t1", spectator_chat="hidden", name="Ann", seat=0, ref=12),
    "get_scores": GetScores(ref=10),
    "scores": Scores(
        scores={"catchy": [{"name": "Ann", "wins": 2, "played": 3}]},
        ref=10,
        tonight={"games": 0, "standings": []},
    ),
    "list_replays": ListReplays(ref=8),
    "get_replay": GetReplay(table="t1", ref=9),
    "replays": Replays(replays=[{"table": "t1", "game": "catchy", "moves": 3}], ref=8),
    "replay": Replay(replay={"table": "t1", "seed": 5, "steps": [], "notes": []}, ref=9),
}


# --------------------------------------------------------------------------- helpers


def raw_frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def frame(value: Any) -> bytes:
    """A frame holding ``value`` packed as is (no checks: tests craft bad input)."""
    return raw_frame(msgpack.packb(value, use_bin_type=True))


HELLO = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Ann"}


def welcomed_host() -> HostProtocol:
    """A host protocol past the handshake (hello received, welcome sent)."""
    host = HostProtocol()
    host.receive_data(frame(HELLO), 0.0)
    assert [type(event) for event in host.events_received()] == [MessageReceived]
    host.send(SAMPLES["welcome"])
    host.data_to_send()
    return host


def frames_out(data: bytes, limits: framing.Limits = HOST_LIMITS) -> list[Any]:
    """Decode every frame in ``data`` (what one side wrote)."""
    reader = FrameReader(limits.max_frame)
    reader.feed(data)
    values = []
    while (body := reader.next_frame()) is not None:
        values.append(decode_body(body, limits))
    assert reader.pending == 0
    return values


def only_error(host: HostProtocol | ClientProtocol) -> ProtocolError:
    events = host.events_received()
    assert len(events) == 1, events
    (event,) = events
    assert isinstance(event, ProtocolError)
    return event


def error_sent(host: HostProtocol) -> dict[str, Any]:
    (value,) = frames_out(host.data_to_send())
    assert value["type"] == "error"
    assert isinstance(parse(value, Side.HOST), Error)
    return dict(value)


def action_of_size(size: int) -> bytes:
    """A valid 'action' frame whose body is exactly ``size`` bytes."""
    chunk = "x" * (MAX_CLIENT_STR - 8)
    base = {"type": "action", "table": "t1", "action": {"type": "say"}}
    filler: dict[str, str] = {}
    while len(msgpack.packb(base | {"action": {"type": "say", **filler}})) < size - MAX_CLIENT_STR:
        filler[f"k{len(filler)}"] = chunk
    filler["pad"] = ""
    body = msgpack.packb(base | {"action": {"type": "say", **filler}})
    filler["pad"] = "y" * (size - len(body))
    body = msgpack.packb(base | {"action": {"type": "say", **filler}})
    # A str header grows from 1 to 2 to 3 bytes at 32 and 256 characters: trim to fit.
    while len(body) > size:
        filler["pad"] = filler["pad"][: -(len(body) - size)]
        body = msgpack.packb(base | {"action": {"type": "say", **filler}})
    assert len(body) == size
    return raw_frame(body)


# --------------------------------------------------------------------------- handshake


def test_a_full_handshake_both_ways() -> None:
    host, client = HostProtocol(), ClientProtocol()
    client.send(SAMPLES["hello"])
    client.send(ListTables(ref=8))  # pipelined before the welcome: allowed
    host.receive_data(client.data_to_send(), 0.0)
    events = host.events_received()
    assert [event.message for event in events if isinstance(event, MessageReceived)] == [
        SAMPLES["hello"],
        ListTables(ref=8),
    ]
    assert host.handshake_done
    host.send(SAMPLES["welcome"])
    host.send(SAMPLES["tables"])
    client.receive_data(host.data_to_send(), 0.0)
    assert not client.should_close
    received = [event.message for event in client.events_received()]  # type: ignore[union-attr]
    assert received == [SAMPLES["welcome"], SAMPLES["tables"]]
    assert client.handshake_done


def test_every_message_type_round_trips_through_the_wire() -> None:
    assert set(SAMPLES) == set(CATALOG)
    host, client = welcomed_host(), ClientProtocol()
    client.send(SAMPLES["hello"])
    client.data_to_send()
    client.receive_data(frame(to_wire(SAMPLES["welcome"])), 0.0)
    client.events_received()
    for name, sample in SAMPLES.items():
        if name in ("hello", "welcome"):
            continue
        if Side.CLIENT in sample.SENDERS:
            client.send(sample)
            host.receive_data(client.data_to_send(), 1.0)
            assert host.events_received() == [MessageReceived(sample)], name
        if Side.HOST in sample.SENDERS:
            host.send(sample)
            client.receive_data(host.data_to_send(), 1.0)
            assert client.events_received() == [MessageReceived(sample)], name


def test_a_view_carries_the_game_view_alone_and_the_host_fields_beside_it() -> None:
    """Version 2: before the deal ``view`` is nil beside ``waiting``; a countdown's
    ``starts_in`` is a number from 0; the view itself is any map (the game's)."""
    waiting = View(
        table="t1",
        version=1,
        view=None,
        events=[],
        waiting={"seats": [{"name": "Ann", "bot": False}, {"name": None}], "seat": 0},
    )
    wire = to_wire(waiting)
    assert wire["view"] is None and "starting" not in wire and "starts_in" not in wire
    assert parse(wire, Side.HOST) == waiting
    started = to_wire(SAMPLES["view"])
    for bad in (-1.0, float("nan"), float("inf"), True, "3"):
        with pytest.raises(MessageError) as refused:
            parse({**started, "starts_in": bad}, Side.HOST)
        assert refused.value.code == "bad_field" and "starts_in" in refused.value.text
    for gone in ("reveal", "outcome"):  # version 1's copies beside the view
        with pytest.raises(MessageError):
            parse({**started, gone: None}, Side.HOST)
    without_view = {key: value for key, value in started.items() if key != "view"}
    with pytest.raises(MessageError):
        parse(without_view, Side.HOST)  # required, nil before the deal


def test_the_first_message_must_be_hello_and_the_error_closes() -> None:
    host = HostProtocol()
    host.receive_data(frame({"type": "list_tables"}), 0.0)
    error = only_error(host)
    assert (error.code, error.close) == ("handshake_required", True)
    assert "'hello'" in error.text
    assert host.should_close
    assert error_sent(host)["code"] == "handshake_required"
    host.receive_data(frame(HELLO), 0.0)  # ignored after the close decision
    assert host.events_received() == []
    assert host.data_to_send() == b""


def test_a_wrong_version_gets_a_clear_error_and_a_close() -> None:
    host = HostProtocol()
    # The version is checked before the other fields: a future hello may differ.
    host.receive_data(frame({"type": "hello", "protocol": 99, "shape": "new"}), 0.0)
    error = only_error(host)
    assert (error.code, error.close, error.about) == ("unsupported_version", True, "hello")
    assert f"protocol {PROTOCOL_VERSION};" in error.text and "speaks 99:" in error.text
    assert error_sent(host)["about"] == "hello"


def test_any_error_before_the_handshake_closes() -> None:
    host = HostProtocol()
    host.receive_data(frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": ""}), 0.0)
    error = only_error(host)
    assert (error.code, error.close) == ("bad_field", True)
    assert not closes("bad_field")  # ...though the same code after the handshake does not


def test_a_second_hello_is_out_of_order_but_recoverable() -> None:
    host = welcomed_host()
    host.receive_data(frame(HELLO | {"ref": 3}), 0.0)
    error = only_error(host)
    assert (error.code, error.close) == ("out_of_order", False)
    assert error_sent(host)["ref"] == 3
    assert not host.should_close


# --------------------------------------------------------------------------- framing


def test_a_frame_split_into_single_bytes() -> None:
    host = HostProtocol()
    for byte in frame(HELLO):
        assert host.events_received() == []
        host.receive_data(bytes([byte]), 0.0)
    assert host.events_received() == [MessageReceived(Hello(protocol=PROTOCOL_VERSION, name="Ann"))]


@pytest.mark.parametrize("cut", [1, 3, 4, 5, 17])
def test_frames_cut_anywhere_give_the_same_messages(cut: int) -> None:
    data = frame(HELLO) + b"".join(frame({"type": "ping", "id": n, "t": n}) for n in range(5))
    host = HostProtocol()
    for start in range(0, len(data), cut):
        host.receive_data(data[start : start + cut], 0.0)
    messages = [event.message for event in host.events_received()]  # type: ignore[union-attr]
    assert messages[1:] == [Ping(id=n, t=n) for n in range(5)]


def test_several_frames_in_one_chunk_arrive_in_order() -> None:
    host = HostProtocol()
    pings = b"".join(frame({"type": "ping", "id": n, "t": 0}) for n in range(10))
    host.receive_data(frame(HELLO) + pings, 0.0)
    events = host.events_received()
    assert [event.message.id for event in events[1:]] == list(range(10))  # type: ignore[union-attr]


def test_a_frame_of_exactly_the_limit_is_accepted() -> None:
    host = welcomed_host()
    host.receive_data(action_of_size(MAX_CLIENT_FRAME), 0.0)
    (event,) = host.events_received()
    assert isinstance(event, MessageReceived) and isinstance(event.message, Act)


def test_one_byte_over_the_limit_is_refused_from_its_header_alone() -> None:
    host = welcomed_host()
    oversized = action_of_size(MAX_CLIENT_FRAME + 1)
    host.receive_data(oversized[:4], 0.0)  # the body never needs to arrive
    error = only_error(host)
    assert (error.code, error.close) == ("frame_too_large", True)
    assert str(MAX_CLIENT_FRAME) in error.text
    assert error_sent(host)["code"] == "frame_too_large"


def test_the_host_may_send_frames_larger_than_a_client_may() -> None:
    host = welcomed_host()
    big = View(table="t1", version=1, view={"log": ["x" * 1000] * 200}, events=[])
    host.send(big)
    data = host.data_to_send()
    assert len(data) > MAX_CLIENT_FRAME
    client = ClientProtocol()
    client.send(SAMPLES["hello"])
    client.receive_data(frame(to_wire(SAMPLES["welcome"])) + data, 0.0)
    assert client.events_received()[-1] == MessageReceived(big)


def test_sending_over_the_own_limit_raises_instead_of_breaking_the_peer() -> None:
    client = ClientProtocol()
    client.send(SAMPLES["hello"])
    with pytest.raises(SendError, match="longer than 4096"):
        client.send(Act(table="t1", action={"type": "say", "text": "x" * (MAX_CLIENT_STR + 1)}))
    with pytest.raises(SendError, match="larger"):
        client.send(
            Act(
                table="t1",
                action={f"k{n}": "x" * 4000 for n in range(MAX_CLIENT_FRAME // 4000 + 1)},
            )
        )


def nested(depth: int) -> dict[str, Any]:
    """An action message whose maps and lists nest ``depth`` levels in all."""
    inner: Any = 1
    for _ in range(depth - 2):
        inner = [inner]
    return {"type": "action", "table": "t1", "action": {"type": "deep", "x": inner}}


def test_nesting_at_the_limit_is_accepted_and_one_more_is_refused() -> None:
    host = welcomed_host()
    host.receive_data(frame(nested(MAX_CLIENT_DEPTH)), 0.0)
    assert isinstance(host.events_received()[0], MessageReceived)
    host.receive_data(frame(nested(MAX_CLIENT_DEPTH + 1)), 0.0)
    error = only_error(host)
    assert (error.code, error.close) == ("too_deep", True)


def test_nesting_beyond_msgpacks_own_stack_is_too_deep() -> None:
    host = welcomed_host()
    host.receive_data(raw_frame(b"\x91" * 5000 + b"\x01"), 0.0)
    assert only_error(host).code == "too_deep"


@pytest.mark.parametrize(
    ("make", "unit"),
    [
        (lambda n: {"type": "say", "items": list(range(n))}, "items"),
        (lambda n: {"type": "say", **{f"k{i}": i for i in range(n - 1)}}, "entries"),
        (lambda n: {"type": "say", "text": "x" * n}, "bytes"),
    ],
    ids=["list", "map", "text"],
)
def test_lengths_at_the_limit_are_accepted_and_one_more_is_refused(make: Any, unit: str) -> None:
    limit = MAX_CLIENT_STR if unit == "bytes" else MAX_CLIENT_CONTAINER
    host = welcomed_host()
    host.receive_data(frame({"type": "action", "table": "t1", "action": make(limit)}), 0.0)
    assert isinstance(host.events_received()[0], MessageReceived)
    host.receive_data(frame({"type": "action", "table": "t1", "action": make(limit + 1)}), 0.0)
    error = only_error(host)
    assert (error.code, error.close) == ("too_long", True)
    assert f"{limit + 1} {unit}" in error.text


def test_a_text_limit_counts_utf8_bytes() -> None:
    host = welcomed_host()
    cats = "\N{CAT FACE}" * (MAX_CLIENT_STR // 4 + 1)  # 4 bytes each
    host.receive_data(frame({"type": "action", "table": "t1", "action": {"t": cats}}), 0.0)
    assert only_error(host).code == "too_long"


@pytest.mark.parametrize(
    "body",
    [
        b"",  # an empty frame
        b"\xc1",  # a byte msgpack never uses
        msgpack.packb(HELLO) + b"\x00",  # bytes after the value
        msgpack.packb({"type": "ping", "id": 1})[:-1],  # cut short
        b"\x81\xa4type\xa2\xff\xfe",  # text that is not UTF-8
        msgpack.packb({"type": "action", "x": b"raw"}, use_bin_type=True),  # binary
        msgpack.packb({b"type": "ping"}, use_bin_type=True),  # binary key
        msgpack.packb({1: "ping"}),  # integer key
        b"\x81\x90\x01",  # a list as a key
        msgpack.packb({"type": "action", "x": msgpack.ExtType(5, b"\x00")}),  # ext type
        b"\x81\xa1x\xd6\xff\x00\x00\x00\x01",  # a msgpack timestamp
        b"\xdd\xff\xff\xff\xff",  # a list header claiming 4 billion items: too long
    ],
    ids=[
        "empty",
        "never-used",
        "trailing",
        "truncated",
        "bad-utf8",
        "binary",
        "binary-key",
        "int-key",
        "list-key",
        "ext",
        "timestamp",
        "huge-header",
    ],
)
def test_undecodable_frames_close_with_an_error(body: bytes) -> None:
    host = welcomed_host()
    host.receive_data(raw_frame(body), 0.0)
    error = only_error(host)
    assert error.code in ("malformed", "too_long")
    assert error.close and host.should_close
    assert error.text[0].isupper()
    assert error_sent(host)["code"] == error.code


# --------------------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("value", "code", "words"),
    [
        ([1, 2], "bad_message", "a map"),
        ({"kind": "hello"}, "bad_message", "'type'"),
        ({"type": 5}, "bad_message", "'type'"),
        ({"type": "dance"}, "unknown_type", "no message type 'dance'"),
        ({"type": "view", "table": "t"}, "unknown_type", "sent by the host"),
        ({"type": "error", "code": "x", "message": "y"}, "unknown_type", "sent by the host"),
        ({"type": "join", "role": "player"}, "bad_field", "needs the field 'table'"),
        ({"type": "join", "table": "t1", "role": "cat"}, "bad_field", "'player' or 'spectator'"),
        ({"type": "join", "table": "t1", "role": "player", "seat": 64}, "bad_field", "0 to 63"),
        ({"type": "join", "table": "t1", "role": "player", "seat": True}, "bad_field", "seat"),
        ({"type": "join", "table": "", "role": "player"}, "bad_field", "1 to 64 characters"),
        ({"type": "join", "table": "t1", "role": "player", "as": "x"}, "bad_field", "no field"),
        ({"type": "action", "table": "t1", "action": [1]}, "bad_field", "a map"),
        ({"type": "action", "table": "t1", "action": {}, "reveal": 3}, "bad_field", "together"),
        ({"type": "ping", "id": -1, "t": 0}, "bad_field", "'id'"),
        ({"type": "ping", "id": 1, "t": 1.5}, "bad_field", "'t'"),
        ({"type": "create_table", "game": "catchy", "options": 3}, "bad_field", "a map"),
    ],
)
def test_bad_messages_get_an_error_and_the_connection_stays(
    value: Any, code: str, words: str
) -> None:
    host = welcomed_host()
    host.receive_data(frame(value), 0.0)
    error = only_error(host)
    assert (error.code, error.close) == (code, False)
    assert words in error.text
    assert not host.should_close
    # The connection still works.
    host.receive_data(frame({"type": "list_tables"}), 0.0)
    assert host.events_received() == [MessageReceived(ListTables())]


def test_an_error_echoes_the_ref_and_type_of_the_refused_message() -> None:
    host = welcomed_host()
    host.receive_data(frame({"type": "join", "table": "t1", "role": "x", "ref": 41}), 0.0)
    only_error(host)
    sent = error_sent(host)
    assert (sent["code"], sent["ref"], sent["about"]) == ("bad_field", 41, "join")


def test_nil_means_absent_for_optional_fields_and_is_kept_for_nullable_ones() -> None:
    value = {"type": "join", "table": "t1", "role": "player", "seat": None, "ref": None}
    assert parse(value, Side.CLIENT) == Join(table="t1", role="player")
    joined = {"type": "joined", "table": "t1", "role": "spectator", "seat": None, "token": None}
    assert parse(joined, Side.HOST) == Joined(table="t1", role="spectator", seat=None, token=None)
    assert to_wire(Join(table="t1", role="player")) == {
        "type": "join",
        "table": "t1",
        "role": "player",
    }
    with pytest.raises(MessageError, match="needs the field 'seat'"):
        parse({"type": "joined", "table": "t1", "role": "player", "token": None}, Side.HOST)


def test_host_side_error_replies_are_valid_host_messages() -> None:
    host = welcomed_host()
    host.receive_data(frame({"type": "dance", "ref": 2}), 0.0)
    only_error(host)
    (value,) = frames_out(host.data_to_send())
    assert parse(value, Side.HOST) == Error(
        code="unknown_type", message="There is no message type 'dance'", ref=2
    )


# --------------------------------------------------------------------------- rate


def ping_frames(count: int) -> bytes:
    return b"".join(frame({"type": "ping", "id": n, "t": 0}) for n in range(count))


def test_errors_about_messages_after_hello_wait_for_the_welcome() -> None:
    host = HostProtocol()
    host.receive_data(frame(HELLO) + frame({"type": "action", "ref": 3}), 0.0)
    assert host.data_to_send() == b""  # the adapter has not answered the hello yet
    host.send(SAMPLES["welcome"])
    assert [value["type"] for value in frames_out(host.data_to_send())] == ["welcome", "error"]


def test_a_closing_host_says_why_even_without_a_welcome() -> None:
    host = HostProtocol()
    host.receive_data(frame(HELLO) + frame({"type": "action", "ref": 3}), 0.0)
    host.send_error("host_shutdown", "The host is shutting down")
    sent = [value["code"] for value in frames_out(host.data_to_send())]
    assert sent == ["host_shutdown", "bad_field"]


def test_the_burst_is_accepted_and_the_next_frame_is_rate_limited_once() -> None:
    host = welcomed_host()  # the hello took one token
    host.receive_data(ping_frames(MAX_CLIENT_BURST - 1), 0.0)
    events = host.events_received()
    assert all(isinstance(event, MessageReceived) for event in events)
    assert len(events) == MAX_CLIENT_BURST - 1
    host.receive_data(ping_frames(3), 0.0)
    error = only_error(host)  # one error for a run of refusals, not three
    assert (error.code, error.close) == ("rate_limited", False)
    assert error_sent(host)["code"] == "rate_limited"
    # A second later the bucket holds MAX_CLIENT_RATE tokens again.
    host.receive_data(ping_frames(int(MAX_CLIENT_RATE)), 1.0)
    assert len(host.events_received()) == MAX_CLIENT_RATE


def test_a_flood_closes_the_connection() -> None:
    host = HostProtocol()
    host.receive_data(frame(HELLO), 0.0)
    host.events_received()
    host.receive_data(ping_frames(MAX_CLIENT_BURST - 1 + MAX_CLIENT_FLOOD), 0.0)
    events = host.events_received()
    assert not host.should_close
    host.receive_data(ping_frames(1), 0.0)
    events += host.events_received()
    codes = [event.code for event in events if isinstance(event, ProtocolError)]
    assert codes == ["rate_limited", "flooding"]
    assert host.should_close


def test_a_token_bucket_refills_with_passed_in_time_only() -> None:
    bucket = TokenBucket(rate=2.0, burst=2)
    assert [bucket.take(10.0) for _ in range(3)] == [True, True, False]
    assert not bucket.take(10.4)  # 0.8 tokens
    assert bucket.take(10.5)  # 1.0 token
    assert not bucket.take(9.0)  # time going back gives nothing
    assert bucket.take(20.0) and bucket.take(20.0) and not bucket.take(20.0)  # capped at burst


def test_rate_limits_are_per_connection() -> None:
    first, second = HostProtocol(), HostProtocol()
    for host in (first, second):
        host.receive_data(frame(HELLO), 0.0)
        host.events_received()
    first.receive_data(ping_frames(MAX_CLIENT_BURST + 5), 0.0)
    second.receive_data(ping_frames(MAX_CLIENT_BURST - 1), 0.0)
    assert all(isinstance(event, MessageReceived) for event in second.events_received())


# --------------------------------------------------------------------------- sending


def test_send_refuses_what_this_side_may_not_send_now() -> None:
    host, client = HostProtocol(), ClientProtocol()
    with pytest.raises(SendError, match="before 'list_tables'"):
        client.send(ListTables())
    with pytest.raises(SendError, match="does not send 'view'"):
        client.send(SAMPLES["view"])
    client.send(SAMPLES["hello"])
    with pytest.raises(SendError, match="once"):
        client.send(SAMPLES["hello"])
    with pytest.raises(SendError, match="after the client's 'hello'"):
        host.send(SAMPLES["welcome"])
    with pytest.raises(SendError, match="does not send 'hello'"):
        host.send(SAMPLES["hello"])
    host.receive_data(frame(HELLO), 0.0)
    with pytest.raises(SendError, match="'welcome' first"):
        host.send(SAMPLES["view"])
    host.send(SAMPLES["welcome"])
    with pytest.raises(SendError, match="'welcome' once"):
        host.send(SAMPLES["welcome"])
    with pytest.raises(SendError, match="field 'role'"):
        host.send(Joined(table="t1", role="cat", seat=0, token="x"))  # type: ignore[arg-type]
    with pytest.raises(SendError, match="Binary data"):
        host.send(View(table="t1", version=1, view={"b": b"raw"}, events=[]))


def test_send_error_uses_the_table_of_codes() -> None:
    host = welcomed_host()
    request = Join(table="t9", role="player", ref=12)
    host.send_error("no_such_table", "There is no table 't9'", about=request)
    assert not host.should_close
    assert error_sent(host) == {
        "type": "error",
        "code": "no_such_table",
        "message": "There is no table 't9'",
        "ref": 12,
        "about": "join",
    }
    host.send_error("illegal_action", "Meow. " * 500)  # a long sentence is shortened
    sent = error_sent(host)
    assert len(sent["message"]) == MAX_ERROR_TEXT and sent["message"].endswith("...")
    with pytest.raises(SendError, match="not an error code"):
        host.send_error("oops", "No")
    host.send_error("host_shutdown", "The host is shutting down")
    assert [host.should_close] == [True]
    assert error_sent(host)["code"] == "host_shutdown"
    host.send(SAMPLES["tables"])  # after the close decision: dropped
    assert host.data_to_send() == b""


# --------------------------------------------------------------------------- client side


def hello_client() -> ClientProtocol:
    client = ClientProtocol()
    client.send(SAMPLES["hello"])
    client.data_to_send()
    return client


def test_the_client_refuses_a_first_message_other_than_welcome_without_answering() -> None:
    client = hello_client()
    client.receive_data(frame(to_wire(SAMPLES["tables"])), 0.0)
    (event,) = client.events_received()
    assert isinstance(event, ProtocolError)
    assert (event.code, event.close) == ("handshake_required", True)
    assert client.should_close
    assert client.data_to_send() == b""  # a client never sends 'error'


def test_a_closing_error_from_the_host_closes_the_client() -> None:
    client = hello_client()
    refusal = Error(code="unsupported_version", message="This host speaks protocol 1")
    client.receive_data(frame(to_wire(refusal)), 0.0)
    assert client.events_received() == [MessageReceived(refusal)]
    assert client.should_close and not client.handshake_done


def test_the_client_checks_the_hosts_version_and_a_second_welcome() -> None:
    client = hello_client()
    newer = PROTOCOL_VERSION + 1
    client.receive_data(frame(to_wire(Welcome(protocol=newer, host_name="h", games=[]))), 0.0)
    error = only_error(client)
    assert error.code == "unsupported_version" and client.should_close
    assert error.text == (
        f"This host speaks protocol {newer}; your Clowder speaks {PROTOCOL_VERSION}: "
        "update one of them"
    )
    client = hello_client()
    client.receive_data(frame(to_wire(SAMPLES["welcome"])) * 2, 0.0)
    events = client.events_received()
    assert isinstance(events[1], ProtocolError) and events[1].code == "out_of_order"
    assert not client.should_close


def test_a_client_is_not_rate_limited_by_default_but_respects_host_limits() -> None:
    client = hello_client()
    client.receive_data(frame(to_wire(SAMPLES["welcome"])), 0.0)
    pongs = b"".join(frame({"type": "pong", "id": n, "t": 0}) for n in range(1000))
    client.receive_data(pongs, 0.0)
    assert len(client.events_received()) == 1001
    client.receive_data((HOST_LIMITS.max_frame + 1).to_bytes(4, "big"), 0.0)
    assert only_error(client).code == "frame_too_large"


# --------------------------------------------------------------------------- framing unit


def test_encode_frame_writes_a_big_endian_length() -> None:
    data = encode_frame({"type": "leave", "table": "t"}, CLIENT_LIMITS)
    assert int.from_bytes(data[:4], "big") == len(data) - 4
    assert msgpack.unpackb(data[4:]) == {"type": "leave", "table": "t"}


def test_a_shaped_frame_is_the_same_frame_and_a_large_one_is_fully_checked() -> None:
    """A view's frame skips the walk only where its size rules out a text or list too long."""
    view = {"type": "view", "view": {"hand": ["R2", "B7"], "log": ["Ann led R2"] * 30}}
    assert encode_shaped_frame(view, HOST_LIMITS) == encode_frame(view, HOST_LIMITS)
    # Small bodies cannot hold a text of more than max_str bytes: both refuse nothing here,
    # and a body past the bound gets encode_frame's own check (and its errors).
    too_long = {"type": "view", "text": "x" * (HOST_LIMITS.max_str + 1)}
    with pytest.raises(FrameError) as caught:
        encode_shaped_frame(too_long, HOST_LIMITS)
    assert caught.value.code == "too_long"
    with pytest.raises(FrameError) as caught:
        encode_shaped_frame({"type": "view", "x": object()}, HOST_LIMITS)
    assert caught.value.code == "malformed"


def test_frame_errors_carry_their_code() -> None:
    with pytest.raises(FrameError) as caught:
        decode_body(b"\xc1", CLIENT_LIMITS)
    assert caught.value.code == "malformed"


# --------------------------------------------------------------------------- the written protocol


def test_every_message_field_error_code_and_limit_is_written_down() -> None:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    for name, spec in CATALOG.items():
        heading = re.search(rf"^#+ `{name}`", text, re.MULTILINE)
        assert heading is not None, f"PROTOCOL.md has no heading for message {name!r}"
        section = text[heading.end() :].split("\n#", 1)[0]
        for field_spec in spec.fields:
            assert f"`{field_spec.name}`" in section, f"{name}.{field_spec.name} is not described"
    for code, entry in ERRORS.items():
        row = re.search(rf"^\| `{code}` \| (yes|no) \|", text, re.MULTILINE)
        assert row is not None, f"PROTOCOL.md has no row for error code {code!r}"
        assert (row.group(1) == "yes") == entry.closes, f"{code}: closes differs"
    for value in (MAX_CLIENT_FRAME, MAX_CLIENT_DEPTH, MAX_CLIENT_CONTAINER, MAX_CLIENT_STR):
        assert f"{value}" in text
    for value in (HOST_LIMITS.max_frame, HOST_LIMITS.max_depth, HOST_LIMITS.max_container):
        assert f"{value}" in text


def test_a_pre_encoded_frame_is_sent_as_is_and_still_ordered() -> None:
    from net.wire.messages import PROTOCOL_VERSION, Hello, Tables, Welcome
    from net.wire.protocol import ClientProtocol, HostProtocol, SendError

    host = HostProtocol()
    message = Tables(tables=[{"id": "t1"}])
    frame = host.encode(message)
    with pytest.raises(SendError):
        host.send(message, frame)  # before the handshake, even a pre-encoded frame is refused
    client = ClientProtocol()
    client.send(Hello(protocol=PROTOCOL_VERSION, name="Ann"))
    host.receive_data(client.data_to_send(), 0.0)
    host.events_received()
    host.send(Welcome(protocol=PROTOCOL_VERSION, host_name="h", games=[]))
    host.send(message, frame)
    data = host.data_to_send()
    assert data.endswith(frame)
    client.receive_data(data, 0.0)
    received = client.events_received()
    assert all(isinstance(e, MessageReceived) for e in received), received
    assert [type(e.message).__name__ for e in received if isinstance(e, MessageReceived)] == [
        "Welcome",
        "Tables",
    ]


def test_a_field_added_to_an_encoded_frame_gives_the_frame_encoded_with_it() -> None:
    tables = [{"id": "t1", "free": 2, "seats": [{"name": None}]}]
    plain = encode_frame(to_wire(Tables(tables=tables)), HOST_LIMITS)
    with_ref = encode_frame(to_wire(Tables(tables=tables, ref=2**40)), HOST_LIMITS)
    assert with_field(plain, "ref", 2**40, HOST_LIMITS) == with_ref
    assert with_field(encode_frame([1, 2], HOST_LIMITS), "ref", 1, HOST_LIMITS) is None
