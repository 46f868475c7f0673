"""The host's scoreboard (net.store.scoreboard): results across games, counted once, reset."""

from __future__ import annotations

import asyncio
import json
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from net.client.client import Client
from net.core.tables import create
from net.store.scoreboard import Scoreboard, player_id, reset, wins_line
from tests import toy_game
from tests.net.hosting import outcome_of, running_host

pytestmark = pytest.mark.timeout(30)


def finished_toy(table_id: str, name: str = "Ann", player: str | None = None) -> Any:
    """A finished two-seat toy table: ``name`` (with player hash ``player``) and a bot."""
    table = create(table_id, "toy", {"mode": "tie"}, 1, lambda record: None, seats=2)
    table.sit(name, player=player)
    table.add_bot()
    table.start_if_full()
    seat = next(s for s in range(2) if table.game.legal_actions(table.state, s))
    table.act(seat, table.game.legal_actions(table.state, seat)[0], 1.0)
    assert table.outcome is not None
    return table


def test_a_finished_table_counts_once_for_every_seat(tmp_path: Path) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        table = finished_toy("t1")
        assert board.record(table) and not board.record(table)
        rows = {row["name"]: row for row in board.summary()["toy"]}
        assert rows["Ann"]["played"] == 1 and rows["Bot Tom"]["bot"]
        winners = table.outcome.winners
        assert sum(row["wins"] for row in rows.values()) == len(winners)
        again = Scoreboard(tmp_path)  # read back, as after a restart
        assert not again.record(table)
        assert again.summary() == board.summary()
        text = (tmp_path / "scores.json").read_text()
        assert table.seats[0].token not in text  # seat tokens are never kept
        assert stat.S_IMODE((tmp_path / "scores.json").stat().st_mode) == 0o600


def test_a_player_known_by_key_keeps_results_across_a_rename(tmp_path: Path) -> None:
    ann = player_id("ann's own secret key")
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        board.record(finished_toy("t1", "Ann", ann))
        board.record(finished_toy("t2", "Annie", ann))  # the same player, renamed
        board.record(finished_toy("t3", "Ann"))  # another Ann, with no key: another row
    rows = [(row["name"], row["played"]) for row in board.summary()["toy"] if not row["bot"]]
    assert sorted(rows) == [("Ann", 1), ("Annie", 2)]
    text = (tmp_path / "scores.json").read_text()
    assert "ann's own secret key" not in text and ann in text


def test_two_people_of_one_name_are_two_rows_when_their_keys_differ(tmp_path: Path) -> None:
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        board.record(finished_toy("t1", "you", player_id("first")))
        board.record(finished_toy("t2", "you", player_id("second")))
    people = [row for row in board.summary()["toy"] if not row["bot"]]
    assert [(row["name"], row["played"]) for row in people] == [("you", 1), ("you", 1)]


def test_a_file_of_the_first_format_is_read_as_names(tmp_path: Path) -> None:
    old = {
        "games": {"toy": {"Ann": {"played": 3, "wins": 2, "bot": False, "tokens": ["ab"]}}},
        "tables": ["t1"],
    }
    (tmp_path / "scores.json").write_text(json.dumps(old))
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        assert not board.record(finished_toy("t1"))  # counted before the upgrade
        board.record(finished_toy("t2"))
    ann = next(row for row in board.summary()["toy"] if row["name"] == "Ann")
    assert ann["played"] == 4


def test_reset_forgets_everything(tmp_path: Path) -> None:
    with toy_game.registered():
        Scoreboard(tmp_path).record(finished_toy("t1"))
        assert reset(tmp_path) and not reset(tmp_path)
        assert Scoreboard(tmp_path).summary() == {}


def test_the_lobby_line_names_the_winners_per_game() -> None:
    summary = {"catchy": [{"name": "Ann", "wins": 3, "played": 4, "bot": False}]}
    assert wins_line(summary, {"catchy": "Catchy!"}) == ["Catchy!: Ann 3 wins"]
    assert wins_line({"catchy": [{"name": "Bo", "wins": 0, "played": 1}]}, {}) == []


