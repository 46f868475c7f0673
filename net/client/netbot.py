"""Bots that play over the network, as a remote player would (``clowder bot``).

Each bot is an ordinary :class:`~net.client.client.Client`: it joins a table, gets
its seat's view and nothing else, and sends the action its engine bot picks.
They exist for LAN tests and soak runs, and to fill seats from another box.

At a real-time table (the game's view carries a ``reveal``) a bot plays like a
person at a terminal: it stamps ``drawn_ns`` when the view arrives, waits its
brain's ``reaction_s`` (set by each choice), stamps ``acted_ns`` and sends the
claim with the three stamps, so the host's arbiter can rank it fairly. Like
a person, it keeps watching while it reacts: when a newer view arrives (the
card was taken by someone else) it drops the plan and reacts to the new card
from the moment that arrived, rather than finishing a stale reaction first
and starting late on the next card. At a turn-based table it waits
``delay_s`` and sends the action plainly.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from engine import registry
from engine.bots import default_bot, make_bot
from net.client.client import Client, ClientError, ConnectionState
from net.wire.messages import Error, Message, View

DEFAULT_DELAY_S = 0.3


async def play_seat(
    host: str,
    port: int,
    table: str,
    name: str,
    *,
    bot: str | None = None,
    delay_s: float = DEFAULT_DELAY_S,
    reaction_scale: float = 1.0,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Join ``table`` as ``name`` and play until the game ends; returns the outcome.

    ``reaction_scale`` multiplies the brain's reaction times at real-time
    tables (2.0: a bot half as quick).
    """
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
        rules = registry.get(game)
        brain = make_bot(game, bot or default_bot(game), seed)
        taken = {str(seat.get("name")) for seat in tables[table].get("seats") or []}
        free_name = free_name_for(name, taken)
        if free_name != name:  # another bot of that name already sits there: say hello anew
            await client.close()
            name = free_name
            client = Client(host, port, name)
            await client.connect()
        joined = await client.join(table)
        log(f"{name} sits at seat {joined.seat} of {table} ({game})")
        last_version = -1
        held: list[Message | ConnectionState] = []
        while True:
            view = None
            # Take every message already waiting: a bot that waited out its reaction
            # acts on what is on the table now, not on a card taken meanwhile.
            batch = held or [await client.incoming.get()]
            held = []
            while not client.incoming.empty():
                batch.append(client.incoming.get_nowait())
            for message in batch:
                if isinstance(message, ConnectionState):
                    log(f"{name}: {message.detail}")
                    last_version = -1  # an action sent just before a drop may be lost: act again
                elif isinstance(message, Error):
                    log(f"{name}: the host refused: {message.message}")
                elif isinstance(message, View) and message.table == table:
                    view = message
            if view is None or view.view is None or view.starting:
                continue  # before the deal, or the countdown: nobody may act yet
            game_view = view.view
            if view.game_outcome is not None:
                return view.game_outcome
            if view.version <= last_version:
                continue
            last_version = view.version
            drawn_ns = time.monotonic_ns()
            action = brain.choose(game_view)
            if action is None:
                continue
            reveal = view.open_reveal
            try:
                if reveal is None:
                    await asyncio.sleep(delay_s)
                    await client.act(table, action)
                    continue
                # A real-time moment is open: whatever the bot does, it does as a person
                # reacting to it; a claim carries its stamps, anything else goes as it is.
                if not await react(
                    client, table, view.version, brain.reaction_s * reaction_scale, held
                ):
                    continue  # a newer view came first: the card is gone
                if rules.is_claim(action):
                    acted_ns = time.monotonic_ns()
                    await client.act(
                        table, action, reveal=reveal, drawn_ns=drawn_ns, acted_ns=acted_ns
                    )
                else:
                    await client.act(table, action)
            except ClientError as error:  # dropped: the host resends the view on return
                log(f"{name}: {error.message}")
    finally:
        await client.close()


def free_name_for(name: str, taken: set[str]) -> str:
    """``name``, or ``name 2``, ``name 3``... (``NetBot 1`` becomes ``NetBot 2``): the first
    not ``taken`` at the table, so bots started from several machines all find a seat."""
    if name not in taken:
        return name
    stem, _, number = name.rpartition(" ")
    if not (stem and number.isdigit()):
        stem, number = name, "1"
    for next_number in range(int(number) + 1, int(number) + 100):
        candidate = f"{stem} {next_number}"[:32]
        if candidate not in taken:
            return candidate
    return name


async def react(
    client: Client,
    table: str,
    version: int,
    seconds: float,
    held: list[Message | ConnectionState],
) -> bool:
    """Wait ``seconds`` as a person reacting; ``False`` if a newer view of ``table`` came first.

    Whatever arrives meanwhile is appended to ``held`` for the caller to handle.
    """
    async for message in client.arrivals(seconds):
        held.append(message)
        if isinstance(message, View) and message.table == table and message.version > version:
            return False
        if isinstance(message, ConnectionState) and not message.connected:
            return False
    return True


async def play_seats(
    host: str,
    port: int,
    table: str,
    seats: int,
    *,
    bot: str | None = None,
    delay_s: float = DEFAULT_DELAY_S,
    reaction_scale: float = 1.0,
    names: list[str] | None = None,
    log: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Several bots at one table, each on its own connection."""
    names = names or [f"NetBot {i + 1}" for i in range(seats)]
    jobs = [
        play_seat(
            host,
            port,
            table,
            names[i],
            bot=bot,
            delay_s=delay_s,
            reaction_scale=reaction_scale,
            seed=i,
            log=log,
        )
        for i in range(seats)
    ]
    return list(await asyncio.gather(*jobs))
