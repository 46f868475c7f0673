"""The host core on a virtual clock: deadlines, timers and life cycles without sockets or waits.

Each test drives :class:`net.core.host.HostCore` by hand (tests/net/core_driver.py):
minutes of host time pass in microseconds, and every moment is exact.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from net.core.host import HostCore
from net.core.limits import HostLimits
from net.core.session import SessionState
from net.core.store import MemoryStore
from net.core.timers import Timers
from net.wire.messages import Act, Join, Leave, ListTables
from tests.net.core_driver import SECOND, CoreDriver


def started(runner: Any) -> bool:
    """Whether ``runner``'s game is dealt (a call, so a type checker does not pin it)."""
    return bool(runner.table.started)


def test_timers_fire_in_due_order_and_a_cancelled_one_never() -> None:
    timers = Timers()
    fired: list[str] = []
    timers.call_at(3, fired.append, "c")
    timers.call_at(1, fired.append, "a")
    timers.call_at(2, fired.append, "b").cancel()
    assert timers.next_due() == 1 and len(timers) == 2
    assert timers.fire_due(5) == 2
    assert fired == ["a", "c"] and timers.next_due() is None and timers.now_ns == 5


def test_a_timer_re_armed_at_now_waits_for_the_next_call_instead_of_spinning() -> None:
    timers = Timers()
    runs: list[int] = []

    def again() -> None:
        runs.append(timers.now_ns)
        timers.call_later(0, again)

    timers.call_later(0, again)
    timers.fire_due(0)
    timers.fire_due(0)
    assert runs == [0, 0] and timers.next_due() == 0


def test_the_clock_never_goes_back() -> None:
    timers = Timers(10)
    timers.set_now(4)
    assert timers.now_ns == 10


def test_an_idle_host_has_no_deadline() -> None:
    driver = CoreDriver()
    assert driver.core.next_deadline_ns() is None


def test_no_hello_within_the_deadline_closes_the_connection_at_that_moment() -> None:
    driver = CoreDriver(limits=HostLimits(handshake_timeout_s=10.0))
    silent = driver.connect(name=None)
    driver.run_for(9.999)
    assert not silent.gone()
    driver.run_for(0.001)
    assert silent.gone() and silent.last("error")["code"] == "handshake_timeout"
    assert not driver.core.connections and driver.core.next_deadline_ns() is None


def test_a_client_that_stops_answering_pings_is_dropped_after_the_idle_deadline() -> None:
    driver = CoreDriver(limits=HostLimits(idle_timeout_s=60.0))
    ann = driver.connect("Ann")
    assert ann.of_type("welcome")
    driver.run_for(120)  # answering: still here however long it is quiet
    assert not ann.gone() and ann.of_type("ping")
    ann.answers_pings = False
    last_heard = ann.last("ping")["t"]  # answered at once: the last the host read from Ann
    driver.run_until(last_heard + 59 * SECOND)
    assert not ann.gone()
    driver.run_for(30)
    assert ann.gone() and ann.last("error")["code"] == "idle_timeout"
    assert not driver.core.connections


def ping_gaps_s(client: Any, since_ns: int) -> list[float]:
    """Seconds between the host's pings to ``client`` sent from ``since_ns`` on."""
    sent = [ping["t"] for ping in client.of_type("ping") if ping["t"] >= since_ns]
    return [round((later - earlier) / SECOND, 3) for earlier, later in itertools.pairwise(sent)]


