"""Typed answers through a real host: typing notices (``Typed answers`` in PROTOCOL.md).

Two raw clients sit at a Katootsie! table, each behind a latency-injecting
proxy, and answer the same letter on a script: when each "starts typing"
(its ``acted_ns``) and when each presses Enter are fixed offsets from the
letter reaching it. Only generous bounds on time are asserted: who won, and
that a notice without an answer does not hold the table beyond its bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import pytest

from engine.games.katootsie import answers
from engine.games.katootsie import rules as katootsie
from net.core.arbiter import NO_LAG, Accepted, Arbiter, RefusalReason
from net.core.realtime import Referee
from net.core.typed import MAX_TYPING_NS
from net.wire.messages import Act, Join, Pong, Typing
from tests.net.hosting import RawClient, open_reveal, running_host
from tests.net.latency_proxy import Delay, LatencyProxy

MS = 1_000_000
FRUITS = next(c.code for c in answers.categories() if c.title == "Fruits")
OPTIONS = {"deck": ["B", "S", "B", "S"], "categories": [FRUITS], "tie_ms": 20}


@pytest.fixture(autouse=True)
def short_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four letters (B, S, B, S) and a short pause before the first letter."""
    monkeypatch.setattr(katootsie, "FULL_LETTERS", ("B", "B", "S", "S"))
    monkeypatch.setattr(katootsie, "CATEGORY_PAUSE_S", 0.2)


class Player:
    """A raw client that answers pings (so the host measures it) and queues everything else."""

    def __init__(self, client: RawClient) -> None:
        self.client = client
        self.inbox: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while True:
                message = await self.client.next(timeout=60)
                if message["type"] == "ping":
                    at = time.monotonic_ns()
                    self.client.send(Pong(id=message["id"], t=message["t"], at=at))
                    continue
                await self.inbox.put((time.monotonic_ns(), message))

    async def expect(self, kind: str, timeout: float = 10.0) -> tuple[int, dict[str, Any]]:
        """The next message of type ``kind`` and when it arrived here (monotonic ns)."""
        while True:
            arrived, message = await asyncio.wait_for(self.inbox.get(), timeout)
            if message["type"] == kind:
                return arrived, message

    async def letter(self) -> tuple[int, int]:
        """Wait for the letter: its reveal id and when it was 'drawn' here."""
        while True:
            arrived, message = await self.expect("view")
            reveal = open_reveal(message)
            if reveal is not None and message["view"].get("letter"):
                return reveal, arrived

    async def claim_event(self, timeout: float = 15.0) -> dict[str, Any]:
        """The data of the next ``claim`` event (the arbiter's decision)."""
        while True:
            _, message = await self.expect("view", timeout)
            for event in message["events"]:
                if event["kind"] == "claim":
                    return dict(event["data"])

    async def close(self) -> None:
        self.task.cancel()
        await self.client.close()


@contextlib.asynccontextmanager
async def katootsie_table(tmp_path: Path, **host_options: Any) -> Any:
    """A host, a Katootsie! table, Ann (seat 0) and Bea (seat 1), each behind a 30 ms proxy."""
    async with running_host(tmp_path, allow_fixed_deck=True, **host_options) as host:
        table = host.create_table("katootsie", dict(OPTIONS)).table.id
        lag = Delay(0.03, 0.005)
        async with (
            LatencyProxy("127.0.0.1", host.port, upstream=lag, downstream=lag, seed=1) as one,
            LatencyProxy("127.0.0.1", host.port, upstream=lag, downstream=lag, seed=2) as two,
        ):
            ann = Player(await RawClient.connect(one.port, "Ann"))
            bea = Player(await RawClient.connect(two.port, "Bea"))
            try:
                for seat, player in enumerate((ann, bea)):
                    player.client.send(Join(table=table, role="player", seat=seat))
                    await player.expect("joined")
                yield host, table, ann, bea
            finally:
                await ann.close()
                await bea.close()


async def answer(
    player: Player,
    table: str,
    reveal: int,
    drawn: int,
    text: str,
    *,
    starts_ms: int,
    enter_ms: int,
    notice: bool,
) -> None:
    """Type ``text``: typing starts at ``starts_ms`` after the letter, Enter at ``enter_ms``."""
    acted = drawn + starts_ms * MS
    await asyncio.sleep(max(0.0, (acted - time.monotonic_ns()) / 1e9))
    if notice:
        player.client.send(Typing(table=table, reveal=reveal, drawn_ns=drawn, acted_ns=acted))
    await asyncio.sleep(max(0.0, (drawn + enter_ms * MS - time.monotonic_ns()) / 1e9))
    action = {"type": "answer", "text": text, "reveal": reveal}
    player.client.send(
        Act(table=table, action=action, reveal=reveal, drawn_ns=drawn, acted_ns=acted)
    )


