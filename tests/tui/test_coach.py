"""Every game's coach reads whole random games, seat by seat, and always has its say.

For each registered game (``registry.names()``: nothing here names a game) a
few seeded random games are played from the legal actions; each seat's views
go through the game's coach in order, as a coached screen would give them.
The coach must never fail, never change a view, always say what to do when
the seat has something to do, and say only clean text of a size the panel
holds. A failure names the game, seed, player count, step and seat.

Each game's own coach is tested through a whole first game in
``tests/tui/games/<game>/test_coach.py``; the dialog, the command and the
panel are tested here.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot

from engine import registry
from engine.core import Game
from net.wire.text import clean_text
from tests.contract import play, players_for
from tests.tui.harness import TableHarness
from tests.tui.solo import coach_log, table_of
from tui.app import ClowderApp, PlayRequest
from tui.cli import main
from tui.coach import PANEL_ROWS, Coach, rows
from tui.games import coach_class, own_coaches, screen_class
from tui.screens.dialogs import LearnDialog, first_game
from tui.screens.table import TableScreen
from tui.widgets.coach import MARK, CoachPanel
from tui.widgets.log import GameLog

SEEDS = (5, 6)
"""Random games per game name (their player counts: the fewest, then the most)."""
MAX_STEPS = 300
LONGEST_LINE = 160
"""A coach line is a sentence or two: the panel (30 columns) wraps it over a few rows."""
MOST_LINES = 4
"""What the coach says at once fits its panel (7 rows at most, wrapped lines included)."""


def check_fits(lines: list[str], width: int, where: str) -> None:
    """The advice shows whole in the panel: wrapped at its width, in its rows."""
    assert rows(lines, width) <= PANEL_ROWS, f"{where}: does not fit the panel: {lines!r}"


def check_lines(lines: Any, where: str) -> None:
    assert isinstance(lines, list), f"{where}: not a list: {lines!r}"
    assert len(lines) <= MOST_LINES, f"{where}: {len(lines)} lines: {lines!r}"
    for line in lines:
        assert isinstance(line, str) and line.strip(), f"{where}: an empty line in {lines!r}"
        assert clean_text(line) == line, f"{where}: control characters in {line!r}"
        assert len(line) <= LONGEST_LINE, f"{where}: {len(line)} characters: {line!r}"


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_game_has_a_coach_of_its_own(name: str) -> None:
    coach = own_coaches().get(name)
    assert coach is not None, f"{name}: no Coach subclass in tui/games/{name}/coach.py"
    assert coach.welcome, f"{name}: the coach says nothing at the deal"
    game = registry.get(name)
    assert game.min_players <= coach.seats <= game.max_players
    game.new_game(players_for(coach.seats), 1, dict(coach.first_game))  # options it accepts


@pytest.mark.parametrize("name", registry.names())
def test_the_coach_reads_random_games_seat_by_seat(name: str) -> None:
    game: Game[Any] = registry.get(name)
    coach = coach_class(name)()
    counts = (game.min_players, game.max_players)
    for seed, count in zip(SEEDS, counts, strict=True):
        playout = play(game, players_for(count), seed, max_steps=MAX_STEPS)
        states = [state for state, _ in playout.states()]
        for seat in range(count):
            before: dict[str, Any] | None = None
            for step, state in enumerate(states):
                view = game.view(state, seat)
                kept = copy.deepcopy(view)
                where = f"{name}, seed {seed}, {count} players, step {step}, seat {seat}"
                advice = coach.now(view)
                check_lines(advice, f"{where}: now")
                check_fits(advice, coach.panel_width, f"{where}: now")
                if view["legal"] and view["outcome"] is None:
                    assert advice, f"{where}: the seat may act and the coach says nothing"
                said = coach.opening(view) if before is None else coach.after(before, view)
                check_lines(said, f"{where}: after")
                assert view == kept, f"{where}: the coach changed the view"
                before = view


def test_a_game_without_a_coach_of_its_own_gets_the_legal_actions_read_out() -> None:
    game: Game[Any] = registry.get(registry.names()[0])
    view = game.view(game.new_game(players_for(2), 3, {}), 0)
    coach = Coach[Any]()
    assert coach.opening(view) == ["Press r at any time for the rules; q leaves."]
    if view["legal"]:
        kinds = sorted({action["type"] for action in view["legal"]})
        assert coach.now(view) == [f"You may: {', '.join(kinds)}."]


def test_first_game_is_a_coached_solo_table_against_easy_bots() -> None:
    for name in registry.names():
        table = first_game(name)
        assert table.coach and table.bot_level == "easy"
        assert table.bots == table.seats - 1, name


def test_clowder_learn_without_a_game_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn"]) == 0
    out = capsys.readouterr().out
    for name in registry.names():
        assert name in out
    assert "clowder learn GAME" in out


def test_clowder_learn_says_what_is_wrong_with_a_typo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "catchyy"]) == 2
    err = capsys.readouterr().err
    assert "no game called 'catchyy'" in err and "catchy" in err
    assert main(["learn", "catchy", "--bot-reaction", "0"]) == 2
    assert "--bot-reaction" in capsys.readouterr().err


async def test_l_in_the_lobby_starts_a_coached_game_of_the_chosen_game(tmp_path: Path) -> None:
    app = ClowderApp(
        name="Ann",
        config_dir=tmp_path,
        discovery=None,
        host_bind="127.0.0.1",
        advertise=False,
        bot_delay_s=0.0,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LearnDialog)
        names = registry.names()
        target = names.index("catchy") if "catchy" in names else 0
        await pilot.press(*["down"] * target, "enter")
        table = await table_of(pilot, TableScreen)
        assert table.coach is not None and table.game == names[target]
        await pilot.pause(0.2)
        assert table.query_one(CoachPanel).lines, "the coach's panel is empty"
        assert any(line.startswith(MARK) for line in coach_log(table)), "no opening words"


async def test_a_table_without_a_coach_has_no_coach_panel(tmp_path: Path) -> None:
    app = ClowderApp(
        name="Ann",
        config_dir=tmp_path,
        play=PlayRequest(registry.names()[0], {}),
        host_bind="127.0.0.1",
        advertise=False,
        bot_delay_s=0.0,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, TableScreen)
        await pilot.pause()
        assert table.coach is None
        assert not table.query(CoachPanel)


# The log under the coach's panel at 80x24 (issue 36, item 9) -------------------------------


class CoachedHarness(TableHarness):
    """A game's coached table screen at its first game's deal (no host: one view)."""

    def __init__(self, name: str) -> None:
        game: Game[Any] = registry.get(name)
        table = first_game(name)
        state = game.new_game(players_for(table.seats), 5, dict(table.options))
        screen = screen_class(name)
        super().__init__(game.view(state, 0), presence=[], screen=screen)
        self.table = screen(table_id="t1", place="127.0.0.1:7707", coach=coach_class(name)())


async def settled(pilot: Pilot[Any], log: GameLog) -> None:
    """Wait until the coach's opening is in the log and the screen has drawn it."""
    for _ in range(200):
        await pilot.pause()
        if any(isinstance(item, Text) and item.plain.startswith(MARK) for item in log._written):
            break
    await pilot.pause()


