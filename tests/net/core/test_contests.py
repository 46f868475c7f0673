"""The table's contested moments (``view.contests``), counted by the host over the whole game.

Issue 36, item 11: Black Cat's "N cards contested" counted only the rulings the client's
own session saw, so a player who came back in a new SSH session (or joined late) read a
wrong count. The host keeps the tally (:mod:`net.core.contests`) from its journaled rulings,
rebuilds it when it resumes a table, and sends it with a finished game's views.
"""

from __future__ import annotations

import random
from typing import Any

from net.core.contests import Contests, contest_of
from net.core.host import HostCore
from net.core.store import MemoryStore
from net.wire.messages import Join
from tests.net.core_driver import SECOND, CoreClient, CoreDriver

MS = 1_000_000


def claim_event(reveal: int, chosen: int, *credited: tuple[Any, Any], tie: bool = False) -> Any:
    """A public ``claim`` event as journaled: ``credited`` is (seat, credited_ns), best first."""
    claims = [{"seat": seat, "credited_ns": ns} for seat, ns in credited]
    data = {"reveal_id": reveal, "chosen": chosen, "claims": claims, "tie": tie}
    return {"kind": "claim", "text": "...", "data": data}


def test_a_moment_two_seats_claimed_counts_with_the_gap_to_the_nearest_other_claim() -> None:
    contests = Contests()
    contests.add([claim_event(1, 0, (0, 300 * MS))])  # one claimant: not contested
    contests.add([claim_event(2, 1, (1, 250 * MS), (0, 290 * MS), (2, 400 * MS))])
    contests.add([claim_event(3, 2, (0, 500 * MS), (2, 502 * MS), tie=True)])  # the later one
    contests.add([{"kind": "take", "data": {}}, "junk", {"kind": "claim", "data": None}])
    assert contests.to_data() == {"contested": 2, "closest_ns": 2 * MS, "tie": True}
    contests.add([claim_event(3, 0, (0, 500 * MS), (2, 530 * MS))])  # ruled again: once
    assert contests.to_data() == {"contested": 2, "closest_ns": 30 * MS, "tie": False}
    assert Contests().to_data() == {"contested": 0, "closest_ns": None, "tie": False}
    assert contest_of({"reveal_id": 4, "chosen": 0, "claims": "many"}) is None
    contests.add(None)  # a journal's damaged record is skipped
    assert contests.count == 2


def test_a_damaged_ruling_is_skipped_and_what_was_counted_stands() -> None:
    contests = Contests()
    contests.add([claim_event(1, 0, (0, 300 * MS), (1, 310 * MS))])
    damaged = [
        "events",
        {"kind": "claim"},
        {"kind": "claim", "data": {"reveal_id": 1, "chosen": 0}},  # no claims
        {"kind": "claim", "data": {"reveal_id": 1, "chosen": "0", "claims": []}},
        claim_event(1, 0, (0, 300 * MS), (True, 305 * MS)),  # a seat that is not a number
        claim_event(1, 0, (0, 300 * MS), (1, 1.5)),  # a reaction that is not whole ns
        claim_event(1, 2, (0, 300 * MS), (1, 310 * MS)),  # the chosen claim is not among them
        {**claim_event(1, 0, (0, 300 * MS)), "data": {"reveal_id": True, "chosen": 0}},
        {**claim_event(1, 0, (0, 300 * MS)), "data": [1, 0]},
    ]
    for event in damaged:
        contests.add([event])
    contests.add(damaged)
    contests.add({"kind": "claim"})  # not a list of events
    contests.add("claim")
    assert contests.to_data() == {"contested": 1, "closest_ns": 10 * MS, "tie": False}
    contests.add([claim_event(1, 1, (1, 300 * MS))])  # ruled again, one claimant: uncounted
    assert contests.to_data() == {"contested": 0, "closest_ns": None, "tie": False}


def contested_in(client: CoreClient) -> tuple[int, int | None]:
    """What ``client`` saw itself: the contested moments among its claim events, the closest."""
    gaps = [
        contest[1]
        for view in client.of_type("view")
        for event in view["events"]
        if event["kind"] == "claim" and (contest := contest_of(event["data"])) is not None
    ]
    return len(gaps), min(gaps, default=None)


def bots_game() -> tuple[CoreDriver, MemoryStore, str, CoreClient, str]:
    """Black Cat, Ann and two bots, watched by Cy from the start; Ann hangs up after 20 s
    and a bot covers her seat. Runs until the game is over."""
    store = MemoryStore()
    driver = CoreDriver(store=store, rng=random.Random(5), bot_delay_s=0.5, results_for_s=600)
    runner = driver.core.create_table(
        "blackcat", {"takeover": 1.0}, seats=3, bots=2, now_ns=driver.now_ns
    )
    table = runner.table.id
    cy = driver.connect("Cy")
    driver.send(cy, Join(table=table, role="spectator"))
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=table, role="player"))
    token = str(ann.last("joined")["token"])
    driver.run_for(20)
    driver.hang_up(ann)
    for _ in range(400):
        if runner.table.outcome is not None:
            break
        driver.run_for(5)
    assert runner.table.outcome is not None
    assert contested_in(ann)[0] < contested_in(cy)[0]  # the first session saw only a part
    assert all("contests" not in view for view in ann.of_type("view"))  # not while it is on
    return driver, store, table, cy, token


def test_a_new_session_and_a_restarted_host_send_the_whole_tables_count() -> None:
    driver, store, table, cy, token = bots_game()
    count, closest = contested_in(cy)  # Cy watched every ruling
    assert count > 0
    assert cy.last("view")["contests"]["contested"] == count
    assert cy.last("view")["contests"]["closest_ns"] == closest

    back = driver.connect("Ann", token=token)  # Ann again, in a new session
    assert back.last("joined")["table"] == table
    sent = back.last("view")
    assert sent["view"]["outcome"] is not None and sent["events"] == []
    assert (sent["contests"]["contested"], sent["contests"]["closest_ns"]) == (count, closest)

    later = HostCore(name="virtual", store=store, log=lambda line: None, now_ns=driver.now_ns)
    later.resume(driver.now_ns + 5 * SECOND)  # the host restarted: rebuilt from the journal
    again = CoreDriver(later)
    dee = again.connect("Dee")
    again.send(dee, Join(table=table, role="spectator"))
    assert dee.last("view")["contests"] == cy.last("view")["contests"]


def test_a_turn_based_table_sends_no_contests() -> None:
    driver = CoreDriver(bot_delay_s=0.1)
    runner = driver.core.create_table("catchy", {"target": 1}, seats=2, bots=2, now_ns=0)
    cy = driver.connect("Cy")
    driver.send(cy, Join(table=runner.table.id, role="spectator"))
    for _ in range(200):
        if runner.table.outcome is not None:
            break
        driver.run_for(1)
    assert runner.table.outcome is not None
    assert "contests" not in cy.last("view")
