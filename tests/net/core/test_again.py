"""Play again and next game on the host core (issue 31): one table however the yeses come,
free seats for those who decline, the dropped keep theirs, a restart keeps the choices."""

from __future__ import annotations

from typing import Any

import pytest

from net.core.host import HostCore
from net.core.store import MemoryStore
from net.core.table import TableRunner
from net.store.night import Night
from net.wire.messages import Again, AgainAnswer, Join, Leave
from tests.net.core_driver import CoreClient, CoreDriver

AGAIN_S = 30.0


def driver_with(**options: Any) -> CoreDriver:
    options.setdefault("bot_delay_s", 0.05)
    options.setdefault("again_for_s", AGAIN_S)
    options.setdefault("start_countdown_s", 0.0)
    return CoreDriver(**options)


def seat_people(
    driver: CoreDriver, game: str, names: list[str], bots: int = 0, **options: Any
) -> tuple[TableRunner, dict[str, CoreClient]]:
    runner = driver.core.create_table(
        game, options, seats=len(names) + bots, bots=bots, now_ns=driver.now_ns
    )
    clients = {}
    for name in names:
        client = clients[name] = driver.connect(name)
        driver.send(client, Join(table=runner.table.id, role="player"))
    return runner, clients


def play_out(driver: CoreDriver, runner: TableRunner, clients: dict[str, CoreClient]) -> None:
    """Everyone plays the first legal move whenever they may, until the game is over."""
    for _ in range(5000):
        if runner.table.outcome is not None:
            return
        for client in clients.values():
            views = client.of_type("view")
            if not views:
                continue
            view = views[-1]
            if view["table"] != runner.table.id or view["view"] is None:
                continue
            legal = view["view"]["legal"]
            if legal and not view.get("starting"):
                from net.wire.messages import Act

                driver.send(client, Act(table=runner.table.id, action=legal[0]))
        driver.run_for(0.5)
    raise AssertionError("the game did not end")


def started(runner: TableRunner) -> bool:
    """Whether the game is dealt (a call, so a type checker does not pin it)."""
    return runner.table.started


def moved(client: CoreClient, old: str) -> dict[str, Any] | None:
    found = [m for m in client.of_type("joined") if m.get("moved_from") == old]
    return found[-1] if found else None


def again_of(client: CoreClient) -> dict[str, Any] | None:
    return client.last("view").get("again")


def test_two_people_asking_at_the_same_instant_make_one_table_and_both_play_it() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old, ref=1))
    driver.send(people["Bea"], Again(table=old, ref=2))  # the same instant: Ann's proposal
    new_ids = {t for t in driver.core.tables if t != old}
    assert len(new_ids) == 1
    new = driver.core.tables[new_ids.pop()]
    assert new.table.started and new.table.again_of == old
    for name, client in people.items():
        joined = moved(client, old)
        assert joined is not None and joined["table"] == new.table.id, name
        assert joined["token"] == client.of_type("joined")[0]["token"]  # the token they hold
        assert client.last("view")["table"] == new.table.id
    seats = {info.name: index for index, info in enumerate(new.table.seats)}
    assert seats == {"Ann": 0, "Bea": 1}  # each keeps their seat
    assert new.table.seed != runner.table.seed  # dealt anew: who begins follows the rulebook


def test_the_log_says_the_players_went_on_to_the_new_table_not_that_they_dropped() -> None:
    lines: list[str] = []
    driver = driver_with(log=lines.append)
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old, ref=1))
    driver.send(people["Bea"], AgainAnswer(table=old, accept=True, ref=2))
    [new] = [t for t in driver.core.tables if t != old]
    said = [line for line in lines if line.startswith(f"[{old}]")]
    assert f"[{old}] Ann went to {new} (seat kept)" in said
    assert f"[{old}] Bea went to {new} (seat kept)" in said
    assert not [line for line in said if "dropped" in line]


def test_a_decline_frees_the_seat_for_a_newcomer_and_the_decliner_stays_put() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old))
    status = again_of(people["Bea"])
    assert status is not None and [s["answer"] for s in status["seats"]] == ["yes", "waiting"]
    driver.send(people["Bea"], AgainAnswer(table=old, accept=False))
    new = next(r for t, r in driver.core.tables.items() if t != old)
    assert new.table.free_seats == 1 and not started(new)
    lobby = next(t for t in driver.core.table_summaries() if t["id"] == new.table.id)
    assert lobby["free"] == 1 and lobby["status"] == "waiting"
    cy = driver.connect("Cy")
    driver.send(cy, Join(table=new.table.id, role="player"))
    assert started(new)  # full: it starts, and Ann is moved there
    assert moved(people["Ann"], old) is not None
    assert moved(people["Bea"], old) is None and people["Bea"].last("view")["table"] == old
    assert [info.name for info in new.table.seats] == ["Ann", "Cy"]


