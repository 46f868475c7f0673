"""Typed answers: the stamp is where typing the sent text started; tricks gain nothing."""

from __future__ import annotations

from net.core.typed import (
    LETTER_PAUSE_NS,
    REFLEX_NS,
    RUN_PAUSE_NS,
    TypedAnswer,
    TypingWatch,
    free_prefix,
    run_start_ns,
)

MS = 1_000_000


def typed(letter: str, keys: list[tuple[int, str]], *, articles: bool = True) -> TypedAnswer:
    """A line opened at 0 ms and edited to each value at each time (ms)."""
    line = TypedAnswer()
    line.open(letter, 0, articles=articles)
    for at_ms, value in keys:
        line.edit(value, at_ms * MS)
    return line


def keystrokes(word: str, start_ms: int, gap_ms: int) -> list[tuple[int, str]]:
    return [(start_ms + i * gap_ms, word[: i + 1]) for i in range(len(word))]


def test_the_stamp_is_the_first_keystroke_of_the_answer_not_the_enter() -> None:
    line = typed("B", keystrokes("Blackcurrant", 1500, 150))
    stamps = line.stamps(4000 * MS)
    assert stamps is not None
    assert stamps.text == "Blackcurrant"
    assert stamps.acted_ns == 1500 * MS
    assert stamps.typing_ns == 2500 * MS


def test_a_long_answer_and_a_short_one_started_at_once_get_the_same_stamp() -> None:
    long = typed("F", keystrokes("Fuerte avocado", 1200, 180)).stamps(9000 * MS)
    short = typed("F", keystrokes("Fig", 1200, 180)).stamps(2000 * MS)
    assert long is not None and short is not None
    assert long.acted_ns == short.acted_ns == 1200 * MS


def test_typing_the_letter_at_once_then_thinking_gains_nothing() -> None:
    # Trickster: B at 250 ms, thinks, types "anana" from 1500 ms.
    trick = typed("B", [(250, "B"), *[(1500 + i * 150, "B" + "anana"[: i + 1]) for i in range(5)]])
    honest = typed("B", keystrokes("Banana", 1500, 150))
    assert trick.stamps(3000 * MS).acted_ns == 1500 * MS  # type: ignore[union-attr]
    assert honest.stamps(3000 * MS).acted_ns == 1500 * MS  # type: ignore[union-attr]


def test_the_letter_typed_as_a_reflex_never_starts_the_answer() -> None:
    keys = [(200, "B"), (700, "Ba"), (800, "Ban")]  # the answer came fast, but after the B
    assert typed("B", keys).stamps(900 * MS).acted_ns == 700 * MS  # type: ignore[union-attr]
    assert REFLEX_NS == 500 * MS


def test_the_stated_residual_a_letter_typed_after_the_reflex_and_a_quick_answer() -> None:
    keys = [(800, "B"), (1500, "Ba"), (1600, "Ban")]  # 0.7 s apart: within LETTER_PAUSE
    assert typed("B", keys).stamps(1700 * MS).acted_ns == 800 * MS  # type: ignore[union-attr]


def test_the_article_of_a_category_that_ignores_it_is_free_too() -> None:
    keys = [(200, "T"), (300, "Th"), (400, "The"), (500, "The ")]
    keys += [(2000 + i * 150, "The " + "Shining"[: i + 1]) for i in range(7)]
    assert typed("S", keys).stamps(4000 * MS).acted_ns == 2000 * MS  # type: ignore[union-attr]
    # where the article counts as a word, a long pause (over RUN_PAUSE) still cuts
    assert typed("S", keys, articles=False).stamps(4000 * MS).acted_ns == 200 * MS  # type: ignore[union-attr]


def test_keys_typed_and_deleted_leave_no_trace() -> None:
    keys = [(200, "B"), (300, "Bx"), (400, "B"), (500, "Bx"), (600, "B")]
    keys += [(1500 + i * 150, "B" + "anana"[: i + 1]) for i in range(5)]
    assert typed("B", keys).stamps(3000 * MS).acted_ns == 1500 * MS  # type: ignore[union-attr]


def test_clearing_the_line_starts_over() -> None:
    keys = [*keystrokes("Bean", 800, 100), (1300, ""), *keystrokes("Banana", 1600, 100)]
    assert typed("B", keys).stamps(3000 * MS).acted_ns == 1600 * MS  # type: ignore[union-attr]


def test_a_long_pause_mid_answer_is_thinking_again() -> None:
    keys = keystrokes("Big", 1000, 100)
    keys += [(1200 + RUN_PAUSE_NS // MS + 1 + i * 100, "Big" + " Apple"[: i + 1]) for i in range(6)]
    stamps = typed("B", keys).stamps(9000 * MS)
    assert stamps is not None and stamps.acted_ns == (1200 + RUN_PAUSE_NS // MS + 1) * MS


def test_a_slow_typist_loses_at_most_one_keystroke() -> None:
    slow = LETTER_PAUSE_NS // MS + 200
    stamps = typed("B", keystrokes("Banana", 1000, slow)).stamps(9000 * MS)
    assert stamps is not None and stamps.acted_ns == (1000 + slow) * MS


def test_an_edit_in_the_middle_keeps_the_other_keystrokes() -> None:
    keys = [*keystrokes("Bnana", 1000, 100), (1600, "Banana")]
    line = typed("B", keys)
    assert [at // MS for _, at in line.chars] == [1000, 1600, 1100, 1200, 1300, 1400]
    assert line.stamps(2000 * MS).acted_ns == 1000 * MS  # type: ignore[union-attr]


def test_an_anywhere_letter_typed_first_is_free_wherever_it_ends_up() -> None:
    keys = [(200, "q"), (1500, "Iq"), (1600, "Irq"), (1700, "Iraq")]
    assert typed("Q", keys).stamps(2000 * MS).acted_ns == 1500 * MS  # type: ignore[union-attr]


def test_nothing_counts_before_the_letter_is_drawn_and_spaces_are_not_the_answer() -> None:
    line = TypedAnswer()
    line.edit("Banana", 5)
    assert line.chars == [] and line.stamps(10) is None
    line = typed("B", [(100, " "), (2000, " B"), (2100, " Be"), (2200, " Be ")])
    stamps = line.stamps(3000 * MS)
    assert stamps is not None and stamps.text == "Be" and stamps.acted_ns == 2000 * MS
    assert typed("B", [(100, "   ")]).stamps(3000 * MS) is None


def test_free_prefixes() -> None:
    assert free_prefix("", "B") and free_prefix("b", "B") and free_prefix(" B ", "B")
    assert free_prefix("The", "S") and free_prefix("th", "S") and free_prefix("The s", "S")
    assert free_prefix("An ", "S") and not free_prefix("Ba", "B")
    assert not free_prefix("The Sh", "S") and not free_prefix("The", "S", articles=False)
    assert free_prefix("É", "E")


def test_run_start_of_nothing_is_none() -> None:
    assert run_start_ns([], "B") is None


def test_the_host_waits_for_a_typist_who_started_first_or_tied() -> None:
    watch = TypingWatch(tie_ns=150 * MS, max_typing_ns=5000 * MS)
    assert watch.hold_until_ns(None) is None
    watch.notice(1, credited_ns=900 * MS, arrived_ns=10_000 * MS)
    watch.notice(2, credited_ns=2000 * MS, arrived_ns=11_000 * MS)
    assert watch.hold_until_ns(1000 * MS) == 15_000 * MS  # seat 1 may still win
    assert watch.hold_until_ns(700 * MS) is None  # nobody typing can beat 700 ms
    watch.done(1)
    assert watch.hold_until_ns(1000 * MS) is None
