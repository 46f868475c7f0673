"""Bots that play over the network, as a remote player would (``clowder bot``).

Each bot is an ordinary :class:`~net.client.Client`: it joins a table, gets
its seat's view and nothing else, and sends the action its engine bot picks.
They exist for LAN tests and soak runs, and to fill seats from another box.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from engine.bots import default_bot, make_bot
from net.client import Client, ClientError, ConnectionState
from net.messages import Error, View

DEFAULT_DELAY_S = 0.3


async def play_seat(
    host: str,
    port: int,
    table: str,
    name: str,
    *,
    bot: str | None = None,
    delay_s: float = DEFAULT_DELAY_S,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Join ``table`` as ``name`` and play until the game ends; returns the outcome."""
    client = Client(host, port, name)
    welcome = await client.connect()
    try:
        tables = {t["id"]: t for t in await client.list_tables()}
        if table not in tables:
            known = ", ".join(tables) or "none"
            raise ClientError(
                "no_such_table", f"{welcome.host_name} has no table {table!r} (tables: {known})"
            )
        game = tables[table]["game"]
        brain = make_bot(game, bot or default_bot(game), seed)
        joined = await client.join(table)
        log(f"{name} sits at seat {joined.seat} of {table} ({game})")
        last_version = -1
        while True:
            message = await client.incoming.get()
            if isinstance(message, ConnectionState):
                log(f"{name}: {message.detail}")
                last_version = -1  # an action sent just before a drop may be lost: act again
            elif isinstance(message, Error):
                log(f"{name}: the host refused: {message.message}")
            elif isinstance(message, View) and message.table == table:
                if message.outcome is not None:
                    return message.outcome
                if message.version <= last_version:
                    continue
                last_version = message.version
                action = brain.choose(message.view)
                if action is not None:
                    await asyncio.sleep(delay_s)
                    try:
                        await client.act(table, action)
                    except ClientError as error:  # dropped: the host resends the view on return
                        log(f"{name}: {error.message}")
    finally:
        await client.close()


async def play_seats(
    host: str,
    port: int,
    table: str,
    seats: int,
    *,
    bot: str | None = None,
    delay_s: float = DEFAULT_DELAY_S,
    names: list[str] | None = None,
    log: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Several bots at one table, each on its own connection."""
    names = names or [f"NetBot {i + 1}" for i in range(seats)]
    jobs = [
        play_seat(host, port, table, names[i], bot=bot, delay_s=delay_s, seed=i, log=log)
        for i in range(seats)
    ]
    return list(await asyncio.gather(*jobs))
