"""Katootsie! category data: at least 127 categories, each covering at least 18 letters.

The coverage table (one row per category: how many answers, which letters
are covered) is built by :func:`coverage_table`; it is shown when a category
falls short, and ``pytest -s`` prints it in full.
"""

from __future__ import annotations

import json
from importlib import resources

from engine.games.katootsie import answers
from engine.games.katootsie.answers import LETTERS, Verdict

MIN_CATEGORIES = 127
MIN_LETTERS = 18


def coverage_table() -> str:
    rows = [f"{'category':34} {'answers':>7} {'letters':>7}  covered"]
    for category in answers.categories():
        covered = answers.coverage(category.code)
        marks = "".join(letter if letter in covered else "." for letter in LETTERS)
        rows.append(f"{category.title[:34]:34} {len(category.answers):7} {len(covered):7}  {marks}")
    return "\n".join(rows)


def test_there_are_at_least_127_categories() -> None:
    assert len(answers.categories()) >= MIN_CATEGORIES


def test_every_category_covers_at_least_18_letters() -> None:
    table = coverage_table()
    print(table)
    short = [c.title for c in answers.categories() if len(answers.coverage(c.code)) < MIN_LETTERS]
    assert not short, f"categories covering fewer than {MIN_LETTERS} letters: {short}\n{table}"


def test_titles_are_unique_short_and_plural_style() -> None:
    titles = [category.title for category in answers.categories()]
    assert len(set(titles)) == len(titles)
    assert all(0 < len(title) <= 34 and title[0].isupper() for title in titles)


def test_every_category_names_its_source_and_licence() -> None:
    for category in answers.categories():
        assert category.source and category.licence, category.title


def test_some_categories_ignore_a_an_and_the() -> None:
    marked = [c for c in answers.categories() if c.ignore_articles]
    assert len(marked) >= 3
    assert "Ignore 'A', 'An' and 'The'" in marked[0].label


def test_the_hand_written_lists_are_merged_unchanged() -> None:
    folder = resources.files("engine.games.katootsie").joinpath("data")
    hand = json.loads(folder.joinpath("katootsie-handwritten.json").read_text(encoding="utf-8"))
    built = {c.title: c for c in answers.categories()}
    for item in hand["categories"]:
        assert set(built[item["title"]].answers) == set(item["answers"])
        assert built[item["title"]].source == hand["source"]


def test_the_wordnet_lists_are_pruned_of_latin_names() -> None:
    fruits = next(c for c in answers.categories() if c.title == "Fruits")
    assert "banana" in fruits.answers
    assert not any(answer.startswith(("Malus", "Citrus ", "Prunus")) for answer in fruits.answers)
    assert 200 <= len(fruits.answers) <= 400


def test_answers_are_read_without_case_accents_spaces_or_punctuation() -> None:
    assert answers.key("  Hurdy-Gurdy! ") == answers.key("hurdy gurdy") == "hurdygurdy"
    assert answers.key("Crème Brûlée") == "cremebrulee"
    assert answers.key("Salt & Pepper") == "saltandpepper"


def test_simple_plurals_match_the_singular() -> None:
    assert answers.singular("cherries") == "cherry"
    assert answers.singular("peaches") == "peach"
    assert answers.singular("bananas") == "banana"
    assert answers.singular("glass") == "glass"


def test_a_leading_article_is_dropped_from_every_answer_but_not_an_initial() -> None:
    assert answers.key("The Shining") == answers.key("Shining") == "shining"
    assert answers.key("the  Hague") == answers.key('"The Hague"') == "hague"
    assert answers.key("An American in Paris") == "americaninparis"
    assert answers.key("A. E. Housman") == "aehousman"  # an initial, not an article
    assert answers.key("A-bomb") == "abomb" and answers.key("Anchovy") == "anchovy"
    assert answers.key("A") == "a" and answers.key("The") == "the"  # nothing after it
    assert answers.key("A & W") == "aandw"  # no word after the "A"


def test_q_x_and_z_may_be_anywhere() -> None:
    assert answers.fits_letter("aquamarine", "Q")
    assert answers.fits_letter("fox", "X")
    assert answers.fits_letter("pizza", "Z")
    assert not answers.fits_letter("aquamarine", "M")


def test_checking_an_answer() -> None:
    fruits = next(c for c in answers.categories() if c.title == "Fruits")
    code = fruits.code
    assert answers.check(code, "B", "Bananas", set()) is Verdict.LISTED
    assert answers.check(code, "B", "  ", set()) is Verdict.BLANK
    assert answers.check(code, "B", "apple", set()) is Verdict.WRONG_LETTER
    taken = {answers.used_key("banana")}
    assert answers.check(code, "B", "BANANA", taken) is Verdict.REPEAT
    assert answers.check(code, "B", "Bramble fruit surprise", set()) is Verdict.DISPUTED