async def race(
    table: str, ann: Player, bea: Player, *, ann_notice: bool, bea_notice: bool
) -> dict[str, Any]:
    """Ann finds her answer first (300 ms) but types a long one (Enter at 1.4 s); Bea finds hers
    at 500 ms and types a short one (Enter at 600 ms). The decision's figures."""
    (reveal, ann_drawn), (bea_reveal, bea_drawn) = await asyncio.gather(ann.letter(), bea.letter())
    assert reveal == bea_reveal
    await asyncio.gather(
        answer(
            ann,
            table,
            reveal,
            ann_drawn,
            "Black currant",
            starts_ms=300,
            enter_ms=1400,
            notice=ann_notice,
        ),
        answer(
            bea, table, reveal, bea_drawn, "Bosc", starts_ms=500, enter_ms=600, notice=bea_notice
        ),
    )
    return await ann.claim_event()


async def test_the_faster_thinker_with_the_longer_answer_wins(tmp_path: Path) -> None:
    async with katootsie_table(tmp_path) as (_host, table, ann, bea):
        decision = await race(table, ann, bea, ann_notice=True, bea_notice=True)
        assert decision["chosen"] == 0 and decision["winners"] == [0]
        figures = {claim["seat"]: claim for claim in decision["claims"]}
        assert figures[0]["noticed_ns"] is not None  # checked against the notice's arrival
        assert figures[0]["noticed_ns"] < figures[0]["arrived_ns"]
        assert figures[0]["credited_ns"] == figures[0]["reported_ns"] == 300 * MS
        assert figures[1]["credited_ns"] == 500 * MS


async def test_a_client_without_notices_is_judged_by_its_answers_arrival(tmp_path: Path) -> None:
    async with katootsie_table(tmp_path) as (_host, table, ann, bea):
        decision = await race(table, ann, bea, ann_notice=False, bea_notice=False)
        # Ann's answer arrived a whole second after she started typing: today's rule.
        assert decision["chosen"] == 1
        assert all("noticed_ns" not in claim for claim in decision["claims"])
        late = decision["claims"][1:] or []
        for claim in late:  # if Ann's answer made it in time, its typing counted against it
            assert claim["credited_ns"] > 500 * MS


async def test_a_notice_without_an_answer_holds_the_table_only_up_to_its_bound(
    tmp_path: Path,
) -> None:
    async with katootsie_table(tmp_path) as (host, table, ann, bea):
        runner = host.runners[table]
        runner.referee.watch.max_typing_ns = 1_000 * MS  # the 10 s bound, shortened for the test
        (reveal, ann_drawn), (_, bea_drawn) = await asyncio.gather(ann.letter(), bea.letter())
        await asyncio.sleep(0.3)  # Ann starts typing 300 ms after the letter, and never ends
        ann.client.send(
            Typing(table=table, reveal=reveal, drawn_ns=ann_drawn, acted_ns=ann_drawn + 300 * MS)
        )
        await answer(
            bea, table, reveal, bea_drawn, "Bosc", starts_ms=500, enter_ms=600, notice=False
        )
        decision = await bea.claim_event(timeout=10)
        assert decision["chosen"] == 1 and [c["seat"] for c in decision["claims"]] == [1]
        waited_ns = decision["decided_ns"] - decision["first_arrival_ns"]
        # It waited for Ann (whose notice could still win), but not beyond the bound.
        assert 500 * MS <= waited_ns <= 3_000 * MS


async def test_forged_and_misplaced_notices_are_refused(tmp_path: Path) -> None:
    async with katootsie_table(tmp_path) as (host, table, ann, _bea):
        runner = host.runners[table]
        reveal, drawn = await ann.letter()
        await asyncio.sleep(0.3)

        async def refused(notice: Typing) -> dict[str, Any]:
            ann.client.send(notice)
            _, error = await ann.expect("error")
            assert error["about"] == "typing"
            return dict(error)

        before = time.monotonic_ns()
        error = await refused(
            Typing(table=table, reveal=reveal, drawn_ns=drawn, acted_ns=drawn - 1)
        )
        assert error["code"] == "claim_refused" and "negative" in error["message"]
        error = await refused(
            Typing(table=table, reveal=reveal + 5, drawn_ns=drawn, acted_ns=drawn + 200 * MS)
        )
        assert error["code"] == "claim_refused" and "not in play" in error["message"]
        error = await refused(
            Typing(table=table, reveal=reveal, drawn_ns=drawn, acted_ns=drawn + 20 * MS)
        )
        assert error["code"] == "claim_refused" and "faster than a person" in error["message"]
        future = time.monotonic_ns() - before + 5_000 * MS  # longer than since the reveal
        error = await refused(
            Typing(table=table, reveal=reveal, drawn_ns=drawn, acted_ns=drawn + future)
        )
        assert error["code"] == "claim_refused" and "longer than" in error["message"]
        error = await refused(Typing(table="t-none", reveal=reveal, drawn_ns=drawn, acted_ns=drawn))
        assert error["code"] == "no_such_table"
        assert runner.referee.notices == {}  # nothing was kept
        # A game without typed answers takes no notices (Black Cat's grabs are key presses).
        cats = host.create_table("blackcat", bots=1).table.id
        cy = await RawClient.connect(host.port, "Cy")
        cy.send(Join(table=cats, role="player"))
        await cy.expect("joined")
        while host.runners[cats].table.state is None:
            await cy.expect("view")
        cy.send(Typing(table=cats, reveal=1, drawn_ns=1, acted_ns=200 * MS))
        error = await cy.expect("error")
        assert error["code"] == "invalid_action" and "no typing notices" in error["message"]
        await cy.close()


