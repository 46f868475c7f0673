"""The terminal UI's speed: cold start to the lobby drawn, and key press to updated screen.

Measured headless (Textual's headless driver composes every frame; it
neither turns it into terminal escapes nor writes it), each next to a
baseline taken in the same run on the same machine:

- ``cold_start``: a fresh ``python`` process that imports Clowder's app,
  opens the lobby (no LAN search, a temporary config directory) and prints
  once the lobby's first frame is drawn; the time from spawning the process
  to that line. Baseline: the same for an empty Textual app, started in
  turns with the lobby (a busy moment on the machine weighs on both).
- ``key_cursor``: a key that moves the hand's cursor (handled on the screen,
  no network) until the screen has been refreshed, as Pilot waits for it:
  ``press`` and ``pause`` poll in 20 ms steps until a step's CPU time is
  under 1 ms, so this is three steps (60 ms) when the key does next to
  nothing, and four (80 ms) once handling it and drawing the result take
  over 1 ms of CPU, as any key that redraws something does in Textual.
- ``key_cursor_frame``: the same key, timed from the key event to the end
  of the first frame composed after it (what the player waits for).
  Baseline: an empty app whose bound key changes its one line of text
  (Textual's own key -> redraw), timed alike.
- ``key_redraw``: that empty app's redrawing key, timed as ``key_cursor``
  (against the unbound key): the least any redrawing key measures there.
- ``key_play``: during a real game against a bot (embedded host on
  127.0.0.1, client, bot delay 0): pressing enter on a playable card until
  the host's new view is drawn. This is what a player feels.
- ``blackcat_grab``: at a real Black Cat table against an in-host bot, the
  player waits a human moment after each card, then presses 1: the time
  until the host's ruling (the card in the player's pile) is drawn. It
  includes the arbiter's settle wait (at least 10 ms) for rival claims.
- Baseline for these: a key no one binds, on an empty app (Textual's own
  key round trip).
- ``blackcat_drawn_stamp``: how long after a new card's view reaches the
  client the screen stamps it as drawn (the ``drawn_ns`` of a grab). A
  reaction is measured from that stamp, so this is how much drawing adds to
  a player's reaction; the host allows 30 ms for it. Baseline: an empty
  app's refresh after a change (``call_after_refresh``).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from tests.perf.report import Report, timing_row
from tui.cli import use_frame_rate

use_frame_rate()  # what `clowder` does; before Textual is imported, as there

ROOT = Path(__file__).resolve().parents[2]
FULL = {"starts": 10, "keys": 200, "plays": 60, "grabs": 40}
QUICK = {"starts": 1, "keys": 20, "plays": 6, "grabs": 5}
HUMAN_PAUSE_S = 0.12
"""How long the benchmark's player looks at a card before grabbing (the host refuses < 80 ms)."""

LOBBY_SCRIPT = """
import sys
from tui.app import ClowderApp
from tui.screens.lobby import LobbyScreen

class Timed(ClowderApp):
    def on_screen_resume(self) -> None:
        pass

app = Timed(name="Bench", discovery=None, advertise=False, host_bind="127.0.0.1")

def drawn() -> None:
    if isinstance(app.screen, LobbyScreen):
        print("drawn", flush=True)
        app.exit(0)
    else:
        app.call_after_refresh(drawn)

app.call_later(lambda: app.call_after_refresh(drawn))
app.run(headless=True, size=(80, 24))
"""

EMPTY_SCRIPT = """
from textual.app import App
from textual.widgets import Static

class Empty(App[None]):
    def compose(self):
        yield Static("hello")
    def on_mount(self) -> None:
        self.call_after_refresh(self.drawn)
    def drawn(self) -> None:
        print("drawn", flush=True)
        self.exit()

Empty().run(headless=True, size=(80, 24))
"""


def cold_start_ms(script: str, config_dir: str) -> float:
    """Spawn ``python -c script``; milliseconds until it prints ``drawn``."""
    env = dict(os.environ, CLOWDER_CONFIG_DIR=config_dir)
    started = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as process:
        assert process.stdout is not None
        line = process.stdout.readline()
        elapsed = (time.perf_counter() - started) * 1000
        process.wait(timeout=30)
    if line.strip() != "drawn":
        raise RuntimeError(f"the start-up script did not draw (exit {process.returncode})")
    return elapsed


def frame_times(app: Any) -> list[float]:
    """A list that gets the time (``perf_counter``) at which ``app`` finishes each frame."""
    frames: list[float] = []
    display = app._display

    def timed(screen: Any, update: Any) -> None:
        display(screen, update)
        if update is not None:  # None: nothing had changed, no frame
            frames.append(time.perf_counter())

    app._display = timed
    return frames