def test_someone_who_leaves_is_never_pulled_back_in() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "kitten", ["Ann", "Bea", "Cy"])
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old))
    driver.send(people["Cy"], Leave(table=old))
    driver.send(people["Bea"], AgainAnswer(table=old, accept=True))
    driver.run_for(AGAIN_S + 1)  # the countdown: two of three is enough for Kitten Me!
    new = next(r for t, r in driver.core.tables.items() if t != old)
    assert new.table.started and [info.name for info in new.table.seats] == ["Ann", "Bea"]
    assert moved(people["Cy"], old) is None


def test_a_later_proposal_leaves_out_those_who_went_on_or_left() -> None:
    # On lan-sim: Ann and Bea played again at t2 while Cy said no; Cy then asked at the
    # finished table, and Ann and Bea (already playing at t2) got seats there as dropped
    # players: their token held two live tables, a reconnect took Ann to Cy's table
    # (newest first) while her screen stayed at t2, and Cy's game waited on her turn.
    driver = driver_with()
    runner, people = seat_people(driver, "kitten", ["Ann", "Bea", "Cy"])
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old))
    driver.send(people["Bea"], AgainAnswer(table=old, accept=True))
    driver.send(people["Cy"], AgainAnswer(table=old, accept=False))
    driver.run_for(AGAIN_S + 1)
    first = next(r for t, r in driver.core.tables.items() if t != old)
    assert first.table.started and moved(people["Ann"], old) is not None
    driver.send(people["Cy"], Again(table=old))  # Cy, still at the results, asks now
    second = next(r for t, r in driver.core.tables.items() if t not in (old, first.table.id))
    status = again_of(people["Cy"])
    assert status is not None and [s["name"] for s in status["seats"]] == ["Cy"]
    assert [info.name for info in second.table.seats if not info.free] == ["Cy"]
    driver.run_for(AGAIN_S + 1)  # too few: Cy waits at the new table for newcomers
    assert [info.name for info in second.table.seats if not info.free] == ["Cy"]
    token = people["Ann"].of_type("joined")[0]["token"]
    back = driver.connect("Ann", token=token)
    assert back.last("joined")["table"] == first.table.id  # her own game, not Cy's


def test_someone_who_left_before_anyone_asked_gets_no_seat() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "kitten", ["Ann", "Bea", "Cy"])
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Cy"], Leave(table=old))  # back to the lobby before any proposal
    driver.send(people["Ann"], Again(table=old))
    status = again_of(people["Ann"])
    assert status is not None and [s["name"] for s in status["seats"]] == ["Ann", "Bea"]
    driver.send(people["Bea"], AgainAnswer(table=old, accept=True))
    driver.run_for(AGAIN_S + 1)
    new = next(r for t, r in driver.core.tables.items() if t != old)
    assert new.table.started and [info.name for info in new.table.seats] == ["Ann", "Bea"]


def test_a_silent_person_who_is_there_has_declined_and_a_dropped_one_keeps_the_seat() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "kitten", ["Ann", "Bea", "Cy", "Dot"])
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old))
    driver.hang_up(people["Dot"])  # dropped, never answers
    driver.run_for(AGAIN_S + 1)  # Bea and Cy are there and say nothing
    new = next(r for t, r in driver.core.tables.items() if t != old)
    names = [info.name for info in new.table.seats]
    assert new.table.started and names == ["Ann", "Dot"]
    dot = new.table.seats[1]
    assert dot.human and not dot.connected  # kept, as in a running game
    back = driver.connect("Dot", token=people["Dot"].of_type("joined")[0]["token"])
    assert back.last("joined")["table"] == new.table.id  # the token finds the new table


def test_a_restart_during_the_countdown_resumes_the_same_choices() -> None:
    store = MemoryStore()
    driver = driver_with(store=store)
    runner, people = seat_people(driver, "kitten", ["Ann", "Bea", "Cy"])
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old))
    driver.send(people["Bea"], AgainAnswer(table=old, accept=False))
    new_id = next(t for t in driver.core.tables if t != old)
    again = HostCore(name="again", store=store, log=lambda line: None, again_for_s=AGAIN_S)
    again.resume(driver.now_ns)
    proposal = again.evening.proposals[old]
    assert proposal.new.table.id == new_id
    assert proposal.answers == {0: "yes", 1: "no", 2: "waiting"}
    seats = proposal.new.table.seats
    assert seats[0].name == "Ann" and seats[1].free and seats[2].reserved


