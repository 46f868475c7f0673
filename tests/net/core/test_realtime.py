"""Fair real-time play at the host: reveals, stamped claims, the arbiter's rulings.

The first tests drive :mod:`net.core.realtime` with explicit times; the rest put a
Black Cat table on a loopback host and claim over the wire. Raw test clients
never answer pings, so the arbiter grants them its full lag cap and credits
each claim with exactly the reaction it reports: the rulings below follow
from the reported figures alone, whatever the machine's speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.bots import DEFAULT_REACTION_S, RandomBot
from engine.core import Rng
from net.client.netbot import play_seat
from net.core.arbiter import NO_LAG, Arbiter, RefusalReason, Refused, SeatLag
from net.core.clock import ClockEstimate
from net.core.realtime import (
    STAMPS_NEEDED,
    UNMEASURED,
    Referee,
    Sync,
    TieSettler,
    bot_reaction_ns,
    claim_problem,
    rtt_only_sample,
)
from net.wire.messages import Act, Join, Pong
from tests.net.hosting import RawClient, open_reveal, outcome_of, running_host

pytestmark = pytest.mark.timeout(60)

MS = 1_000_000
NAMES = {0: "Ann", 1: "Bea", 2: "Cy"}


def take(reveal: int, pile: int = 0) -> dict[str, Any]:
    return {"type": "take", "pile": pile, "reveal": reveal}


# --------------------------------------------------------------------------- the referee, pure


def test_a_new_reveal_opens_and_the_end_of_the_game_closes_it() -> None:
    referee = Referee()
    assert referee.sync(1, 1000, {0: NO_LAG, 1: NO_LAG}) is Sync.OPENED
    assert referee.current_reveal == 1 and referee.sent_at_ns == 1000
    assert referee.sync(1, 5000, {0: NO_LAG, 1: NO_LAG}) is Sync.UNCHANGED
    assert referee.sent_at_ns == 1000
    assert referee.sync(2, 6000, {0: NO_LAG, 1: NO_LAG}) is Sync.OPENED
    assert referee.current_reveal == 2 and referee.sent_at_ns == 6000
    assert referee.sync(None, 7000, {0: NO_LAG}) is Sync.CLOSED
    assert referee.current_reveal is None


def test_a_returning_seat_joins_the_open_reveal_only_while_nobody_has_claimed() -> None:
    referee = Referee()
    referee.sync(4, 1000, {0: NO_LAG})
    assert not referee.takes_part(1)
    # Bea reconnects: the same reveal opens again, with the time it was first sent.
    assert referee.sync(4, 9000, {0: NO_LAG, 1: NO_LAG}) is Sync.REOPENED
    assert referee.takes_part(1) and referee.sent_at_ns == 1000
    referee.claim(0, take(4), 4, 200 * MS, 1000 + 300 * MS)
    # Cy comes back after a claim is in: the claim is kept, Cy waits for the next card.
    assert referee.sync(4, 9000, {0: NO_LAG, 1: NO_LAG, 2: NO_LAG}) is Sync.UNCHANGED
    assert not referee.takes_part(2) and referee.deadline_ns() is not None


def test_nobody_able_to_claim_leaves_no_reveal_open() -> None:
    referee = Referee()
    assert referee.sync(1, 1000, {}) is Sync.UNCHANGED
    assert referee.current_reveal is None


def decided(
    referee: Referee, *claims: tuple[int, int, int], settle: TieSettler | None = None
) -> Any:
    """Open reveal 1 at time 0 for seats 0-2 and claim (seat, reaction, arrival) in order."""
    referee.sync(1, 0, dict.fromkeys(NAMES, UNMEASURED))  # the lag cap: reactions stand
    for seat, reaction, arrived in claims:
        assert not isinstance(referee.claim(seat, take(1, seat % 2), 1, reaction, arrived), Refused)
    ruling = referee.decide(10**12, NAMES, settle)
    assert ruling is not None
    return ruling


def test_the_fastest_credited_claim_is_applied_and_every_loser_is_told_by_how_much() -> None:
    ruling = decided(
        Referee(), (0, 300 * MS, 310 * MS), (1, 250 * MS, 400 * MS), (2, 420 * MS, 430 * MS)
    )
    assert ruling.seat == 1 and ruling.action == take(1, 1)
    public, *private = ruling.events
    assert public.kind == "claim" and public.seats is None
    assert public.text.startswith("Bea got reveal #1") and "ahead of Ann" in public.text
    assert public.data["chosen"] == 1 and public.data["winners"] == [1]
    actions = {claim["seat"]: claim.get("action") for claim in public.data["claims"]}
    assert actions == {1: take(1, 1), 0: None, 2: None}  # the losers' choices stay private
    assert [(event.kind, event.seats) for event in private] == [
        ("claim_lost", (0,)),
        ("claim_lost", (2,)),
    ]
    assert private[0].text == (
        "Bea got reveal #1, 50 ms faster than you: their reaction counted as 250 ms, "
        "yours as 300 ms."
    )
    assert private[1].data == {"reveal_id": 1, "winner": 1, "behind_ns": 170 * MS, "tie": False}


def test_a_tie_goes_to_the_claim_that_arrived_first() -> None:
    # Cy's reaction is 2 ms better, within the 5 ms tie threshold; Bea's claim came first.
    ruling = decided(Referee(), (1, 202 * MS, 300 * MS), (2, 200 * MS, 350 * MS))
    assert ruling.decision.tie and set(ruling.decision.winners) == {1, 2}
    assert ruling.seat == 1
    public, lost = ruling.events
    assert "The tie goes to Bea, whose claim reached the host first" in public.text
    assert public.data["tie_rule"] == "earliest_arrival"
    assert lost.seats == (2,) and lost.data["tie"] is True
    assert "your reactions tied (2.0 ms apart" in lost.text


def test_a_game_that_settles_ties_gets_the_tied_claims_best_first() -> None:
    seen: list[tuple[int, list[tuple[int, Any]]]] = []

    def settle(reveal: int, claims: Sequence[tuple[int, Any]]) -> dict[str, Any]:
        seen.append((reveal, list(claims)))
        return {"type": "tie", "reveal": reveal, "seats": [seat for seat, _ in claims]}

    ruling = decided(
        Referee(),
        (1, 202 * MS, 300 * MS),
        (2, 200 * MS, 350 * MS),
        (0, 400 * MS, 410 * MS),
        settle=settle,
    )
    assert seen == [(1, [(2, take(1, 0)), (1, take(1, 1))])]  # Cy's reaction was better
    assert ruling.seat == 2 and ruling.action == {"type": "tie", "reveal": 1, "seats": [2, 1]}
    public, *lost = ruling.events
    assert public.data["tie_rule"] == "game" and "the game's rules settle it" in public.text
    assert "The tie goes to" not in public.text
    tied = next(event for event in lost if event.seats == (1,))
    assert "You tied for reveal #1" in tied.text and "the game's rules settle it" in tied.text
    slower = next(event for event in lost if event.seats == (0,))
    assert slower.text.startswith("Cy got reveal #1")


def test_a_game_that_leaves_a_tie_to_the_host_keeps_the_first_arrival_rule() -> None:
    ruling = decided(
        Referee(), (1, 202 * MS, 300 * MS), (2, 200 * MS, 350 * MS), settle=lambda r, c: None
    )
    assert ruling.seat == 1 and ruling.events[0].data["tie_rule"] == "earliest_arrival"


def test_a_late_claim_learns_who_got_the_card_and_by_how_much() -> None:
    referee = Referee()
    decided(referee, (0, 250 * MS, 300 * MS))
    refused = referee.claim(1, take(1), 1, 330 * MS, 10**12 + 1)
    assert isinstance(refused, Refused) and refused.reason is RefusalReason.TOO_LATE
    text = referee.refusal_text(refused, NAMES)
    assert text == (
        "Too late: reveal #1 was already decided. Ann got it with a reaction that counted "
        "as 250 ms; you reported 330 ms, 80 ms slower."
    )


def test_a_claim_whose_action_names_another_reveal_is_a_problem() -> None:
    assert claim_problem(take(3), 3) is None
    assert claim_problem({"type": "call"}, 3) is None
    problem = claim_problem(take(2), 3)
    assert problem is not None and "reveal 2" in problem and "#3" in problem


def test_pongs_without_a_client_clock_still_measure_the_round_trip() -> None:
    clock = ClockEstimate()
    for index, rtt in enumerate((40 * MS, 30 * MS, 30 * MS, 30 * MS, 30 * MS)):
        sent = index * 200 * MS
        assert clock.add_sample(*rtt_only_sample(sent, sent + rtt)).accepted
    assert clock.ready and clock.rtt_ns == 30 * MS and clock.jitter_ns == 10 * MS


async def test_pongs_with_the_client_clock_give_the_host_its_offset(tmp_path: Path) -> None:
    """A client whose monotonic clock runs 5 s ahead: the host's estimate finds the 5 s."""
    ahead_ns = 5_000_000_000
    async with running_host(tmp_path) as host:
        raw = await RawClient.connect(host.port, "Ann")
        (connection,) = host.connections
        for _ in range(40):
            ping = await raw.expect("ping")
            raw.send(Pong(id=ping["id"], t=ping["t"], at=time.monotonic_ns() + ahead_ns))
            for _wait in range(50):  # the host reads the pong (once ready, it pings Ann, at no
                await asyncio.sleep(0.01)  # table, only every 5 s: the loop must not wait for it)
                if connection.clock.ready:
                    break
            if connection.clock.ready:
                break
        offset = connection.clock.offset_ns
        rtt = connection.clock.rtt_ns
        assert offset is not None and rtt is not None
        assert abs(offset - ahead_ns) <= rtt // 2 + MS
        await raw.close()


