"""Kitten Me!'s reveal box: whole on a phone and at 80x24, and a watcher's goes away.

Issue 36, item 3. The box drew its body at a fixed 70 cells: on a phone's 48 columns the
cards and what each hand added were cut (``Blue Bow Tie…``, ``0 (Ca…``), and at 80x24
too the widest words (``0 (Can't See M…``). And the box stays until a key is pressed:
a player presses one to play on, but a watcher (a spectator, or a player who is out)
has nothing to press, so a box opened at round 1 stayed for the rest of the game, the
next calls queued behind it.
"""

from __future__ import annotations

import time
from typing import Any, cast

import pytest
from textual import events
from textual.screen import Screen

from engine.bots import make_bot
from engine.games.kitten.rules import CHALLENGE, GAME, PURRFECT, KittenView
from tests.tui.games.kitten.test_table import (
    DAN_BIDS,
    drawn,
    harness,
    kitten_view,
    played_out,
    text_of,
)
from tests.tui.harness import flat
from tests.tui.solo import drawn_screen
from tui.games.kitten.screen import (
    RevealScreen,
    change_words,
    chip_label,
    hand_adds_words,
    verdict,
)


def box_rows(app: Any, screen: RevealScreen) -> list[str]:
    """The rows of the reveal box's body as drawn on screen."""
    region = screen.query_one("#reveal-scroll").region
    return [row[region.x : region.right] for row in drawn(app)[region.y : region.bottom]]


@pytest.mark.parametrize("size", [(80, 24), (48, 40)], ids=["80x24", "48x40"])
async def test_the_reveal_box_shows_every_card_and_count_whole(size: tuple[int, int]) -> None:
    """Every card, what each hand added (``0 (Can't See Me)``, a doubled sum), the flip, the
    total and the verdict are on screen whole, nothing cut with ``…``; on a phone's 48x40
    the whole reveal shows at once, at 80x24 it scrolls."""
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=size) as pilot:
        table = app.table
        await pilot.pause()
        called = kitten_view([*DAN_BIDS, {"type": CHALLENGE}])
        table.view = called
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, RevealScreen):
                break
        screen = app.screen
        assert isinstance(screen, RevealScreen)
        await pilot.pause()
        box = screen.query_one("#reveal-box").region
        width, height = size
        assert box.x >= 0 and box.right <= width and box.y >= 0 and box.bottom <= height - 1
        scroll = screen.query_one("#reveal-scroll")
        if size == (48, 40):
            assert scroll.max_scroll_y == 0, "a phone's 40 rows show the whole reveal"
        rows = box_rows(app, screen)
        while scroll.scroll_y < scroll.max_scroll_y:
            scroll.scroll_relative(y=scroll.size.height, animate=False)
            await pilot.pause()
            rows += box_rows(app, screen)
        reveal = called["last_reveal"]
        whole = [chip_label(code) for hand in reveal["hands"] for code in hand["cards"]]
        whole += [hand_adds_words(hand) for hand in reveal["hands"]]
        whole += ["Bea", "Cy", "Dan", "Dan flips", chip_label(reveal["flipped"]), "bid: 3 blue"]
        assert [words for words in whole if not any(words in row for row in rows)] == []
        assert [row for row in rows if "…" in row] == []
        view = cast(KittenView, called)
        lines = [verdict(view, reveal), *change_words(view, reveal), "You deal next."]
        shown = flat(" ".join(rows))
        assert [line for line in lines if flat(line) not in shown] == []


def watched_game(players: int = 4, seed: int = 5) -> tuple[list[Any], list[int]]:
    """A whole game between plain bots: every state (the first, then one after each move),
    and the indices of the states right after each call."""
    state = GAME.new_game(["Ann", "Bea", "Cy", "Dan"][:players], seed, {})
    bots = [make_bot("kitten", "plain", seat) for seat in range(players)]
    states, calls = [state], []
    while GAME.outcome(state) is None:
        action = bots[state.turn].choose(GAME.view(state, state.turn))
        assert action is not None
        state, _ = GAME.apply(state, state.turn, action, 0.0)
        states.append(state)
        if action["type"] in (CHALLENGE, PURRFECT):
            calls.append(len(states) - 1)
    return states, calls


def watchers() -> list[tuple[str, int | None, int]]:
    """Who watches, and from which call on: a spectator from the first; the player out
    first, from the call after the one that put them out."""
    states, calls = watched_game()
    out = next(k for k, index in enumerate(calls) if GAME.view(states[index], None)["out"])
    seat = GAME.view(states[calls[out]], None)["out"][0]
    return [("spectator", None, 0), ("out", seat, out + 1)]


