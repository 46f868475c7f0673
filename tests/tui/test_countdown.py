"""The countdown (``tui.widgets.timer``) redraws when what it shows changes, not at every tick.

It looks five times a second; at an open Katootsie! letter (60 s until it is set aside) that
was five frames a second for every player, each relayed to SSH and browser players, while
what it showed (whole seconds and ten cells of bar) changed about once a second. Driven
here on a fake clock: no wall time, no timers.
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from tui.widgets.timer import REFRESH_S, Countdown


class Clock:
    """A countdown's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class OneCountdown(App[None]):
    def compose(self) -> ComposeResult:
        yield Countdown(id="timer")


async def ticks_that_redraw(
    monkeypatch: pytest.MonkeyPatch, window_s: float, watched_s: float
) -> tuple[int, int, list[str]]:
    """Start a ``window_s`` countdown and tick it every :data:`REFRESH_S` for ``watched_s``:
    the ticks, the redraws they asked for and the texts drawn, from the start's on."""
    clock = Clock()
    app = OneCountdown()
    async with app.run_test(size=(40, 3)) as pilot:
        countdown = app.query_one(Countdown)
        countdown.clock = clock
        countdown.start(window_s)
        countdown._ticks.pause()  # ticked by hand below (start set them going)
        await pilot.pause()
        await pilot.pause()  # the start's own redraw is done before counting
        redraws = 0
        original = countdown.refresh

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal redraws
            redraws += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(countdown, "refresh", counted)
        texts = [countdown.render().markup]
        ticks = round(watched_s / REFRESH_S)
        for _ in range(ticks):
            clock.now += REFRESH_S
            countdown._tick()
            await pilot.pause()
            text = countdown.render().markup  # its words and its look (urgent or not)
            if texts[-1] != text:
                texts.append(text)
        return ticks, redraws, texts


async def test_a_long_window_redraws_about_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks, redraws, texts = await ticks_that_redraw(monkeypatch, window_s=60, watched_s=10)
    assert ticks == 50
    assert redraws <= 12  # the whole seconds change ten times, the bar's cells twice at most
    assert len(texts) - 1 == redraws  # each redraw showed something new, and each change drew


async def test_every_change_of_a_short_window_is_still_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ten seconds: the seconds and the bar's cells each change every second; urgency at 3 s."""
    ticks, redraws, texts = await ticks_that_redraw(monkeypatch, window_s=10, watched_s=10)
    seconds = [Text.from_markup(text).plain.split("s", 1)[0].strip() for text in texts]
    assert seconds[0] == "10" and seconds[-1] == "0"
    assert sorted(set(seconds), key=int, reverse=True) == [str(n) for n in range(10, -1, -1)]
    assert len(texts) - 1 == redraws < ticks
