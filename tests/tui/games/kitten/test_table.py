"""The Kitten Me! table driven with fixed views: what it shows and the moves its keys send."""

from __future__ import annotations

import io
import re
from typing import Any, cast

import pytest
from rich.console import Console, RenderableType

from engine.bots import make_bot
from engine.games.kitten.cards import GO_FISH, SKIP, THINGS, deck
from engine.games.kitten.rules import CHALLENGE, GAME, PURRFECT, KittenView
from tests.tui.harness import TableHarness
from tests.tui.solo import drawn_screen
from tui.games.kitten.coach import KittenCoach, expected
from tui.games.kitten.screen import KittenTable, RevealScreen, chip_label, reveal_body
from tui.screens.keys import key_lines
from tui.screens.results import ResultsScreen
from tui.widgets.log import GameLog
from tui.widgets.prompt import PromptLine

SIZE = (80, 24)
PLAYERS = ["Ann", "Bea", "Cy", "Dan"]
ANN = ["hat-red-1", "bowtie-blue-2", "wild-1", "skip", "go-fish"]
BEA = ["hat-green-3", "cant-see-me", "wild-2", "hat-blue-2", "bowtie-red-1"]
CY = ["bowtie-red-3", "draw-3", "glasses-green-1", "hat-blue-3", "glasses-blue-1"]
DAN = ["hat-blue-1", "glasses-blue-1", "glasses-blue-2", "double-trouble", "hang-in-there"]
FLIP = "hat-red-2"


def fixed_deck(hands: list[list[str]], flip: str = FLIP, deck_set: str = "deluxe") -> list[str]:
    """A whole deck, top first, that deals ``hands`` in seat order with ``flip`` on top after."""
    rest = deck(deck_set)
    for code in [card for hand in hands for card in hand] + [flip]:
        rest.remove(code)
    return [card for hand in hands for card in hand] + [flip] + rest


