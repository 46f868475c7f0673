"""You Gotta Be Kitten Me!: the cards, the decks, and the arithmetic of a reveal.

Kept apart from :mod:`engine.games.kitten.rules` so that the rules of *counting* (which a
bot and the TUI need too) are pure functions of card codes, with no state.

Card codes (short, readable, the same in every deck; with both decks codes repeat)
    ``<accessory>-<colour>-<n>``: a normal card, ``n`` of its accessory and ``n``
    of its colour, e.g. ``hat-blue-1`` (a single), ``bowtie-green-2`` (a
    double), ``glasses-red-3`` (a triple). Accessories ``hat``, ``bowtie``,
    ``glasses``; colours ``blue``, ``red``, ``green``.
    ``wild-1``, ``wild-2``, ``wild-3``: Wild, Double Wild, Triple Wild: ``n`` of
    every accessory and every colour.
    ``skip``, ``draw-3``, ``go-fish``: played on your turn instead of a bid.
    ``cant-see-me``, ``hang-in-there``, ``double-trouble``: work from your hand
    (or, the first and last, when flipped off the deck).

Counting (CLARIFICATIONS, "assumed"): special cards count 0 themselves. A hand
holding Can't See Me counts 0 (Double Trouble cannot raise it). Each Double
Trouble in a hand doubles the rest of that hand (two give x4). The flipped
card adds like a hand card, except that a flipped Can't See Me makes the
round's total 0 and a flipped Double Trouble doubles the grand total.

The decks are data (``engine/games/kitten/data/kitten-decks.json``), loaded once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

ACCESSORIES: tuple[str, ...] = ("hat", "bowtie", "glasses")
COLOURS: tuple[str, ...] = ("blue", "red", "green")
THINGS: tuple[str, ...] = (*ACCESSORIES, *COLOURS)
"""What a bid names: one accessory or one colour."""

THING_WORDS: dict[str, tuple[str, str]] = {
    "hat": ("hat", "hats"),
    "bowtie": ("bow tie", "bow ties"),
    "glasses": ("pair of glasses", "glasses"),  # "1 glasses" read as a slip
    "blue": ("blue", "blue"),
    "red": ("red", "red"),
    "green": ("green", "green"),
}
"""How a bid's thing reads in a sentence, singular and plural."""

SKIP = "skip"
DRAW_3 = "draw-3"
GO_FISH = "go-fish"
CANT_SEE_ME = "cant-see-me"
HANG_IN_THERE = "hang-in-there"
DOUBLE_TROUBLE = "double-trouble"
PLAYABLE: tuple[str, ...] = (SKIP, DRAW_3, GO_FISH)
"""Specials played on your turn instead of a bid or a challenge."""
SPECIALS: tuple[str, ...] = (*PLAYABLE, CANT_SEE_ME, HANG_IN_THERE, DOUBLE_TROUBLE)

SPECIAL_NAMES: dict[str, str] = {
    SKIP: "Skip",
    DRAW_3: "Draw 3",
    GO_FISH: "Go Fish",
    CANT_SEE_ME: "Can't See Me",
    HANG_IN_THERE: "Hang In There",
    DOUBLE_TROUBLE: "Double Trouble",
}
ACCESSORY_NAMES = {"hat": "Hat", "bowtie": "Bow Tie", "glasses": "Glasses"}
SIZE_NAMES = {1: "Single", 2: "Double", 3: "Triple"}
"""Every card name says its size ("Single Blue Hat", "Single Wild") so no name
is part of another, which keeps the secrecy checks on sentences exact."""

DECK_SETS: tuple[str, ...] = ("base", "deluxe", "both")
DECK_FILE = "kitten-decks.json"


@dataclass(frozen=True, slots=True)
class Card:
    """A parsed card code. ``accessory``/``colour`` are ``None`` for wilds and specials."""

    code: str
    count: int
    accessory: str | None = None
    colour: str | None = None
    wild: bool = False
    special: str | None = None


@cache
def parse(code: str) -> Card | None:
    """The card a code names, or ``None`` if it is not a Kitten Me! card."""
    if code in SPECIALS:
        return Card(code, 0, special=code)
    parts = code.split("-")
    if len(parts) == 2 and parts[0] == "wild" and parts[1] in ("1", "2", "3"):
        return Card(code, int(parts[1]), wild=True)
    sized = len(parts) == 3 and parts[2] in ("1", "2", "3")
    if sized and parts[0] in ACCESSORIES and parts[1] in COLOURS:
        return Card(code, int(parts[2]), accessory=parts[0], colour=parts[1])
    return None


def is_card(code: object) -> bool:
    return isinstance(code, str) and parse(code) is not None


