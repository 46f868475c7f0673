"""A sixth game touches only its own folder: the toy, found and played as a shipped game.

The toy's package (``tests/sixth/engine/games/toy/``) is laid out as
``engine/games/<new>/`` would be. Here its parent folder joins
``engine.games.__path__``, so the registry's own package scan finds it as
``engine.games.toy``, the name a shipped sixth game would have, and nothing
in ``engine/``, ``net/`` or ``tui/`` is told about it. Then it is held to the
engine contract, played to its end at a host core (a bot and a spectator
at the table), and played through the generic table against the host core,
keys in, host views back. So a sixth game needs:

- ``engine/games/<new>/__init__.py`` (exports ``GAME``), ``rules.py`` (the
  :class:`~engine.core.Game` with its view ``TypedDict``) and ``RULES.md``
  (the notes ``tests/engine/test_rules_docs.py`` requires);
- optionally ``bot.py`` (a bot named in the game's ``bots``; without one the
  host seats the random bot) and ``data/``;
- optionally ``tui/games/<new>/`` (``screen.py``, ``<new>.tcss``, ``rules.md``):
  until it exists the generic table draws the game;
- a line in README's table of games and a section in PROTOCOL.md's "Game views".
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

import engine.games
from engine import registry
from engine.core import Game
from net.wire.messages import Act, Join
from tests.contract import (
    check_log_is_its_events,
    check_replay,
    check_secrecy,
    check_view,
    check_view_type,
    play,
    players_for,
)
from tests.net.core_driver import CoreClient, CoreDriver
from tests.tui.harness import TableHarness
from tests.tui.test_random_views import presence_of
from tui.games import own_screens, screen_class
from tui.screens.generic import GenericTable
from tui.screens.results import ResultsScreen

HERE = Path(__file__).resolve().parent
GAMES_DIR = HERE / "engine" / "games"
"""What stands for ``engine/games/`` here: the toy's folder is the only game in it."""

GAME_FILES = [
    "engine/games/toy/RULES.md",
    "engine/games/toy/__init__.py",
    "engine/games/toy/rules.py",
]
"""Every file the toy needs, as paths in the project (nothing else in engine/, net/, tui/)."""

SIZE = (80, 24)


@pytest.fixture
def sixth(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game[Any]]:
    """The toy, found by the registry's package scan as ``engine.games.toy``.

    The registry scans once per process, so its cache is set aside for the test
    (and put back after, with ``engine.games.__path__``); the modules imported
    under the shipped name are forgotten, so no other test sees a sixth game.
    """
    monkeypatch.setattr(engine.games, "__path__", [*engine.games.__path__, str(GAMES_DIR)])
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_scanned", False)
    try:
        yield registry.get("toy")
    finally:
        for module in [m for m in sys.modules if m.split(".")[:3] == ["engine", "games", "toy"]]:
            del sys.modules[module]
        if hasattr(engine.games, "toy"):
            delattr(engine.games, "toy")


def game_files() -> list[str]:
    """The toy's files, as paths in the project (``engine/games/toy/...``)."""
    return sorted(
        path.relative_to(HERE).as_posix()
        for path in (GAMES_DIR / "toy").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


def test_the_sixth_game_is_its_folder_and_the_scan_finds_it(sixth: Game[Any]) -> None:
    assert game_files() == GAME_FILES
    assert type(sixth).__module__ == "engine.games.toy.rules"  # the shipped name, by the scan
    assert "toy" in registry.names() and len(registry.names()) >= 6
    assert "toy" not in own_screens() and issubclass(screen_class("toy"), GenericTable)


def test_the_engine_contract_holds_for_the_sixth_game(sixth: Game[Any]) -> None:
    for count in range(sixth.min_players, sixth.max_players + 1):
        playout = play(sixth, players_for(count), seed=count)
        assert sixth.outcome(playout.final) is not None, f"{count} players: no end"
        check_replay(playout)
        check_log_is_its_events(playout)
        for state, events in playout.states():
            check_secrecy(sixth, state, events)
            for seat in [None, *range(count)]:
                check_view_type(sixth, check_view(sixth, state, seat))


def join(
    driver: CoreDriver,
    table: str,
    name: str,
    role: Literal["player", "spectator"] = "player",
) -> CoreClient:
    client = driver.connect(name)
    driver.send(client, Join(table=table, role=role))
    return client


def game_view(client: CoreClient) -> dict[str, Any] | None:
    """The game's view in the latest ``view`` message (``None`` before the deal)."""
    views = client.of_type("view")
    view: dict[str, Any] | None = views[-1]["view"] if views else None
    return view


def deliver(app: TableHarness, client: CoreClient) -> dict[str, Any] | None:
    """Hand the table ``client``'s latest ``view`` message, as the app does; its game view."""
    message = client.last("view")
    app.table.received(
        message["view"],
        waiting=message.get("waiting"),
        starting=bool(message.get("starting")),
        starts_in=message.get("starts_in"),
    )
    view: dict[str, Any] | None = message["view"]
    return view


def play_first_legal(driver: CoreDriver, client: CoreClient, table: str) -> bool:
    """``client`` sends its first legal action, if it has one; whether it did."""
    view = game_view(client)
    if view is None or not view["legal"]:
        return False
    driver.send(client, Act(table=table, action=view["legal"][0]))
    return True


def test_a_table_of_the_sixth_game_is_played_to_the_end_at_the_host_core(
    sixth: Game[Any],
) -> None:
    driver = CoreDriver(bot_delay_s=0.5)
    runner = driver.core.create_table("toy", {"mode": "turns"}, bots=1, now_ns=driver.now_ns)
    table = runner.table.id
    ann = join(driver, table, "Ann")
    watcher = join(driver, table, "Watcher", role="spectator")
    for _ in range(100):
        if runner.table.outcome is not None:
            break
        play_first_legal(driver, ann, table)
        driver.run_for(1.0)  # the bot's turn
    final = game_view(ann)
    assert final is not None and final["outcome"] is not None, "the game never ended"
    seen = game_view(watcher)
    assert seen is not None and seen["outcome"] == final["outcome"] and seen["seat"] is None
    assert not ann.of_type("error") and not watcher.of_type("error")


async def test_the_sixth_game_is_played_through_the_generic_table_at_the_host_core(
    sixth: Game[Any],
) -> None:
    driver = CoreDriver()
    table = driver.core.create_table("toy", {"mode": "turns"}, now_ns=driver.now_ns).table.id
    ann, bea = join(driver, table, "Ann"), join(driver, table, "Bea")
    first = game_view(ann)
    assert first is not None, "no game view after both seats were taken"
    app = TableHarness(first, presence=presence_of(first["players"]), screen=screen_class("toy"))
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.table, GenericTable)
        for _ in range(40):
            view = deliver(app, ann)
            assert view is not None
            await pilot.pause(0)
            if view["outcome"] is not None:
                break
            if view["legal"]:  # Ann's turn: the menu's first move, by the enter key
                await pilot.press("enter")
                assert app.actions, "enter sent nothing"
                driver.send(ann, Act(table=table, action=app.actions.pop()))
            else:
                assert play_first_legal(driver, bea, table), "nobody can move"
        await pilot.pause(0)
        assert isinstance(app.screen, ResultsScreen), "the results were not shown"
    assert not ann.of_type("error") and not bea.of_type("error")