def kitten_view(
    actions: list[dict[str, Any]] = (),  # type: ignore[assignment]
    seat: int | None = 0,
    players: list[str] | None = None,
    hands: list[list[str]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The view for ``seat`` after ``actions`` (each by whoever's turn it is) from a fixed deal.

    Seed 7 makes Dan (seat 3) the first dealer with four players: he opens, Ann answers.
    """
    names = players or PLAYERS
    opts: dict[str, Any] = {"deck_set": "deluxe", "purrfect": True, **options}
    if players is None or hands is not None:
        opts.setdefault("deck", fixed_deck(hands or [ANN, BEA, CY, DAN]))
    state = GAME.new_game(names, 7, opts)
    for action in actions:
        state, _ = GAME.apply(state, state.turn, action, 0.0)
    view: dict[str, Any] = GAME.view(state, seat)
    return view


def harness(view: dict[str, Any]) -> TableHarness:
    return TableHarness(view, presence=[], screen=KittenTable)


class CoachedHarness(TableHarness):
    """The table of ``clowder learn kitten``: the coach's panel above the log."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(view, presence=[], screen=KittenTable)
        self.table = KittenTable(table_id="t1", coach=KittenCoach())


def played_out(players: int = 3, seed: int = 5) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole game between plain bots: Ann's final view, and Ann's views at each new reveal."""
    state = GAME.new_game(PLAYERS[:players], seed, {})
    bots = [make_bot("kitten", "plain", seat) for seat in range(players)]
    reveals = []
    while GAME.outcome(state) is None:
        seat = state.turn
        action = bots[seat].choose(GAME.view(state, seat))
        assert action is not None
        state, _ = GAME.apply(state, seat, action, 0.0)
        if action["type"] in (CHALLENGE, PURRFECT):
            reveals.append(GAME.view(state, 0))
    final: dict[str, Any] = GAME.view(state, 0)
    return final, reveals


def text_of(widget: object) -> str:
    return str(widget.render())  # type: ignore[attr-defined]


def plain(renderable: RenderableType, width: int = 76) -> str:
    """A rich renderable as the plain text it shows at ``width`` cells."""
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def prompt(app: TableHarness) -> str:
    return text_of(app.table.query_one(PromptLine))


def footer_keys(app: TableHarness) -> set[str]:
    """The keys the footer offers now."""
    return {binding.key for _, binding, enabled, _ in app.table.active_bindings.values() if enabled}


DAN_BIDS = [{"type": "bid", "count": 3, "thing": "blue"}]


def test_the_view_has_exactly_the_keys_kitten_view_names() -> None:
    assert set(kitten_view()) == set(KittenView.__annotations__)


async def test_a_bid_by_keys_starts_at_the_lowest_legal_count_and_sends_the_bid() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        assert "Beat Dan's 3 blue?" in prompt(app)
        await pilot.press("b")
        table = app.table
        assert isinstance(table, KittenTable)
        assert (table.mode, table.count) == ("bid", 4)
        assert table.thing == "bowtie"  # what Ann's hand adds most to (Blue Bow x2 + Wild)
        assert "4 bow ties" in text_of(table.query_one("#bar"))
        await pilot.press("up", "up", "down")
        assert table.count == 5
        await pilot.press("down", "down", "down")
        assert table.count == 4  # never below the lowest legal bid
        await pilot.press("right", "e")
        assert table.thing == "red"
        await pilot.press("enter")
        assert app.actions == [{"type": "bid", "count": 4, "thing": "red"}]
        assert table.mode == ""


async def test_a_thing_s_letter_opens_the_bar_on_that_thing_and_escape_closes_it() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        assert app.table.query_one("#bar").display
        assert "4 blue" in text_of(app.table.query_one("#bar"))
        await pilot.press("escape")
        assert not app.table.query_one("#bar").display
        await pilot.press("up", "left", "enter")
        assert app.actions == [{"type": "bid", "count": 4, "thing": "hat"}]


def opening_view() -> dict[str, Any]:
    """Dan's view as he deals and opens round 1 (no bid yet)."""
    return kitten_view(seat=3)


async def test_an_opening_bid_starts_near_the_likely_count_and_the_count_is_typed() -> None:
    """Issue 36, item 1: an opening bid started at 1 (eight presses of up to open at 9) and
    the digits picked the thing. The bar opens on the thing the table can most expect, at
    the count a call would likely find; digits type the count, Backspace corrects, and a
    letter picks the thing."""
    view = opening_view()
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, KittenTable)
        assert "type the count" in prompt(app)
        await pilot.press("b")
        best = max(THINGS, key=lambda thing: expected(cast(KittenView, view), thing))
        likely = round(expected(cast(KittenView, view), best))
        assert likely > 1 and (table.thing, table.count) == (best, likely)
        assert f"~{likely} likely in all" in text_of(table.query_one("#bar"))
        await pilot.press("h")  # untouched, the count follows the thing
        assert table.count == round(expected(cast(KittenView, view), "hat"))
        await pilot.press("1", "2")
        assert table.count == 12 and "12 hats" in text_of(table.query_one("#bar"))
        await pilot.press("backspace")
        assert table.count == 1 and "1 hat " in text_of(table.query_one("#bar"))
        await pilot.press("backspace", "enter")
        assert app.actions == [] and "you typed nothing" in prompt(app)
        await pilot.press("9", "l")  # typed, the count stays when the thing changes
        assert (table.thing, table.count) == ("glasses", 9)
        await pilot.press("enter")
        assert app.actions == [{"type": "bid", "count": 9, "thing": "glasses"}]


async def test_a_typed_raise_below_the_lowest_bid_is_refused_with_the_range() -> None:
    app = harness(kitten_view(DAN_BIDS))  # Dan's 3 blue: 4 is the lowest raise
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, KittenTable)
        await pilot.press("7")  # a digit opens the bar with the count typed
        assert (table.mode, table.count) == ("bid", 7)
        await pilot.press("backspace", "2")
        assert "a bid now is at least 4" in text_of(table.query_one("#bar"))
        await pilot.press("enter")
        assert app.actions == [] and "A bid now is 4 to 40: you typed 2" in prompt(app)
        await pilot.press("5", "9")  # 259 is past the highest bid (40): the 9 starts anew
        assert table.count == 9
        await pilot.press("up")  # the arrows move a typed count too
        assert table.count == 10
        await pilot.press("enter")
        assert app.actions == [{"type": "bid", "count": 10, "thing": "bowtie"}]


async def test_the_bid_bar_s_keys_are_in_its_footer_its_key_list_and_the_bar() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        await pilot.press("b")
        footer = {
            active.binding.key_display or active.binding.key: active.binding.description
            for active in table.active_bindings.values()
            if active.binding.show and active.enabled
        }
        assert footer["0-9"] == "count" and footer["bksp"] == "erase" and footer["←→"] == "thing"
        assert "bid!" in footer.values() and "cancel" in footer.values()
        lines = {line.label: line.description for line in key_lines(table)}
        assert lines["0-9"] == "count"
        for key, words in (("h", "hats"), ("o", "bow ties"), ("l", "glasses"), ("n", "green")):
            assert lines[key] == words
            assert f"{key} {words}" in text_of(table.query_one("#bar"))


async def test_letters_typed_into_the_chat_do_not_open_the_bid_bar() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert isinstance(table, KittenTable)
        await pilot.press("t", *"hello 12", "enter")
        assert table.mode == "" and app.actions == []


async def test_c_challenges_the_standing_bid() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        assert {"c", "p", "s", "g"} <= footer_keys(app)
        await pilot.press("c")
        assert app.actions == [{"type": CHALLENGE}]
        await pilot.press("p")
        assert app.actions[-1] == {"type": PURRFECT}


async def test_special_cards_from_the_hand_skip_and_go_fish_with_its_player_and_thing() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        hand = text_of(app.table.query_one("#hand"))
        assert "SKIP" in hand and "FISH" in hand and "WILD" in hand and "Blue" in hand
        assert "d" not in footer_keys(app)  # Ann holds no Draw 3
        await pilot.press("s")
        assert app.actions == [{"type": "play", "card": SKIP}]
        await pilot.press("g")
        assert "Go Fish" in text_of(app.table.query_one("#bar"))
        await pilot.press("down", "e", "enter")
        assert app.actions[-1] == {"type": "play", "card": GO_FISH, "target": 2, "thing": "red"}


async def test_keys_for_moves_that_are_not_legal_say_why_and_send_nothing() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert "You do not hold a Draw 3" in prompt(app)
    app = harness(kitten_view(DAN_BIDS, seat=1))
    async with app.run_test(size=SIZE) as pilot:
        assert "c" not in footer_keys(app) and "b" not in footer_keys(app)
        await pilot.press("c", "b")
        assert "It is Ann's turn" in prompt(app)
    app = harness(kitten_view(seat=3))  # Dan deals: the round opens with a bid
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        assert "There is no bid to call yet" in prompt(app)
    app = harness(kitten_view(DAN_BIDS, purrfect=False))
    async with app.run_test(size=SIZE) as pilot:
        assert "p" not in footer_keys(app)
        await pilot.press("p")
        assert "does not play Purrfect" in prompt(app)
    assert app.actions == []


async def test_your_own_bid_back_to_you_must_be_raised() -> None:
    # Two players, seed 7: Bea deals and bids, Ann plays Skip, the bid comes back to Bea.
    view = kitten_view(
        [{"type": "bid", "count": 2, "thing": "hat"}, {"type": "play", "card": SKIP}],
        seat=1,
        players=["Ann", "Bea"],
        hands=[ANN, BEA],
    )
    assert view["must_bid"]
    app = harness(view)
    async with app.run_test(size=SIZE) as pilot:
        assert "make a new bid" in prompt(app)
        assert "c" not in footer_keys(app)
        await pilot.press("c")
        assert "That is your own bid: make a new bid" in prompt(app)
        await pilot.press("b", "enter")
        assert app.actions == [{"type": "bid", "count": 3, "thing": "hat"}]


async def test_a_spectator_sees_counts_but_no_hand_and_cannot_bid() -> None:
    app = harness(kitten_view(DAN_BIDS, seat=None))
    async with app.run_test(size=SIZE) as pilot:
        assert not app.table.query_one("#hand").display
        assert "watching" in text_of(app.table.query_one("#title"))
        players = text_of(app.table.query_one("#players"))
        assert all(name in players for name in PLAYERS)
        await pilot.press("b", "4", "enter", "c")
        assert app.actions == []
        assert "only players" in prompt(app)


async def test_a_call_opens_the_full_reveal_until_a_key_and_v_shows_it_again() -> None:
    app = harness(kitten_view(DAN_BIDS))
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        table.view = kitten_view([*DAN_BIDS, {"type": CHALLENGE}])
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RevealScreen)
        body = plain(screen.body)
        for words in (
            "Dan flips",
            "Red Hat\u00d72",
            "4\u00d72 = 8",  # Dan's blue doubled
            "0 (Can't See Me)",  # Bea's Blue Hat x2 and Wild x2 count for nothing
            "15 is at least 3: the bid holds.",
            "You lose a card (the bid held).",
            "Dan gains a card (Hang In There).",
        ):
            assert words in body, words
        assert "You called" in text_of(screen.query_one("#reveal-title"))
        await drawn_screen(pilot, RevealScreen)  # a key counts once the box is drawn
        await pilot.press("x")
        assert app.screen is table
        assert "15: you -1, Dan +1" in text_of(table.query_one("#last-call"))
        await pilot.press("v")
        assert isinstance(app.screen, RevealScreen)
        await drawn_screen(pilot, RevealScreen)
        await pilot.press("enter")
        assert app.screen is table and app.actions == []