def _card(code: str) -> Card:
    card = parse(code)
    if card is None:
        raise ValueError(f"{code!r} is not a Kitten Me! card")
    return card


def card_name(code: str) -> str:
    """A card's name for people: ``Single Blue Hat``, ``Double Wild``, ``Go Fish``."""
    card = _card(code)
    if card.special is not None:
        return SPECIAL_NAMES[card.special]
    if card.wild:
        return f"{SIZE_NAMES[card.count]} Wild"
    assert card.accessory is not None and card.colour is not None
    accessory = ACCESSORY_NAMES[card.accessory]
    return f"{SIZE_NAMES[card.count]} {card.colour.capitalize()} {accessory}"


def thing_words(thing: str, count: int) -> str:
    """``"4 hats"``, ``"1 bow tie"``, ``"1 pair of glasses"``, ``"3 blue"``."""
    singular, plural = THING_WORDS[thing]
    return f"{count} {singular if count == 1 else plural}"


def value(code: str, thing: str) -> int:
    """How many of ``thing`` one card shows on its own (specials show none)."""
    card = _card(code)
    if card.wild or thing in (card.accessory, card.colour):
        return card.count
    return 0


def matches(code: str, thing: str) -> bool:
    """Whether Go Fish for ``thing`` takes this card: a normal card showing it (never a Wild)."""
    card = _card(code)
    return thing in (card.accessory, card.colour)


def sort_key(code: str) -> tuple[int, int, int, int]:
    """Hand order: normal cards by accessory, colour and size; then wilds; then specials."""
    card = _card(code)
    if card.special is not None:
        return (2, SPECIALS.index(card.special), 0, 0)
    if card.wild:
        return (1, card.count, 0, 0)
    assert card.accessory is not None and card.colour is not None
    return (0, ACCESSORIES.index(card.accessory), COLOURS.index(card.colour), card.count)


# --------------------------------------------------------------------------- counting


@dataclass(frozen=True, slots=True)
class HandCount:
    """One hand's contribution to a bid's thing, and why."""

    base: int
    """The plain sum of the cards' values."""
    cant_see_me: bool
    doublings: int
    """How many Double Trouble cards the hand holds."""
    adds: int
    """What the hand finally adds to the total."""


def count_hand(cards: list[str], thing: str) -> HandCount:
    """A hand's contribution: Can't See Me zeroes it, each Double Trouble doubles it."""
    base = sum(value(code, thing) for code in cards)
    hidden = CANT_SEE_ME in cards
    doublings = cards.count(DOUBLE_TROUBLE)
    adds = 0 if hidden else base * 2**doublings
    return HandCount(base, hidden, doublings, adds)


FLIP_ADDS = "adds"
FLIP_ZERO = "zero"
FLIP_DOUBLE = "double"


def flip_effect(code: str) -> str:
    """What a flipped card does: ``adds`` its value, or makes the total ``zero``, or ``double``."""
    if code == CANT_SEE_ME:
        return FLIP_ZERO
    if code == DOUBLE_TROUBLE:
        return FLIP_DOUBLE
    return FLIP_ADDS


def round_total(hands: list[list[str]], flipped: str, thing: str) -> int:
    """The total a challenge compares with the bid: every hand plus the flipped card."""
    subtotal = sum(count_hand(cards, thing).adds for cards in hands)
    return apply_flip(subtotal, flipped, thing)


def apply_flip(subtotal: int, flipped: str, thing: str) -> int:
    """The hands' subtotal with the flipped card's effect applied."""
    effect = flip_effect(flipped)
    if effect == FLIP_ZERO:
        return 0
    if effect == FLIP_DOUBLE:
        return subtotal * 2
    return subtotal + value(flipped, thing)


# --------------------------------------------------------------------------- decks


@cache
def _deck_data() -> dict[str, Any]:
    text = (
        resources.files("engine.games.kitten")
        .joinpath("data", DECK_FILE)
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _deck(name: str) -> tuple[str, ...]:
    if name == "both":
        return (*_deck("base"), *_deck("deluxe"))
    counts: dict[str, int] = _deck_data()["decks"][name]["cards"]
    cards: list[str] = []
    for code, count in counts.items():
        _card(code)  # a typo in the data file fails loudly here
        cards.extend([code] * count)
    return tuple(cards)


def deck(name: str) -> list[str]:
    """The full card list of ``base``, ``deluxe`` or ``both`` (in the data file's order)."""
    if name not in DECK_SETS:
        raise ValueError(f"There is no deck {name!r} (decks: {', '.join(DECK_SETS)})")
    return list(_deck(name))