async def timed_keys(
    count: int, make_app: Callable[[], Any], press: Callable[[Any], Awaitable[None]]
) -> tuple[list[float], list[float]]:
    """Milliseconds for each of ``count`` key presses until the screen is refreshed (Pilot's
    wait), and from each key to the first frame after it (none for a key that draws nothing)."""
    samples: list[float] = []
    to_frame: list[float] = []
    app = make_app()
    frames = frame_times(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(count):
            seen = len(frames)
            started = time.perf_counter()
            await press(pilot)
            samples.append((time.perf_counter() - started) * 1000)
            after = [frame for frame in frames[seen:] if frame > started]
            if after:
                to_frame.append((after[0] - started) * 1000)
    return samples, to_frame


async def press_and_pause(pilot: Any, key: str) -> None:
    await pilot.press(key)
    await pilot.pause()


async def key_baseline(count: int) -> list[float]:
    """An empty app and a key nobody binds: Pilot's round trip when nothing is drawn."""
    from textual.app import App
    from textual.widgets import Static

    class Empty(App[None]):
        def compose(self) -> Any:
            yield Static("hello")

    samples, _ = await timed_keys(count, Empty, lambda pilot: press_and_pause(pilot, "x"))
    return samples


async def key_redraw(count: int) -> tuple[list[float], list[float]]:
    """An empty app whose bound key changes its one line of text (a repaint, no layout)."""
    from textual.app import App
    from textual.binding import Binding, BindingType
    from textual.widgets import Static

    class Redraw(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "change", "change")]
        changes = 0

        def compose(self) -> Any:
            yield Static("hello", id="text")

        def action_change(self) -> None:
            self.changes += 1
            self.query_one("#text", Static).update(f"hello {self.changes}", layout=False)

    return await timed_keys(count, Redraw, lambda pilot: press_and_pause(pilot, "x"))


async def key_cursor(count: int) -> tuple[list[float], list[float]]:
    from tests.tui.harness import TableHarness, catchy_view

    return await timed_keys(
        count, lambda: TableHarness(catchy_view(1)), lambda pilot: press_and_pause(pilot, "right")
    )


T = TypeVar("T")


async def table_on_screen(pilot: Any, screen_type: type[T]) -> T:
    """Wait until the app shows a ``screen_type`` table that has the host's first view."""
    for _ in range(500):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, screen_type) and getattr(screen, "view", None) is not None:
            return screen
    raise RuntimeError(f"no {screen_type.__name__} with a view appeared")