async def test_a_host_counts_finished_games_and_answers_get_scores(tmp_path: Path) -> None:
    with toy_game.registered():
        async with running_host(tmp_path) as host:
            runner = host.create_table("toy", {"mode": "tie"}, seats=2, bots=2)
            for _ in range(200):
                if runner.table.outcome is not None:
                    break
                await asyncio.sleep(0.01)
            ann = Client("127.0.0.1", host.port, "Ann", reconnect=False)
            await ann.connect()
            scores = await ann.get_scores()
            assert sum(row["played"] for row in scores["toy"]) == 2
            await ann.close()


async def test_a_player_key_reaches_the_scoreboard_only_as_its_hash(tmp_path: Path) -> None:
    from net.store.journal import read_records

    with toy_game.registered():
        async with running_host(tmp_path) as host:
            runner = host.create_table("toy", {"mode": "tie"}, seats=2, bots=1)
            ann = Client("127.0.0.1", host.port, "Ann", reconnect=False, player_key="k" * 24)
            await ann.connect()
            joined = await ann.join(runner.table.id)
            assert joined.seat is not None
            assert runner.table.seats[joined.seat].player == player_id("k" * 24)
            await ann.close()
        journal = (tmp_path / "tables" / f"{runner.table.id}.log").read_text(errors="replace")
        assert "k" * 24 not in journal
        records = read_records(tmp_path / "tables" / f"{runner.table.id}.log")
        seat = next(record for record in records if record["r"] == "seat")
        assert seat["player"] == player_id("k" * 24)


@pytest.mark.parametrize(
    "stored",
    [
        {"games": []},
        {"format": 2, "games": {"toy": {"key:ab": {"played": "x", "wins": 0, "name": "Ann"}}}},
        {"format": 2, "games": {"toy": {"key:ab": {"played": 1, "wins": 0}}}},  # no name
        {"format": 2, "games": {"toy": {"odd": {"played": 1, "wins": 0, "name": "Ann"}}}},
        {"format": "2", "games": {"toy": 5}, "tables": [1, None]},
        {"games": {"toy": {"Ann": {"played": -1}}}, "tables": "t1"},
    ],
)
def test_a_damaged_score_file_costs_its_bad_rows_never_the_hosts_start(
    tmp_path: Path, stored: dict[str, Any]
) -> None:
    (tmp_path / "scores.json").write_text(json.dumps(stored))
    board = Scoreboard(tmp_path)
    assert all(not rows for rows in board.summary().values())
    with toy_game.registered():
        assert board.record(finished_toy("t1"))
    assert {row["name"] for row in board.summary()["toy"]} == {"Ann", "Bot Tom"}


def test_a_newer_format_is_neither_read_nor_overwritten(tmp_path: Path) -> None:
    newer = json.dumps({"format": 4, "players": {"whatever": 1}})
    (tmp_path / "scores.json").write_text(newer)
    board = Scoreboard(tmp_path)
    with toy_game.registered():
        board.record(finished_toy("t1"))
    assert (tmp_path / "scores.json").read_text() == newer


def test_a_persons_row_is_not_marked_a_bot_when_a_bot_covered_their_seat(tmp_path: Path) -> None:
    ann = player_id("ann")
    with toy_game.registered():
        table = finished_toy("t1", "Ann", ann)
        table.seats[0].bot = "random"  # Ann dropped and a bot finished for her
        board = Scoreboard(tmp_path)
        board.record(table)
        board.record(finished_toy("t2", "Ann", ann))
    rows = {row["name"]: row for row in board.summary()["toy"]}
    assert not rows["Ann"]["bot"] and rows["Bot Tom"]["bot"]


# Ratings in the file (net.store.ratings) ----------------------------------------------------


def played_toy(table_id: str, names: tuple[str, ...] = ("Ann", "Bea"), bots: int = 0) -> Any:
    """A finished turn-based toy table of people (and bots), whoever may act playing first."""
    table = create(
        table_id, "toy", {"mode": "turns"}, 1, lambda record: None, seats=len(names) + bots
    )
    for name in names:
        table.sit(name)
    for _ in range(bots):
        table.add_bot()
    table.start_if_full()
    while table.outcome is None:
        seat = next(s for s in range(len(table.seats)) if table.game.legal_actions(table.state, s))
        table.act(seat, table.game.legal_actions(table.state, seat)[0], 1.0)
    return table