@pytest.mark.parametrize(("seat", "first"), [w[1:] for w in watchers()], ids=["spectator", "out"])
async def test_a_watcher_s_reveal_closes_once_the_next_round_is_under_way(
    seat: int | None, first: int
) -> None:
    """The box opens by itself at a call, for a watcher as for a player. The next round's
    deal comes with the call: the box stays; the first move of that round closes a
    watcher's box, once it has been up a while (``KittenTable.reveal_read_s``)."""
    states, calls = watched_game()
    call = calls[first]
    before, called, next_move = (GAME.view(states[i], seat) for i in (call - 1, call, call + 1))
    assert GAME.view(states[call - 1], None)["out"] or first == 0
    assert next_move["round"] == called["round"] and next_move["bids"]
    app = harness(before)
    async with app.run_test(size=(80, 24)) as pilot:
        table: Any = app.table  # a KittenTable, fed the engine's views as they are
        await pilot.pause()
        assert before["seat"] is None or before["seat"] in before["out"]
        table.reveal_read_s = 0.0
        table.view = called  # the call, and the next round dealt: the box opens, and stays
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen)
        table.reveal_read_s = 600.0  # not read long enough yet: it stays
        table.view = next_move
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen), "closed before it could be read"
        table.reveal_read_s = 0.2  # read a while: it closes by itself
        table.view = next_move
        for _ in range(100):
            await pilot.pause(0.05)
            if app.screen is table:
                break
        assert app.screen is table
        assert app.actions == []


async def test_a_player_s_reveal_stays_until_a_key() -> None:
    """A player reads the box and presses a key to play on: it does not close under them."""
    states, calls = watched_game()
    call = calls[0]
    seat = next(s for s in range(4) if s not in GAME.view(states[call + 1], None)["out"])
    app = harness(GAME.view(states[call - 1], seat))
    async with app.run_test(size=(80, 24)) as pilot:
        table: Any = app.table  # a KittenTable, fed the engine's views as they are
        await pilot.pause()
        table.reveal_read_s = 0.0
        table.view = GAME.view(states[call], seat)
        table.view = GAME.view(states[call + 1], seat)
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen)
        await drawn_screen(pilot, RevealScreen)
        await pilot.press("space")
        assert app.screen is table


async def test_a_watcher_s_box_shows_the_newest_call_not_a_queue() -> None:
    """Two calls while a watcher's box is open: the box shows the newer (a player's waits
    its turn, tests/tui/games/kitten/test_table.py), and one key brings back the table."""
    states, calls = watched_game()
    app = harness(GAME.view(states[calls[0] - 1], None))
    async with app.run_test(size=(80, 24)) as pilot:
        table: Any = app.table  # a KittenTable, fed the engine's views as they are
        await pilot.pause()
        table.reveal_read_s = 600.0
        table.view = GAME.view(states[calls[0]], None)
        await pilot.pause()
        table.view = GAME.view(states[calls[1]], None)
        newest = GAME.view(states[calls[1]], None)["last_reveal"]["round"]
        for _ in range(20):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, RevealScreen) and screen.heading.startswith(f"Round {newest}:"):
                break
        screen = app.screen
        assert isinstance(screen, RevealScreen)
        assert screen.heading.startswith(f"Round {newest}:")
        await drawn_screen(pilot, RevealScreen)
        await pilot.press("space")
        assert app.screen is table


async def test_one_reveal_box_serves_a_table_for_its_life_and_goes_with_it() -> None:
    """Issue 35: making a box was most of what a reveal cost (about 44 ms of CPU, at every
    call, for every player): the table keeps one and shows each call in it. Shown again,
    it takes keys only once drawn again (a key typed for the table is not taken as
    "close"), and when the table goes, so does its box."""
    _, reveals = played_out()
    app = harness(reveals[0])
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.table
        table.view = reveals[1]
        first = await drawn_screen(pilot, RevealScreen)
        await pilot.press("space")
        assert app.screen is table
        shown_again = time.monotonic()
        table.view = reveals[2]
        for _ in range(500):
            await pilot.pause(0.01)
            if first.seen_at is not None and first.seen_at >= shown_again:
                break
        assert app.screen_stack[-1] is first  # the same box, with the new call, drawn anew
        assert first.seen_at is not None and first.seen_at >= shown_again
        heading = f"Round {reveals[2]['last_reveal']['round']}:"
        assert first.heading.startswith(heading)
        assert text_of(first.query_one("#reveal-title")).startswith(heading)
        typed_for_the_table = events.Key("x", "x")
        typed_for_the_table.time = shown_again
        assert first.typed_before_seen(typed_for_the_table)
        await pilot.press("x")
        assert app.screen is table
        installed = app._installed_screens.values()
        assert [box for box in installed if isinstance(box, RevealScreen)] == [first]
        await app.switch_screen(Screen())
        await pilot.pause()
        assert not [box for box in installed if isinstance(box, RevealScreen)]
        assert not first.is_attached
