"""Your own move is on screen at once: a card played leaves the hand (marked as sent on the
trick) in the frame after the key, before any answer from the host; the host's next view
corrects it, and a refusal puts the card back with the host's reason. A Black Cat grab shows
the card in its pile the same way, and its claim is stamped exactly as before."""

from __future__ import annotations

from typing import cast

from tests.tui.harness import TableHarness, blackcat_view, catchy_view
from tests.tui.test_table import text_of
from tui.games.blackcat.screen import SENT_MARK, BlackCatTable
from tui.games.catchy.screen import TrickArea
from tui.widgets.hand import Hand
from tui.widgets.prompt import PromptLine


async def test_a_card_played_leaves_the_hand_at_once_and_the_host_s_view_takes_over() -> None:
    view = catchy_view(1)
    after = catchy_view(2)  # the host's next view: Ann's bot played one card (the engine's)
    assert view["turn"] == view["seat"] == 0 and view["phase"] == "play"
    (card,) = set(view["hand"]) - set(after["hand"])
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.table.query_one(Hand)
        await pilot.press(str(view["hand"].index(card) + 1), "enter")
        assert app.actions == [{"type": "play", "card": card}]
        assert card not in hand.cards  # before any view from the host
        trick = text_of(app.table.query_one(TrickArea))
        assert "sent" in trick
        assert "sent to the host" in text_of(app.table.query_one(PromptLine))
        app.table.received(view)  # an older view, still without the card played: kept sent
        await pilot.pause()
        assert card not in hand.cards
        app.table.received(after)
        await pilot.pause()
        assert app.table.sent is None
        assert card not in hand.cards
        assert "sent" not in text_of(app.table.query_one(TrickArea))


async def test_a_refused_card_goes_back_with_the_reason() -> None:
    view = catchy_view(1)
    card = view["hand"][0]
    app = TableHarness(view)
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.table.query_one(Hand)
        await pilot.press("1", "enter")
        assert card not in hand.cards
        app.table.refused("It is Bot Tom's turn")  # the host said no
        await pilot.pause()
        assert app.table.sent is None
        assert list(hand.cards) == view["hand"]
        assert "! It is Bot Tom's turn" in text_of(app.table.query_one(PromptLine))


async def test_a_grab_shows_the_card_in_its_pile_at_once_with_the_same_stamps() -> None:
    """Black Cat: the grabbed card is drawn in the pile, marked as on its way, until the host
    rules; the claim itself (its reveal and reaction stamps) is what it was."""
    four = [(0, 0), (1, 0), (0, 1), (1, 1)]  # Ann 8S->1, Bea 2C->1, Ann 3S->2, Bea TD->2
    view = blackcat_view(four)
    after = blackcat_view([*four, (0, 0)])  # the host gave Ann the 2♥ for pile 1
    app = TableHarness(view, presence=[], screen=BlackCatTable)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.05)
        pile = app.table.query_one("#pile-0")
        assert "2♥" not in text_of(pile)
        drawn = cast(BlackCatTable, app.table)._drawn[view["reveal"]]
        await pilot.press("1")
        assert app.actions == [{"type": "take", "pile": 0, "reveal": view["reveal"]}]
        stamps = app.stamps[0]
        assert stamps is not None and stamps.drawn_ns == drawn and stamps.acted_ns >= drawn
        shown = text_of(pile)
        assert "2♥" in shown and SENT_MARK in shown and "grabbing" in shown
        app.table.received(after)
        await pilot.pause()
        assert app.table.sent is None
        shown = text_of(pile)
        assert "2♥" in shown and SENT_MARK not in shown
