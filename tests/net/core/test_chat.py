"""Table chat (net.core.chat): limits, who hears whom, the journal, and the host's refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from net.core.chat import MAX_CHAT, ChatBudget, ChatRefused, clean_line, hears
from net.core.tables import restore
from net.store.journal import read_records
from net.store.replays import record_of
from net.wire.messages import Chat, ChatRule, Join, Role
from tests.net.hosting import RawClient, running_host

pytestmark = pytest.mark.timeout(30)


def test_a_line_is_trimmed_and_refused_empty_or_too_long() -> None:
    assert clean_line("  good   game ") == "good game"
    for bad in ("", "   ", "x" * (MAX_CHAT + 1)):
        with pytest.raises(ChatRefused):
            clean_line(bad)


def test_the_budget_takes_a_burst_then_one_line_every_two_seconds() -> None:
    budget = ChatBudget()
    for _ in range(5):
        budget.spend(0.0)
    with pytest.raises(ChatRefused):
        budget.spend(1.0)
    budget.spend(2.5)
    with pytest.raises(ChatRefused):
        budget.spend(2.6)


def test_spectators_are_kept_from_players_only_when_hidden_and_the_game_is_on() -> None:
    assert hears(0, 1, hidden=True, game_on=True)  # players hear players
    assert hears(None, 1, hidden=True, game_on=True)  # spectators hear players
    assert hears(None, None, hidden=True, game_on=True)  # and each other
    assert not hears(0, None, hidden=True, game_on=True)
    assert hears(0, None, hidden=True, game_on=False)  # before or after the game
    assert hears(0, None, hidden=False, game_on=True)


async def seated(port: int, table: str, *names: str) -> list[RawClient]:
    return [await at_table(port, table, name, "player") for name in names]


async def watching(port: int, table: str, name: str) -> RawClient:
    """``name`` watching ``table`` as a spectator."""
    return await at_table(port, table, name, "spectator")


async def at_table(port: int, table: str, name: str, role: Role) -> RawClient:
    """``name`` at ``table`` in ``role``, told the table's chat rule as it joined."""
    client = await RawClient.connect(port, name)
    client.send(Join(table=table, role=role))
    await client.expect("joined")
    told = await client.expect("chat_rule")  # every newcomer is told the rule in force
    assert told.get("name") is None and told["spectator_chat"] in ("shown", "hidden")
    return client


async def said(client: RawClient) -> dict[str, Any]:
    return await client.expect("chat")


