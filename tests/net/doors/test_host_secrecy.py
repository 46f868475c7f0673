"""Wire-level secrecy through a real host on 127.0.0.1: what each connection receives.

Every game's secrecy on the wire, over whole games with faults and host
crashes, is checked by the simulator (``tests/sim``: each frame a seat or a
spectator receives against ``game.hidden`` of the journal's replay at that
frame's version). The simulator drives the host core directly; this test
keeps one whole-game check through the asyncio adapter and real sockets, so
the bytes that cross a real connection are the core's and nothing else:
Catchy! games between two random players and a spectator, each seat's own
hand as it was told it compared with what the other seat and the spectator
received (the previous round's summary aside).
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from typing import Any

import pytest

from engine.games.catchy.rules import card_name
from net.wire.messages import Act, Join
from tests.net.hosting import RawClient, outcome_of, running_host
from tests.secrecy import mentions

pytestmark = pytest.mark.timeout(120)


# --------------------------------------------------------------------------- Catchy!, by hand

CATCHY_GAMES = 20
PARALLEL = 10


async def play_catchy(port: int, table: str, seed: int) -> dict[str, list[dict[str, Any]]]:
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
            if outcome_of(message) is not None:
                finished[seat] = True
                return
            legal = (message["view"] or {}).get("legal") or []
            if legal:
                client.send(Act(table=table, action=rng.choice(legal)))

    await asyncio.gather(drive(0), drive(1))
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


def catchy_mentioned(value: Any, cards: set[str]) -> set[str]:
    return mentions(value, cards, card_name)


def catchy_hands(received: dict[str, list[dict[str, Any]]]) -> dict[int, list[set[str]]]:
    """Each seat's own hand at each version, as that seat was told it."""
    hands: dict[int, list[set[str]]] = defaultdict(lambda: [set(), set()])
    for seat in (0, 1):
        for message in received[str(seat)]:
            if message["type"] == "view" and (message["view"] or {}).get("hand") is not None:
                hands[message["version"]][seat] = set(message["view"]["hand"]) - {"ST"}
    return hands


def check_catchy_game(received: dict[str, list[dict[str, Any]]]) -> int:
    hands = catchy_hands(received)
    versions = sorted(hands)
    previous = {v: versions[i - 1] for i, v in enumerate(versions) if i}
    checked = 0
    for who, messages in received.items():
        for message in messages:
            if message["type"] != "view" or message["version"] not in hands or not message["view"]:
                continue
            version = message["version"]
            now = hands[version]
            hidden = now[0] | now[1] if who == "spectator" else now[1 - int(who)]
            current = {k: v for k, v in message["view"].items() if k not in ("log", "last_round")}
            assert not catchy_mentioned(current, hidden), (who, version)
            before = hands.get(previous.get(version, -1), [set(), set()])
            if who == "spectator":
                still_hidden = (before[0] & now[0]) | (before[1] & now[1])
            else:
                other = 1 - int(who)
                still_hidden = before[other] & now[other]
            # A card played in this step is public, even if the next round deals it again.
            played = {e["data"]["card"] for e in message["events"] if e["kind"] == "play"}
            assert not catchy_mentioned(message["events"], still_hidden - played), (who, version)
            checked += 1
    return checked


async def test_no_catchy_hand_crosses_the_wire() -> None:
    checked = 0
    async with running_host(None) as host:
        for batch in range(CATCHY_GAMES // PARALLEL):
            tables = [host.create_table("catchy").table.id for _ in range(PARALLEL)]
            results = await asyncio.gather(
                *(play_catchy(host.port, t, batch * PARALLEL + i) for i, t in enumerate(tables))
            )
            for received in results:
                checked += check_catchy_game(received)
    assert checked > CATCHY_GAMES * 100  # every game's views were really inspected
