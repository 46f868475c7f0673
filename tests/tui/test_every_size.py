"""Every screen at 80x24, 120x40 and on a phone (48x40) shows its whole board, its scores and
a way to every key (issue 36, item 6: the kind of mistake, not one place).

Screens were cut at some widths, each found by someone looking. Here every screen is laid
out at each size and checked by what Textual placed, not by a picture:

* whole: every widget drawn lies inside the screen, clipped by nothing but a container that
  scrolls (a log, a list; not the screen itself); every widget of text that does not scroll
  has the rows its text needs at its width (a prompt or a panel wrapped past its height is
  cut, not whole);
* scores: the table's scoreboard (its ``#scores`` or ``#players``) shows every seat's name
  and score, as drawn;
* keys: every key the screen answers to is drawn in its footer with what it does, or named
  in the screen's own text (a dialog's ``esc: cancel``), or ``?`` (the list of every key,
  :mod:`tui.screens.keys`) is drawn whole in its footer. Where the footer offers ``/``
  instead (Katootsie!'s answer line takes the letters), ``/`` is used and the keys are
  looked for again.

Every registered game's table (``registry.names()``, and the generic table of a game
without a screen) is shown in its waiting room, then seat 0's views of a seeded random game
with a few players and one with the most the game takes, then its results (with ratings,
a proposal to play again and tonight's standings), the key list and the rules; then as a
coached first game, and to a spectator. The lobby, the room and every dialog are shown with
fixed data.

What it found when written: at 48 columns every table's connection line, most prompts,
Kiitos's title and rule cards, Black Cat's other piles (drawn for the width the board had
before the waiting room went) and Catchy!'s course were cut, and Katootsie!'s letters won
(and the generic table's scores) were pushed below the screen; every dialog was wider than a
phone; at 80x24 the key list's hint fell off the screen, a spectator's Kitten Me! and
Katootsie! titles and Black Cat's "Nobody wants..." prompt were cut, and ten seats did not
fit the connection line even at 120 columns; the room named its one key nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, ClassVar, cast

import pytest
from rich.text import Text
from textual.app import App
from textual.css.styles import RulesMap
from textual.errors import NoWidget
from textual.pilot import Pilot
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList
from textual.widgets._footer import FooterKey

from engine import registry
from tests.contract import play, players_for
from tests.toy_game import GAME as TOY
from tests.toy_game import registered
from tests.tui.harness import LobbyHarness, TableHarness
from tests.tui.room_harness import RoomHarness
from tests.tui.test_random_views import presence_of
from tests.tui.test_results_fit import AGAIN, TONIGHT
from tui.app import ClowderApp
from tui.games import coach_class, screen_class
from tui.screens import rules
from tui.screens.dialogs import (
    AddressDialog,
    CreateDialog,
    LearnDialog,
    NameDialog,
    Place,
    asked_because,
)
from tui.screens.end_game import EndGameDialog
from tui.screens.info import InfoScreen
from tui.screens.keys import KEYS_ACTION, key_lines
from tui.screens.leave import LeaveDialog
from tui.screens.next_game import NextGameDialog
from tui.screens.results import ResultsScreen
from tui.screens.table import TableScreen

SIZES = {"80x24": (80, 24), "120x40": (120, 40), "phone": (48, 40)}
TIGHT = {"80x24": (80, 24), "phone": (48, 40)}
"""The sizes where something is cut if anywhere: the coached and spectator's tables and the
dialogs (a dialog's box is as wide at 120 columns as at 80) are checked at these only."""
SEED = 11
FEW = 4
"""Players in the first random game of each game (fewer if the game takes fewer)."""
AT = (0.3, 0.7)
"""Where in each random game its views are taken (a fraction of its steps)."""
SCORE_IDS = ("scores", "players")
"""The ids a table gives the widget with every seat's score (its scoreboard)."""
TO_THE_KEYS = "leave_line"
"""Katootsie!'s ``/``: leaves the answer line, where the table's keys (and ``?``) work."""


@pytest.fixture(autouse=True)
def short_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules page of a few lines (Markdown takes a second to lay out a whole rulebook)."""
    monkeypatch.setattr(rules, "rules_markdown", lambda title, *_: f"# {title}\n\nThe rules.")


# What the screen shows ---------------------------------------------------------------


def drawn_rows(screen: Screen[Any]) -> list[str]:
    """The screen as drawn, row by row (what the player sees)."""
    update = screen._compositor.render_full_update()
    return ["".join(strip.text for strip in row) for row in update.strips]


def scrolls(widget: Widget) -> bool:
    """The widget scrolls its own content (a log, a list, a line being typed)."""
    return isinstance(widget, ScrollView | OptionList | Input) or (
        widget.is_scrollable and (widget.allow_vertical_scroll or widget.allow_horizontal_scroll)
    )


def in_scroller(widget: Widget, screen: Screen[Any]) -> bool:
    """Some container between ``widget`` and the screen scrolls (not the screen itself: a
    table's board scrolled out of sight is not shown)."""
    node = widget.parent
    while isinstance(node, Widget) and node is not screen:
        if scrolls(node):
            return True
        node = node.parent
    return False


def rows_needed(widget: Widget, width: int) -> int:
    """The rows the widget's content needs at ``width`` columns (its text wrapped)."""
    visual = widget._render()
    return visual.get_height(cast(RulesMap, widget.styles), width)


def cut_texts(screen: Screen[Any]) -> list[str]:
    """Every widget on ``screen`` that is not drawn whole, and why."""
    problems = []
    area = screen.region
    for widget, geometry in screen._compositor.full_map.items():
        if widget is screen or not widget.display:
            continue
        if isinstance(widget, FooterKey | ScrollBar | ScrollBarCorner):
            continue
        name = describe(widget)
        region = geometry.region
        inside = region.intersection(area).intersection(geometry.clip)
        if inside != region and not in_scroller(widget, screen):
            problems.append(f"{name} at {region} is cut to {inside}")
            continue
        if widget.children or scrolls(widget) or isinstance(widget, Footer):
            continue
        content = widget.content_region
        needed = rows_needed(widget, content.width)
        if needed > content.height:
            text = widget.render()
            plain = text.plain if isinstance(text, Text) else str(text)
            problems.append(
                f"{name} needs {needed} rows at {content.width} columns, has {content.height}:"
                f" {plain[:120]!r}"
            )
    return problems


def describe(widget: Widget) -> str:
    return f"{type(widget).__name__}" + (f"#{widget.id}" if widget.id else "")


# Keys --------------------------------------------------------------------------------


def footer_text(screen: Screen[Any], rows: list[str]) -> str:
    """What the screen's footer draws (its row, inside the screen)."""
    footers = [footer for footer in screen.query(Footer) if footer.display]
    if not footers:
        return ""
    region = footers[0].region.intersection(screen.region)
    return "\n".join(rows[y][region.x : region.right] for y in range(region.y, region.bottom))


def named_in(text: str, key: str) -> bool:
    """``key`` is named as a key in ``text``: ``esc: cancel``, ``q or esc``, ``(ctrl+s)``,
    ``  l  leave for now``, ``↑/↓ choose``."""
    pattern = rf"(?:^|[\s(/]){re.escape(key)}(?=:|\)|/| or |  | ·|$)"
    return re.search(pattern, text, re.MULTILINE) is not None


def names_of(screen: Screen[Any], action: str, shown: list[str]) -> set[str]:
    """Every name of the keys bound to ``action`` on ``screen`` (``escape`` and ``esc``)."""
    names = set(shown)
    for _namespace, bindings in screen._modal_binding_chain:
        for key, binding in bindings:
            if binding.action == action:
                names |= {key, binding.key_display or key, screen.app.get_key_display(binding)}
    if "escape" in names:
        names.add("esc")
    return names


def unreachable_keys(screen: Screen[Any]) -> list[str]:
    """The keys ``screen`` answers to now that the player has no way to find: not in its
    footer with what they do, not named in its text, and no ``?`` in its footer (the list
    of every key, :mod:`tui.screens.keys`)."""
    rows = drawn_rows(screen)
    footer = footer_text(screen, rows)
    if KEYS_ACTION in offered(screen) and shows(footer, "?", "keys"):
        return []
    body = "\n".join(rows)
    missing = []
    for line in key_lines(screen):
        if not line.enabled or any(shows(footer, key, line.description) for key in line.shown):
            continue
        if not any(named_in(body, key) for key in names_of(screen, line.action, line.keys)):
            missing.append(f"{'/'.join(line.keys)} ({line.description})")
    return missing


def offered(screen: Screen[Any]) -> set[str]:
    """The actions of the keys the screen answers to now."""
    return {active.binding.action for active in screen.active_bindings.values() if active.enabled}


def shows(footer: str, key: str, description: str) -> bool:
    """The footer draws ``key`` and what it does, whole."""
    return f"{key} {description}" in footer


# Scores ------------------------------------------------------------------------------


def score_problems(table: TableScreen[Any], view: dict[str, Any]) -> list[str]:
    """Each seat's name (``you`` for the player's own) and score on a row of the table's
    scoreboard as drawn (a seat that is out of the game may say so instead of its 0)."""
    boards = [widget for widget in table.query("*") if widget.id in SCORE_IDS]
    if len(boards) != 1:
        return [f"{len(boards)} scoreboards ({', '.join(map(describe, boards))})"]
    try:
        seen = table._compositor.find_widget(boards[0]).visible_region
    except NoWidget:
        return ["the scoreboard is not laid out"]
    rows = drawn_rows(table)
    shown = [rows[y][seen.x : seen.right] for y in range(seen.y, seen.bottom)]
    problems = []
    for seat, (name, score) in enumerate(zip(view["players"], view["scores"], strict=True)):
        names = (name, "you") if seat == view["seat"] else (name,)
        row = next((row for row in shown if any(n in row for n in names)), None)
        if row is None:
            problems.append(f"{name} is not on the scoreboard as drawn: {shown}")
        elif not re.search(rf"(?<![\d-]){score}(?!\d)", row) and "out" not in row:
            problems.append(f"{name}'s score {score} is not on its row {row!r}")
    return problems


# Apps --------------------------------------------------------------------------------


class Screens(App[None]):
    """One screen on show at a time, with the app's styles."""

    CSS_PATH: ClassVar[list[Any]] = ClowderApp.CSS_PATH
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, make: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())


async def settle(pilot: Pilot[Any]) -> None:
    """Let the screen lay out and draw (a table draws some panels after a refresh)."""
    await pilot.pause()
    await pilot.app.screen.wait_for_refresh()
    await pilot.pause()


async def check(pilot: Pilot[Any], where: str) -> list[str]:
    """Everything wrong with the screen on show: cut widgets and keys nobody can find.

    Where the keys are not all found and the footer offers the way out of a line being
    typed (Katootsie!'s ``/``), that key is used and the screen's keys are looked for again.
    """
    await settle(pilot)
    screen = pilot.app.screen
    problems = cut_texts(screen)
    missing = unreachable_keys(screen)
    if missing and TO_THE_KEYS in offered(screen):
        await pilot.app.run_action(TO_THE_KEYS, screen)
        await settle(pilot)
        missing = unreachable_keys(screen)
    problems += [f"no way to the key {key}" for key in missing]
    return [f"{where}, {type(screen).__name__}: {problem}" for problem in problems]


# The tables --------------------------------------------------------------------------


def table_views(
    game: str, counts: Iterable[int], seat: int | None = 0, at: Iterable[float] = AT
) -> Iterator[tuple[str, dict[str, Any]]]:
    """``seat``'s views of a seeded random game for each player count, taken ``at`` those
    fractions of its steps; then the last game's end."""
    engine = registry.get(game)
    last: dict[str, Any] | None = None
    for count in counts:
        playout = play(engine, players_for(count), SEED, max_steps=400)
        states = [state for state, _ in playout.states()]
        for fraction in at:
            step = int(len(states) * fraction)
            yield f"{count} players, step {step}", engine.view(states[step], seat)
        last = engine.view(states[-1], seat)
    assert last is not None
    yield "the end", last


def table_app(game: str, view: dict[str, Any], *, coach: bool = False) -> TableHarness:
    """The game's table showing ``view`` (coached as in ``clowder learn``)."""
    app = TableHarness(view, presence=presence_of(view["players"]), screen=screen_class(game))
    if coach:
        app.table = screen_class(game)(
            table_id="t1", place="127.0.0.1:7707", coach=coach_class(game)()
        )
    return app


async def shown_views(
    pilot: Pilot[Any], app: TableHarness, views: Iterable[tuple[str, dict[str, Any]]]
) -> list[str]:
    """Each view on the table in turn (and the results, at the end), checked."""
    table = app.table
    problems: list[str] = []
    for where, view in views:
        over = view["outcome"] is not None
        if over:  # the host's ratings and the evening come with the last view
            table.rated(
                [{"rating": 1490 + seat, "change": seat} for seat in range(len(view["players"]))]
            )
            table.evening(AGAIN, TONIGHT)
        table.presence(presence_of(view["players"]))
        table.received(view)
        if over:
            problems += await check(pilot, f"{where}: the results")
            app.pop_screen()
        problems += await check(pilot, where)
        problems += [f"{where}: {problem}" for problem in score_problems(table, view)]
    return problems


def few_and_most(game: str) -> list[int]:
    engine = registry.get(game)
    return sorted({min(FEW, engine.max_players), engine.max_players})


async def whole_table(game: str, size: tuple[int, int]) -> list[str]:
    """The waiting room, the game with a few players and with the most, the results, and
    the key list and the rules over the table: what is wrong with each."""
    views = list(table_views(game, few_and_most(game)))
    app = table_app(game, views[0][1])
    async with app.run_test(size=size) as pilot:
        table = app.table
        table.doors = (2222, 8080)  # the waiting room's ways in, its QR code where it fits
        seats = [{"name": views[0][1]["players"][0]}, {"name": None}]
        table.received(None, waiting={"seats": seats, "seat": 0})
        problems = await check(pilot, "the waiting room")
        problems += await shown_views(pilot, app, views)
        for action in (KEYS_ACTION, "rules"):
            table.set_focus(None)
            await app.run_action(action, table)
            problems += await check(pilot, f"the end, {action}")
            app.pop_screen()
    return problems


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("game", registry.names())
async def test_a_table_shows_its_whole_board_its_scores_and_a_way_to_every_key(
    game: str, size: tuple[int, int]
) -> None:
    problems = await whole_table(game, size)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
async def test_so_does_the_generic_table_of_a_game_without_its_own_screen(
    size: tuple[int, int],
) -> None:
    with registered():
        problems = await whole_table(TOY.name, size)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", TIGHT.values(), ids=TIGHT.keys())
@pytest.mark.parametrize("game", registry.names())
async def test_a_coached_table_and_a_spectator_s_show_the_same(
    game: str, size: tuple[int, int]
) -> None:
    """A first game with its coach's panel beside the log; a spectator (no hand, no piles)."""
    seats = max(coach_class(game).seats, registry.get(game).min_players)
    problems = []
    most = [registry.get(game).max_players]
    # One view each, mid-game (the whole-board test above samples more of each game).
    for coach, seat, counts in ((True, 0, [seats]), (False, None, most)):
        who = "coached" if coach else "spectator"
        views = [
            (f"{who}, {where}", view) for where, view in table_views(game, counts, seat, at=(0.5,))
        ]
        app = table_app(game, views[0][1], coach=coach)
        async with app.run_test(size=size) as pilot:
            problems += await shown_views(pilot, app, views)
    assert not problems, "\n".join(problems)


# The lobby, the room and the dialogs ---------------------------------------------------


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
async def test_the_lobby_shows_its_hosts_tables_and_a_way_to_every_key(
    size: tuple[int, int],
) -> None:
    app = LobbyHarness()
    async with app.run_test(size=size) as pilot:
        problems = await check(pilot, "the lobby")
        app.lobby.focus_next()  # the other pane
        problems += await check(pilot, "the lobby, the other pane")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
async def test_the_room_shows_the_tables_the_standings_and_a_way_to_every_key(
    size: tuple[int, int],
) -> None:
    app = RoomHarness()
    async with app.run_test(size=size) as pilot:
        problems = await check(pilot, "the room")
    assert not problems, "\n".join(problems)


DIALOGS: dict[str, Callable[[], Screen[Any]]] = {
    "leave": lambda: LeaveDialog("t1", back_by="Enter on it in the lobby"),
    "end the game": EndGameDialog,
    "name": NameDialog,
    "name, asked again": lambda: NameDialog(why=asked_because("root")),
    "rename": lambda: NameDialog("Ann"),
    "address": AddressDialog,
    "learn": LearnDialog,
    **{f"create {game}": partial(CreateDialog, game) for game in registry.names()},
    "create at a LAN host": lambda: CreateDialog(
        "kiitos",  # the most options
        places=[
            Place("lan:b", "Bartholomew Bigglesworth's box", "198.18.0.1", 7707, "198.18.0.1:7707")
        ],
        chosen="lan:b",
    ),
    "next game": lambda: NextGameDialog(3, "catchy"),
    "results": lambda: ResultsScreen("Catchy!", ["Ann wins.", "Ann: 7", "Bea: 3"], my_seat=0),
    "info": lambda: InfoScreen("How the piles score", "Pile 1: 4 points.\n\n" * 20),
}


@pytest.mark.parametrize("size", TIGHT.values(), ids=TIGHT.keys())
@pytest.mark.parametrize("dialog", DIALOGS)
async def test_a_dialog_is_whole_and_says_its_keys(dialog: str, size: tuple[int, int]) -> None:
    app = Screens(DIALOGS[dialog])
    async with app.run_test(size=size) as pilot:
        problems = await check(pilot, dialog)
    assert not problems, "\n".join(problems)