def test_next_game_takes_the_same_people_to_another_game_with_a_bot_added() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    play_out(driver, runner, people)
    old = runner.table.id
    driver.send(people["Ann"], Again(table=old, game="kitten", bots=1))
    driver.send(people["Bea"], AgainAnswer(table=old, accept=True))
    new = next(r for t, r in driver.core.tables.items() if t != old)
    assert new.table.game.name == "kitten" and new.table.started
    assert [(info.name, info.human) for info in new.table.seats][:2] == [
        ("Ann", True),
        ("Bea", True),
    ]
    assert new.table.seats[2].bot is not None


def test_bots_play_again_at_their_level_and_spectators_stay_spectators() -> None:
    driver = driver_with()
    runner = driver.core.create_table(
        "kitten", {}, seats=3, bots=1, bot_level="hard", now_ns=driver.now_ns
    )
    people = {"Ann": driver.connect("Ann"), "Bea": driver.connect("Bea")}
    for client in people.values():
        driver.send(client, Join(table=runner.table.id, role="player"))
    watcher = driver.connect("Wes")
    driver.send(watcher, Join(table=runner.table.id, role="spectator"))
    play_out(driver, runner, people)
    old = runner.table.id
    bot_seat = next(i for i, info in enumerate(runner.table.seats) if not info.human)
    driver.send(people["Ann"], Again(table=old))
    driver.send(people["Bea"], Again(table=old))
    new = next(r for t, r in driver.core.tables.items() if t != old)
    assert new.table.seats[bot_seat].level == "hard"
    assert new.table.seats[bot_seat].name == runner.table.seats[bot_seat].name
    joined = moved(watcher, old)
    assert joined is not None and joined["role"] == "spectator"


@pytest.mark.parametrize(
    ("sender", "message", "code"),
    [
        ("Wes", Again(table="t1"), "players_only"),
        ("Ann", AgainAnswer(table="t1", accept=True), "no_proposal"),
    ],
)
def test_refusals_around_playing_again(sender: str, message: Any, code: str) -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    people["Wes"] = driver.connect("Wes")
    driver.send(people["Wes"], Join(table=runner.table.id, role="spectator"))
    play_out(driver, runner, {k: v for k, v in people.items() if k != "Wes"})
    driver.send(people[sender], message)
    assert people[sender].last("error")["code"] == code


def test_asking_before_the_end_or_for_another_game_while_one_is_asked_is_refused() -> None:
    driver = driver_with()
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    driver.send(people["Ann"], Again(table=runner.table.id))
    assert people["Ann"].last("error")["code"] == "not_over"
    play_out(driver, runner, people)
    driver.send(people["Ann"], Again(table=runner.table.id))
    driver.send(people["Bea"], Again(table=runner.table.id, game="kitten"))
    error = people["Bea"].last("error")
    assert error["code"] == "proposal_open" and "Ann already asked" in error["message"]


def test_tonight_s_standings_come_with_the_results_and_with_scores() -> None:
    night = Night.open(None, now=1000.0)
    driver = driver_with(night=night, wall_s=1000.0)
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target=1)
    play_out(driver, runner, people)
    tonight = people["Ann"].last("view")["tonight"]
    assert tonight["games"] == 1
    rows = {row["name"]: row for row in tonight["standings"]}
    assert rows["Ann"]["games"] == rows["Bea"]["games"] == 1
    outcome = runner.table.outcome
    assert outcome is not None
    for seat, info in enumerate(runner.table.seats):  # a shared win counts for each winner
        assert rows[info.name]["wins"] == (seat in outcome.winners)
    from net.wire.messages import GetScores

    driver.send(people["Ann"], GetScores(ref=4))
    assert people["Ann"].last("scores")["tonight"]["games"] == 1


def test_a_table_summary_says_phase_scores_and_winners_and_options_as_the_game_reads_them() -> None:
    """PROTOCOL.md (issue 31): options from ``--table`` are text ("1"); summaries give them
    as the game's option type, and what a spectator sees (phase, scores, winners)."""
    driver = driver_with()
    runner, people = seat_people(driver, "catchy", ["Ann", "Bea"], target="1")
    summary = driver.core.table_summaries()[0]
    assert summary["options"] == {"target": 1}
    shown = runner.table.view(None)
    assert shown is not None and summary["phase"] == shown["phase"]
    assert summary["scores"] == [0, 0] and "winners" not in summary
    play_out(driver, runner, people)
    over = driver.core.table_summaries()[0]
    outcome = runner.table.outcome
    assert outcome is not None
    assert over["status"] == "over" and over["winners"] == list(outcome.winners)
