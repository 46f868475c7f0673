"""The Catchy! table screen driven with fixed views: what it shows and the intents it sends."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.harness import TableHarness, catchy_view
from tui.games.catchy.screen import DIMMED_NOTE, CourseTrack, face
from tui.screens.rules import RulesScreen
from tui.widgets.cards import card_lines
from tui.widgets.hand import Hand
from tui.widgets.prompt import PromptLine


def text_of(widget: object) -> str:
    return str(widget.render())  # type: ignore[attr-defined]


async def test_the_starting_card_holder_swaps_with_s_then_a_number() -> None:
    app = TableHarness(catchy_view(0))
    async with app.run_test(size=(80, 24)) as pilot:
        assert "press 1, 2 or 3" in text_of(app.table.query_one(PromptLine))
        await pilot.press("s")
        assert "which course card" in text_of(app.table.query_one(PromptLine))
        await pilot.press("3")
        assert app.actions == [{"type": "swap", "course": 2}]


async def test_a_number_key_alone_swaps_during_the_swap() -> None:
    app = TableHarness(catchy_view(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        assert app.actions == [{"type": "swap", "course": 1}]


async def test_keys_pick_and_play_a_card() -> None:
    view = catchy_view(1)
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "right", "enter")
        assert app.actions == [{"type": "play", "card": view["hand"][2]}]
        await pilot.press("1", "space")  # one card at a time: the first is on its way
        assert len(app.actions) == 1
        app.table.refused("Not now")  # the host refuses it: back in the hand
        await pilot.press("1", "space")
        assert app.actions[-1] == {"type": "play", "card": view["hand"][0]}


async def test_illegal_cards_are_dimmed_and_refused_with_the_engines_reason() -> None:
    view = catchy_view(4)  # Ann must follow green and holds G2
    assert view["unplayable"]
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.table.query_one(Hand)
        assert hand.dimmed == frozenset(view["unplayable"])
        card = next(iter(view["unplayable"]))
        await pilot.press(str(view["hand"].index(card) + 1), "enter")
        assert app.actions == []
        assert view["unplayable"][card] in text_of(app.table.query_one(PromptLine))
        await pilot.press(str(view["hand"].index("G2") + 1), "enter")
        assert app.actions == [{"type": "play", "card": "G2"}]


async def test_out_of_turn_no_play_key_is_offered_and_the_prompt_says_whose_turn_it_is() -> None:
    app = TableHarness(catchy_view(2))  # Bot Tom to follow
    async with app.run_test(size=(80, 24)) as pilot:
        offered = {active.binding.action for active in app.table.active_bindings.values()}
        assert not offered & {"play", "number(1)", "move(-1)", "swap"}, offered
        await pilot.press("enter", "1")
        assert app.actions == []
        assert "Bot Tom to play" in text_of(app.table.query_one(PromptLine))


async def test_a_spectator_sees_no_hand_and_cannot_play() -> None:
    view = catchy_view(2, seat=None)
    assert view["hand"] is None
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.table.query_one(Hand).cards == ()
        await pilot.press("1", "enter")
        assert app.actions == []
        assert "Watching" in text_of(app.table.query_one(PromptLine))


async def test_the_course_shows_the_cat_and_its_mood_in_words() -> None:
    app = TableHarness(catchy_view(3))
    async with app.run_test(size=(80, 24)):
        track = text_of(app.table.query_one(CourseTrack))
        assert "=^.^=" in track
        assert "SIDE UP" in track.upper()
        assert "[1:??]" in track


async def test_host_errors_show_on_the_prompt_line_and_q_leaves() -> None:
    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24)) as pilot:
        app.table.refused("It is Bot Tom's turn")
        await pilot.pause()
        assert "! It is Bot Tom's turn" in text_of(app.table.query_one(PromptLine))
        await pilot.press("q")
        assert app.left


async def test_r_opens_the_rules_with_the_assumptions() -> None:
    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        assert "colourless 3" in app.screen.page
        await pilot.press("escape")
        shown: object = app.screen  # not the RulesScreen it was narrowed to above
        assert shown is app.table


async def test_the_rules_page_is_made_once_and_shown_again_on_every_r(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Composing the page (its Markdown parsed and styled) is what ``r`` costs: a second
    look shows the same screen, kept installed, not one made again (issue 35)."""
    composed: list[RulesScreen] = []
    compose = RulesScreen.compose

    def counted(screen: RulesScreen) -> Any:
        composed.append(screen)
        return compose(screen)

    monkeypatch.setattr(RulesScreen, "compose", counted)
    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24)) as pilot:
        seen: list[object] = []
        for _ in range(3):
            await pilot.press("r")
            rules = app.screen
            assert isinstance(rules, RulesScreen) and "colourless 3" in rules.page
            seen.append(rules)
            await pilot.press("r")
            assert app.screen is app.table
        assert seen[0] is seen[1] is seen[2]
        assert len(composed) == 1


