"""The Kiitos dictionary: what it holds, its licence, its lazy lists and searches."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.games.kiitos import words as kiitos_words
from engine.games.kiitos.table import SORTED_AT_MOST, candidates, commonest, picks, sample, spread
from engine.games.kiitos.words import (
    COMMON_LEVEL,
    Frequency,
    WordList,
    dictionary,
    frequency,
    parse,
    parse_frequency,
    supplement_words,
)


def test_importing_the_game_does_not_load_the_dictionary() -> None:
    code = (
        "import engine.games.kiitos.words as w, engine.registry as r; r.names();"
        "print(w.dictionary.cache_info().currsize, w.frequency.cache_info().currsize)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "0 0"


@pytest.mark.parametrize(
    "word",
    [
        "favourite",
        "favorite",
        "centimetre",
        "neighbourhood",
        "email",
        "website",
        "jewellery",
        "jewelry",
        "organise",
        "organize",
        "cats",
        "bubbles",
        "clasp",
        "clothes",
        "vlog",
    ],
)
def test_both_spellings_modern_words_and_plurals_are_words(word: str) -> None:
    assert word in dictionary()


@pytest.mark.parametrize("word", ["cat", "xyzzyq", "london", "usa", "Cats", "don't", "e-mail", ""])
def test_short_words_proper_nouns_and_non_words_are_not(word: str) -> None:
    assert word not in dictionary()


def test_every_word_is_lower_case_letters_of_four_or_more() -> None:
    words = dictionary().words
    assert len(words) > 250_000
    assert all(len(word) >= 4 and word.isascii() and word.isalpha() for word in words)
    assert all(word.islower() for word in words[::997])
    assert words == sorted(words)


def test_each_word_keeps_its_scowl_size() -> None:
    found = dictionary()
    assert found.level("cats") == 20
    assert found.level("aardvark") == 20
    assert found.level("aahed") == 80
    assert found.level("vlog") == 80  # the supplement
    assert found.level("xyzzyq") is None
    assert found.version.startswith("SCOWL 2020.12.07")


def test_the_common_list_is_the_sizes_bots_use() -> None:
    found = dictionary()
    common = found.common
    assert "cats" in common.words and "aahed" not in common.words
    assert all((found.level(word) or 99) <= COMMON_LEVEL for word in common.words[::499])


def test_prefix_and_substring_searches() -> None:
    words = WordList(["bubble", "bubbles", "cats", "clasp", "clothes", "scat"])
    assert words.with_prefix("c") == ["cats", "clasp", "clothes"]
    assert words.with_prefix("cl") == ["clasp", "clothes"]
    assert words.with_prefix("zz") == []
    assert words.containing("at") == ["cats", "scat"]
    assert words.containing("b") == ["bubble", "bubbles"]
    assert words.containing("es") == ["bubbles", "clothes"]
    assert words.containing("A") == [] and words.containing("") == []


def test_searches_on_the_real_lists_agree_with_a_scan() -> None:
    common = dictionary().common
    assert common.containing("rh") == [word for word in common.words if "rh" in word]
    assert common.with_prefix("clo") == [word for word in common.words if word.startswith("clo")]


def test_substring_searches_agree_with_a_scan_whichever_search_came_first() -> None:
    """Longer searches start from shorter ones (remembered or not): a table grown at its
    end, at its start, or asked for out of the blue, all find what a scan finds."""
    common = WordList(dictionary().common.words)
    grown = ["t", "te", "ter", "ster", "aster", "master", "masters"]  # both ends, in turn
    cold = ["ough", "ingl", "qu", "zz", "xyz", "tion", "ation", "nation"]
    for part in [*grown, *cold, *grown]:
        assert common.containing(part) == [word for word in common.words if part in word], part


def test_picks_are_the_spread_of_the_candidates() -> None:
    common = dictionary().common
    for part, super_kiitos in [("c", False), ("cl", False), ("qz", False), ("ter", True)]:
        for salt in (0, 7, 12345):
            expected = spread(candidates(common, part, super_kiitos), 12, salt)
            assert sample(common, part, super_kiitos, 12, salt) == expected
            assert list(picks(common, part, super_kiitos, 12, salt)) == expected


def test_the_supplement_is_reviewed_and_only_adds_missing_words() -> None:
    text = kiitos_words._data(kiitos_words.SUPPLEMENT_FILE).decode()
    words = supplement_words(text)
    assert words == sorted(set(words))
    assert all(word in dictionary().supplement for word in words)
    assert not dictionary().supplement & set(dictionary().words)


def test_the_licence_ships_verbatim() -> None:
    text = kiitos_words.licence_text()
    assert "Copyright 2000-2011 by Kevin Atkinson" in text
    assert "ENABLE" in text


def test_a_damaged_file_is_refused() -> None:
    with pytest.raises(ValueError, match="damaged"):
        parse("# x\n=sizes 10\nabcd efgh\n0\n")


# How often words are used (issue 36, item 9) -------------------------------------------------

MOST_USED = 1000
"""Words any player knows rank within this many (the list's exact order may change)."""


def test_the_frequency_list_ranks_the_commoner_words_and_names_its_source() -> None:
    order = frequency()
    assert 20_000 < len(order) < len(dictionary().common)
    assert order.source.startswith("wordfreq ")
    assert all(word in dictionary().common for word in order.ranked[::97])
    assert order.key(order.ranked[0]) == 0


def test_everyday_words_rank_high_and_obscure_ones_low_or_not_at_all() -> None:
    """SCOWL's sizes put ANECDOTA (20) and ALIGHTED (35) among the words bots may say; by
    use they are far behind (or, ANECDOTA, not ranked at all: after every ranked word)."""
    order = frequency()
    for word in ("with", "like", "more", "people", "even", "never", "right", "other"):
        assert order.key(word) < MOST_USED, word
    for word in ("anecdota", "alighted", "nexus", "rips"):
        assert order.key(word) > 5 * MOST_USED, word
    assert order.key("anecdota") == len(order) == order.key("xyzzyq")


def test_the_frequency_licence_ships_with_its_attribution() -> None:
    text = kiitos_words.frequency_licence_text()
    assert "CC BY-SA 4.0" in text and "creativecommons.org/licenses/by-sa/4.0" in text
    assert "wordfreq" in text and "Robyn Speer" in text
    assert "SUBTLEX" in text and "Brysbaert" in text  # the credit SUBTLEX's terms require


def test_a_damaged_frequency_file_is_refused() -> None:
    assert parse_frequency("# wordfreq 9.9\nthat with\n").source == "wordfreq 9.9"
    with pytest.raises(ValueError, match="damaged"):
        parse_frequency("# x\nthat with\nmore\n")
    with pytest.raises(ValueError, match="damaged"):
        parse_frequency("# x\nthat with that\n")


def test_commonest_gives_every_fitting_word_most_used_first() -> None:
    """Both ways of searching (a sort of few candidates, a walk down the ranked words for
    many) give the candidates ordered by rank, the unranked after them alphabetically."""
    common = dictionary().common
    order = frequency()
    parts = [("e", False), ("co", False), ("ali", False), ("zzz", False), ("ter", True)]
    parts += [("an", True), ("qu", True)]
    sizes = set()
    for part, super_kiitos in parts:
        found = candidates(common, part, super_kiitos)
        sizes.add(len(found) > SORTED_AT_MOST)
        expected = sorted(found, key=lambda word: (order.key(word), word))
        assert list(commonest(common, part, super_kiitos, order)) == expected, part
    assert sizes == {True, False}, "both ways are tested"


def test_commonest_keeps_to_its_word_list() -> None:
    words = WordList(["cats", "clasp", "cogs", "zebra"])
    order = Frequency(["the", "cogs", "cats", "calm"])
    assert list(commonest(words, "c", False, order)) == ["cogs", "cats", "clasp"]
    letters = "abcdefghijklmnopqrstuvwxyz"
    many = WordList(sorted(f"c{a}{b}" for a in letters for b in letters))
    assert len(many) > SORTED_AT_MOST  # found by walking the ranked words
    ranked = Frequency(["cqy", "cattle", "dog", "caz"])
    found = list(commonest(many, "c", False, ranked))
    assert found[:3] == ["cqy", "caz", "caa"] and len(found) == len(many)
