"""The simulated network keeps TCP's promises: order within a link, bytes intact, and
resets, finishes and black holes behave as the world relies on."""

from __future__ import annotations

import random

from tests.sim.clock import ClockError, EventQueue
from tests.sim.network import Chunk, Link, LinkProfile, LinkState


def deliver_all(link: Link[str], chunks: list[Chunk]) -> tuple[bytes, list[str], list[int]]:
    """Deliver ``chunks`` in arrival order (ties in sending order), as the event queue does."""
    data = bytearray()
    tags: list[str] = []
    times: list[int] = []
    for chunk in sorted(chunks, key=lambda c: c.at_ns):  # sorted() is stable: ties keep order
        done = link.deliver(chunk)
        assert done is not None, "a chunk of an open link was lost"
        data += chunk.data
        tags += done
        times.append(chunk.at_ns)
    return bytes(data), tags, times


def test_a_link_never_reorders_whatever_the_jitter() -> None:
    for seed in range(50):
        rng = random.Random(seed)
        link: Link[str] = Link("a>b", LinkProfile(rng.randint(0, 300_000_000), 80_000_000), rng)
        sent = bytearray()
        chunks: list[Chunk] = []
        now = 0
        for frame in range(40):
            data = bytes([frame % 256]) * rng.randint(1, 30)
            sent += data
            chunks += link.send(now, data, [(len(data), f"f{frame}")])
            now += rng.randint(0, 5_000_000)
        times = [chunk.at_ns for chunk in chunks]
        assert times == sorted(times), "a later chunk is due before an earlier one"
        data, tags, _ = deliver_all(link, chunks)
        assert data == bytes(sent)
        assert tags == [f"f{frame}" for frame in range(40)]
        assert link.idle


def test_tags_complete_only_when_their_last_byte_arrives() -> None:
    rng = random.Random(7)
    link: Link[str] = Link("a>b", LinkProfile(1_000, 0), rng)
    for _ in range(200):  # until a send is split
        chunks = link.send(0, b"0123456789", [(4, "first"), (10, "second")])
        if len(chunks) > 1:
            break
        assert link.deliver(chunks[0]) == ["first", "second"]
    else:
        raise AssertionError("no send was ever split into chunks")
    seen: list[str] = []
    delivered = 0
    for chunk in chunks:
        done = link.deliver(chunk)
        assert done is not None
        delivered += len(chunk.data)
        seen += done
        assert ("first" in seen) == (delivered >= 4)
        assert ("second" in seen) == (delivered >= 10)


def test_pending_counts_frames_not_yet_delivered() -> None:
    link: Link[str] = Link("h>c", LinkProfile(5_000_000, 0), random.Random(1))
    chunks = link.send(0, b"aaaa", [(2, "view"), (4, "ping")])
    assert link.pending(lambda tag: tag == "view") == 1
    deliver_all(link, chunks)
    assert link.pending(lambda tag: True) == 0


def test_reset_loses_pending_bytes_and_ends_the_stream_after_the_delay() -> None:
    link: Link[str] = Link("a>b", LinkProfile(10_000_000, 0), random.Random(2))
    chunks = link.send(0, b"hello", [(5, "hello")])
    eof = link.reset(1_000)
    assert eof is not None and eof.eof and eof.at_ns == 1_000 + 10_000_000
    assert all(link.deliver(chunk) is None for chunk in chunks), "bytes survived a reset"
    assert link.deliver(eof) == []
    assert link.state is LinkState.RESET
    assert link.send(2_000, b"late") == [], "a reset link still carries bytes"


def test_finish_delivers_what_was_sent_then_the_end() -> None:
    link: Link[str] = Link("a>b", LinkProfile(3_000_000, 2_000_000), random.Random(3))
    chunks = link.send(0, b"bye", [(3, "bye")])
    eof = link.finish(0)
    assert eof is not None and eof.at_ns >= max(chunk.at_ns for chunk in chunks)
    data, tags, _ = deliver_all(link, chunks)
    assert (data, tags) == (b"bye", ["bye"])
    assert link.deliver(eof) == []
    assert link.send(1, b"more") == []


def test_a_black_hole_delivers_nothing_ever() -> None:
    link: Link[str] = Link("a>b", LinkProfile(1_000_000, 0), random.Random(4))
    chunks = link.send(0, b"lost", [(4, "lost")])
    link.blackhole()
    assert all(link.deliver(chunk) is None for chunk in chunks)
    assert link.send(5, b"more") == []
    assert link.finish(5) is None and link.reset(5) is None
    assert link.idle


def test_the_opening_comes_before_any_byte() -> None:
    link: Link[str] = Link("c>h", LinkProfile(2_000_000, 1_000_000), random.Random(5))
    syn = link.open(0)
    chunks = link.send(0, b"hello", [(5, "hello")])
    assert all(chunk.at_ns >= syn.at_ns for chunk in chunks)
    assert link.deliver(chunks[0]) is None, "a byte overtook the connection's opening"
    assert link.deliver(syn) == []


def test_link_profiles_stay_within_0_to_300_ms() -> None:
    rng = random.Random(6)
    profiles = [LinkProfile.draw(rng) for _ in range(2000)]
    assert all(0 <= p.delay_ns <= 300_000_000 for p in profiles)
    assert all(0 <= p.jitter_ns <= 0.3 * p.delay_ns + 5_000_000 for p in profiles)
    assert any(p.delay_ns > 100_000_000 for p in profiles)
    assert any(p.delay_ns < 1_000_000 for p in profiles)


def test_the_event_queue_is_ordered_by_time_then_by_insertion() -> None:
    queue: EventQueue[str] = EventQueue(100)
    queue.at(300, "c")
    queue.at(200, "a")
    queue.at(200, "b")
    queue.after(0, "now")
    assert [queue.pop() for _ in range(4)] == ["now", "a", "b", "c"]
    assert queue.now_ns == 300 and queue.pop() is None
    try:
        queue.at(299, "past")
    except ClockError:
        pass
    else:
        raise AssertionError("an event in the past was accepted")