def test_cards_read_without_colour() -> None:
    assert face("R3").label == "R 3" and face("R3").mark  # odd cards show the cat
    assert face("G4").label == "G 4" and not face("G4").mark
    assert face("JK").label == "JKR"


async def test_the_follow_prompt_offers_the_joker_only_to_its_holder() -> None:
    tom = catchy_view(2, seat=1)  # Bot Tom follows the red 3 without the Joker
    assert tom["trick"] == ["R3"] and "JK" not in tom["hand"]
    app = TableHarness(tom)
    async with app.run_test(size=(80, 24)):
        prompt = text_of(app.table.query_one(PromptLine))
        assert "red if you can ·" in prompt and "Joker" not in prompt
    ann = catchy_view(4)  # Ann follows green holding the Joker
    app = TableHarness(ann)
    async with app.run_test(size=(80, 24)):
        assert "(or the Joker)" in text_of(app.table.query_one(PromptLine))


def test_the_cursor_on_an_unplayable_card_still_shows_its_cross() -> None:
    lines = card_lines(face("G2"), selected=True, barred=True)
    assert "x" in lines[-1].plain
    assert "x" not in card_lines(face("G2"), selected=True)[-1].plain


async def test_a_spectator_sees_both_hands_as_backs_and_no_empty_hand() -> None:
    app = TableHarness(catchy_view(2, seat=None))
    async with app.run_test(size=(80, 24)):
        label = text_of(app.table.query_one("#hand-label"))
        assert label.startswith("Ann  ") and ": " not in label and "6 cards" in label
        assert not app.table.query_one(Hand).display
        assert "(no cards)" not in app.export_screenshot()


def footer_keys(app: TableHarness) -> set[str]:
    """The actions the footer offers now (the bindings ``check_action`` lets through)."""
    return {active.binding.action for active in app.table.active_bindings.values()}


async def test_the_footer_offers_play_keys_only_to_a_seated_player_in_a_game_on() -> None:
    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24)):
        assert "play" in footer_keys(app)
    app = TableHarness(catchy_view(1, seat=None))
    async with app.run_test(size=(80, 24)):
        assert "play" not in footer_keys(app) and "leave" in footer_keys(app)
    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24)) as pilot:
        app.table.view = {**catchy_view(1), "phase": "over"}
        await pilot.pause()
        keys = footer_keys(app)
        assert "play" not in keys and "swap" not in keys and "rules" in keys


def test_the_trick_summary_reads_naturally() -> None:
    from typing import cast

    from engine.games.catchy.rules import CatchyView
    from tui.games.catchy.screen import trick_summary

    view = cast(CatchyView, catchy_view(1))
    flipped = {"winner": 1, "side": "red", "flipped": True, "toward": 0}
    assert trick_summary(view, flipped) == (
        "Bot Tom won. Both odd: the cat flips to red and moves toward you."
    )
    plain = {"winner": 0, "side": "blue", "flipped": False, "toward": 1}
    assert trick_summary(view, plain) == "You won. The blue cat moves toward Bot Tom."


async def test_the_round_over_notice_does_not_cover_the_prompt() -> None:
    from textual.widgets._toast import Toast

    app = TableHarness(catchy_view(1))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.table.notify("Round 1 over: you +2. Score 2-0.", timeout=30)
        await pilot.pause()
        await pilot.pause()
        toasts = list(app.screen.query(Toast))
        assert toasts
        prompt = app.table.query_one(PromptLine).region
        for toast in toasts:
            assert not toast.region.overlaps(prompt)
            assert toast.region.bottom <= prompt.y


async def test_the_cursor_starts_each_turn_on_a_card_that_may_be_played() -> None:
    """Issue 36, item 7: the cursor started on the first card even when it may not be played
    (Ann must follow green, her first card is red), so the first Enter was refused. It starts
    each turn on the first playable card; moved by the player, it stays where it was put."""
    view = catchy_view(4)
    assert view["hand"][0] in view["unplayable"] and "G2" not in view["unplayable"]
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.table.query_one(Hand)
        assert hand.current == "G2"
        await pilot.press("left")
        app.table.received(dict(view))  # the same turn drawn again
        await pilot.pause()
        assert hand.current == view["hand"][0]
        await pilot.press("right", "enter")
        assert app.actions == [{"type": "play", "card": "G2"}]


async def test_the_hand_says_what_the_x_on_a_card_means_when_a_card_has_one() -> None:
    """Issue 36, item 7: the ``x`` on a greyed card's bottom edge was never explained."""
    app = TableHarness(catchy_view(4))  # cards Ann may not play: each has its x
    async with app.run_test(size=(80, 24)):
        assert DIMMED_NOTE in text_of(app.table.query_one("#hand-label"))
    app = TableHarness(catchy_view(1))  # Ann leads: every card may be played, no x
    async with app.run_test(size=(80, 24)):
        assert not app.table.query_one(Hand).dimmed
        assert DIMMED_NOTE not in text_of(app.table.query_one("#hand-label"))
