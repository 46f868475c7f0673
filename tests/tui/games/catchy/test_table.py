"""Catchy!'s table screen: what its results say."""

from __future__ import annotations

from typing import Any, cast

from tests.tui.harness import catchy_view
from tui.games.catchy.screen import CatchyTable


def test_the_results_say_1_point_and_3_points() -> None:
    """A score of one is "1 point" (a whole game in Chromium read "Bot Tom: 1 points")."""
    view = catchy_view(0)
    view["scores"] = [1, 3]
    lines = CatchyTable().results_lines(cast(Any, view))
    assert "Ann (you): 1 point" in lines and "Bot Tom: 3 points" in lines
