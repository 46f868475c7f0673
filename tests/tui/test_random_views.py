"""Every game's table screen draws views from seeded random games at 80x24 without an error.

For each registered game (``registry.names()``: nothing here names a game),
a few seeded random games are played from the legal actions
(:func:`tests.contract.play`, timers fired as the host fires them) with
different player counts. Each seat and a spectator watch one of them on the
game's own screen (:func:`tui.games.screen_class`, the generic table for a
game without one) in a Textual app at 80x24, as the host would show it:
their views in order, a sample of the steps, always the deal and the end (so
the results are drawn too; a real-time game's deal also during its start
countdown). Every view goes through the screen's ``show``;
every few views, and the last, the screen is rendered (``pilot.pause``), as
an app renders the latest view each frame; so an error in a screen's code or
in a widget's rendering fails here. Now and then the screen's text must show
a player's name, so a screen that draws nothing fails too.

A failure names the game, seed, player count, step and seat, and how to
replay that view.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from textual.widget import Widget

from engine import registry
from engine.core import Game, Seat
from tests.contract import play, players_for
from tests.tui.harness import TableHarness
from tui.games import screen_class

SIZE = (80, 24)
SEED = 23
"""The first seed; game ``k`` of a game name is played with seed ``SEED + k``."""
GAMES_EACH = 3
"""Random games per game name, their player counts cycling from the fewest to the most."""
VIEWS_EACH = 120
"""Views shown per game name, shared among its games and their seats and spectator."""
RENDER_EVERY = 4
"""Every this many views (and the last of each watch) the screen is rendered: a view
shown costs 15-25 ms of Textual's time at 80x24, a render 25-35 ms more."""
COUNTDOWN = 2.5
"""Seconds left in a real-time game's start countdown, as the host says it with the deal."""
MAX_STEPS = 400
"""Steps a random game may take (most end sooner; the long ones are cut here)."""
TEXT_EVERY = 12
"""Every this many views (and the last of each watch) the screen's text is read for a
player's name."""


@dataclass(frozen=True)
class Watch:
    """One seat (or the spectator, ``None``) watching one random game: the views it gets."""

    name: str
    seed: int
    count: int
    seat: Seat | None
    views: list[tuple[int, dict[str, Any]]]
    """``(step, view)``: step 0 is the deal, step ``k`` the state after the k-th entry."""

    def where(self, step: int) -> str:
        """Which view this is and how to get it again."""
        who = "the spectator" if self.seat is None else f"seat {self.seat}"
        return (
            f"{self.name}, seed {self.seed}, {self.count} players, step {step}, {who}; "
            f"replay: playout = tests.contract.play(registry.get({self.name!r}), "
            f"players_for({self.count}), {self.seed}, max_steps={MAX_STEPS}); "
            f"state = list(playout.states())[{step}][0]; playout.game.view(state, {self.seat})"
        )


def sample(total: int, wanted: int) -> list[int]:
    """``wanted`` indexes of ``range(total)`` spread evenly, the first and the last included."""
    if wanted >= total:
        return list(range(total))
    if wanted <= 1:
        return [total - 1]
    return sorted({round(i * (total - 1) / (wanted - 1)) for i in range(wanted)})


def watches(name: str) -> Iterator[Watch]:
    """The seeded random games of ``name``, each seen by every seat and the spectator."""
    game: Game[Any] = registry.get(name)
    counts = range(game.min_players, game.max_players + 1)
    per_game = VIEWS_EACH // GAMES_EACH
    for index in range(GAMES_EACH):
        seed, count = SEED + index, counts[index % len(counts)]
        playout = play(game, players_for(count), seed, max_steps=MAX_STEPS)
        states = [state for state, _ in playout.states()]
        viewers: list[Seat | None] = [None, *range(count)]
        per_viewer = max(2, per_game // len(viewers))
        for offset, seat in enumerate(viewers):
            # Each viewer gets its own sample (shifted), so together they see more steps.
            steps = sorted(
                {min(len(states) - 1, step + offset) for step in sample(len(states), per_viewer)}
                | {0, len(states) - 1}
            )
            views = [(step, game.view(states[step], seat)) for step in steps]
            yield Watch(name, seed, count, seat, views)


def presence_of(players: list[str]) -> list[dict[str, Any]]:
    """Every seat taken by a connected person (as the host's ``presence`` says)."""
    return [
        {"name": player, "bot": False, "human": True, "connected": True, "covered": False}
        for player in players
    ]


def screen_text(root: Widget) -> str:
    """What the widgets under ``root`` draw, as plain text (each renders itself once more)."""
    return "\n".join(str(widget.render()) for widget in root.query("*"))


def show(
    app: TableHarness,
    view: dict[str, Any],
    *,
    starting: bool = False,
    starts_in: float | None = None,
) -> None:
    """Give the table the host's next ``view`` message (the one place this test says how):
    the game's view, and the host's countdown fields beside it."""
    app.table.received(view, starting=starting, starts_in=starts_in)


async def draw(watch: Watch) -> int:
    """Draw every view of ``watch`` on its game's screen; returns how many were drawn."""
    step, first = watch.views[0]
    app = TableHarness(
        first, presence=presence_of(first["players"]), screen=screen_class(watch.name)
    )
    drawn = 0
    try:
        async with app.run_test(size=SIZE) as pilot:
            for drawn, (at, view) in enumerate(watch.views, start=1):
                step = at  # named in the failure, whatever raises
                if at == 0 and registry.get(watch.name).realtime:
                    # A real-time game is dealt, then counts down before it begins.
                    show(app, view, starting=True, starts_in=COUNTDOWN)
                    await pilot.pause(0)
                show(app, view)
                last = drawn == len(watch.views)
                if drawn % RENDER_EVERY == 0 or last:
                    await pilot.pause(0)
                if drawn % TEXT_EVERY == 0 or last:
                    text = screen_text(app.table)
                    assert any(name in text for name in view["players"]), (
                        f"no player's name on the screen: {text[:300]!r}"
                    )
    except Exception as error:
        raise AssertionError(f"{watch.where(step)}: {type(error).__name__}: {error}") from error
    return drawn


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", registry.names())
async def test_every_screen_draws_views_from_random_games(name: str) -> None:
    drawn = 0
    ended = 0
    for watch in watches(name):
        drawn += await draw(watch)
        ended += watch.views[-1][1]["outcome"] is not None
    assert drawn >= VIEWS_EACH * 3 // 4, f"{name}: only {drawn} views drawn"
    assert ended, f"{name}: no random game reached its end, so no results were drawn"
