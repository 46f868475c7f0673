"""Kiitos' word logic: how letters on the table relate to a target word.

Pure functions on strings, shared by the rules (:mod:`engine.games.kiitos.rules`) and the
bot (:mod:`engine.games.kiitos.bot`). Letters on the table are upper-case cards
(``"C"``); words are lower-case (``"cats"``); the table's string is compared
lower-case.

Under Kiitos a target word starts with the table's letters and letters are
added at its end. Under Super-Kiitos the table's letters may sit anywhere in
the word (wherever they fit: no position is remembered) and letters are
added at either end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.games.kiitos.words import Frequency, WordList

LETTER_COUNTS = {
    "A": 5,
    "B": 2,
    "C": 3,
    "D": 3,
    "E": 8,
    "F": 2,
    "G": 2,
    "H": 2,
    "I": 6,
    "J": 1,
    "K": 1,
    "L": 3,
    "M": 2,
    "N": 4,
    "O": 5,
    "P": 2,
    "R": 5,
    "S": 5,
    "T": 4,
    "U": 2,
    "V": 1,
    "W": 1,
    "X": 1,
    "Y": 1,
    "Z": 1,
}
"""Found: the 72 letter cards (no Q)."""

SORTED_AT_MOST = 400
""":func:`commonest` sorts up to this many candidates by rank; with more (a single letter
has thousands) it walks the ranked words from the commonest, which meets them sooner."""

END = "end"
START = "start"
SIDES = (END, START)


def full_deck() -> list[str]:
    """The 72 letter cards in alphabetical order."""
    return [letter for letter, count in LETTER_COUNTS.items() for _ in range(count)]


def number(letters: Iterable[str]) -> list[str]:
    """Card ids for letters in deck order: the first E is ``"E1"``, the next ``"E2"``..."""
    seen: dict[str, int] = {}
    cards = []
    for letter in letters:
        seen[letter] = seen.get(letter, 0) + 1
        cards.append(f"{letter}{seen[letter]}")
    return cards


def letters(cards: Iterable[str]) -> list[str]:
    """The letters of cards (a card id's first character is its letter)."""
    return [card[0] for card in cards]


def take(hand: list[str], letter: str) -> str:
    """Remove and return a card of ``letter`` from ``hand`` (which must hold one)."""
    for index, card in enumerate(hand):
        if card[0] == letter:
            return hand.pop(index)
    raise ValueError(f"no {letter} in the hand")


def table_string(table: Iterable[str]) -> str:
    """The table's letters as a lower-case string (``["C1", "A4"]`` -> ``"ca"``)."""
    return "".join(card[0] for card in table).lower()


def place(part: str, letter: str, side: str) -> str:
    """``part`` with ``letter`` added at ``side`` (lower-case)."""
    return part + letter.lower() if side == END else letter.lower() + part


def fits(part: str, word: str, super_kiitos: bool) -> bool:
    """Whether the table's string ``part`` can be (part of) ``word`` under the rules."""
    return part in word if super_kiitos else word.startswith(part)


def extensions(part: str, word: str, super_kiitos: bool) -> set[tuple[str, str]]:
    """Every ``(letter, side)`` that extends ``part`` towards ``word``: the compelled plays.

    Under Super-Kiitos every position where ``part`` fits counts ("any possible
    adjoining letter compels").
    """
    found: set[tuple[str, str]] = set()
    if not super_kiitos:
        if word.startswith(part) and len(word) > len(part):
            found.add((word[len(part)].upper(), END))
        return found
    at = word.find(part)
    while at != -1:
        if at > 0:
            found.add((word[at - 1].upper(), START))
        if at + len(part) < len(word):
            found.add((word[at + len(part)].upper(), END))
        at = word.find(part, at + 1)
    return found


def candidates(words: WordList, part: str, super_kiitos: bool) -> list[str]:
    """The words of ``words`` that ``part`` fits (a prefix, or anywhere under Super-Kiitos)."""
    return words.containing(part) if super_kiitos else words.with_prefix(part)


def spread(items: list[str], count: int, salt: int) -> list[str]:
    """Up to ``count`` items picked deterministically from ``items``, spread by ``salt``."""
    return list(_picks(items, 0, len(items), count, salt))


def _picks(items: list[str], start: int, end: int, count: int, salt: int) -> Iterator[str]:
    """:func:`spread` over ``items[start:end]``, one at a time, without copying that slice."""
    size = end - start
    if size <= count:
        yield from items[start:end]
        return
    step = size // count
    first = (salt * 2654435761) % size
    for i in range(count):
        yield items[start + (first + i * step) % size]


def picks(words: WordList, part: str, super_kiitos: bool, count: int, salt: int) -> Iterator[str]:
    """``spread(candidates(words, part, super_kiitos), count, salt)``'s words, one at a time
    (a caller that needs only the first few that suit it stops there), and without
    copying every word with the prefix (thousands for one letter) to pick a few."""
    if super_kiitos:
        found = words.containing(part)
        return _picks(found, 0, len(found), count, salt)
    start, end = words.prefix_range(part)
    return _picks(words.words, start, end, count, salt)


def sample(words: WordList, part: str, super_kiitos: bool, count: int, salt: int) -> list[str]:
    """:func:`picks` as a list: ``spread(candidates(words, part, super_kiitos), count, salt)``."""
    return list(picks(words, part, super_kiitos, count, salt))


def commonest(words: WordList, part: str, super_kiitos: bool, order: Frequency) -> Iterator[str]:
    """The words of ``words`` that ``part`` fits, the most used first (``order``), then
    those ``order`` lacks, alphabetically: what the game suggests, one at a time (a caller
    that needs a few stops there, and never waits for thousands to be sorted)."""
    if super_kiitos:
        found = words.containing(part)
        start, end = 0, len(found)
    else:
        found = words.words
        start, end = words.prefix_range(part)
    if end - start <= SORTED_AT_MOST:
        yield from sorted(found[start:end], key=order.key)  # stable: the unranked in order
        return
    for word in order.ranked:
        if fits(part, word, super_kiitos) and word in words:
            yield word
    yield from (word for word in found[start:end] if word not in order)