class SlowBot(RandomBot):
    def __init__(self, reaction_s: float = 0.5) -> None:
        super().__init__(Rng.from_seed(0))
        self.reaction_s = reaction_s


def test_bot_reactions_follow_the_bot_and_never_drop_below_the_human_bound() -> None:
    assert bot_reaction_ns(SlowBot(), 1.0, 80 * MS) == 500 * MS
    assert bot_reaction_ns(SlowBot(), 0.1, 80 * MS) == 90 * MS


def test_a_bot_reaction_that_makes_no_sense_gets_the_default() -> None:
    default = round(DEFAULT_REACTION_S * 1e9)
    for nonsense in (-1.0, float("nan"), float("inf"), 1e9):
        assert bot_reaction_ns(SlowBot(nonsense), 1.0, 80 * MS) == default


def test_the_referee_uses_the_arbiter_it_is_given() -> None:
    referee = Referee(Arbiter(min_reaction_ns=150 * MS))
    referee.sync(1, 0, {0: SeatLag(rtt_ns=None)})
    refused = referee.claim(0, take(1), 1, 120 * MS, 500 * MS)
    assert isinstance(refused, Refused) and refused.reason is RefusalReason.TOO_FAST


# --------------------------------------------------------------------------- over the wire


async def reveal_view(client: RawClient) -> dict[str, Any]:
    """The next view that reveals a real-time moment."""
    while True:
        message = await client.expect("view")
        if open_reveal(message) is not None:
            return message