# --------------------------------------------------------------------------- the host's rules, pure


def referee() -> Referee:
    """A Katootsie-like referee: answers are typed claims; seats 0 and 1 with no lag."""
    ref = Referee(Arbiter(), frozenset({"answer"}))
    ref.sync(1, 0, {0: NO_LAG, 1: NO_LAG})
    return ref


ANSWER = {"type": "answer", "text": "Banana", "reveal": 1}


def test_an_answer_with_its_notices_stamps_is_credited_against_the_notice() -> None:
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=5_000, acted_ns=5_000 + 300 * MS, arrived_ns=310 * MS) is None
    stamps = (5_000, 5_000 + 300 * MS)
    accepted = ref.claim(0, ANSWER, 1, 300 * MS, 1_500 * MS, stamps)
    assert isinstance(accepted, Accepted)
    assert accepted.claim.noticed_ns == 310 * MS and accepted.claim.credited_ns == 300 * MS
    assert "its typing notice arrived 310 ms after" in _explained(ref, 0)


def _explained(ref: Referee, seat: int) -> str:
    ref.claim(1 - seat, {"type": "answer", "text": "Bosc", "reveal": 1}, 1, 900 * MS, 2_000 * MS)
    ruling = ref.decide(10_000 * MS, {0: "Ann", 1: "Bea"})
    assert ruling is not None
    return ruling.events[0].text


def test_an_answer_with_other_stamps_or_a_key_press_is_judged_by_its_own_arrival() -> None:
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=0, acted_ns=300 * MS, arrived_ns=310 * MS) is None
    other = ref.claim(0, ANSWER, 1, 400 * MS, 1_500 * MS, (0, 400 * MS))  # typing restarted
    assert isinstance(other, Accepted)
    assert other.claim.noticed_ns is None
    assert other.claim.credited_ns == 1_470 * MS  # its arrival, less the 30 ms to draw
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=0, acted_ns=300 * MS, arrived_ns=310 * MS) is None
    call = ref.claim(0, {"type": "katootsie", "reveal": 1}, 1, 300 * MS, 1_500 * MS, (0, 300 * MS))
    assert isinstance(call, Accepted) and call.claim.noticed_ns is None


def test_the_decision_waits_for_a_typist_who_could_win_but_not_beyond_the_bound() -> None:
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=0, acted_ns=300 * MS, arrived_ns=300 * MS) is None
    bea = ref.claim(1, ANSWER, 1, 500 * MS, 600 * MS, (0, 500 * MS))
    assert isinstance(bea, Accepted)
    deadline = ref.deadline_ns()
    assert deadline == 300 * MS + MAX_TYPING_NS  # Ann (300 ms) could still win
    assert ref.decide(deadline - 1, {}) is None
    ruling = ref.decide(deadline, {})
    assert ruling is not None and ruling.seat == 1  # she never answered


def test_a_typist_who_cannot_win_holds_nothing_and_an_answer_ends_the_wait() -> None:
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=0, acted_ns=900 * MS, arrived_ns=900 * MS) is None
    assert isinstance(ref.claim(1, ANSWER, 1, 500 * MS, 600 * MS, (0, 500 * MS)), Accepted)
    deadline = ref.deadline_ns()
    assert deadline is not None and deadline < 1_000 * MS  # 900 ms cannot beat 500 ms
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=0, acted_ns=300 * MS, arrived_ns=300 * MS) is None
    assert isinstance(ref.claim(1, ANSWER, 1, 500 * MS, 600 * MS, (0, 500 * MS)), Accepted)
    assert isinstance(ref.claim(0, ANSWER, 1, 300 * MS, 1_400 * MS, (0, 300 * MS)), Accepted)
    assert ref.deadline_ns() == 1_400 * MS  # everyone is in: decide at once
    ruling = ref.decide(1_400 * MS, {})
    assert ruling is not None and ruling.seat == 0


def test_a_new_reveal_forgets_the_notices_of_the_last() -> None:
    ref = referee()
    assert ref.notice(0, 1, drawn_ns=0, acted_ns=300 * MS, arrived_ns=300 * MS) is None
    ref.sync(2, 2_000 * MS, {0: NO_LAG, 1: NO_LAG})
    assert ref.notices == {} and ref.watch.typing == {}
    refused = ref.notice(0, 1, drawn_ns=0, acted_ns=300 * MS, arrived_ns=2_100 * MS)
    assert refused is not None and refused.reason is RefusalReason.NOT_CURRENT
