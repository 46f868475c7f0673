"""Katootsie! against three in-host bots through the real app, host and client, by keys.

``clowder play katootsie --bots 3`` with the letter pile cut to four letters
(two categories) and short pauses, so a whole game fits a test: the player
types answers from the category's list into the answer line and presses
Enter; the host's arbiter ranks them against the bots' claims; the game ends
at the results screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.games.katootsie import answers
from engine.games.katootsie import rules as katootsie
from net.core.host import HostCore
from net.core.table import BOT_DELAY_S
from tests.tui.solo import solo_app, table_of
from tui.games.katootsie.screen import KatootsieTable
from tui.screens.results import ResultsScreen

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def short_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four letters (B, B, S, S: every category has answers for them) and short pauses."""
    monkeypatch.setattr(katootsie, "FULL_LETTERS", ("B", "B", "S", "S"))
    monkeypatch.setattr(katootsie, "CATEGORY_PAUSE_S", 0.3)
    monkeypatch.setattr(katootsie, "LETTER_PAUSE_S", 0.3)
    # The order of the letters and categories is fixed (a testing aid a real host refuses).
    monkeypatch.setattr(HostCore, "_check_fixed_deck", lambda self, game, options: None)


CATEGORIES = [c.code for c in answers.categories() if c.title in ("Fruits", "Vegetables")]
OPTIONS = {
    "deck": ["B", "S", "B", "S"],
    "categories": CATEGORIES,
    "no_answer_seconds": 10,
    "vote_seconds": 2,
}


def my_answer(view: Mapping[str, Any]) -> str | None:
    """An answer from the list that nobody used yet (the player knows the list)."""
    code = view["category"]["code"]
    used = {answers.used_key(text) for text in view["used"]}
    for text in answers.answers_for(code, view["letter"]):
        if answers.used_key(text) not in used and text.isascii():
            return str(text)
    return None


async def test_a_whole_game_against_three_bots_by_keys_ends_at_the_results(
    tmp_path: Path, short_game: None
) -> None:
    app = solo_app(
        tmp_path,
        "katootsie",
        OPTIONS,
        bots=3,
        bot_delay_s=BOT_DELAY_S,
        bot_reaction_scale=0.2,
    )
    answered = 0
    async with app.run_test(size=(80, 24)) as pilot:
        table = await table_of(pilot, KatootsieTable)
        tried: set[int] = set()
        for _ in range(3000):
            if isinstance(app.screen, ResultsScreen):
                break
            view = table.view
            assert view is not None
            reveal = view["reveal"]
            if (
                reveal is not None
                and reveal not in tried
                and table.may_answer(view)
                and table.focused is table.query_one("#answer")
            ):
                tried.add(reveal)
                text = my_answer(view)
                if text is not None:
                    await pilot.pause(0.15)  # a human moment after the letter shows
                    await pilot.press(*[" " if ch == " " else ch for ch in text.lower()])
                    await pilot.press("enter")
                    answered += 1
            await pilot.pause(0.02)
        results = app.screen
        assert isinstance(results, ResultsScreen), "the game did not end:\n" + "\n".join(
            table.history.lines
        )
        assert answered >= 1
        assert any("win" in line for line in results.lines[:1])
        assert table.history.awards, "no ruling reached the screen"
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.02)
            if app.return_code is not None:
                break
    assert app.return_code == 0
