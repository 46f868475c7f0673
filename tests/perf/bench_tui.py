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
- ``key_play_frame``: the same key, timed as ``key_cursor_frame`` (from the
  key to the end of a frame), until the first frame that shows the card gone
  from the hand (played: sent, or in the host's new view). Baseline: the empty
  app's redrawing key, as for ``key_cursor_frame``.
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
- ``view_cpu_GAME``: the processor time to take one ``view`` message and draw
  it at 80x24, per game: what the app's pump does with it (clean its texts,
  hand the events and the view to the table screen), the screen's ``show``,
  and every frame it causes until the screen is still (a frame that follows
  within :data:`SETTLE_S`), each frame also turned into terminal output as a
  real terminal's driver does (the headless driver skips that). The views are
  a player's (seat 0) from seeded random games (:func:`tests.contract.play`),
  each with the events that came with it, one after another with the screen
  settled between them. Baseline: an empty app whose one line of text
  changes, measured alike (Textual's own least per change).

``python -m tests.perf tui --profile GAME`` draws that game's views under
cProfile instead and prints where the time went: the share of each part
(the screen's own code, layout, widgets rendering, the compositor, the log)
and the functions at the top by their own time and by cumulative time, per
view.

``python -m tests.perf tui --evening`` draws many Black Cat tables one after
another in one process, as a player's evening goes, and reports what each
table's settle of the cycle collector (:mod:`tui.collector`) costs and finds
alive, and the process's memory: the last tables against tables 2-4 of the
same run. What an evening keeps that it should not shows as a ratio over 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from tests.perf.report import Report, percentile, rss_mib, timing_row
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


def hand_frames(app: Any, playing: list[str], shown: list[float]) -> None:
    """Note in ``shown`` the end of each frame ``app`` composes that shows a Catchy! hand
    without the card in ``playing`` (while it holds one)."""
    from tui.games.catchy.screen import CatchyTable
    from tui.widgets.hand import Hand

    display = app._display

    def watched(screen: Any, update: Any) -> None:
        display(screen, update)
        if (
            update is not None
            and playing
            and isinstance(screen, CatchyTable)
            and playing[0] not in screen.query_one(Hand).cards
        ):
            shown.append(time.perf_counter())

    app._display = watched


async def key_play(count: int, config_dir: Path) -> tuple[list[float], list[float]]:
    """Play cards by key in real games (new game when one ends) and time each play: until
    the host's new view is drawn, and (frames) until a frame shows the card left the hand."""
    from engine.games.catchy.rules import STARTING
    from tui.app import ClowderApp, PlayRequest
    from tui.games.catchy.screen import CatchyTable

    samples: list[float] = []
    to_frame: list[float] = []
    while len(samples) < count:
        app = ClowderApp(
            name="Bench",
            config_dir=config_dir,
            play=PlayRequest("catchy", {}),
            host_bind="127.0.0.1",
            advertise=False,
            bot_delay_s=0.0,
        )
        playing: list[str] = []
        shown: list[float] = []
        hand_frames(app, playing, shown)
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
                shown.clear()
                playing[:] = [card]
                started = time.perf_counter()
                await pilot.press("enter")
                while table.view is view:
                    await pilot.pause(0.0005)
                await pilot.pause()
                samples.append((time.perf_counter() - started) * 1000)
                playing.clear()
                if shown:
                    to_frame.append((shown[0] - started) * 1000)
    return samples, to_frame


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


# Taking and drawing views ---------------------------------------------------------------

SIZE = (80, 24)
VIEWS = {"full": 150, "quick": 20}
"""Views drawn per game for ``view_cpu`` (and under ``--profile``)."""
VIEW_SEED = 23
"""The first random game's seed; more games (seed + 1...) until there are views enough."""
MOST_PLAYERS = 4
"""Seats at the random games: the game's fewest, raised to this where the game allows."""
SETTLE_S = 0.02
"""A view's drawing is done when no frame has followed for this long (two frames at
Clowder's 120 per second, with room for a refresh callback's own frame)."""
FIRST_FRAME_S = 0.1
"""Longest wait for a view's first frame (a view that changes nothing draws none)."""


def player_count(name: str) -> int:
    from engine import registry

    game = registry.get(name)
    return max(game.min_players, min(game.max_players, MOST_PLAYERS))


def game_views(name: str, count: int) -> list[list[tuple[dict[str, Any], list[Any]]]]:
    """``count`` views of seat 0 from seeded random games of ``name``, game by game, each
    with the events it came with (as the host sends them: ``visible_events``)."""
    from engine import registry
    from engine.core import visible_events
    from tests.contract import play, players_for

    game = registry.get(name)
    games: list[list[tuple[dict[str, Any], list[Any]]]] = []
    seed = VIEW_SEED
    while sum(len(views) - 1 for views in games) < count:
        playout = play(game, players_for(player_count(name)), seed, max_steps=400)
        seed += 1
        left = count - sum(len(views) - 1 for views in games)
        views = [
            (game.view(state, 0), visible_events(events, 0)) for state, events in playout.states()
        ]
        games.append(views[: left + 1])  # the first is the deal, shown before the timing
    return games


class Frames:
    """Counts the frames ``app`` composes, and turns each into terminal output as a real
    terminal's driver would (the headless driver skips it: it is part of a frame's cost)."""

    def __init__(self, app: Any) -> None:
        self.count = 0
        self.new = asyncio.Event()
        display = app._display

        def shown(screen: Any, update: Any) -> None:
            display(screen, update)
            if update is not None:
                update.render_segments(app.console)
                self.count += 1
                self.new.set()

        app._display = shown

    async def settle(self) -> None:
        """Wait for the frame a change causes (if any), then until no frame follows."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(FIRST_FRAME_S):
                await self.new.wait()
        while True:
            self.new.clear()
            try:
                async with asyncio.timeout(SETTLE_S):
                    await self.new.wait()
            except TimeoutError:
                return


async def draw_views(
    name: str,
    games: list[list[tuple[dict[str, Any], list[Any]]]],
    profile: cProfile.Profile | None = None,
) -> tuple[list[float], int]:
    """Milliseconds of processor time to take and draw each view (the app's pump, the
    screen, every frame until settled), and the frames drawn, for ``name``'s table screen."""
    from net.wire.text import clean_data
    from tests.tui.harness import TableHarness
    from tests.tui.test_random_views import presence_of
    from tui.games import screen_class

    samples: list[float] = []
    frames_drawn = 0
    for views in games:
        first = views[0][0]
        app = TableHarness(first, presence=presence_of(first["players"]), screen=screen_class(name))
        frames = Frames(app)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await frames.settle()
            table = app.table
            before = frames.count
            for view, events in views[1:]:
                started = time.process_time()
                if profile is not None:
                    profile.enable()
                # What the app's pump does with a view message (tui.app.ClowderApp._pump).
                table.happened(clean_data(events))
                table.received(clean_data(view))
                await frames.settle()
                if profile is not None:
                    profile.disable()
                samples.append((time.process_time() - started) * 1000)
                # What opened over the table (a call's reveal, the results) is read and closed
                # by a key, as a player would, before the next view: untimed.
                while app.screen is not table and len(app.screen_stack) > 2:
                    app.screen.dismiss(None)
                    await frames.settle()
            frames_drawn += frames.count - before
    return samples, frames_drawn


async def draw_changes(count: int) -> list[float]:
    """The baseline: an empty app's one line of text changed ``count`` times, each timed as
    :func:`draw_views` times a view."""
    from textual.app import App
    from textual.widgets import Static

    class Empty(App[None]):
        def compose(self) -> Any:
            yield Static("hello", id="text")

    samples: list[float] = []
    app = Empty()
    frames = Frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await frames.settle()
        text = app.query_one("#text", Static)
        for index in range(count):
            started = time.process_time()
            text.update(f"hello {index}")
            await frames.settle()
            samples.append((time.process_time() - started) * 1000)
    return samples


def view_cpu_rows(count: int) -> list[dict[str, Any]]:
    """One ``view_cpu_GAME`` row per game, each next to an empty app's change measured just
    before it."""
    from engine import registry

    rows = []
    for name in registry.names():
        games = game_views(name, count)
        baseline = asyncio.run(draw_changes(count))
        samples, _ = asyncio.run(draw_views(name, games))
        rows.append(timing_row(f"view_cpu_{name}", samples, baseline))
    return rows


# Where the time goes (--profile GAME) ------------------------------------------------------

PARTS: list[tuple[str, str, tuple[tuple[str, str], ...]]] = [
    (
        "take",
        "taking the view: the pump's cleaning, the screen's events and show",
        (("net/wire/text.py", "clean_data"), ("tui/", "happened"), ("tui/", "received")),
    ),
    (
        "frames",
        "frames: layout and repaint of what changed (Screen._on_timer_update)",
        (("textual/screen.py", "_on_timer_update"),),
    ),
    ("- layout", "of which layout (Compositor.reflow)", (("textual/_compositor.py", "reflow"),)),
    (
        "- widgets",
        "of which widgets drawing their lines (Widget.render_lines)",
        (("textual/widget.py", "render_lines"),),
    ),
    (
        "- log",
        "of which the log's lines (RichLog.render_line)",
        (("textual/widgets/_rich_log.py", "render_line"), ("tui/widgets/log.py", "render_line")),
    ),
    (
        "- footer",
        "of which the footer (Footer, FooterKey render)",
        (("textual/widgets/_footer.py", "render"),),
    ),
    (
        "styles",
        "CSS applied again (classes changed, widgets mounted: Stylesheet.apply)",
        (("textual/css/stylesheet.py", "apply"),),
    ),
    (
        "footer keys",
        "the footer's keys made again (Footer.recompose after a bindings change)",
        (("textual/widget.py", "recompose"),),
    ),
    (
        "output",
        "terminal output: each frame as escapes (render_segments)",
        (("textual/_compositor.py", "render_segments"),),
    ),
    (
        "callbacks",
        "callbacks after a refresh (call_after_refresh: the log, drawn stamps)",
        (("textual/screen.py", "_invoke_and_clear_callbacks"),),
    ),
]
"""The parts ``--profile`` reports: (name, meaning, the functions whose cumulative time is the
part: a file's path holds the first string and the function is named the second). The
parts marked ``-`` are inside the one above them; the others may overlap too (styles applied
while the view is taken, footer keys made in a refresh callback)."""


def part_ms(stats: pstats.Stats, functions: tuple[tuple[str, str], ...]) -> float:
    """Milliseconds spent in the functions named (a path part and a function name each),
    counted once: time a chosen function spends called from another chosen one is not
    added twice (a recursive call is already in its outer call's time)."""
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    chosen = {
        key
        for key in table
        if any(path in key[0] and key[2] == function for path, function in functions)
    }
    total = 0.0
    for key in chosen:
        _, _, _, cumulative, callers = table[key]
        inside = sum(
            timing[3] for caller, timing in callers.items() if caller in chosen and caller != key
        )
        total += cumulative - inside
    return total * 1000


def profile_rows(name: str, count: int, top: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Where the time goes when ``name``'s screen takes and draws ``count`` views."""
    games = game_views(name, count)
    plain, _ = asyncio.run(draw_views(name, games))
    gc_ms: list[float] = []
    started: list[float] = []

    def timing_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append(time.process_time())
        elif started:
            gc_ms.append((time.process_time() - started.pop()) * 1000)

    profile = cProfile.Profile(time.process_time)
    gc.callbacks.append(timing_gc)
    try:
        profiled, frames = asyncio.run(draw_views(name, games, profile))
    finally:
        gc.callbacks.remove(timing_gc)
    views = len(profiled)
    stats = pstats.Stats(profile)
    total = sum(profiled)
    rows: list[dict[str, Any]] = [
        {"what": "all (per view)", "cum_ms_per_view": total / views, "share": 1.0}
    ]
    for part, _, functions in PARTS:
        ms = part_ms(stats, functions)
        rows.append({"what": part, "cum_ms_per_view": ms / views, "share": ms / total})
    rows.append({"what": "gc", "cum_ms_per_view": sum(gc_ms) / views, "share": sum(gc_ms) / total})
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    by_own = sorted(table.items(), key=lambda item: item[1][2], reverse=True)[:top]
    by_cum = sorted(table.items(), key=lambda item: item[1][3], reverse=True)[:top]
    for order, entries in (("own", by_own), ("cum", by_cum)):
        for (path, line, function), (_, calls, own, cumulative, _) in entries:
            rows.append(
                {
                    "what": f"{order}: {short_path(path)}:{line}({function})",
                    "calls_per_view": calls / views,
                    "own_ms_per_view": own * 1000 / views,
                    "cum_ms_per_view": cumulative * 1000 / views,
                }
            )
    notes = [
        f"{name}: {views} views of seat 0 from random games of {player_count(name)} players, "
        f"80x24, {frames / views:.2f} frames a view; unprofiled CPU per view p50 "
        f"{statistics.median(plain):.2f} ms, p99 {percentile(plain, 0.99):.2f} ms; under "
        f"cProfile (slower, shares hold) {total / views:.2f} ms",
        *(f"{part}: {meaning}" for part, meaning, _ in PARTS),
        "gc: the garbage collector's passes during the views (gc.callbacks)",
        "own: the functions at the top by their own time; cum: by cumulative time",
    ]
    return rows, notes


def short_path(path: str) -> str:
    for marker in ("site-packages/", "/work/", "lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def profile_report(name: str, quick: bool, top: int) -> Report:
    rows, notes = profile_rows(name, VIEWS["quick" if quick else "full"], top)
    return Report(
        name=f"tui --profile {name}",
        columns=["what", "calls_per_view", "own_ms_per_view", "cum_ms_per_view", "share"],
        rows=rows,
        notes=notes,
    )


# A long evening (--evening) ------------------------------------------------------------

EVENING_TABLES = {"full": 18, "quick": 6}
"""Black Cat tables drawn one after another in one process for ``--evening``."""
EVENING_EDGE = 3
"""Tables averaged at each end: the baseline is tables 2-4 (the first is the process's own
start: imports, caches filling), the figure the last three."""


def evening_settles(tables: int) -> list[tuple[float, int, float]]:
    """Draw ``tables`` Black Cat games' views one table after another in this process (each
    a new table screen, as a player's evening is) and, at each table's settle
    (:func:`tui.collector.settle`, its first view drawn), its CPU milliseconds, the objects
    alive after it (frozen) and the process's memory."""
    from tui import collector

    real = collector.settle
    settles: list[tuple[float, int, float]] = []

    def measured() -> None:
        started = time.process_time()
        real()
        settles.append(
            ((time.process_time() - started) * 1000, gc.get_freeze_count(), rss_mib(os.getpid()))
        )

    collector.settle = measured
    try:
        views_a_table = 60  # a Black Cat game's views, about
        games = game_views("blackcat", tables * views_a_table)
        while len(games) < tables:  # shorter games than that
            games = game_views("blackcat", 2 * sum(len(views) for views in games))
        del games[tables:]
        asyncio.run(draw_views("blackcat", games))
    finally:
        collector.settle = real
        gc.unfreeze()
    return settles


def evening_report(quick: bool) -> Report:
    tables = EVENING_TABLES["quick" if quick else "full"]
    settles = evening_settles(tables)
    first = settles[1 : 1 + EVENING_EDGE]
    last = settles[-EVENING_EDGE:]
    rows = []
    for index, (name, unit) in enumerate(
        (("settle_cpu", "ms"), ("objects_alive", "k"), ("process_rss", "MiB"))
    ):
        scale = 1000 if unit == "k" else 1
        early = statistics.fmean(settle[index] for settle in first) / scale
        late = statistics.fmean(settle[index] for settle in last) / scale
        rows.append(
            {
                "measure": f"{name}_{unit}",
                "tables": len(settles),
                "last_tables": late,
                "baseline_tables_2_4": early,
                "last_over_baseline": late / early if early else 0.0,
            }
        )
    return Report(
        name="tui --evening",
        columns=["measure", "tables", "last_tables", "baseline_tables_2_4", "last_over_baseline"],
        rows=rows,
        notes=[
            f"{len(settles)} Black Cat tables one after another in one process (seat 0 of "
            "random games, 80x24, each a new table screen); at each table's first view the "
            "collector settles (tui.collector): its CPU, the objects alive after it, the RSS",
            "last_tables: the mean of the last three tables; baseline: tables 2-4 of the same "
            "run. A ratio over 1 is what an evening keeps that it should not (a leak)",
        ],
    )


def add_arguments(parser: argparse.ArgumentParser) -> list[str]:
    """``--profile GAME``: where the time goes when GAME's screen draws views."""
    parser.add_argument(
        "--profile",
        metavar="GAME",
        help="draw GAME's views under cProfile and print where the time went",
    )
    parser.add_argument("--top", type=int, default=25, help="functions listed by --profile")
    parser.add_argument(
        "--evening",
        action="store_true",
        help="draw many tables one after another and report what each settle finds kept",
    )
    return ["profile", "top", "evening"]


def measure(
    quick: bool, profile: str | None = None, top: int = 25, evening: bool = False
) -> Report:
    """Cold start and key-to-screen latencies with their baselines; see the module docstring.
    ``profile``: a game's name, to profile its screen instead (:func:`profile_report`);
    ``evening``: many tables in one process instead (:func:`evening_report`)."""
    if evening:
        return evening_report(quick)
    if profile is not None:
        from engine import registry

        if profile not in registry.names():
            raise SystemExit(f"--profile: no game {profile!r} (one of {registry.names()})")
        return profile_report(profile, quick, top)
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
        play, play_frame = asyncio.run(key_play(sizes["plays"], Path(folder)))
        grab, stamp = asyncio.run(blackcat_grabs(sizes["grabs"], Path(folder)))
        refresh = asyncio.run(refresh_baseline(sizes["keys"]))
        views = view_cpu_rows(VIEWS["quick" if quick else "full"])
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
            timing_row("key_play_frame", play_frame, redraw_frame),
            timing_row("blackcat_grab", grab, baseline),
            timing_row("blackcat_drawn_stamp", stamp, refresh),
            *views,
        ],
        notes=[
            "headless, 80x24; cold start: process spawn -> first lobby frame "
            "(baseline: an empty Textual app)",
            "keys: press -> screen refreshed as Pilot waits, in 20 ms steps (baseline: an unbound "
            "key on an empty app); key_play: enter on a card -> the host's new view drawn "
            "(embedded host, loopback)",
            "key_play_frame: enter on a card -> end of the first frame without it in the hand "
            "(sent, or the host's view; baseline: as key_cursor_frame's)",
            "key_cursor_frame: key event -> end of the first frame composed after it (baseline: "
            "an empty app's bound key redrawing one line, timed alike); key_redraw: that key "
            "timed as key_cursor, the least a redrawing key measures there",
            "blackcat_grab: 1 -> the ruling drawn (includes the arbiter's settle wait); "
            "blackcat_drawn_stamp: a card's view reaches the client -> the screen's drawn stamp "
            "(baseline: an empty app's change -> refresh)",
            "view_cpu_GAME: processor time to take one view and draw it (pump, screen, every "
            "frame until still, with terminal output), seat 0 of random games; baseline: an "
            "empty app's one-line change, alike",
        ],
    )
