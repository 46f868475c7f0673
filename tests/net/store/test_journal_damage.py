"""A damaged journal stops no other table (issue 14, attacks 3, 4 and the NaN tick of 6).

Each kind of damage is done to one table's journal of a stopped host; the
host starts again on the same directory and must resume every other table,
keep the damaged file aside (never overwritten), log one line naming it and
why, and never hand its id out again.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from net.core.tables import CorruptJournal, restore
from net.store.journal import read_records
from tests.net.hosting import RawClient, running_host

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[3]

Damage = Callable[[Path], None]


def append(data: bytes) -> Damage:
    def damage(path: Path) -> None:
        with open(path, "ab") as file:
            file.write(data)

    return damage


def rewrite(change: Callable[[list[dict[str, Any]]], list[Any]]) -> Damage:
    """Rewrite the journal's records through ``change`` (which may return non-maps)."""

    def damage(path: Path) -> None:
        records = change(read_records(path))
        path.write_bytes(b"".join(msgpack.packb(record) for record in records))

    return damage


def insert_bytes(data: bytes) -> Damage:
    """Put ``data`` between the first record and the rest."""

    def damage(path: Path) -> None:
        records = read_records(path)
        first, *rest = (msgpack.packb(record) for record in records)
        path.write_bytes(first + data + b"".join(rest))

    return damage


def without(key: str) -> Callable[[list[dict[str, Any]]], list[Any]]:
    def change(records: list[dict[str, Any]]) -> list[Any]:
        header = {k: v for k, v in records[0].items() if k != key}
        return [header, *records[1:]]

    return change


def header(**changes: Any) -> Callable[[list[dict[str, Any]]], list[Any]]:
    return lambda records: [{**records[0], **changes}, *records[1:]]


def then(*extra: Any) -> Callable[[list[dict[str, Any]]], list[Any]]:
    return lambda records: [*records, *extra]


DAMAGES: dict[str, Damage] = {
    "a byte appended (the issue's printf '\\x05')": append(b"\x05"),
    "a record that is not a map": rewrite(lambda records: [records[0], [1, 2], *records[1:]]),
    "garbage in the middle": insert_bytes(b"\xc1\xc1\xc1"),
    "a header missing its id": rewrite(without("id")),
    "a header missing its game": rewrite(without("game")),
    "a header naming another table": rewrite(header(id="t1")),
    "a header with an unknown game": rewrite(header(game="chess")),
    "a header with a NaN takeover": rewrite(header(takeover_s=math.nan)),
    "a tick at NaN": rewrite(then({"r": "tick", "now": math.nan})),
    "a tick going back in time": rewrite(
        then({"r": "tick", "now": 5.0}, {"r": "tick", "now": 1.0})
    ),
    "a record of an unknown kind": rewrite(then({"r": "party"})),
    "an illegal action": rewrite(then({"r": "act", "seat": 0, "action": {"type": "x"}, "now": 1})),
    "an empty file": rewrite(lambda records: []),
}


async def make_tables(state: Path) -> str:
    """t1: a Catchy! table played by bots; t2: one with a player seated. Returns t2's token."""
    async with running_host(state) as host:
        host.create_table("catchy", {"target": 2}, bots=2)
        host.create_table("catchy", bots=1)
        ann = await RawClient.connect(host.port, "Ann")
        ann.send({"type": "join", "table": "t2", "role": "player"})
        token = str((await ann.expect("joined"))["token"])
        await ann.expect("view")
        await asyncio.sleep(0.2)  # a few moves at both tables
        await ann.close()
    return token


@pytest.mark.parametrize("kind", list(DAMAGES))
async def test_a_damaged_journal_is_set_aside_and_the_others_resume(
    tmp_path: Path, kind: str
) -> None:
    token = await make_tables(tmp_path)
    tables = tmp_path / "tables"
    DAMAGES[kind](tables / "t2.log")
    damaged_bytes = (tables / "t2.log").read_bytes()
    async with running_host(tmp_path) as host:
        lines: list[str] = host.log_lines  # type: ignore[attr-defined]
        assert list(host.runners) == ["t1"]
        [line] = [line for line in lines if "Damaged" in line]
        assert str(tables / "t2.log") in line and "kept as t2.log.damaged" in line
        assert (tables / "t2.log.damaged").read_bytes() == damaged_bytes
        assert not (tables / "t2.log").exists()
        # Its id is never handed out again, and its token holds no seat.
        assert host.create_table("catchy").table.id == "t3"
        mallory = await RawClient.connect(host.port, "Ann", token=token)
        assert (await mallory.expect("error"))["code"] == "bad_token"
        await mallory.close()
    async with running_host(tmp_path) as host:  # the next start: no new damage
        assert sorted(host.runners) == ["t1", "t3"]
        assert not [line for line in host.log_lines if "Damaged" in line]  # type: ignore[attr-defined]
        assert host.create_table("catchy").table.id == "t4"


async def test_a_damaged_copy_is_never_overwritten(tmp_path: Path) -> None:
    await make_tables(tmp_path)
    tables = tmp_path / "tables"
    (tables / "t2.log.damaged").write_bytes(b"an earlier damaged copy")
    append(b"\x05")(tables / "t2.log")
    append(b"\x06")(tables / "t1.log")
    async with running_host(tmp_path) as host:
        assert not host.runners  # every table damaged: the host still starts and serves
        assert (tables / "t2.log.damaged").read_bytes() == b"an earlier damaged copy"
        assert (tables / "t2.log.damaged.2").read_bytes().endswith(b"\x05")
        assert (tables / "t1.log.damaged").read_bytes().endswith(b"\x06")
        assert host.create_table("catchy").table.id == "t3"
        ann = await RawClient.connect(host.port, "Ann")
        await ann.close()


def test_restore_refuses_non_finite_and_backward_times() -> None:
    head = {"r": "table", "id": "t1", "game": "catchy", "options": {}, "seed": 1, "seats": 2}
    for bad in (math.nan, math.inf, "soon", None, True):
        with pytest.raises(CorruptJournal, match="finite"):
            restore([head, {"r": "tick", "now": bad}], lambda record: None)
    with pytest.raises(CorruptJournal, match="earlier"):
        restore([head, {"r": "tick", "now": 2.0}, {"r": "tick", "now": 1.0}], lambda r: None)
    with pytest.raises(CorruptJournal, match="no 'seed'"):
        restore([{k: v for k, v in head.items() if k != "seed"}], lambda record: None)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run_host_briefly(state: Path) -> str:
    """Start ``clowder host --table catchy`` on ``state``, let it open its table, stop it."""
    port = free_port()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "tui", "host", "--no-discovery", "--bind", "127.0.0.1"),
            *("--port", str(port), "--state-dir", str(state), "--table", "catchy"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
    )
    try:
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            await asyncio.sleep(0.05)
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert process.returncode == 0, output
    return output


async def test_attack_the_issues_reproduction_with_clowder_host(tmp_path: Path) -> None:
    """Run a host with --state-dir D, stop it, printf '\\x05' >> D/tables/t1.log, start it."""
    first = await run_host_briefly(tmp_path)
    assert "new Catchy! table" in first
    append(b"\x05")(tmp_path / "tables" / "t1.log")
    second = await run_host_briefly(tmp_path)
    assert "Traceback" not in second and "cannot host" not in second
    [line] = [line for line in second.splitlines() if "Damaged" in line]
    assert "t1.log" in line and "record 2 is not a map" in line
    assert "[t2] new Catchy! table" in second  # a fresh id for the replacement table
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [
        "t1.log.damaged",
        "t2.log",
    ]
