"""Discovery: TXT encoding, rate-limited updates, and real mDNS inside private namespaces.

The mDNS tests never send multicast from the namespace pytest runs in: each
builds its own (``tests.net.netns``) and runs the discovery code there, in
child processes, and skips with the reason if namespaces cannot be made.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from net.client.discovery import (
    SERVICE_TYPE,
    TXT_STRING_MAX,
    Advertiser,
    DiscoveryError,
    HostInfo,
    TableSummary,
    choose_interfaces,
    decode_txt,
    encode_txt,
)
from tests.net.netns import (
    LineReader,
    MiniLan,
    python_command,
    spawn_loopback_only,
    unavailable_reason,
)

WAIT_S = 15.0
"""Longest wait for one expected line from a child; a hang fails, it does not block."""

needs_netns = pytest.mark.skipif(unavailable_reason() is not None, reason=str(unavailable_reason()))


def _as_bytes(properties: dict[str, str]) -> dict[bytes, bytes | None]:
    return {key.encode(): value.encode() for key, value in properties.items()}


# --- TXT ----------------------------------------------------------------------------------


def test_txt_round_trip_keeps_every_field() -> None:
    tables = [
        TableSummary("t1", "catchy", 1),
        TableSummary("t2", "blackcat", 0),
        TableSummary("t3", "blackcat", 2),
    ]
    properties = encode_txt(
        protocol_version=3, name="Bea's laptop", games=["catchy", "blackcat"], tables=tables
    )
    assert properties == {
        "pv": "3",
        "name": "Bea's laptop",
        "games": "catchy,blackcat",
        "tables": "3",
        "free": "t1:catchy:1,t3:blackcat:2",
    }
    fields = decode_txt(_as_bytes(properties))
    assert fields.protocol_version == 3
    assert fields.name == "Bea's laptop"
    assert fields.games == ("catchy", "blackcat")
    assert fields.table_count == 3
    assert fields.open_tables == (tables[0], tables[2])
    assert fields.open_tables_omitted == 0


def test_separators_inside_ids_survive_the_round_trip() -> None:
    table = TableSummary("a,b:c%d", "cat:chy", 4)
    properties = encode_txt(protocol_version=1, name="x", games=["cat,chy"], tables=[table])
    assert properties["free"].count(":") == 2
    fields = decode_txt(_as_bytes(properties))
    assert fields.open_tables == (table,)
    assert fields.games == ("cat,chy",)


def test_many_tables_are_cut_at_whole_items_and_counted() -> None:
    tables = [TableSummary(f"table-{i:03}", "blackcat", 1 + i % 4) for i in range(60)]
    properties = encode_txt(protocol_version=1, name="n" * 400, games=["catchy"], tables=tables)
    for key, value in properties.items():
        assert len(f"{key}={value}".encode()) <= TXT_STRING_MAX
    fields = decode_txt(_as_bytes(properties))
    kept = len(fields.open_tables)
    assert 0 < kept < 60
    assert fields.open_tables == tuple(tables[:kept])
    assert fields.open_tables_omitted == 60 - kept
    assert properties["more"] == str(60 - kept)
    assert fields.table_count == 60


def test_a_long_unicode_name_is_cut_without_breaking_a_character() -> None:
    properties = encode_txt(protocol_version=1, name="ü" * 300, games=[], tables=[])
    assert len(("name=" + properties["name"]).encode()) <= TXT_STRING_MAX
    assert set(properties["name"]) == {"ü"}


def test_malformed_txt_from_the_network_becomes_defaults() -> None:
    fields = decode_txt(
        {
            b"pv": b"two",
            b"games": b",,catchy,",
            b"tables": b"-1",
            b"free": b"t1:catchy:x,t2:catchy,:catchy:1,t3:catchy:0,t4:blackcat:2,\xff:a:1",
            b"more": None,
        }
    )
    assert fields.protocol_version is None
    assert fields.name is None
    assert fields.games == ("catchy",)
    assert fields.open_tables == (
        TableSummary("t4", "blackcat", 2),
        TableSummary("\ufffd", "a", 1),
    )
    assert fields.open_tables_omitted == 0
    assert fields.table_count == 2


def test_table_summary_rejects_impossible_values() -> None:
    with pytest.raises(ValueError, match="free seats"):
        TableSummary("t1", "catchy", -1)
    with pytest.raises(ValueError, match="id"):
        TableSummary("", "catchy", 1)


def test_host_info_same_content_ignores_last_seen() -> None:
    host = HostInfo("h._clowder._tcp.local.", "h", ("10.0.0.1",), 7, 1, (), 0, (), 0, 1.0)
    later = HostInfo("h._clowder._tcp.local.", "h", ("10.0.0.1",), 7, 1, (), 0, (), 0, 9.0)
    changed = HostInfo("h._clowder._tcp.local.", "h", ("10.0.0.1",), 8, 1, (), 0, (), 0, 1.0)
    assert host.same_content(later)
    assert not host.same_content(changed)
    assert host.endpoint == "10.0.0.1:7"


def test_a_bound_address_is_the_only_interface() -> None:
    assert choose_interfaces("198.18.0.9") == ["198.18.0.9"]


@pytest.mark.parametrize("bind", ["::1", "localhost", "300.1.1.1"])
def test_a_bind_discovery_cannot_use_is_a_clear_error(bind: str) -> None:
    with pytest.raises(DiscoveryError, match="host:port"):
        choose_interfaces(bind)


# --- rate limiting, with a stand-in for zeroconf (no sockets at all) ----------------------


class FakeZeroconf:
    """Records what an Advertiser asks zeroconf to do; sends nothing."""

    def __init__(self) -> None:
        self.registered: list[str] = []
        self.updates: list[dict[str, str | None]] = []
        self.unregistered: list[str] = []

    @staticmethod
    def _done() -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future

    async def async_register_service(self, info: Any, allow_name_change: bool) -> Any:
        assert allow_name_change
        self.registered.append(info.name)
        return self._done()

    async def async_update_service(self, info: Any) -> Any:
        self.updates.append(dict(info.decoded_properties))
        return self._done()

    async def async_unregister_service(self, info: Any) -> Any:
        self.unregistered.append(info.name)
        return self._done()


async def test_a_burst_of_updates_is_sent_once_with_the_latest_state() -> None:
    fake = FakeZeroconf()
    advertiser = Advertiser(
        port=7000,
        protocol_version=1,
        name="Bea.home",
        bind="127.0.0.1",
        min_update_interval_s=0.05,
        zeroconf=fake,  # type: ignore[arg-type]
    )
    async with advertiser:
        assert fake.registered == [f"Bea-home.{SERVICE_TYPE}"]
        for free in range(1, 31):
            advertiser.update(tables=[TableSummary("t1", "catchy", free)])
        await advertiser.flush()
        assert len(fake.updates) == 1
        assert fake.updates[0]["free"] == "t1:catchy:30"

        advertiser.update(tables=[TableSummary("t1", "catchy", 30)])
        await advertiser.flush()
        assert len(fake.updates) == 1, "an unchanged TXT is not sent again"

        advertiser.update(games=["catchy", "kiitos"])
        await advertiser.flush()
        assert len(fake.updates) == 2
        assert fake.updates[1]["games"] == "catchy,kiitos"
    assert fake.unregistered == [f"Bea-home.{SERVICE_TYPE}"]
    assert not advertiser.running


async def test_the_instance_name_is_unknown_before_start() -> None:
    advertiser = Advertiser(port=7000, protocol_version=1, bind="127.0.0.1")
    with pytest.raises(DiscoveryError, match="start"):
        _ = advertiser.instance


# --- real mDNS inside private namespaces --------------------------------------------------

_HOST_AGENT = """
import asyncio, json, sys
from net.client.discovery import Advertiser, TableSummary

