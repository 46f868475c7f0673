"""A network bot reacts like a person: it keeps watching while it reacts.

:func:`net.client.netbot.react` is driven with a stand-in client (just the incoming
queue, read by the real :meth:`Client.arrivals`), so the test controls exactly what
arrives and when.
"""

from __future__ import annotations

import asyncio
import functools
import time
from types import SimpleNamespace
from typing import Any

from net.client.client import Client, ConnectionState
from net.client.netbot import react
from net.wire.messages import Message, Presence, View


def view(version: int, table: str = "t1") -> View:
    return View(table=table, version=version, view={"reveal": version}, events=[])


def client() -> Any:
    stand_in: Any = SimpleNamespace(incoming=asyncio.Queue())
    stand_in.arrivals = functools.partial(Client.arrivals, stand_in)
    return stand_in


def held_messages() -> list[Message | ConnectionState]:
    """Where :func:`react` keeps what arrived while it reacted, for the bot."""
    return []


async def test_a_reaction_runs_its_full_time_when_nothing_changes() -> None:
    bot, held = client(), held_messages()
    started = time.monotonic()
    assert await react(bot, "t1", 3, 0.05, held) is True
    assert time.monotonic() - started >= 0.05 and held == []


async def test_a_newer_card_ends_the_reaction_at_once_and_is_kept_for_the_bot() -> None:
    bot, held = client(), held_messages()
    newer = view(4)
    asyncio.get_running_loop().call_later(0.01, bot.incoming.put_nowait, newer)
    started = time.monotonic()
    assert await react(bot, "t1", 3, 5.0, held) is False
    assert time.monotonic() - started < 1.0
    assert held == [newer]


async def test_other_messages_do_not_interrupt_but_are_kept() -> None:
    bot, held = client(), held_messages()
    other_table = view(9, table="t2")
    presence = Presence(table="t1", seats=[])
    for message in (other_table, presence, view(3)):
        bot.incoming.put_nowait(message)
    assert await react(bot, "t1", 3, 0.05, held) is True
    assert held == [other_table, presence, view(3)]


async def test_a_dropped_link_ends_the_reaction() -> None:
    bot, held = client(), held_messages()
    bot.incoming.put_nowait(ConnectionState(False, "lost"))
    assert await react(bot, "t1", 3, 5.0, held) is False