async def key_play(count: int, config_dir: Path) -> list[float]:
    """Play cards by key in real games (new game when one ends) and time each play."""
    from engine.games.catchy.rules import STARTING
    from tui.app import ClowderApp, PlayRequest
    from tui.games.catchy.screen import CatchyTable

    samples: list[float] = []
    while len(samples) < count:
        app = ClowderApp(
            name="Bench",
            config_dir=config_dir,
            play=PlayRequest("catchy", {}),
            host_bind="127.0.0.1",
            advertise=False,
            bot_delay_s=0.0,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            table = await table_on_screen(pilot, CatchyTable)
            for _ in range(2000):
                if len(samples) >= count:
                    break
                view = table.view
                assert view is not None
                if view["outcome"] is not None:
                    break
                if view["turn"] != view["seat"]:
                    await pilot.pause(0.001)
                    continue
                if view["phase"] == "swap":
                    await pilot.press("1")
                    while table.view is view:
                        await pilot.pause(0.001)
                    continue
                hand = view["hand"]
                assert hand is not None
                card = next(c for c in hand if c not in view["unplayable"] and c != STARTING)
                await pilot.press(str(hand.index(card) + 1))
                await pilot.pause()
                started = time.perf_counter()
                await pilot.press("enter")
                while table.view is view:
                    await pilot.pause(0.0005)
                await pilot.pause()
                samples.append((time.perf_counter() - started) * 1000)
    return samples


async def blackcat_grabs(count: int, config_dir: Path) -> tuple[list[float], list[float]]:
    """Grab cards by key at real Black Cat tables: (key -> ruling drawn, arrival -> drawn stamp)."""
    from tui.app import ClowderApp, PlayRequest
    from tui.games.blackcat.screen import BlackCatTable

    grabs: list[float] = []
    stamps: list[float] = []
    while len(grabs) < count:
        app = ClowderApp(
            name="Bench",
            config_dir=config_dir,
            play=PlayRequest("blackcat", {}, bots=1),
            host_bind="127.0.0.1",
            advertise=False,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            table = await table_on_screen(pilot, BlackCatTable)
            arrived: list[int] = []

            def noting(
                events: Any, arrived: list[int] = arrived, shown: Any = table.happened
            ) -> None:
                arrived.append(time.monotonic_ns())  # the view reached the screen
                shown(events)

            table.happened = noting  # type: ignore[method-assign]
            seen = 0
            # Cards come after the host's start countdown (3 s), then one at a time.
            give_up = time.monotonic() + GRAB_TABLE_S
            while len(grabs) < count and time.monotonic() < give_up:
                view = table.view
                assert view is not None
                if view["phase"] != "play":
                    break
                reveal, seat = view["reveal"], view["seat"]
                assert seat is not None
                if reveal is None or reveal == seen:
                    await pilot.pause(0.001)
                    continue
                seen = reveal
                arrival = arrived[-1] if arrived else None
                await pilot.pause(HUMAN_PAUSE_S)
                if table.view is not view:
                    continue  # the bot took it meanwhile
                drawn = table._drawn.get(reveal)
                if arrival is not None and drawn is not None:
                    stamps.append((drawn - arrival) / 1e6)
                mine = len(view["piles"][seat][0]["cards"])
                started = time.perf_counter()
                await pilot.press("1")
                while table.view is view:
                    await pilot.pause(0.0005)
                await pilot.pause()
                now = table.view
                if now is not None and len(now["piles"][seat][0]["cards"]) > mine:
                    grabs.append((time.perf_counter() - started) * 1000)
    return grabs, stamps


async def refresh_baseline(count: int) -> list[float]:
    """An empty app: a change, then milliseconds until ``call_after_refresh`` runs."""
    from textual.app import App
    from textual.widgets import Static

    class Empty(App[None]):
        def compose(self) -> Any:
            yield Static("hello", id="text")

    samples: list[float] = []
    app = Empty()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for index in range(count):
            done = asyncio.Event()
            started = time.monotonic_ns()
            app.query_one("#text", Static).update(f"hello {index}")
            app.call_after_refresh(done.set)
            await done.wait()
            samples.append((time.monotonic_ns() - started) / 1e6)
            await pilot.pause()
    return samples


GRAB_TABLE_S = 30.0
"""Longest time spent grabbing at one table before a fresh one is dealt."""


def measure(quick: bool) -> Report:
    """Cold start and key-to-screen latencies with their baselines; see the module docstring."""
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="clowder-bench-") as folder:
        empty: list[float] = []
        lobby: list[float] = []
        for _ in range(sizes["starts"]):
            empty.append(cold_start_ms(EMPTY_SCRIPT, folder))
            lobby.append(cold_start_ms(LOBBY_SCRIPT, folder))
        baseline = asyncio.run(key_baseline(sizes["keys"]))
        cursor, cursor_frame = asyncio.run(key_cursor(sizes["keys"]))
        redraw, redraw_frame = asyncio.run(key_redraw(sizes["keys"]))
        play = asyncio.run(key_play(sizes["plays"], Path(folder)))
        grab, stamp = asyncio.run(blackcat_grabs(sizes["grabs"], Path(folder)))
        refresh = asyncio.run(refresh_baseline(sizes["keys"]))
    return Report(
        name="tui",
        columns=[
            "measure",
            "n",
            "p50_ms",
            "p99_ms",
            "baseline_p50_ms",
            "baseline_p99_ms",
            "p50_over_baseline",
        ],
        rows=[
            timing_row("cold_start_lobby", lobby, empty),
            timing_row("key_cursor", cursor, baseline),
            timing_row("key_cursor_frame", cursor_frame, redraw_frame),
            timing_row("key_redraw", redraw, baseline),
            timing_row("key_play", play, baseline),
            timing_row("blackcat_grab", grab, baseline),
            timing_row("blackcat_drawn_stamp", stamp, refresh),
        ],
        notes=[
            "headless, 80x24; cold start: process spawn -> first lobby frame "
            "(baseline: an empty Textual app)",
            "keys: press -> screen refreshed as Pilot waits, in 20 ms steps (baseline: an unbound "
            "key on an empty app); key_play: enter on a card -> the host's new view drawn "
            "(embedded host, loopback)",
            "key_cursor_frame: key event -> end of the first frame composed after it (baseline: "
            "an empty app's bound key redrawing one line, timed alike); key_redraw: that key "
            "timed as key_cursor, the least a redrawing key measures there",
            "blackcat_grab: 1 -> the ruling drawn (includes the arbiter's settle wait); "
            "blackcat_drawn_stamp: a card's view reaches the client -> the screen's drawn stamp "
            "(baseline: an empty app's change -> refresh)",
        ],
    )