def tables(spec):
    return [TableSummary(*table) for table in spec]

async def main():
    config = json.loads(sys.argv[1])
    loop = asyncio.get_running_loop()
    async with Advertiser(port=config["port"], protocol_version=1, name=config["name"],
                          games=config["games"], tables=tables(config["tables"]),
                          min_update_interval_s=0.2) as advertiser:
        print(json.dumps({"instance": advertiser.instance}), flush=True)
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            advertiser.update(tables=tables(json.loads(line)))
            await advertiser.flush()
            print(json.dumps({"updated": True}), flush=True)

asyncio.run(main())
"""

_BROWSER_AGENT = """
import asyncio, dataclasses, json, sys
from net.client.discovery import Browser

async def main():
    async with Browser() as browser:
        print(json.dumps({"kind": "ready"}), flush=True)
        async for event in browser:
            print(json.dumps({"kind": event.kind.value, **dataclasses.asdict(event.host)}),
                  flush=True)

asyncio.run(main())
"""


def _host_config(name: str, port: int, tables: list[list[Any]]) -> str:
    return json.dumps(
        {"name": name, "port": port, "games": ["catchy", "blackcat"], "tables": tables}
    )


def _next_event(browser: LineReader, instance: str) -> dict[str, Any]:
    """The browser's next event about ``instance`` (events about other hosts are skipped)."""
    while True:
        event: dict[str, Any] = json.loads(browser.next(WAIT_S))
        if event.get("instance") == instance:
            return event