def test_a_connection_in_the_lobby_is_pinged_every_five_seconds_and_at_a_table_every_second() -> (
    None
):
    driver = CoreDriver(start_countdown_s=0.0)
    core = driver.core
    runner = core.create_table("catchy", bots=1, now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    session = core.connections[ann.conn]
    driver.run_for(2)  # fast pings until the estimate is ready
    assert session.clock.ready
    lobby_from = driver.now_ns
    driver.run_for(31)
    assert ping_gaps_s(ann, lobby_from) == [5.0] * 5
    assert session.clock.ready  # six samples in the 30 s window: ready for a table at once
    last_ping = ann.last("ping")["t"]
    driver.run_for(1)  # the next lobby ping is over a second away; the table's pace is past
    driver.send(ann, Join(table=runner.table.id, role="player"))
    assert started(runner)
    table_from = driver.now_ns
    driver.run_for(0.001)
    assert last_ping + 5 * SECOND - table_from > SECOND
    assert table_from <= ann.last("ping")["t"] <= table_from + SECOND // 1000  # at once
    driver.run_for(10)
    assert ping_gaps_s(ann, table_from) == [1.0] * 10
    assert len(core._ping_queue) == 1  # the lobby's entry was dropped, not kept beside
    driver.send(ann, Leave(table=runner.table.id))
    back_from = driver.now_ns
    driver.run_for(20)
    assert ping_gaps_s(ann, back_from) == [5.0] * 3  # back in the lobby: its pace again


def test_a_lobby_that_asked_for_the_tables_is_sent_them_as_they_change_and_no_more() -> None:
    driver = CoreDriver(rng=random.Random(1), bot_delay_s=0.2)
    core = driver.core
    ann, bea, cat = driver.connect("Ann"), driver.connect("Bea"), driver.connect("Cat")
    driver.send(ann, ListTables(ref=1))
    driver.send(bea, ListTables(ref=2))
    assert len(ann.of_type("tables")) == 1 and not cat.of_type("tables")  # Cat never asked
    driver.run_for(30)
    assert len(ann.of_type("tables")) == 1  # nothing changed: nothing sent
    runner = core.create_table("catchy", bots=1, now_ns=driver.now_ns)
    driver.run_for(0.001)
    pushed = ann.last("tables")
    assert [t["id"] for t in pushed["tables"]] == [runner.table.id] and "ref" not in pushed
    assert not cat.of_type("tables")
    pushed_at: list[int] = []
    push = core._push_tables

    def pushing() -> None:
        pushed_at.append(core.now_ns)
        push()

    core._push_tables = pushing  # type: ignore[method-assign]
    seen = len(ann.of_type("tables"))
    driver.send(bea, Join(table=runner.table.id, role="player"))  # Bea sits: the game is on
    seat = next(i for i, info in enumerate(runner.table.seats) if info.human)
    bea_had = len(bea.of_type("tables"))
    for _ in range(50):  # ten seconds of Bea playing a card every 0.2 s: changes all along
        view = runner.table.view(seat)
        if view is not None and view["legal"]:
            driver.send(bea, Act(table=runner.table.id, action=view["legal"][0]))
        driver.run_for(0.2)
    assert len(ann.of_type("tables")) - seen == len(pushed_at)
    gaps = [later - earlier for earlier, later in itertools.pairwise(pushed_at)]
    assert len(pushed_at) >= 5 and min(gaps) >= 1.5 * SECOND  # each change, yet at most 1/1.5 s
    driver.run_for(1.5)
    latest = ann.last("tables")["tables"][0]
    assert latest["scores"] == list(runner.table.summary()["scores"])  # the last: as they are
    assert len(bea.of_type("tables")) == bea_had  # at a table: not sent the lobby's list
    driver.hang_up(ann)
    driver.run_for(5)
    assert all(session.name != "Ann" for session in core._table_watchers)


def test_a_connection_over_the_per_address_budget_is_refused_and_closed() -> None:
    driver = CoreDriver(limits=HostLimits(max_connections_per_address=1))
    core = driver.core
    first = core.open_connection("10.0.0.9:1", driver.now_ns)
    second = core.open_connection("10.0.0.9:2", driver.now_ns)
    effects = core.outputs()
    assert [type(e).__name__ for e in effects] == ["Send", "Close"]
    assert all(e.conn == second for e in effects)
    assert list(core.connections) == [first]


def test_a_lost_connection_is_closed_and_forgotten() -> None:
    driver = CoreDriver()
    ann = driver.connect("Ann")
    session = driver.core.connections[ann.conn]
    states = [session.state]
    driver.hang_up(ann)
    states.append(session.state)
    assert states == [SessionState.OPEN, SessionState.CLOSED] and not driver.core.connections


def test_a_game_starts_at_table_time_zero_however_long_the_table_waited() -> None:
    driver = CoreDriver(start_countdown_s=0.0)
    runner = driver.core.create_table("katootsie", now_ns=driver.now_ns)
    ann, bea = driver.connect("Ann"), driver.connect("Bea")
    driver.send(ann, Join(table=runner.table.id, role="player", seat=0))
    driver.run_for(500)  # the table waits for its second player
    waited = runner.now()
    assert not runner.table.started and waited >= 500
    driver.send(bea, Join(table=runner.table.id, role="player", seat=1))
    assert started(runner) and runner.now() == 0.0


def test_a_dropped_seat_is_covered_when_its_grace_period_runs_out_and_not_before() -> None:
    driver = CoreDriver(bot_delay_s=3600.0)  # the bot never gets to move here
    runner = driver.core.create_table("catchy", {"takeover": 20.0}, bots=1, now_ns=driver.now_ns)
    ann, watcher = driver.connect("Ann"), driver.connect("Watcher")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    driver.send(watcher, Join(table=runner.table.id, role="spectator"))
    seat = next(i for i, info in enumerate(runner.table.seats) if info.human)
    driver.hang_up(ann)
    driver.run_for(19.9)
    assert runner.table.seats[seat].bot is None
    driver.run_for(0.2)
    assert runner.table.seats[seat].bot is not None  # covered
    assert watcher.last("presence")["seats"][seat]["covered"]


def test_a_bot_covering_a_dropped_player_plays_at_the_level_of_the_table_s_bots() -> None:
    driver = CoreDriver(bot_delay_s=3600.0)
    for level in ("easy", "hard"):
        runner = driver.core.create_table(
            "kitten", {"takeover": 5.0}, seats=3, bots=1, bot_level=level, now_ns=driver.now_ns
        )
        ann, bea = driver.connect("Ann"), driver.connect("Bea")
        driver.send(ann, Join(table=runner.table.id, role="player"))
        driver.send(bea, Join(table=runner.table.id, role="player"))
        seat = next(i for i, info in enumerate(runner.table.seats) if info.name == "Ann")
        driver.hang_up(ann)
        driver.run_for(6)
        assert runner.table.seats[seat].bot == level
    plain = driver.core.create_table("kitten", {"takeover": 5.0}, seats=2, now_ns=driver.now_ns)
    assert plain.table.covering_bot() == "normal"  # no bots of its own: the game's default


def test_a_table_nobody_is_at_holds_its_clock_and_every_timer() -> None:
    driver = CoreDriver()
    runner = driver.core.create_table("catchy", bots=1, now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    version = runner.table.version
    driver.hang_up(ann)
    driver.run_for(300)
    assert runner.paused() and runner.table.version == version and runner.now() < 1


def test_a_finished_table_closes_after_its_results_and_leaves_no_timer_behind() -> None:
    store = MemoryStore()
    driver = CoreDriver(store=store, results_for_s=60.0, rng=random.Random(1), bot_delay_s=0.5)
    runner = driver.core.create_table("catchy", {"target": 1}, bots=1, now_ns=driver.now_ns)
    table_id = runner.table.id
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=table_id, role="player"))
    seat = next(i for i, info in enumerate(runner.table.seats) if info.human)
    while runner.table.outcome is None:  # Ann plays her first legal card each turn
        view = runner.table.view(seat)
        assert view is not None
        if view["legal"]:
            driver.send(ann, Act(table=table_id, action=view["legal"][0]))
        driver.run_for(0.5)
    driver.run_for(59)
    assert table_id in driver.core.tables
    driver.run_for(2)
    assert table_id not in driver.core.tables and table_id in store.archived
    assert ann.last("error")["code"] == "table_closed" and ann.of_type("left")
    driver.hang_up(ann)
    assert driver.core.next_deadline_ns() is None  # back to an idle host: nothing pending