@pytest.mark.parametrize("name", registry.names())
async def test_the_log_under_the_coach_shows_its_newest_entry_whole_at_80x24(name: str) -> None:
    """At 80x24 the Kiitos log under the coach was 2 rows, and its top row began mid-sentence
    (the end of a wrapped line, the rest of which was gone). And in every game the coach's
    panel grows with its advice (up to its most rows) and the log below shrinks: its newest
    rows went out of sight at the bottom (Black Cat's "Coach: The first 5 cards wait for
    you: read, then grab..." was cut after "to let"). Now the newest entry shows whole,
    from its first word to its last, when the panel is at its tallest."""
    app = CoachedHarness(name)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.table
        log = table.query_one(GameLog)
        await settled(pilot, log)
        panel = table.query_one(CoachPanel)
        panel.advise(["Wait."])
        await pilot.pause()
        panel.advise([f"Line {row + 1} of the advice." for row in range(PANEL_ROWS)])
        await pilot.pause()
        assert panel.outer_size.height == PANEL_ROWS + 1  # its text and its top border
        newest = log._written[-1]
        assert isinstance(newest, Text) and newest.plain.startswith(MARK), newest
        width = log.scrollable_content_region.width
        height = log.scrollable_content_region.height
        needed = len(newest.wrap(app.console, width))
        for _ in range(200):  # under load the log's resize and its scroll come frames later
            if log.scroll_offset.y + log.scrollable_content_region.height >= len(log.lines):
                break
            await pilot.pause(0.01)
        height = log.scrollable_content_region.height
        top = log.scroll_offset.y
        where = f"{name}: log rows {top}..{top + height} of {len(log.lines)}, newest {needed}"
        assert height >= needed, f"{where}: the newest entry does not fit"
        assert top + height >= len(log.lines), f"{where}: the newest rows are out of sight"
