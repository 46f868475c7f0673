"""A coached real-time game waits for its learner (issue 36, item 2).

``clowder learn blackcat`` turned a card about every 1.4 s (27 in 38.6 s), the "easy" bot
took each one, and each card's coach text scrolled away before it could be read. Now a
coached real-time table tells its host the player is learning (``learn``): the first cards
(letters) wait while the coach's text is up, until the learner grabs or presses Enter, and
then the game runs by itself with bots slow enough to beat. These checks read the host's
table and the screen at each step (not how long anything took), and the bots' pace from
the seeded easy bot as the host times its claims.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.bots import make_bot
from engine.games.blackcat.rules import GAME as BLACKCAT
from net.core.realtime import bot_reaction_ns
from net.core.table import TableRunner
from tests.tui.harness import TableHarness, blackcat_view
from tests.tui.solo import coach_advice, learn_app, table_of
from tui.app import ClowderApp
from tui.games import coach_class
from tui.games.blackcat.coach import BlackCatCoach
from tui.games.blackcat.screen import BlackCatTable
from tui.games.katootsie.coach import KatootsieCoach
from tui.games.katootsie.screen import KatootsieTable
from tui.screens.realtime import RealtimeTable
from tui.widgets.coach import WAITING_TITLE, CoachPanel

pytestmark = pytest.mark.timeout(60)

SECOND = 1_000_000_000
FAST = 0.05
"""The embedded host's bots at a twentieth of their coached time: the steps that do not
wait for the learner go quickly (the waits are read from the host, not timed)."""


def runner_of(app: ClowderApp) -> TableRunner:
    embedded = app.embedded
    assert embedded is not None and app.at_table is not None
    return embedded.host.core.tables[app.at_table.table]


def held_card(table: BlackCatTable) -> bool:
    view = table.view
    return view is not None and view["phase"] == "play" and not table.starting and table.held


async def until(pilot: Pilot[Any], ready: Any, what: str, rounds: int = 500) -> None:
    for _ in range(rounds):
        if ready():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


async def test_the_first_card_waits_while_the_coach_says_what_it_scores(tmp_path: Path) -> None:
    app = learn_app(tmp_path, "blackcat", bot_reaction_scale=FAST)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, BlackCatTable, held_card)
        runner = runner_of(app)
        assert runner.learner == table.seat and runner.learner_pace == BlackCatCoach.bot_pace
        assert runner.held_for_learner() and runner.paused()
        assert not runner._bot_claims, "no bot may claim a card held for the learner"
        view = table.view
        assert view is not None
        first = view["reveal"]
        advice = " ".join(coach_advice(table))
        assert "Press 1: pile 1" in advice and "Press 2: pile 2" in advice, advice
        panel = table.query_one(CoachPanel)
        assert panel.border_title == WAITING_TITLE
        assert table.check_action("go_on", ()) is True  # the footer offers Enter
        footer = {b.binding.action for b in table.active_bindings.values() if b.enabled}
        assert "go_on" in footer
        for _ in range(20):  # the bot's coached reaction at this scale passes many times
            await pilot.pause(0.02)
        assert table.view is not None and table.view["reveal"] == first and table.held

        await pilot.press("enter")  # read: let the bot have its go
        await until(pilot, lambda: not runner.held_for_learner(), "the host let it go on")
        await until(
            pilot,
            lambda: table.view is not None and table.view["reveal"] != first and table.held,
            "the bot took the first card and the second waits",
        )
        assert table.view is not None and table.view["piles"][1 - (table.seat or 0)]
        assert panel.border_title == WAITING_TITLE

        await pilot.pause(0.2)  # reads (a quicker key is refused as faster than a person)
        second = table.view["reveal"]
        await pilot.press("1")  # the learner grabs the second card: theirs, no hurry
        await until(
            pilot,
            lambda: table.view is not None and table.view["reveal"] != second,
            "the learner's grab was decided",
        )
        mine = table.view["piles"][table.seat or 0][0]["cards"]
        assert len(mine) == 1, "the held card went to the learner who grabbed it"


async def test_enter_goes_on_only_while_a_card_is_held() -> None:
    """The screen alone, fed views: Enter is offered and sends ``learn`` (go on) only while
    the host holds the moment; the coached screen says once that the player learns."""

    class Harness(TableHarness):
        def __init__(self, view: dict[str, Any]) -> None:
            super().__init__(view, screen=BlackCatTable)
            self.table = BlackCatTable(table_id="t1", coach=BlackCatCoach())
            self.learned: list[tuple[int | None, int | None]] = []

        def on_realtime_table_learn(self, message: RealtimeTable.Learn) -> None:
            self.learned.append((message.hold, message.pace))

    app = Harness(blackcat_view([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.table
        coach = BlackCatCoach
        assert app.learned == [(coach.held_moments, coach.bot_pace)]
        assert table.check_action("go_on", ()) is False
        await pilot.press("enter")
        assert app.learned[1:] == []
        table.received(blackcat_view([]), held=True)
        await pilot.pause()
        assert table.check_action("go_on", ()) is True
        assert table.query_one(CoachPanel).border_title == WAITING_TITLE
        await pilot.press("enter")
        await pilot.pause()
        assert app.learned[1:] == [(None, None)]
        assert table.check_action("go_on", ()) is False  # one Enter, one go
        table.received(blackcat_view([]))  # the host's view that ends the hold
        await pilot.pause()
        assert table.query_one(CoachPanel).border_title == "Coach"


async def test_katootsie_enter_on_the_empty_answer_line_lets_a_held_letter_go_on() -> None:
    from tests.tui.games.katootsie.test_table import letter_open

    view = letter_open().view(0)

    class Harness(TableHarness):
        def __init__(self, view: dict[str, Any]) -> None:
            super().__init__(view, screen=KatootsieTable)
            self.table = KatootsieTable(table_id="t1", coach=KatootsieCoach())
            self.learned: list[tuple[int | None, int | None]] = []

        def on_realtime_table_learn(self, message: RealtimeTable.Learn) -> None:
            self.learned.append((message.hold, message.pace))

    app = Harness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table: Any = app.table  # a KatootsieTable, given views as sent
        table.received(view, held=True)
        await pilot.pause()
        assert table.focused is table.query_one("#answer")
        await pilot.press("enter")
        await pilot.pause()
        assert app.learned[-1] == (None, None)
        assert not app.actions, "an empty line is no answer"
        table.clock.observe(float(view["opened_at"]) + 30.0, time.monotonic_ns())  # 30 s held
        table.received(view)  # the host's view that lets the letter go on
        await pilot.pause()
        offset = table.clock.offset_ns
        expected = time.monotonic_ns() - round(float(view["opened_at"]) * SECOND)
        assert offset is not None and 0 <= expected - offset < SECOND // 2, "the clock follows"


@pytest.mark.parametrize("game", ["blackcat", "katootsie", "kiitos"])
def test_every_real_time_coach_slows_its_bots_and_blackcat_waits_for_five_cards(
    game: str,
) -> None:
    coach = coach_class(game)
    assert coach.bot_pace >= 2
    if game == "blackcat":
        assert coach.held_moments == 5


def test_the_learners_easy_bot_is_slow_enough_for_a_beginner() -> None:
    """The easy Black Cat bot's claims as the host times them at a coached table (its coach's
    pace), over a seeded game: a beginner who has read the coach (1.5 to 2 s) gets there
    first. Before: ``clowder learn`` scaled every reaction by 1.75 (1.4 s typical, under
    1 s at the quickest), and the bot took every card."""
    pace = BlackCatCoach.bot_pace
    state = BLACKCAT.new_game(["Ann", "Bot Tom"], 5, {})
    bot = make_bot("blackcat", "easy", 11)
    delays = []
    for _ in range(40):
        action = bot.choose(BLACKCAT.view(state, 1))
        assert action is not None and action["type"] == "take"
        delays.append(bot_reaction_ns(bot, pace, 80_000_000) / SECOND)
        state, _ = BLACKCAT.apply(state, 1, action, 0.0)
    delays.sort()
    assert delays[0] >= 1.5, delays
    assert delays[len(delays) // 2] >= 2.0, delays