def drawn(app: TableHarness) -> list[str]:
    """The screen on top as drawn, row by row."""
    update = app.screen._compositor.render_full_update()
    return ["".join(strip.text for strip in row) for row in update.strips]


def log_rows(app: TableHarness) -> list[str]:
    """The rows of the table's log as drawn on screen."""
    region = app.table.query_one(GameLog).scrollable_content_region
    rows = drawn(app)[region.y : region.bottom]
    return [row[region.x : region.right].rstrip() for row in rows]


async def newest_line_shown(pilot: Any, app: TableHarness) -> None:
    """The log's newest row is on screen (waiting, a while under load, for the layout)."""
    log = app.table.query_one(GameLog)
    for _ in range(50):
        await pilot.pause()
        newest = log.lines[-1].text.rstrip()
        if newest and newest in log_rows(app):
            return
    raise AssertionError(f"the newest line {newest!r} is not in the log: {log_rows(app)}")


@pytest.mark.parametrize("coached", [False, True], ids=["plain", "coached"])
async def test_the_log_shows_its_newest_line_after_the_round_box_closes(coached: bool) -> None:
    """Issue 36, item 5: after the reveal, the loser deals and opens: the bid bar (and at a
    coached table, the coach's longer advice) took rows from the log, whose newest lines were
    left below its end."""
    view = kitten_view(DAN_BIDS)
    app = CoachedHarness(view) if coached else harness(view)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        await pilot.pause()
        table.view = kitten_view([*DAN_BIDS, {"type": CHALLENGE}])  # Ann loses: she opens
        await pilot.pause()
        reveal = app.screen
        assert isinstance(reveal, RevealScreen)
        await pilot.press("space")
        assert app.screen is table
        await newest_line_shown(pilot, app)
        await pilot.press("b")  # the bid bar opens under the log
        assert isinstance(table, KittenTable) and table.mode == "bid"
        await newest_line_shown(pilot, app)


