"""The Kiitos dictionary: what it holds, its licence, its lazy lists and searches."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.games.kiitos import words as kiitos_words
from engine.games.kiitos.table import candidates, picks, sample, spread
from engine.games.kiitos.words import COMMON_LEVEL, WordList, dictionary, parse, supplement_words


def test_importing_the_game_does_not_load_the_dictionary() -> None:
    code = (
        "import engine.games.kiitos.words as w, engine.registry as r; r.names();"
        "print(w.dictionary.cache_info().currsize)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "0"


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
