"""Katootsie!: the category deck and how an answer is checked against a category and a letter.

Kept apart from :mod:`engine.katootsie` because the bots and the TUI need the
same rules of *reading* an answer, as pure functions of text.

Reading an answer (the issue's "normalise"): accents dropped, case folded,
"&" read as "and", every other character that is not a letter or a digit
dropped (so spaces, hyphens and apostrophes do not matter: "Hurdy-Gurdy",
"hurdy gurdy" and "hurdygurdy" are one answer); in a category marked "Ignore
'A', 'An' and 'The'", a leading article is dropped first, so "The Shining"
starts with S. Simple plurals match the singular ("bananas", "peaches",
"cherries" find "banana", "peach", "cherry").

The letter rule: an answer must begin with the letter, except Q, X and Z,
which may be anywhere in it ("Anywhere" is printed on those cards).

The categories are data (``engine/data/katootsie-categories.json``, built by
``engine/data/build_katootsie.py``), loaded on first use so that importing
the game stays cheap.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources

CATEGORY_FILE = "katootsie-categories.json"

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ANYWHERE = frozenset("QXZ")
"""Letters that may appear anywhere in the answer, not only first."""

ARTICLES = ("the", "a", "an")

MAX_ANSWER_LENGTH = 60
"""The longest answer a player may type (characters)."""


@dataclass(frozen=True, slots=True)
class Category:
    """One category card: its title, whether articles are ignored, its known good answers."""

    code: str
    """A stable id (``c001``...), in the data file's order."""
    title: str
    ignore_articles: bool
    answers: tuple[str, ...]
    source: str
    licence: str

    @property
    def label(self) -> str:
        """The card as people read it, with its reminder when it has one."""
        if self.ignore_articles:
            return f"{self.title} (Ignore 'A', 'An' and 'The')"
        return self.title


@cache
def categories() -> tuple[Category, ...]:
    """Every category card, in the data file's order (loaded once)."""
    text = resources.files("engine").joinpath("data", CATEGORY_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    return tuple(
        Category(
            code=f"c{index:03d}",
            title=item["title"],
            ignore_articles=bool(item["ignore_articles"]),
            answers=tuple(item["answers"]),
            source=item["source"],
            licence=item["licence"],
        )
        for index, item in enumerate(data["categories"], start=1)
    )


@cache
def by_code() -> dict[str, Category]:
    return {category.code: category for category in categories()}


def category(code: str) -> Category:
    return by_code()[code]


# --------------------------------------------------------------------------- reading answers


def _fold(text: str) -> str:
    """Accents dropped and case folded."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def words(text: str, ignore_articles: bool) -> list[str]:
    """The answer's words, folded, punctuation dropped, a leading article dropped if asked."""
    folded = _fold(text).replace("&", " and ")
    cleaned = "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in folded)
    # Apostrophes join ("o'clock"), other punctuation separates; either way the key ignores it.
    parts = [part for part in cleaned.split() if part]
    if ignore_articles and len(parts) > 1 and parts[0] in ARTICLES:
        parts = parts[1:]
    return parts


def key(text: str, ignore_articles: bool = False) -> str:
    """The answer as it is compared: letters and digits only, folded."""
    return "".join(words(text, ignore_articles))


def singular(word_key: str) -> str:
    """A simple plural's singular ("cherries" -> "cherry", "peaches" -> "peach")."""
    if len(word_key) > 4 and word_key.endswith("ies"):
        return word_key[:-3] + "y"
    if len(word_key) > 4 and word_key.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return word_key[:-2]
    if len(word_key) > 3 and word_key.endswith("s") and not word_key.endswith("ss"):
        return word_key[:-1]
    return word_key


def fits_letter(answer_key: str, letter: str) -> bool:
    """The letter rule: first letter, or anywhere for Q, X and Z."""
    letter = letter.lower()
    if not answer_key:
        return False
    if letter.upper() in ANYWHERE:
        return letter in answer_key
    return answer_key[0] == letter


@cache
def _index(code: str) -> frozenset[str]:
    """The category's answers as compared (singular keys)."""
    found = category(code)
    return frozenset(singular(key(answer, found.ignore_articles)) for answer in found.answers)


def listed(code: str, text: str) -> bool:
    """Whether ``text`` is one of the category's known good answers."""
    found = category(code)
    return singular(key(text, found.ignore_articles)) in _index(code)


def answers_for(code: str, letter: str) -> tuple[str, ...]:
    """The category's known answers that fit ``letter`` (what a bot can think of)."""
    found = category(code)
    return tuple(
        answer
        for answer in found.answers
        if fits_letter(key(answer, found.ignore_articles), letter)
    )


def coverage(code: str) -> frozenset[str]:
    """The letters for which the category has at least one known answer."""
    found = category(code)
    keys = [key(answer, found.ignore_articles) for answer in found.answers]
    return frozenset(letter for letter in LETTERS if any(fits_letter(k, letter) for k in keys))


class Verdict(StrEnum):
    """What checking an answer says at once."""

    BLANK = "blank"
    """Nothing readable was typed: a bad answer."""
    WRONG_LETTER = "wrong_letter"
    REPEAT = "repeat"
    """The answer already took a letter in this category."""
    LISTED = "listed"
    """One of the category's known answers: accepted at once."""
    DISPUTED = "disputed"
    """Fits the letter but is not in the list: the other players vote."""

    @property
    def refused(self) -> bool:
        return self in (Verdict.BLANK, Verdict.WRONG_LETTER, Verdict.REPEAT)


def check(code: str, letter: str, text: str, used: frozenset[str] | set[str]) -> Verdict:
    """Check ``text`` for category ``code`` and ``letter``; ``used``: keys already taken."""
    found = category(code)
    answer_key = key(text, found.ignore_articles)
    if not answer_key:
        return Verdict.BLANK
    if not fits_letter(answer_key, letter):
        return Verdict.WRONG_LETTER
    if singular(answer_key) in used:
        return Verdict.REPEAT
    if listed(code, text):
        return Verdict.LISTED
    return Verdict.DISPUTED


def used_key(code: str, text: str) -> str:
    """What :func:`check` remembers of an answer that took a letter (for repeats)."""
    return singular(key(text, category(code).ignore_articles))
