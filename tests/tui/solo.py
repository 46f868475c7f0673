"""A whole game through ``clowder play``, driven by keys: the app and the waits every game uses.

The app hosts its own table on loopback (no LAN, no discovery) with bots in
the other seats, as ``clowder play GAME --bots N`` does; the waits are long
enough for a busy machine and say what they waited for when they give up.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen

from tui.app import ClowderApp, PlayRequest
from tui.screens.table import TableScreen

T = TypeVar("T", bound=TableScreen[Any])
S = TypeVar("S", bound=Screen[Any])

COUNTDOWN_S = 0.5
"""A real-time table's start countdown in these tests: there is one (its views come and are
checked), but not the 3 s a person gets."""


def solo_app(
    tmp_path: Path,
    game: str,
    options: dict[str, Any] | None = None,
    *,
    bots: int | None = None,
    **settings: Any,
) -> ClowderApp:
    """``clowder play GAME`` on loopback, in a test's own folder; bots act at once and a
    real-time game counts down for :data:`COUNTDOWN_S` by default."""
    settings.setdefault("bot_delay_s", 0.0)
    settings.setdefault("start_countdown_s", COUNTDOWN_S)
    return ClowderApp(
        name="Ann",
        config_dir=tmp_path,
        play=PlayRequest(game, options or {}, bots=bots),
        host_bind="127.0.0.1",
        advertise=False,
        **settings,
    )


def learn_app(tmp_path: Path, game: str, **settings: Any) -> ClowderApp:
    """``clowder learn GAME`` on loopback: the coached first game (its seats, options and easy
    bots, :func:`tui.screens.dialogs.first_game`); bots act at once and a real-time game
    counts down for :data:`COUNTDOWN_S` by default."""
    from tui.screens.dialogs import first_game

    settings.setdefault("bot_delay_s", 0.0)
    settings.setdefault("start_countdown_s", COUNTDOWN_S)
    table = first_game(game)
    return ClowderApp(
        name="Ann",
        config_dir=tmp_path,
        play=PlayRequest(game, table.options, table.bots, table.bot_level, coach=True),
        host_bind="127.0.0.1",
        advertise=False,
        **settings,
    )


def coach_log(table: TableScreen[Any]) -> list[str]:
    """Every line the table's log holds, as plain text (the coach's start with ``Coach: ``)."""
    from rich.text import Text

    from tui.widgets.log import GameLog

    logs = table.query(GameLog)
    if not logs:
        return []
    return [item.plain if isinstance(item, Text) else str(item) for item in logs.first()._written]


def coach_advice(table: TableScreen[Any]) -> tuple[str, ...]:
    """What the coach's panel says now (empty without a coach)."""
    from tui.widgets.coach import CoachPanel

    panels = table.query(CoachPanel)
    return panels.first().lines if panels else ()


def playing(screen: TableScreen[Any]) -> bool:
    """The table shows a game under way (not the waiting room)."""
    return screen.view is not None


async def table_of(
    pilot: Pilot[Any], kind: type[T], ready: Callable[[T], bool] = playing, rounds: int = 400
) -> T:
    """The app's table of ``kind`` once ``ready`` (by default: a game under way)."""
    for _ in range(rounds):
        await pilot.pause(0.01)
        screen = pilot.app.screen  # the table on show (mounted), not one still being pushed
        if isinstance(screen, kind) and ready(screen):
            return screen
    raise AssertionError(f"the {kind.__name__} never showed a game")


async def drawn_screen(pilot: Pilot[Any], kind: type[S], rounds: int = 500) -> S:
    """The screen on top once it is of ``kind`` and drawn: a screen that asks with single keys
    (:class:`tui.keygate.SeenFirst`) drops a key that came before its first frame, as a
    person's key typed for the screen before it."""
    from tui.keygate import SeenFirst

    for _ in range(rounds):
        screen: Any = pilot.app.screen
        drawn = not isinstance(screen, SeenFirst) or screen.seen_at is not None
        if isinstance(screen, kind) and drawn:
            return screen
        await pilot.pause(0.01)
    raise AssertionError(f"no {kind.__name__} was drawn")


async def answered(pilot: Pilot[Any], table: TableScreen[Any], before: object) -> None:
    """Wait (up to 10 s, for a busy machine) until the host's answer replaces ``before``."""
    for _ in range(1000):
        if table.view is not before:
            return
        await pilot.pause(0.01)
    raise AssertionError("the host never answered the move")


async def leave_the_results(pilot: Pilot[Any]) -> None:
    """On the results screen: no toast covers it, and Enter leaves (``clowder play`` and
    ``clowder learn`` end, with status 0)."""
    from tui.screens.results import ResultsScreen

    app = pilot.app
    assert isinstance(app.screen, ResultsScreen)
    await drawn_screen(pilot, ResultsScreen)  # its keys count once it is drawn
    assert len(app._notifications) == 0  # no round-end toast covers the results
    await pilot.press("enter")
    for _ in range(100):
        await pilot.pause(0.02)
        if app.return_code is not None:
            break
    assert app.return_code == 0
