"""The hard bot's table memory: what a seat can infer from the views it is shown."""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.games.kiitos.bot import HardKiitosBot
from engine.games.kiitos.memory import TableMemory, continuations


def _view(
    table: str,
    target: str | None,
    turn: int,
    negative: tuple[int, ...] = (0, 0, 0, 0),
    positive: tuple[int, ...] = (0, 0, 0, 0),
    counts: tuple[int, ...] = (8, 8, 8, 8),
    seat: int = 0,
) -> dict[str, Any]:
    """A hand-built 4-player view with only what the memory reads."""
    return {
        "round": 1,
        "seat": seat,
        "rules": {"min_length": 4, "super_kiitos": False},
        "table": list(table.upper()),
        "target": target,
        "turn": turn,
        "positive": list(positive),
        "negative": list(negative),
        "hand_counts": list(counts),
    }


def test_memory_a_player_who_says_a_new_word_lacked_the_target_letter() -> None:
    memory = TableMemory()
    memory.see(_view("ca", "CATS", turn=2))
    # Seat 2 played T as CATS asks; seat 3 played H and said CATHODE instead of S.
    memory.see(_view("cath", "CATHODE", turn=0, counts=(8, 7, 7, 7)))
    assert memory.lacking(3, "S") == 0
    assert memory.lacking(2, "T") is None  # it played T: no lack
    assert memory.lacking(3, "E") is None


def test_memory_a_player_who_picks_up_lacked_every_letter_that_continues_it() -> None:
    memory = TableMemory()
    memory.see(_view("knes", "KNESSETS", turn=1, counts=(7, 7, 8, 7)))
    # Seat 1 picked KNES up (4 cards) and everyone drew back to 8.
    memory.see(_view("", None, turn=1, negative=(0, 4, 0, 0)))
    assert continuations("knes", 4) == {"S"}
    assert memory.lacking(1, "S") == 1  # it drew one card since: the lack fades
    assert memory.gone == {"K": 1, "N": 1, "E": 1, "S": 1}


def test_memory_a_completed_word_goes_out_of_play() -> None:
    memory = TableMemory()
    memory.see(_view("cat", "CATS", turn=3, counts=(7, 7, 7, 8)))
    memory.see(_view("", None, turn=1, positive=(0, 4, 0, 0)))
    assert memory.gone == {"C": 1, "A": 1, "T": 1, "S": 1}
    assert memory.lacks == {}


def test_memory_notes_its_own_word_which_it_sees_no_view_of() -> None:
    memory = TableMemory()
    view = _view("", None, turn=0)
    memory.see(view)
    memory.played(view, {"type": "lead", "word": "cats", "letter": "C"})
    # Seat 1 said COLD instead of playing A.
    memory.see(_view("co", "COLD", turn=2, counts=(7, 7, 8, 8)))
    assert memory.lacking(1, "A") == 0


def test_hard_odds_are_lower_for_a_letter_the_next_player_lacks() -> None:
    bot = HardKiitosBot(Rng.from_seed(1))
    first = _view("ca", "CATS", turn=2) | {"hand": list("EEIIOOUU")}
    bot.memory.see(first)
    later = _view("cath", "CATHODE", turn=0, counts=(8, 7, 7, 7)) | {"hand": list("EEIIOOUU")}
    bot.memory.see(later)
    odds = bot._odds(later)
    by_offset = bot._odds_by_offset(later, odds)
    assert by_offset[3]["S"] == 0.0  # seat 3 lacks S and drew nothing since
    assert by_offset[1]["S"] == odds["S"] > 0.0  # nothing known of seat 1
