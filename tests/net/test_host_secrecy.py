"""Wire-level secrecy: decode every byte the host sends each seat, over hundreds of games.

No card in the other player's hand at that moment may appear anywhere in what
a seat receives (its view, outside the log and the previous round's summary,
and the events of that step), nor in what a spectator receives.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from engine.catchy import card_name
from net.messages import Act, Join
from tests.net.hosting import RawClient, running_host
from tests.secrecy import mentions

GAMES = 200
PARALLEL = 25

pytestmark = pytest.mark.timeout(240)


def mentioned(value: Any, cards: set[str]) -> set[str]:
    return mentions(value, cards, card_name)


async def play_one(port: int, table: str, seed: int) -> dict[str, list[dict[str, Any]]]:
    """Two random players and a spectator; returns every message each received."""
    rng = random.Random(seed)
    players = [await RawClient.connect(port, f"P{seed}-{seat}") for seat in (0, 1)]
    spectator = await RawClient.connect(port, f"S{seed}")
    spectator.send(Join(table=table, role="spectator"))
    for seat, client in enumerate(players):
        client.send(Join(table=table, role="player", seat=seat))
    finished = [False, False]

    async def drive(seat: int) -> None:
        client = players[seat]
        while True:
            message = await client.next(10)
            if message["type"] != "view":
                continue
            if message.get("outcome") is not None:
                finished[seat] = True
                return
            legal = message["view"].get("legal") or []
            if legal:
                client.send(Act(table=table, action=rng.choice(legal)))

    await asyncio.gather(drive(0), drive(1))
    await asyncio.sleep(0.05)
    while True:  # the spectator's remaining frames
        try:
            await spectator.next(0.2)
        except (TimeoutError, ConnectionError):
            break
    received = {"0": players[0].received, "1": players[1].received, "spectator": spectator.received}
    for client in (*players, spectator):
        await client.close()
    assert all(finished)
    return received


def hands_by_version(received: dict[str, list[dict[str, Any]]]) -> dict[int, list[set[str]]]:
    """Each seat's own hand at each version, as that seat was told it."""
    hands: dict[int, list[set[str]]] = defaultdict(lambda: [set(), set()])
    for seat in (0, 1):
        for message in received[str(seat)]:
            if message["type"] == "view" and message["view"].get("hand") is not None:
                hands[message["version"]][seat] = set(message["view"]["hand"]) - {"ST"}
    return hands


def check_game(received: dict[str, list[dict[str, Any]]]) -> int:
    hands = hands_by_version(received)
    versions = sorted(hands)
    previous = {v: versions[i - 1] for i, v in enumerate(versions) if i}
    checked = 0
    for who, messages in received.items():
        for message in messages:
            if message["type"] != "view" or message["version"] not in hands:
                continue
            version = message["version"]
            now = hands[version]
            hidden = now[0] | now[1] if who == "spectator" else now[1 - int(who)]
            current = {k: v for k, v in message["view"].items() if k not in ("log", "last_round")}
            assert not mentioned(current, hidden), (who, version, mentioned(current, hidden))
            before = hands.get(previous.get(version, -1), [set(), set()])
            if who == "spectator":
                still_hidden = (before[0] & now[0]) | (before[1] & now[1])
            else:
                other = 1 - int(who)
                still_hidden = before[other] & now[other]
            # A card played in this step is public, even if the next round deals it again.
            played = {e["data"]["card"] for e in message["events"] if e["kind"] == "play"}
            assert not mentioned(message["events"], still_hidden - played), (who, version)
            checked += 1
    return checked


async def test_no_hidden_card_ever_crosses_the_wire(tmp_path: Path) -> None:
    checked = 0
    async with running_host(None) as host:
        for batch in range(GAMES // PARALLEL):
            tables = [host.create_table("catchy").table.id for _ in range(PARALLEL)]
            results = await asyncio.gather(
                *(play_one(host.port, t, batch * PARALLEL + i) for i, t in enumerate(tables))
            )
            for received in results:
                checked += check_game(received)
    assert checked > GAMES * 100  # every game's views were really inspected