def test_ratings_are_written_atomically_and_read_back_as_they_were(tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        board.record(played_toy("t1", bots=1))
        board.record(played_toy("t2", bots=1))
    stored = json.loads((tmp_path / "scores.json").read_text())
    assert stored["format"] == 3 and set(stored["ratings"]["toy"]) == {
        "name:Ann",
        "name:Bea",
        "bot:toy:normal",
    }
    assert [entry["table"] for entry in stored["rated"]] == ["t1", "t2"]
    again = Scoreboard(tmp_path)
    assert again.data == board.data
    assert again.table_ratings("t2") == board.table_ratings("t2") is not None
    assert not list(tmp_path.glob(".scores-*"))  # no temporary file left behind
    assert stat.S_IMODE((tmp_path / "scores.json").stat().st_mode) == 0o600


def test_a_file_of_the_second_format_keeps_its_wins_and_gains_ratings(tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    old = {
        "format": 2,
        "games": {"toy": {"name:Ann": {"name": "Ann", "played": 3, "wins": 2, "bot": False}}},
        "tables": ["t1"],
    }
    (tmp_path / "scores.json").write_text(json.dumps(old))
    with toy_game.registered():
        board = Scoreboard(tmp_path)
        assert board.data["ratings"] == {} and not board.take_notices()
        board.record(played_toy("t2"))
    stored = json.loads((tmp_path / "scores.json").read_text())
    assert stored["format"] == 3 and stored["games"]["toy"]["name:Ann"]["played"] == 4
    assert stored["ratings"]["toy"]["name:Ann"]["games"] == 1  # rated from its first game on


@pytest.mark.parametrize("damage", [b"{not json", b"\xff\xfe", b"[1, 2]", b'{"format": "x"}'])
def test_a_damaged_score_file_is_set_aside_and_counting_starts_afresh(
    tmp_path: Path, damage: bytes
) -> None:
    (tmp_path / "scores.json").write_bytes(damage)
    (tmp_path / "scores.json.damaged").write_bytes(b"an earlier one")
    looked = Scoreboard(tmp_path, read_only=True)  # `clowder scores` only reads: nothing moves
    assert (tmp_path / "scores.json").read_bytes() == damage
    assert any("damaged" in line for line in looked.take_notices())
    board = Scoreboard(tmp_path)
    notices = board.take_notices()
    assert any("kept as scores.json.damaged.2" in line for line in notices), notices
    assert (tmp_path / "scores.json.damaged.2").read_bytes() == damage
    assert (tmp_path / "scores.json.damaged").read_bytes() == b"an earlier one"
    assert not (tmp_path / "scores.json").exists()
    with toy_game.registered():
        assert board.record(finished_toy("t1"))
    assert json.loads((tmp_path / "scores.json").read_text())["format"] == 3


def test_damaged_rating_rows_cost_those_rows_only(tmp_path: Path) -> None:
    good = {"name": "Ann", "mu": 27.0, "sigma": 6.0, "games": 2, "bot": False}
    stored = {
        "format": 3,
        "games": {},
        "tables": [],
        "ratings": {
            "toy": {"name:Ann": good, "name:Bea": {**good, "mu": "high"}, "odd": good},
            "bad": [1],
        },
        "rated": [
            {"table": "t1", "seats": [{"rating": 1, "change": "x"}]},
            {"table": "t2", "seats": [None]},
            7,
        ],
    }
    (tmp_path / "scores.json").write_text(json.dumps(stored))
    board = Scoreboard(tmp_path)
    assert board.data["ratings"] == {"toy": {"name:Ann": good}}
    assert board.data["rated"] == [{"table": "t2", "seats": [None]}]


# Ratings at a host ------------------------------------------------------------------------------


def hello(driver: Any, name: str, key: str, token: str | None = None) -> Any:
    """A connection that says hello with its player key (CoreDriver.connect sends none)."""
    from net.wire.messages import PROTOCOL_VERSION, Hello

    client = driver.connect(name=None)
    driver.send(client, Hello(protocol=PROTOCOL_VERSION, name=name, token=token, player=key))
    return client


def play_out(driver: Any, client: Any, runner: Any, seat: int, limit: float = 120.0) -> None:
    """Play ``seat``'s turns (its first legal action) while bots play theirs, to the end."""
    from net.wire.messages import Act

    waited = 0.0
    while runner.table.outcome is None and waited < limit:
        view = runner.table.view(seat)
        session = driver.core.connections.get(client.conn)
        if view is not None and view["legal"] and runner.seat_of(session) == seat:
            driver.send(client, Act(table=runner.table.id, action=view["legal"][0]))
        else:
            driver.run_for(0.5)
            waited += 0.5
    assert runner.table.outcome is not None


def core_with_scores(state_dir: Path, store: Any, **options: Any) -> Any:
    from net.core.host import HostCore

    lines: list[str] = []
    core = HostCore(
        name="virtual",
        store=store,
        scores=Scoreboard(state_dir),
        log=lines.append,
        bot_delay_s=0.5,
        **options,
    )
    core.log_lines = lines  # type: ignore[attr-defined]
    return core


def test_ratings_move_after_a_game_at_a_host_and_survive_its_restart(tmp_path: Path) -> None:
    """Sans-I/O: the host core on a virtual clock, its scores in a real file."""
    pytest.importorskip("openskill")
    from net.core.store import MemoryStore
    from net.wire.messages import GetScores, Join
    from tests.net.core_driver import SECOND, CoreDriver

    store = MemoryStore()
    with toy_game.registered():
        driver = CoreDriver(core_with_scores(tmp_path, store))
        runner = driver.core.create_table("toy", {"mode": "turns"}, bots=1, now_ns=driver.now_ns)
        ann = hello(driver, "Ann", "a" * 24)
        driver.send(ann, Join(table=runner.table.id, role="player"))
        seat = int(ann.last("joined")["seat"])
        token = str(ann.last("joined")["token"])
        play_out(driver, ann, runner, seat)
        over = [view for view in ann.of_type("view") if outcome_of(view)]
        ratings = over[0]["ratings"]  # already on the first view that shows the end
        assert ratings is not None and len(ratings) == 2 and all(ratings)
        won = seat in over[0]["view"]["outcome"]["winners"]
        assert (ratings[seat]["change"] > 0) == won
        assert ratings[seat]["rating"] == 1500 + ratings[seat]["change"]
        driver.send(ann, GetScores(ref=1))
        rows = {row["name"]: row for row in ann.last("scores")["scores"]["toy"]}
        assert rows["Ann"]["rating"] == ratings[seat]["rating"]
        assert rows["Bot Tom"]["rating"] == ratings[1 - seat]["rating"]

        # The host dies with the results on show; a new one starts on the same folder.
        later = core_with_scores(tmp_path, store, now_ns=driver.now_ns)
        later.resume(driver.now_ns + 5 * SECOND)
        again = CoreDriver(later)
        back = hello(again, "Ann", "a" * 24, token=token)
        assert back.last("view")["ratings"] == ratings  # the same figures, not rated twice
        again.send(back, GetScores(ref=2))
        rows = {row["name"]: row for row in back.last("scores")["scores"]["toy"]}
        assert rows["Ann"]["rating"] == ratings[seat]["rating"] and rows["Ann"]["played"] == 1

        # A second game starts from the stored rating.
        second = later.create_table("toy", {"mode": "turns"}, bots=1, now_ns=again.now_ns)
        again.send(back, Join(table=second.table.id, role="player"))
        seat2 = int(back.last("joined")["seat"])
        play_out(again, back, second, seat2)
        moved = [v for v in back.of_type("view") if v["table"] == second.table.id and outcome_of(v)]
        after = moved[0]["ratings"][seat2]
        assert after["rating"] - after["change"] == ratings[seat]["rating"]
    assert json.loads((tmp_path / "scores.json").read_text())["ratings"]["toy"]["bot:toy:normal"]


def test_a_player_a_bot_covered_for_most_of_the_game_is_not_rated_at_the_host(
    tmp_path: Path,
) -> None:
    pytest.importorskip("openskill")
    from net.core.store import MemoryStore
    from net.wire.messages import Join
    from tests.net.core_driver import CoreDriver

    with toy_game.registered():
        core = core_with_scores(tmp_path, MemoryStore(), run_unattended=True)
        driver = CoreDriver(core)
        runner = core.create_table(
            "toy", {"mode": "turns", "takeover": 1.0}, seats=3, bots=1, now_ns=driver.now_ns
        )
        ann, bea = hello(driver, "Ann", "a" * 24), hello(driver, "Bea", "b" * 24)
        driver.send(ann, Join(table=runner.table.id, role="player"))
        driver.send(bea, Join(table=runner.table.id, role="player"))
        seats = {int(c.last("joined")["seat"]): c for c in (ann, bea)}
        ann_seat = int(ann.last("joined")["seat"])
        driver.hang_up(ann)  # at once: a bot plays nearly all of Ann's game
        bea_seat = next(s for s in seats if s != ann_seat)
        play_out(driver, bea, runner, bea_seat)
        ratings = bea.last("view")["ratings"]
        assert ratings[ann_seat] is None and ratings[bea_seat] is not None
        assert runner.covered_shares()[ann_seat] > 0.5
        rated = core.scores.data["ratings"]["toy"]
        assert f"key:{player_id('a' * 24)}" not in rated and f"key:{player_id('b' * 24)}" in rated


def test_a_host_without_openskill_says_so_once_and_sends_no_ratings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from net.core.store import MemoryStore
    from net.store.ratings import UNAVAILABLE
    from net.wire.messages import GetScores, Join
    from tests.net.core_driver import CoreDriver

    monkeypatch.setitem(sys.modules, "openskill", None)  # the import fails, as without the extra
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with toy_game.registered():
        core = core_with_scores(tmp_path, MemoryStore())
        core.resume(0)
        driver = CoreDriver(core)
        runner = core.create_table("toy", {"mode": "turns"}, bots=1, now_ns=driver.now_ns)
        ann = driver.connect("Ann")
        driver.send(ann, Join(table=runner.table.id, role="player"))
        play_out(driver, ann, runner, int(ann.last("joined")["seat"]))
        assert "ratings" not in ann.last("view")
        driver.send(ann, GetScores(ref=1))
        rows = ann.last("scores")["scores"]["toy"]
    assert [row["played"] for row in rows] == [1, 1] and all("rating" not in r for r in rows)
    assert core.log_lines.count(UNAVAILABLE) == 1
    assert json.loads((tmp_path / "scores.json").read_text())["ratings"] == {}


async def test_ratings_move_over_the_network_and_survive_a_host_restart(tmp_path: Path) -> None:
    """Real sockets on loopback: a player's client sees its rating in the results, and a
    host started again on the same folder still has it."""
    pytest.importorskip("openskill")
    from net.wire.messages import View

    with toy_game.registered():
        async with running_host(tmp_path) as host:
            runner = host.create_table("toy", {"mode": "turns"}, seats=2, bots=1)
            ann = Client("127.0.0.1", host.port, "Ann", reconnect=False, player_key="k" * 24)
            await ann.connect()
            joined = await ann.join(runner.table.id)
            seen: dict[str, Any] = {}
            while "ratings" not in seen:
                message = await asyncio.wait_for(ann.incoming.get(), 10)
                if not isinstance(message, View) or message.view is None:
                    continue
                if message.game_outcome is not None:
                    seen["ratings"] = message.ratings
                elif message.view["legal"]:
                    await ann.act(runner.table.id, message.view["legal"][0])
            mine = seen["ratings"][joined.seat]
            assert mine["rating"] == 1500 + mine["change"] != 1500
            before = await ann.get_scores()
            await ann.close()
        async with running_host(tmp_path) as host:
            bea = Client("127.0.0.1", host.port, "Bea", reconnect=False)
            await bea.connect()
            after = await bea.get_scores()
            await bea.close()
    assert after == before
    assert {row["name"]: row["rating"] for row in after["toy"]}["Ann"] == mine["rating"]
