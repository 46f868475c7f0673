"""Replays of finished games (net.store.replays) and the host's list_replays / get_replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine import registry
from net.client.client import Client, ClientError
from net.core.tables import restore
from net.store.replays import (
    GameRecord,
    Replayer,
    ReplayError,
    export_lines,
    list_archived,
    read_archived,
    record_of,
)
from tests.contract import play
from tests.net.hosting import running_host

pytestmark = pytest.mark.timeout(30)

PLAYERS = ["Ann", "Bot Tom"]


def journal_of(
    game: str, seed: int = 3, finish: bool = True, table_id: str = "t7"
) -> list[dict[str, Any]]:
    """The journal records of a seeded random game (cut short when ``finish`` is false)."""
    playout = play(registry.get(game), PLAYERS, seed, max_steps=2000)
    entries = playout.entries if finish else playout.entries[: len(playout.entries) // 2]
    records: list[dict[str, Any]] = [
        {"r": "table", "id": table_id, "game": game, "options": {}, "seed": seed, "seats": 2},
        {"r": "seat", "seat": 0, "name": "Ann", "token": "SECRET-TOKEN"},
        {"r": "bot", "seat": 1, "name": "Bot Tom", "bot": "random"},
        {"r": "start", "players": PLAYERS},
    ]
    for number, (seat, action, now) in enumerate(entries):
        if seat is None:
            records.append({"r": "tick", "now": now})
        else:
            records.append({"r": "act", "seat": seat, "action": action, "now": now})
        if number == 2:
            records.append({"r": "chat", "seat": 0, "name": "Ann", "text": "gg", "now": now})
    return records


def archive(root: Path, records: list[dict[str, Any]], table_id: str = "t7") -> None:
    folder = root / "archive"
    folder.mkdir(parents=True, exist_ok=True)
    packer = msgpack.Packer(use_bin_type=True)
    (folder / f"{table_id}.log").write_bytes(b"".join(packer.pack(r) for r in records))


def test_a_finished_game_replays_to_its_outcome_and_keeps_no_token(tmp_path: Path) -> None:
    archive(tmp_path, journal_of("catchy"))
    record = read_archived(tmp_path, "t7")
    assert "SECRET-TOKEN" not in json.dumps(record.to_data())
    replayer = Replayer(record)
    assert replayer.finished and replayer.last == len(record.steps)
    assert [note["text"] for note in replayer.notes_until(replayer.last)] == ["gg"]
    assert replayer.notes_until(2) == []  # said after the third step
    assert GameRecord.from_data(record.to_data()).to_data() == record.to_data()


def test_every_seat_sees_its_hand_at_every_step(tmp_path: Path) -> None:
    archive(tmp_path, journal_of("kitten"))
    replayer = Replayer(read_archived(tmp_path, "t7"))
    for index in (0, replayer.last // 2, replayer.last):
        for seat in (0, 1):
            assert replayer.view(index, seat)["seat"] == seat
    assert replayer.rounds()[0] == 0


def test_a_game_not_over_is_refused_and_not_listed(tmp_path: Path) -> None:
    archive(tmp_path, journal_of("catchy", finish=False, table_id="t3"), "t3")
    archive(tmp_path, journal_of("kitten", table_id="t4"), "t4")
    with pytest.raises(ReplayError) as refused:
        read_archived(tmp_path, "t3")
    assert refused.value.code == "not_finished"
    listed = list_archived(tmp_path)
    assert [row["table"] for row in listed] == ["t4"]
    assert listed[0]["players"] == PLAYERS and listed[0]["winners"]


def test_unknown_or_bad_ids_are_no_such_replay(tmp_path: Path) -> None:
    for table_id in ("t99", "../tables/t1", ""):
        with pytest.raises(ReplayError) as refused:
            read_archived(tmp_path, table_id)
        assert refused.value.code == "no_such_replay"


def test_export_has_seed_options_actions_and_the_public_log(tmp_path: Path) -> None:
    records = journal_of("blackcat")
    lines = export_lines(record_of(records))
    assert lines[0]["kind"] == "game" and lines[0]["seed"] == 3
    kinds = {line["kind"] for line in lines}
    assert {"action", "log", "note", "outcome"} <= kinds
    json.dumps(lines)  # JSON-ready


def test_restore_steps_over_chat_and_ruling_records() -> None:
    records = journal_of("catchy", finish=False)
    records.append({"r": "ruling", "after": 3, "events": []})
    table = restore(records, lambda record: None)
    plain = restore([r for r in records if r["r"] not in ("chat", "ruling")], lambda r: None)
    assert table.version == plain.version
    assert table.game.view(table.state, 0) == plain.game.view(plain.state, 0)


async def test_a_host_lists_and_gives_finished_games_only(tmp_path: Path) -> None:
    archive(tmp_path, journal_of("kitten", table_id="t4"), "t4")
    async with running_host(tmp_path) as host:
        playing = host.create_table("catchy", bots=1).table.id
        ann = Client("127.0.0.1", host.port, "Ann", reconnect=False)
        await ann.connect()
        await ann.join(playing)
        listed = await ann.list_replays()
        assert [row["table"] for row in listed] == ["t4"]
        replay = await ann.get_replay("t4")
        assert replay["players"] == PLAYERS and replay["steps"]
        assert Replayer(GameRecord.from_data(replay)).finished
        with pytest.raises(ClientError) as refused:
            await ann.get_replay(playing)
        assert refused.value.code == "not_finished"
        with pytest.raises(ClientError) as missing:
            await ann.get_replay("t99")
        assert missing.value.code == "no_such_replay"
        await ann.close()


def test_a_ruling_is_shown_with_the_move_it_explains() -> None:
    records = journal_of("blackcat")
    figures = {"kind": "ruling", "text": "Ann was first by 40 ms", "data": {"margin_ns": 40}}
    records.insert(6, {"r": "ruling", "seat": 0, "events": [figures]})
    record = record_of(records)
    ruling = next(note for note in record.notes if note["kind"] == "ruling")
    assert ruling["after"] == 3 and ruling["events"][0]["data"]["margin_ns"] == 40
