"""A person learning a real-time game alone with bots (``learn``; ``Learning`` in PROTOCOL.md).

Issue 36, item 2: in ``clowder learn blackcat`` a card turned every 1.4 s, the easy bot took
each one, and the coach's words for a card were gone before they could be read. Here the
host core runs on a virtual clock: a moment held for the learner waits (a minute of host
time changes nothing), goes on when they say so or claim it, and the bots claim slower.
"""

from __future__ import annotations

from typing import Any

from engine.games.blackcat.scoring import full_deck
from net.core.table import START_COUNTDOWN_S
from net.wire.messages import Act, Join, Learn
from tests.net.core_driver import SECOND, CoreClient, CoreDriver

TOP = ["8S", "2C", "3S", "TD", "2H", "5C"]
DECK = TOP + [card for card in full_deck() if card not in TOP]


def learner_table(**learn: Any) -> tuple[CoreDriver, CoreClient, str]:
    """Ann and one easy bot at Black Cat; Ann sends ``learn`` (if given) before the start."""
    driver = CoreDriver(bot_delay_s=0.5, allow_fixed_deck=True)
    runner = driver.core.create_table(
        "blackcat", {"deck": DECK}, bots=1, bot_level="easy", now_ns=driver.now_ns
    )
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    if learn:
        driver.send(ann, Learn(table=runner.table.id, **learn))
    driver.run_for(START_COUNTDOWN_S + 0.01)
    return driver, ann, runner.table.id


def top(ann: CoreClient) -> tuple[Any, Any, bool]:
    """The top card, its reveal and whether it is held for Ann, as her last view says."""
    view = ann.last("view")
    game = view["view"]
    return game["top"], game["reveal"], bool(view.get("held"))


def grab(driver: CoreDriver, ann: CoreClient, table: str, reaction_s: float = 5.0) -> None:
    """Ann grabs the top card into her first pile, ``reaction_s`` after she saw it."""
    _, reveal, _ = top(ann)
    action = {"type": "take", "pile": 0, "reveal": reveal}
    acted = 10 * SECOND + round(reaction_s * SECOND)
    message = Act(table=table, action=action, reveal=reveal, drawn_ns=10 * SECOND, acted_ns=acted)
    driver.send(ann, message)


def test_a_held_card_waits_for_the_learner_however_long_they_read() -> None:
    driver, ann, table = learner_table(hold=2, pace=3)
    card, reveal, held = top(ann)
    assert (card, held) == ("8S", True)
    views = len(ann.of_type("view"))
    driver.run_for(60)  # the bot would have grabbed it 75 times over
    assert top(ann) == (card, reveal, True)
    assert len(ann.of_type("view")) == views
    runner = driver.core.tables[table]
    assert runner.paused() and runner.referee.arbiter.deadline_ns() is None


def test_going_on_lets_the_bot_have_its_go_then_the_next_card_is_held_too() -> None:
    driver, ann, table = learner_table(hold=2, pace=3)
    driver.run_for(30)
    driver.send(ann, Learn(table=table))  # read: go on
    assert top(ann) == ("8S", 1, False)  # the view that ends the hold
    driver.run_for(1.0)
    assert top(ann)[0] == "8S"  # the moment started again when it went on: no bot yet
    driver.run_for(10)
    card, _, held = top(ann)
    assert (card, held) == ("2C", True)  # the bot took 8S; the second card waits
    claim = next(e for v in ann.of_type("view") for e in v["events"] if e["kind"] == "claim")
    reported = claim["data"]["claims"][0]["reported_ns"]
    assert 3 * 0.5 * SECOND <= reported <= 3 * 1.1 * SECOND  # the easy bot, three times slower


def test_a_claim_in_a_held_moment_wins_it_and_holds_end_when_none_are_left() -> None:
    driver, ann, table = learner_table(hold=2, pace=3)
    driver.run_for(20)
    grab(driver, ann, table)
    driver.run_for(1.0)  # the arbiter's settling, nothing more
    game = ann.last("view")["view"]
    assert game["piles"][game["seat"]][0]["cards"] == ["8S"]
    assert top(ann)[::2] == ("2C", True)
    grab(driver, ann, table, reaction_s=0.5)  # no longer than since the card turned
    driver.run_for(1.0)
    assert top(ann)[::2] == ("3S", False)  # both holds used: the game runs by itself
    driver.run_for(10)
    assert top(ann)[0] != "3S"


def test_hold_zero_stops_holding_and_a_table_with_another_person_refuses_learning() -> None:
    driver, ann, table = learner_table(hold=5)
    driver.send(ann, Learn(table=table, hold=0))
    assert top(ann)[2] is False
    driver.run_for(10)
    assert top(ann)[0] != "8S"

    driver = CoreDriver()
    runner = driver.core.create_table("blackcat", {}, seats=3, bots=1, now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    driver.send(ann, Learn(table=runner.table.id, hold=3, ref=4))
    error = ann.last("error")
    assert (error["code"], error["ref"]) == ("not_alone", 4)