ABBREVIATIONS = re.compile(
    r"\b(gls|blu|grn|DBL|TROU-|Glass)\b|\bbow\b(?! ties?)|\bBow\b(?! Tie)|\bD\b"
)
"""The codes the table used for things, cards and the dealer (``hat 1 bow 4 gls 1``)."""


@pytest.mark.parametrize("size", [SIZE, (48, 44)], ids=["80x24", "48 columns"])
async def test_things_cards_and_the_dealer_are_written_in_whole_words(
    size: tuple[int, int],
) -> None:
    """Issue 36, item 2: what your hand adds read ``hat 2 bow 3 gls 1 · blu 3 red 2 grn 1``,
    cards said ``Bow``, ``Glass`` and ``DBL TROU-BLE``, the dealer was a ``D``: now whole
    words, the hand still drawn as cards, at 80 columns and on a phone's 48."""
    ann = ["hat-red-1", "bowtie-blue-2", "glasses-red-1", "double-trouble", "go-fish"]
    dan = [*DAN[:3], "skip", "hang-in-there"]
    app = harness(kitten_view(DAN_BIDS, hands=[ann, BEA, CY, dan]))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = "\n".join(drawn(app))
        assert [found.group(0) for found in ABBREVIATIONS.finditer(screen)] == []
        assert "You add (\u00d72): hats 2 · bow ties 4 · glasses 2" in screen
        assert "blue 4 · red 4 · green 0" in screen
        assert "Dan deals this round" in screen
        hand = text_of(app.table.query_one("#hand"))
        assert hand.count("╭") == 5  # five cards side by side, not one-line chips
        for words in ("Bow Tie", "Glasses", "DOUBLE", "TROUBLE"):
            assert words in hand, words
    assert chip_label("bowtie-blue-2") == "Blue Bow Tie\u00d72"
    assert chip_label("glasses-red-1") == "Red Glasses"


