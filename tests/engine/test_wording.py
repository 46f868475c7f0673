"""Every sentence a game says agrees in number: "1 vote", never "(1 votes)" (issue 36, item
11 found Katootsie!'s "No majority for anyone (1 votes)").

Seeded random games of every game (the contract's playouts, with each game's player counts
from the fewest to the most) collect every event's text; a count of one before a plural
noun fails, naming the game, the seed and the sentence.
"""

from __future__ import annotations

import re

import pytest

from engine import registry
from tests.contract import play, players_for

ONE_BEFORE_PLURAL = re.compile(
    r"(?<![\d.,:-])\b1 (votes|cards|letters|points|seconds|players|words|tricks|bids|wins|"
    r"games|seats|rounds|tokens|bows|hats|glasses|cats|moves|piles|answers|steps|spaces)\b"
)
"""A count of one, before a noun in the plural (``1 votes``): not ``0.1 seconds``, ``11``."""

SEEDS = range(12)


@pytest.mark.parametrize("game_name", registry.names())
def test_no_sentence_says_one_of_a_plural(game_name: str) -> None:
    game = registry.get(game_name)
    wrong: list[str] = []
    for seed in SEEDS:
        count = game.min_players + seed % (game.max_players - game.min_players + 1)
        playout = play(game, players_for(count), seed, max_steps=300)
        for _, events in playout.states():
            for event in events:
                found = ONE_BEFORE_PLURAL.search(event.text)
                if found:
                    wrong.append(f"seed {seed}, {count} players: {event.text!r}")
    assert not wrong, "\n".join(wrong[:10])


def test_the_pattern_finds_what_it_is_for() -> None:
    assert ONE_BEFORE_PLURAL.search("No majority for anyone (1 votes): a tie-break.")
    assert not ONE_BEFORE_PLURAL.search("11 votes, 21 cards, 0.1 seconds, 1 vote")


def test_a_tie_with_one_voter_says_one_vote() -> None:
    """Three players, two tied: one voter, who says "the same time" (no majority)."""
    from tests.engine.games.katootsie.helpers import table
    from tests.engine.games.katootsie.test_rules import tie

    game = table(players=3, first="BCD")
    game.to_letter()
    tie(game, {0: "banana", 1: "blueberry"})
    game.act(2, {"type": "first", "seat": None})
    said = [entry.text for entry in game.state.log if entry.kind == "first_result"]
    assert said == ["No majority for anyone (1 vote): a tie-break."]