@needs_netns
@pytest.mark.netns
def test_a_host_on_one_machine_is_found_updated_and_gone_on_another() -> None:
    with MiniLan(2) as lan:
        browser = LineReader(lan.spawn(2, python_command(_BROWSER_AGENT)))
        assert json.loads(browser.next(WAIT_S)) == {"kind": "ready"}
        config = _host_config("Bea's laptop", 7777, [["t1", "catchy", 1], ["t2", "catchy", 0]])
        host_process = lan.spawn(1, [*python_command(_HOST_AGENT), config])
        host = LineReader(host_process)
        instance = json.loads(host.next(WAIT_S))["instance"]
        assert instance == f"Bea's laptop.{SERVICE_TYPE}"

        added = _next_event(browser, instance)
        assert added["kind"] == "added"
        assert added["name"] == "Bea's laptop"
        assert added["addresses"] == [lan.address(1)]
        assert added["port"] == 7777
        assert added["protocol_version"] == 1
        assert added["games"] == ["catchy", "blackcat"]
        assert added["table_count"] == 2
        assert added["open_tables"] == [{"table_id": "t1", "game": "catchy", "free_seats": 1}]

        assert host_process.stdin is not None
        host_process.stdin.write(json.dumps([["t1", "catchy", 0], ["t2", "blackcat", 3]]) + "\n")
        host_process.stdin.flush()
        assert json.loads(host.next(WAIT_S)) == {"updated": True}
        updated = _next_event(browser, instance)
        assert updated["kind"] == "updated"
        assert updated["open_tables"] == [{"table_id": "t2", "game": "blackcat", "free_seats": 3}]
        assert updated["last_seen"] >= added["last_seen"]

        host_process.stdin.close()
        assert host_process.wait(timeout=WAIT_S) == 0
        removed = _next_event(browser, instance)
        assert removed["kind"] == "removed"
        assert removed["open_tables"] == updated["open_tables"]


@needs_netns
@pytest.mark.netns
def test_two_hosts_with_one_name_get_distinct_instances() -> None:
    with MiniLan(3) as lan:
        browser = LineReader(lan.spawn(3, python_command(_BROWSER_AGENT)))
        assert json.loads(browser.next(WAIT_S)) == {"kind": "ready"}
        first = LineReader(lan.spawn(1, [*python_command(_HOST_AGENT), _host_config("den", 1, [])]))
        first_instance = json.loads(first.next(WAIT_S))["instance"]
        second = LineReader(
            lan.spawn(2, [*python_command(_HOST_AGENT), _host_config("den", 2, [])])
        )
        second_instance = json.loads(second.next(WAIT_S))["instance"]
        assert first_instance == f"den.{SERVICE_TYPE}"
        assert second_instance == f"den-2.{SERVICE_TYPE}"
        seen = {_next_event(browser, first_instance)["addresses"][0]}
        seen.add(_next_event(browser, second_instance)["addresses"][0])
        assert seen == {lan.address(1), lan.address(2)}


_LOOPBACK_AGENT = """
import asyncio, json
from net.client.discovery import Advertiser, Browser, TableSummary, choose_interfaces, discover

async def main():
    report = {"interfaces": choose_interfaces()}
    async with Browser() as browser:
        events = browser.events()
        async with Advertiser(port=7100, protocol_version=1, name="solo", games=["catchy"],
                              tables=[TableSummary("t1", "catchy", 2)],
                              min_update_interval_s=0.1) as advertiser:
            added = await anext(events)
            report["discovered"] = [host.endpoint for host in await discover(1.0)]
            advertiser.update(tables=[TableSummary("t1", "catchy", 1)])
            updated = await anext(events)
        removed = await anext(events)
    report["events"] = [
        [event.kind.value, event.host.name, event.host.endpoint,
         [table.free_seats for table in event.host.open_tables]]
        for event in (added, updated, removed)
    ]
    print(json.dumps(report), flush=True)

asyncio.run(asyncio.wait_for(main(), 20))
"""


@needs_netns
@pytest.mark.netns
def test_discovery_works_in_a_loopback_only_namespace() -> None:
    process = spawn_loopback_only(python_command(_LOOPBACK_AGENT))
    try:
        report = json.loads(LineReader(process).next(WAIT_S + 10))
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=WAIT_S)
    assert report["interfaces"] == ["127.0.0.1"]
    assert report["discovered"] == ["127.0.0.1:7100"]
    assert report["events"] == [
        ["added", "solo", "127.0.0.1:7100", [2]],
        ["updated", "solo", "127.0.0.1:7100", [1]],
        ["removed", "solo", "127.0.0.1:7100", [1]],
    ]