async def seated(port: int, table: str) -> tuple[RawClient, RawClient, int]:
    """Ann at seat 0 and Bea at seat 1 of a Black Cat table; the first reveal's id."""
    ann = await RawClient.connect(port, "Ann")
    bea = await RawClient.connect(port, "Bea")
    ann.send(Join(table=table, role="player", seat=0))
    await ann.expect("joined")
    bea.send(Join(table=table, role="player", seat=1))
    await bea.expect("joined")
    first = await reveal_view(ann)
    assert open_reveal(await reveal_view(bea)) == open_reveal(first) == first["view"]["reveal"]
    return ann, bea, first["view"]["reveal"]


def claim(table: str, reveal: int, reaction_ms: float, pile: int = 0) -> Act:
    drawn = time.monotonic_ns()
    return Act(
        table=table,
        action=take(reveal, pile),
        reveal=reveal,
        drawn_ns=drawn,
        acted_ns=drawn + round(reaction_ms * MS),
    )


async def until(condition: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the host did not get there"
        await asyncio.sleep(0.002)


async def contest(
    host: Any, table: str, first: tuple[RawClient, float], second: tuple[RawClient, float]
) -> int:
    """Two claims on the open reveal, ``first`` surely reaching the host first."""
    referee = host.runners[table].referee
    reveal = referee.current_reveal
    await asyncio.sleep(0.25)  # longer than either reaction: honest stamps are plausible
    first[0].send(claim(table, reveal, first[1]))
    await until(lambda: referee.deadline_ns() is not None)
    second[0].send(claim(table, reveal, second[1]))
    return int(reveal)


def events_of(view: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [event for event in view["events"] if event["kind"] == kind]


async def test_the_shorter_reaction_wins_even_when_its_claim_arrives_second(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("blackcat").table.id
        ann, bea, _ = await seated(host.port, table)
        reveal = await contest(host, table, (ann, 200), (bea, 120))
        ann_view, bea_view = await reveal_view(ann), await reveal_view(bea)
        assert open_reveal(ann_view) == reveal + 1
        assert bea_view["view"]["last"]["seat"] == 1 and bea_view["view"]["piles"][1][0]["cards"]
        [ruling] = events_of(bea_view, "claim")
        assert events_of(ann_view, "claim") == [ruling]
        assert ruling["data"]["chosen"] == 1 and ruling["data"]["winners"] == [1]
        arrivals = {c["seat"]: c["arrived_ns"] for c in ruling["data"]["claims"]}
        assert arrivals[0] < arrivals[1]  # Ann's claim came first, and lost
        assert ruling["text"].startswith(f"Bea got reveal #{reveal} with a reaction")
        assert "80 ms ahead of Ann (200 ms)" in ruling["text"]
        [lost] = events_of(ann_view, "claim_lost")
        assert lost["text"].startswith(f"Bea got reveal #{reveal}, 80 ms faster than you")
        assert events_of(bea_view, "claim_lost") == []
        # The game's own events follow the ruling in the same view.
        kinds = [event["kind"] for event in bea_view["events"]]
        assert kinds.index("claim") < kinds.index("take") < kinds.index("reveal")
        for client in (ann, bea):
            await client.close()


async def test_a_tie_goes_to_the_first_arrival_and_both_hear_why(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("blackcat").table.id
        ann, bea, _ = await seated(host.port, table)
        await contest(host, table, (ann, 152), (bea, 150))
        ann_view, bea_view = await reveal_view(ann), await reveal_view(bea)
        [ruling] = events_of(ann_view, "claim")
        assert ruling["data"]["tie"] is True and sorted(ruling["data"]["winners"]) == [0, 1]
        assert ruling["data"]["chosen"] == 0 and ann_view["view"]["last"]["seat"] == 0
        assert "tied for reveal" in ruling["text"] and "The tie goes to Ann" in ruling["text"]
        [lost] = events_of(bea_view, "claim_lost")
        assert "your reactions tied" in lost["text"] and lost["data"]["tie"] is True
        for client in (ann, bea):
            await client.close()


async def test_stale_forged_and_unstamped_claims_are_refused(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        # stall=0: the end is called at once below (the stall rule: test_blackcat_stall.py).
        table = host.create_table("blackcat", {"stall": 0}).table.id
        ann, bea, _ = await seated(host.port, table)
        runner = host.runners[table]
        old = await contest(host, table, (ann, 200), (bea, 120))
        await reveal_view(ann)
        version = runner.table.version

        async def refused(message: Act | dict[str, Any]) -> str:
            ann.send(message)
            error = await ann.expect("error")
            assert error["code"] == "claim_refused" and error["about"] == "action"
            return str(error["message"])

        late = await refused(claim(table, old, 150))
        assert late.startswith(f"Too late: reveal #{old} was already decided. Bea got it")
        assert "you reported 150 ms, 30 ms slower" in late
        assert "is not in play" in await refused(claim(table, old + 50, 150))
        await asyncio.sleep(0.1)
        assert "faster than a person can react" in await refused(claim(table, old + 1, 20))
        mismatch = claim(table, old + 1, 90)
        mismatch = Act(
            table=table,
            action=take(old),
            reveal=old + 1,
            drawn_ns=mismatch.drawn_ns,
            acted_ns=mismatch.acted_ns,
        )
        assert "send the same id in both" in await refused(mismatch)
        assert await refused(Act(table=table, action=take(old + 1))) == STAMPS_NEEDED
        # A claim the rules refuse is refused as such, and not counted.
        ann.send(claim(table, old + 1, 90, pile=5))
        assert (await ann.expect("error"))["code"] == "invalid_action"
        assert runner.referee.deadline_ns() is None and runner.table.version == version
        # Calling the end carries no reveal: it applies at once.
        ann.send(Act(table=table, action={"type": "call"}))
        while outcome_of(over := await ann.expect("view")) is None:
            pass
        assert open_reveal(over) is None and over["view"]["called_by"] == 0
        assert runner.referee.current_reveal is None
        for client in (ann, bea):
            await client.close()


async def test_stamps_at_a_turn_based_table_are_ignored(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        runner = host.create_table("catchy", bots=1)
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=runner.table.id, role="player"))
        await ann.expect("joined")
        view = await ann.expect("view")
        while not (view["view"] or {}).get("legal"):
            assert open_reveal(view) is None
            view = await ann.expect("view")
        assert not runner.realtime
        action = view["view"]["legal"][0]
        ann.send(Act(table=runner.table.id, action=action, reveal=1, drawn_ns=1, acted_ns=2))
        assert (await ann.expect("view"))["version"] > view["version"]
        await ann.close()


async def test_a_network_bot_claims_with_its_own_reaction_time(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("blackcat").table.id
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=table, role="player", seat=0))
        await ann.expect("joined")
        bot = asyncio.create_task(play_seat("127.0.0.1", host.port, table, "NetBot", log=print))
        try:
            while not (rulings := events_of(await ann.expect("view"), "claim")):
                pass
            [ruling] = rulings
            assert ruling["data"]["chosen"] == 1
            [figures] = ruling["data"]["claims"]
            # The bot's brain draws human-like reactions (at least 0.2 s) and reports them.
            assert figures["reported_ns"] >= 200 * MS
            assert figures["reported_ns"] <= figures["since_reveal_ns"]
        finally:
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
            await ann.close()


async def test_a_slowed_network_bot_reports_reactions_scaled_up(tmp_path: Path) -> None:
    """``reaction_scale=5``: the brain's fastest reaction (0.2 s) becomes at least 1 s."""
    async with running_host(tmp_path) as host:
        table = host.create_table("blackcat").table.id
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=table, role="player", seat=0))
        await ann.expect("joined")
        bot = asyncio.create_task(
            play_seat("127.0.0.1", host.port, table, "NetBot", reaction_scale=5.0, log=print)
        )
        try:
            while not (rulings := events_of(await ann.expect("view", timeout=20), "claim")):
                pass
            [figures] = rulings[0]["data"]["claims"]
            assert figures["reported_ns"] >= 1000 * MS
        finally:
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
            await ann.close()
