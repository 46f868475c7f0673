"""The TUI's second line of defence: network strings are cleaned before they are drawn."""

from __future__ import annotations

from typing import Any

from net.wire import text
from net.wire.text import clean_data
from tui.screens.lobby import seats_text, table_row
from tui.widgets.connection import seat_text

EVIL = "Evil\x1b[2J\x1b]0;p\x07\u202e"


def test_lobby_rows_clean_names_titles_and_ids() -> None:
    table = {
        "id": f"t1{EVIL}",
        "title": EVIL,
        "status": "waiting",
        "free": 1,
        "seats": [{"name": EVIL, "human": True, "connected": True}, {"name": None}],
    }
    cells = table_row(table)
    assert not any(char in "".join(cells) for char in "\x1b\x07\u202e")
    assert "Evil" in cells[1] and "Evil" in cells[2]
    assert "\x1b" not in seats_text(table["seats"])  # type: ignore[arg-type]


def test_the_connection_line_cleans_seat_names() -> None:
    text = seat_text({"name": EVIL, "connected": True, "rtt_ms": 1.0}, you=False).plain
    assert "\x1b" not in text and "\u202e" not in text and text.startswith("Evil")


def test_views_and_events_are_cleaned_but_keep_their_line_breaks() -> None:
    view = {"players": [EVIL, "Bea"], "log": [f"{EVIL} bids"], "explain": "Pile: 3\nTotal: 3"}
    cleaned = clean_data(view)
    assert "\x1b" not in str(cleaned) and "\u202e" not in str(cleaned)
    assert cleaned["players"][1] == "Bea" and cleaned["players"][0].startswith("Evil")
    assert cleaned["explain"] == "Pile: 3\nTotal: 3"
    assert clean_data({"safe": ["text", 1, None]}) == {"safe": ["text", 1, None]}


def test_safe_data_comes_back_as_the_very_object_and_unsafe_data_as_a_clean_copy() -> None:
    safe = {"players": ["Ann", "Bea"], "scores": [1, 2.5], "over": False, "log": ["Ann plays"]}
    assert clean_data(safe) is safe  # nothing built for a view with nothing to clean
    deep: dict[str, Any] = {"table": [{"name": "Ann"}, {EVIL: 1}], "seat": 0}
    cleaned = clean_data(deep)
    assert cleaned is not deep and "\x1b" not in str(cleaned)
    assert cleaned["table"][0] is deep["table"][0]  # the clean parts are shared, not copied
    assert EVIL in deep["table"][1]  # what was given is not changed
    assert clean_data(("Ann", EVIL))[1] != EVIL  # a tuple comes back a clean list


def test_texts_found_safe_are_kept_and_unsafe_ones_are_cleaned_every_time() -> None:
    """Issue 35: the same short texts come in every view, so those found safe are kept (a
    look-up, not a look at each character); an unsafe text is never kept, so it is
    cleaned however often it comes, in a map's key or value, a list or alone."""
    for _ in range(3):
        assert clean_data({"name": "Ann"}) == {"name": "Ann"}
        for shaped in ({"name": EVIL}, {EVIL: 1}, [EVIL], EVIL):
            assert "\x1b" not in str(clean_data(shaped)) and "\u202e" not in str(clean_data(shaped))
    assert "Ann" in text._SAFE_TEXTS and EVIL not in text._SAFE_TEXTS
    long_line = "Ann plays the 7 of hearts, " * 4
    assert clean_data(long_line) is long_line and long_line not in text._SAFE_TEXTS


def test_the_kept_safe_texts_stay_few() -> None:
    for number in range(text.SAFE_TEXTS_KEPT + 10):
        clean_data(f"name {number}")
    assert 0 < len(text._SAFE_TEXTS) <= text.SAFE_TEXTS_KEPT