def test_the_reveal_says_in_words_what_its_colours_mean() -> None:
    """Issue 36, item 2: its column said "counting blue in colour": it says which cards count
    for the bid's thing (those in colour) and that the grey ones add nothing."""
    view = kitten_view([*DAN_BIDS, {"type": CHALLENGE}])
    body = " ".join(plain(reveal_body(cast(KittenView, view), view["last_reveal"])).split())
    words = "Cards in colour count as blue or are special cards at work; grey cards add nothing."
    assert words in body
    assert "in colour)" not in body


async def test_ten_players_fit_80x24() -> None:
    names = [f"Player{n}" for n in range(10)]
    app = harness(kitten_view(players=names, seat=4))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.table
        players = table.query_one("#players")
        assert all(name in text_of(players) for name in names)
        assert players.region.bottom <= table.query_one(PromptLine).region.y
        assert table.query_one("#log").region.height >= 3
        hand = table.query_one("#hand")
        assert hand.region.bottom <= table.query_one(PromptLine).region.y
        assert text_of(hand).count("╭") == 3  # three cards each at 7+ players


async def test_the_results_say_who_won_and_who_went_out_in_order() -> None:
    final, reveals = played_out()
    app = harness(reveals[0])
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        for view in reveals[1:]:
            if not view["last_reveal"]["out"]:
                continue  # only the calls that put a player out matter here
            table.view = view
            await pilot.pause()
            if isinstance(app.screen, RevealScreen):
                await drawn_screen(pilot, RevealScreen)
                await pilot.press("space")
        await pilot.pause()
        if isinstance(app.screen, RevealScreen):
            await drawn_screen(pilot, RevealScreen)
            await pilot.press("space")  # the last reveal first, then the results
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        lines = app.screen.lines
        winner = final["players"][final["outcome"]["winners"][0]]
        assert any(winner in line and "last player with cards" in line for line in lines)
        out = [line for line in lines if line.startswith("  1.") or line.startswith("  2.")]
        assert len(out) == 2
        order = [seat for view in reveals for seat in view["last_reveal"]["out"]]
        assert all(final["players"][seat] in line for seat, line in zip(order, out, strict=True))


async def test_calls_that_come_while_a_reveal_is_open_wait_their_turn() -> None:
    _, reveals = played_out()
    app = harness(reveals[0])
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        table.view = reveals[1]
        table.view = reveals[2]
        await pilot.pause()
        first = app.screen
        assert isinstance(first, RevealScreen)
        assert first.heading.startswith(f"Round {reveals[1]['last_reveal']['round']}:")
        await drawn_screen(pilot, RevealScreen)
        await pilot.press("space")
        assert app.screen_stack[-1] is first  # the next call, in the same box
        second = await drawn_screen(pilot, RevealScreen)
        assert second.heading.startswith(f"Round {reveals[2]['last_reveal']['round']}:")
        assert text_of(second.query_one("#reveal-title")) == second.heading
        await pilot.press("space")
        assert app.screen is table


async def test_the_player_out_on_the_last_call_is_told_so_not_shown_old_cards() -> None:
    """No deal follows the last call, so its loser still holds that round's cards."""
    state = GAME.new_game(PLAYERS[:3], 5, {})
    bots = [make_bot("kitten", "plain", seat) for seat in range(3)]
    while GAME.outcome(state) is None:
        action = bots[state.turn].choose(GAME.view(state, state.turn))
        assert action is not None
        state, _ = GAME.apply(state, state.turn, action, 0.0)
    views = [GAME.view(state, seat) for seat in range(3)]
    (last_out,) = [view for view in views if view["seat"] in view["out"] and view["hand"]]
    app = harness(last_out)
    async with app.run_test(size=SIZE):
        assert "You are out" in text_of(app.table.query_one("#hand-label"))
        assert not app.table.query_one("#hand").display
