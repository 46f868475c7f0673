"""A ``create_table`` with options a game refuses gets an ``invalid_options`` error reply.

It used to be otherwise: Catchy!'s ``{"deck": []}`` raised ``IndexError`` in the
engine, which escaped the host's dispatch and dropped the client's connection
without a word. (A host refuses any fixed ``deck`` unless started with
``--allow-fixed-deck``; these tests allow it, so the game's own check answers.)
For every registered game, bad options now get a clear error
(with the request's ``ref``), no table is created, and the same connection goes
on working: it lists tables and creates a valid one.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from engine import registry
from engine.core import IllegalAction, NotYourTurn, Option, Rng, StaleReveal
from engine.games.kiitos.rules import NotAWord
from net.doors.host import protocol_code
from net.wire.messages import ERRORS, CreateTable, ListTables
from tests.net.hosting import RawClient, running_host
from tests.toy_game import ToyGame, ToyState

GAMES = registry.names()


def bad_values(spec: Option) -> list[Any]:
    """Values the spec must refuse whatever the game (wrong kind, out of range)."""
    if spec.kind is int:
        values: list[Any] = ["lots", [], {"a": 1}, 1.5]
        if spec.minimum is not None:
            values.append(spec.minimum - 1)
        if spec.maximum is not None:
            values.append(spec.maximum + 1)
        return values
    if spec.kind is bool:
        return ["maybe", [], {"a": 1}]
    if spec.kind is str:
        return [7, [], *(["no-such-choice"] if spec.choices else [])]
    return [[], [[]], [[], []], [1], [None], [["x"], "y"], {"a": 1}, 5]


def bad_options(name: str) -> list[dict[str, Any]]:
    game = registry.get(name)
    options: list[dict[str, Any]] = [{"no_such_option": 1}, {"takeover": "soon"}]
    for spec in game.option_specs:
        options += [{spec.name: value} for value in bad_values(spec)]
    return options


@pytest.mark.parametrize("name", GAMES)
async def test_bad_options_get_an_error_and_the_connection_stays(name: str) -> None:
    # Fixed decks are a testing aid the host must allow before the game even sees them.
    async with running_host(None, allow_fixed_deck=True) as host:
        client = await RawClient.connect(host.port, "Ann")
        for ref, options in enumerate(bad_options(name), start=1):
            client.send(CreateTable(game=name, options=options, ref=ref))
            reply = await client.expect("error")  # a ping may come first on a slow machine
            assert reply["code"] == "invalid_options", (options, reply)
            assert reply["ref"] == ref and reply["about"] == "create_table"
            assert reply["message"]
        assert host.runners == {}, "a refused create_table made a table"
        client.send(ListTables(ref=900))
        listed = await client.expect("tables")
        assert listed["ref"] == 900 and listed["tables"] == []
        client.send(CreateTable(game=name, ref=901))
        created = await client.expect("created")
        assert created["ref"] == 901
        await client.close()
        assert not any("Traceback" in line for line in host.log_lines)  # type: ignore[attr-defined]


@pytest.mark.parametrize("allowed", [True, False], ids=["deck-allowed", "deck-not-allowed"])
async def test_catchy_empty_deck_is_refused_with_a_sentence(allowed: bool) -> None:
    async with running_host(None, allow_fixed_deck=allowed) as host:
        client = await RawClient.connect(host.port, "Ann")
        client.send(CreateTable(game="catchy", options={"deck": []}, ref=7))
        reply = await client.next()
        message = reply.pop("message")
        assert reply == {
            "type": "error",
            "code": "invalid_options",
            "ref": 7,
            "about": "create_table",
        }
        if allowed:
            assert message == "The deck option is a non-empty list of card codes, top first"
        else:
            assert "--allow-fixed-deck" in message
        client.send(CreateTable(game="catchy", options={"target": 3}, ref=8))
        assert (await client.expect("created"))["ref"] == 8
        await client.close()


class CrashingGame(ToyGame):
    """A game whose setup fails with something other than InvalidOptions (an engine bug)."""

    name = "crashing"
    title = "Crashing"

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> ToyState:
        raise IndexError("list index out of range")


async def test_a_game_crashing_on_setup_costs_an_error_not_the_connection() -> None:
    registry.register(CrashingGame())
    try:
        async with running_host(None) as host:
            client = await RawClient.connect(host.port, "Ann")
            client.send(CreateTable(game="crashing", ref=1))
            reply = await client.next()
            assert reply["type"] == "error" and reply["ref"] == 1
            assert reply["code"] == "internal_error" and "IndexError" in reply["message"]
            client.send(ListTables(ref=2))
            assert (await client.expect("tables"))["ref"] == 2
            await client.close()
    finally:
        registry.unregister("crashing")


class UnlistedRefusal(IllegalAction):
    code = "no_such_code_in_the_protocol"


def test_a_games_own_refusal_code_reaches_the_client_or_its_general_one() -> None:
    assert protocol_code(StaleReveal("Too late")) == "stale_reveal"
    assert protocol_code(NotAWord("QQQQ is not a word")) == "not_a_word"
    assert protocol_code(UnlistedRefusal("nope")) == "illegal_action"
    assert protocol_code(NotYourTurn("It is Bea's turn")) == "not_your_turn"
    codes = {
        kind.code
        for name in registry.names()
        for kind in vars(importlib.import_module(type(registry.get(name)).__module__)).values()
        if isinstance(kind, type) and issubclass(kind, IllegalAction)
    }
    assert codes <= set(ERRORS), f"game codes the protocol does not list: {codes - set(ERRORS)}"