def test_the_same_seed_makes_the_same_tables_and_tokens() -> None:
    def tokens(seed: int) -> tuple[int, str]:
        driver = CoreDriver(rng=random.Random(seed))
        runner = driver.core.create_table("catchy", now_ns=driver.now_ns)
        ann = driver.connect("Ann")
        driver.send(ann, Join(table=runner.table.id, role="player"))
        return runner.table.seed, str(ann.last("joined")["token"])

    assert tokens(7) == tokens(7) != tokens(8)


def test_list_tables_is_answered_on_the_spot() -> None:
    driver = CoreDriver()
    driver.core.create_table("kiitos", now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    driver.send(ann, ListTables(ref=3))
    tables = ann.last("tables")
    assert tables["ref"] == 3 and [t["game"] for t in tables["tables"]] == ["kiitos"]


def test_a_crashed_host_resumes_from_its_store_and_the_seat_token_still_holds() -> None:
    store = MemoryStore()
    driver = CoreDriver(store=store, rng=random.Random(3))
    runner = driver.core.create_table("catchy", bots=1, now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    token = str(ann.last("joined")["token"])
    version = runner.table.version
    # The process dies: a new core on the same store, later.
    later = HostCore(name="virtual", store=store, log=lambda line: None, now_ns=driver.now_ns)
    later.resume(driver.now_ns + 5 * SECOND)
    again = CoreDriver(later)
    assert later.tables[runner.table.id].table.version == version
    back = again.connect("Ann", token=token)
    assert back.last("joined")["seat"] == runner.table.seats.index(
        next(info for info in runner.table.seats if info.human)
    )


def test_a_seat_dropped_before_the_start_is_covered_a_grace_period_after_the_start() -> None:
    driver = CoreDriver(bot_delay_s=3600.0)
    runner = driver.core.create_table("catchy", {"takeover": 5.0}, now_ns=driver.now_ns)
    ann, bea = driver.connect("Ann"), driver.connect("Bea")
    driver.send(ann, Join(table=runner.table.id, role="player", seat=0))
    driver.hang_up(ann)  # gone while the table waits: the seat stays hers
    driver.run_for(100)
    driver.send(bea, Join(table=runner.table.id, role="player", seat=1))
    assert started(runner)
    driver.run_for(4.9)
    assert runner.table.seats[0].bot is None
    driver.run_for(0.2)
    assert runner.table.seats[0].bot is not None


class RefusedBot:
    """A bot with a bug: it always proposes a move the rules refuse."""

    reaction_s = 0.5

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return {"type": "no such move"} if view.get("legal") else None


def test_a_bot_move_the_rules_refuse_is_replaced_by_a_legal_one_and_the_table_goes_on() -> None:
    lines: list[str] = []
    driver = CoreDriver(bot_delay_s=0.5, log=lines.append)
    runner = driver.core.create_table("catchy", bots=1, now_ns=driver.now_ns)
    bot_seat = runner.table.bot_seats()[0]
    runner._bots[bot_seat] = RefusedBot()
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    seat = 1 - bot_seat
    for _ in range(40):
        view = runner.table.view(seat)
        if view is not None and view["legal"]:
            driver.send(ann, Act(table=runner.table.id, action=view["legal"][0]))
        driver.run_for(0.5)
    assert any("was refused" in line for line in lines)
    assert runner.table.version > 20  # both seats kept playing


def test_the_table_list_follows_every_change_though_its_frame_is_encoded_once() -> None:
    driver = CoreDriver()
    runner = driver.core.create_table("catchy", now_ns=driver.now_ns)
    ann, bea = driver.connect("Ann"), driver.connect("Bea")
    driver.send(bea, ListTables(ref=1))
    assert bea.last("tables")["tables"][0]["free"] == 2
    driver.send(ann, Join(table=runner.table.id, role="player"))
    driver.send(bea, ListTables(ref=2))
    driver.send(bea, ListTables())
    replies = bea.of_type("tables")
    assert [r.get("ref") for r in replies] == [1, 2, None]
    assert [r["tables"][0]["free"] for r in replies] == [2, 1, 1]
    assert replies[1]["tables"] == driver.core.table_summaries()
