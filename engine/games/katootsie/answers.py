"""Katootsie!: the category deck and how an answer is checked against a category and a letter.

Kept apart from :mod:`engine.games.katootsie.rules` because the bots and the TUI need the
same rules of *reading* an answer, as pure functions of text.

Reading an answer (the issue's "normalise"): accents dropped, case folded,
"&" read as "and", every other character that is not a letter or a digit
dropped (so spaces, hyphens and apostrophes do not matter: "Hurdy-Gurdy",
"hurdy gurdy" and "hurdygurdy" are one answer); a leading article is
dropped first, in every category (:data:`ARTICLE_RULE`), so "The Shining"
starts with S and "The Hague" with H. Simple plurals match the singular
("bananas", "peaches", "cherries" find "banana", "peach", "cherry").

The letter rule: an answer must begin with the letter, except Q, X and Z,
which may be anywhere in it ("Anywhere" is printed on those cards).

The categories are data (``engine/games/katootsie/data/katootsie-categories.json``, built by
``engine/tools/build_katootsie.py``), loaded on first use so that importing
the game stays cheap.
"""

from __future__ import annotations

import json
import re
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

ARTICLE_RULE = (
    'You must omit "The", "A" and "An" for answers that always begin with those words, '
    "usually as title."
)
"""The rulebook's rule ("Proper nouns, 'The, A, An'"), quoted. It is stated for every
answer, not for some categories: the categories that print "Ignore 'A', 'An' and
'The'" carry it "as a reminder" (the rulebook's words), so an unmarked category
follows it too ("The Hague" is a city for H). Omitting is not optional ("must"): the
answer's first letter is the one after the article, and the rulebook's example says
so for the letter of the article itself ("The Shining" is no answer for T)."""

_LEADING_ARTICLE = re.compile(r"^\W*(?:" + "|".join(ARTICLES) + r")\s+(?=\w)")
"""An article as the first *word*, followed by a space and more of the answer. Not an
initial ("A. A. Milne"), not part of a word ("A-bomb", "Anchovy"), not the whole
answer ("A", a unit of measure)."""

MAX_ANSWER_LENGTH = 60
"""The longest answer a player may type (characters)."""


@dataclass(frozen=True, slots=True)
class Category:
    """One category card: its title, its reminder, its known good answers."""

    code: str
    """A stable id (``c001``...), in the data file's order."""
    title: str
    ignore_articles: bool
    """Whether the card prints the reminder "Ignore 'A', 'An' and 'The'". Only a reminder:
    :data:`ARTICLE_RULE` holds for every category's answers."""
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
    text = (
        resources.files("engine.games.katootsie")
        .joinpath("data", CATEGORY_FILE)
        .read_text(encoding="utf-8")
    )
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


def words(text: str) -> list[str]:
    """The answer's words: folded, punctuation dropped, a leading article omitted.

    The article goes before punctuation is read, so that an initial ("A. E. Housman")
    or a hyphenated word ("A-ha") keeps its "A": only a whole first word is an article.
    """
    folded = _LEADING_ARTICLE.sub("", _fold(text), count=1).replace("&", " and ")
    cleaned = "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in folded)
    # Apostrophes join ("o'clock"), other punctuation separates; either way the key ignores it.
    return [part for part in cleaned.split() if part]


def key(text: str) -> str:
    """The answer as it is compared: letters and digits only, folded, without its article."""
    return "".join(words(text))


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
    return frozenset(singular(key(answer)) for answer in category(code).answers)


def listed(code: str, text: str) -> bool:
    """Whether ``text`` is one of the category's known good answers."""
    return singular(key(text)) in _index(code)


def answers_for(code: str, letter: str) -> tuple[str, ...]:
    """The category's known answers that fit ``letter`` (what a bot can think of)."""
    return tuple(answer for answer in category(code).answers if fits_letter(key(answer), letter))


def coverage(code: str) -> frozenset[str]:
    """The letters for which the category has at least one known answer."""
    keys = [key(answer) for answer in category(code).answers]
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
    answer_key = key(text)
    if not answer_key:
        return Verdict.BLANK
    if not fits_letter(answer_key, letter):
        return Verdict.WRONG_LETTER
    if singular(answer_key) in used:
        return Verdict.REPEAT
    if listed(code, text):
        return Verdict.LISTED
    return Verdict.DISPUTED


def used_key(text: str) -> str:
    """What :func:`check` remembers of an answer that took a letter (for repeats)."""
    return singular(key(text))