async def test_chat_goes_around_the_table_and_into_the_journal(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", seats=2).table.id
        ann, bea = await seated(host.port, table, "Ann", "Bea")
        sam = await watching(host.port, table, "Sam")
        ann.send(Chat(table=table, text=" gg "))
        for client in (ann, bea, sam):
            line = await said(client)
            assert (line["name"], line["seat"], line["text"]) == ("Ann", 0, "gg")
        sam.send(Chat(table=table, text="nice"))
        line = await said(bea)  # shown by default
        assert (line["name"], line.get("seat"), line["text"]) == ("Sam", None, "nice")
        records = read_records(tmp_path / "tables" / f"{table}.log")
        chats = [r for r in records if r["r"] == "chat"]
        assert [(r["name"], r["text"]) for r in chats] == [("Ann", "gg"), ("Sam", "nice")]
        rebuilt = restore(records, lambda record: None)
        assert rebuilt.version == host.runners[table].table.version
        assert [n["text"] for n in record_of(records).notes] == ["gg", "nice"]
        for client in (ann, bea, sam):
            await client.close()


async def test_hidden_spectator_chat_never_reaches_players_during_the_game(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", {"spectator_chat": "hidden"}, seats=2).table.id
        ann, bea = await seated(host.port, table, "Ann", "Bea")
        sam = await watching(host.port, table, "Sam")
        sam.send(Chat(table=table, text="Ann holds the red three"))
        assert (await said(sam))["text"] == "Ann holds the red three"
        ann.send(Chat(table=table, text="hello"))
        for client in (ann, bea):  # the next line a player gets is Ann's, not Sam's
            assert (await said(client))["text"] == "hello"
            assert all("red three" not in str(frame) for frame in client.received)
        for client in (ann, bea, sam):
            await client.close()


async def test_the_host_refuses_long_unsafe_fast_and_absent_chat(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", seats=2).table.id
        (ann,) = await seated(host.port, table, "Ann")
        ann.send({"type": "chat", "table": table, "text": "x" * (MAX_CHAT + 1)})
        assert (await ann.expect("error"))["code"] == "bad_field"
        ann.send({"type": "chat", "table": table, "text": "hi\x1b[2J"})
        assert (await ann.expect("error"))["code"] == "bad_field"
        for _ in range(5):
            ann.send(Chat(table=table, text="spam"))
            await said(ann)
        ann.send(Chat(table=table, text="spam"))
        assert (await ann.expect("error"))["code"] == "chat_refused"
        outsider = await RawClient.connect(host.port, "Zed")
        outsider.send(Chat(table=table, text="hi"))
        assert (await outsider.expect("error"))["code"] == "not_at_table"
        with pytest.raises(Exception, match="spectator_chat"):
            host.create_table("catchy", {"spectator_chat": "whispered"}, seats=2)
        await ann.close()
        await outsider.close()


def test_the_hidden_rule_is_read_back_from_the_journal() -> None:
    from net.core.chat import rule_of

    assert rule_of([{"r": "table"}]) == "shown"
    assert rule_of([{"r": "table"}, {"r": "chat_rule", "spectator_chat": "hidden"}]) == "hidden"


async def test_the_hidden_rule_survives_a_host_restart(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", {"spectator_chat": "hidden"}, seats=2).table.id
    async with running_host(tmp_path) as host:
        assert host.runners[table].spectator_chat == "hidden"


async def test_a_player_mutes_the_spectators_during_the_game_and_hears_them_again(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", seats=2).table.id
        ann, bea = await seated(host.port, table, "Ann", "Bea")
        sam = await watching(host.port, table, "Sam")
        sam.send(ChatRule(table=table, spectator_chat="hidden"))
        assert (await sam.expect("error"))["code"] == "players_only"
        assert host.runners[table].spectator_chat == "shown"

        ann.send(ChatRule(table=table, spectator_chat="hidden"))
        for client in (ann, bea, sam):  # everyone is told, the spectators too
            rule = await client.expect("chat_rule")
            assert (rule["spectator_chat"], rule["name"], rule["seat"]) == ("hidden", "Ann", 0)
        ann.send(ChatRule(table=table, spectator_chat="hidden"))  # already so: nothing said
        sam.send(Chat(table=table, text="Ann holds the red three"))
        assert (await said(sam))["text"] == "Ann holds the red three"
        ann.send(Chat(table=table, text="hello"))
        for client in (ann, bea):
            assert (await said(client))["text"] == "hello"
            assert all("red three" not in str(frame) for frame in client.received)
            heard = [frame for frame in client.received if frame["type"] == "chat_rule"]
            assert [rule.get("name") for rule in heard] == [None, "Ann"]  # joining, Ann's

        late = await watching(host.port, table, "Lou")  # a watcher who comes later is told
        told = [frame for frame in late.received if frame["type"] == "chat_rule"]
        assert [(rule["spectator_chat"], rule.get("name")) for rule in told] == [("hidden", None)]

        bea.send(ChatRule(table=table, spectator_chat="shown"))
        for client in (ann, bea, sam, late):
            rule = await client.expect("chat_rule")
            assert (rule["spectator_chat"], rule["name"]) == ("shown", "Bea")
        sam.send(Chat(table=table, text="back"))
        assert (await said(ann))["text"] == "back"

        records = read_records(tmp_path / "tables" / f"{table}.log")
        rules = [(r["spectator_chat"], r["name"]) for r in records if r["r"] == "chat_rule"]
        assert rules == [("hidden", "Ann"), ("shown", "Bea")]
        kinds = [(n["kind"], n.get("name")) for n in record_of(records).notes]
        first = [("chat_rule", "Ann"), ("chat", "Sam"), ("chat", "Ann")]
        assert kinds == [*first, ("chat_rule", "Bea"), ("chat", "Sam")]
        assert restore(records, lambda record: None).version == host.runners[table].table.version
        ann.send({"type": "chat_rule", "table": table, "spectator_chat": "whispered"})
        assert (await ann.expect("error"))["code"] == "bad_field"
        for client in (ann, bea, sam, late):
            await client.close()


async def test_a_player_back_at_their_seat_learns_the_rule_set_while_they_were_away(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", seats=2).table.id
        ann = await RawClient.connect(host.port, "Ann")
        ann.send(Join(table=table, role="player"))
        token = (await ann.expect("joined"))["token"]
        (bea,) = await seated(host.port, table, "Bea")
        await ann.close()
        bea.send(ChatRule(table=table, spectator_chat="hidden"))
        assert (await bea.expect("chat_rule"))["name"] == "Bea"
        back = await RawClient.connect(host.port, "Ann", token=token)
        await back.expect("joined")
        told = await back.expect("chat_rule")
        assert (told["spectator_chat"], told.get("name")) == ("hidden", None)
        for client in (back, bea):
            await client.close()


async def test_a_rule_a_player_set_survives_a_host_restart(tmp_path: Path) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy", seats=2).table.id
        ann, bea = await seated(host.port, table, "Ann", "Bea")
        ann.send(ChatRule(table=table, spectator_chat="hidden"))
        await bea.expect("chat_rule")
        for client in (ann, bea):
            await client.close()
    async with running_host(tmp_path) as host:
        assert host.runners[table].spectator_chat == "hidden"
