"""The Kiitos dictionary: which words a challenge upholds, and word lists for bots.

The data is SCOWL's word lists (``engine/data/kiitos-words.txt.gz``, built by
``engine/data/build_kiitos_words.py``; licence in ``kiitos-words-LICENSE.txt``)
plus the reviewed ``kiitos-supplement.txt``. Nothing is read when this module
is imported: :func:`dictionary` loads the file on first use and keeps it (the
registry imports every engine module, and most processes never need words).

Lookups (``word in dictionary()``) are a :class:`frozenset` membership test.
Bots need "words with this prefix" and "words containing these letters";
:class:`WordList` answers both for a sorted list, and its lists are built
only when first asked for: :attr:`Dictionary.common` (the commoner words a
bot says) and :attr:`Dictionary.everything`.
"""

from __future__ import annotations

import re
import zlib
from bisect import bisect_left
from collections.abc import Iterable
from functools import cache, cached_property
from importlib import resources
from itertools import chain

DATA_FILE = "kiitos-words.txt.gz"
SUPPLEMENT_FILE = "kiitos-supplement.txt"
LICENCE_FILE = "kiitos-words-LICENSE.txt"

LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80)
"""SCOWL's sizes in the data: 10 are the most common words, 80 the rarest (ENABLE, UKACD)."""
COMMON_LEVEL = 50
"""Assumed: bots choose their own words from sizes up to this one."""
SUPPLEMENT_LEVEL = 80
"""The supplement's words count as the rarest size: valid, but bots do not choose them."""

SEARCH_CACHE = 4096
"""How many substring searches a :class:`WordList` remembers."""

_WORD = re.compile(r"[a-z]+")


class WordList:
    """A sorted list of words with prefix and substring searches.

    Prefixes are a bisect on the sorted list. Substrings are found with
    :meth:`str.find` over the words joined one per line (joined on first
    use), each hit widened to its line. Measured on the common words (64,000):
    about 1 ms for a rare pair of letters, 12 ms for "ing", 50 ms for a lone
    "e"; a table of each word's letter pairs answered faster but took 450 ms
    and 4 MB to build, which every process with a bot would pay up front.
    """

    def __init__(self, words: list[str]) -> None:
        self.words = words
        """Sorted, lower-case."""
        self._found: dict[str, list[str]] = {}
        """Recent :meth:`containing` answers (bots ask about the same letters again and again)."""

    def __len__(self) -> int:
        return len(self.words)

    def with_prefix(self, prefix: str) -> list[str]:
        """Every word starting with ``prefix`` (the prefix itself included), in order."""
        start = bisect_left(self.words, prefix)
        end = bisect_left(self.words, prefix + "{", start)  # "{" sorts after "z"
        return self.words[start:end]

    @cached_property
    def _text(self) -> str:
        return "\n" + "\n".join(self.words) + "\n"

    def containing(self, part: str) -> list[str]:
        """Every word with ``part`` somewhere in it, in order (do not change the list)."""
        found = self._found.get(part)
        if found is None:
            if len(self._found) >= SEARCH_CACHE:
                self._found.clear()
            found = self._found[part] = self._search(part)
        return found

    def _search(self, part: str) -> list[str]:
        if not _WORD.fullmatch(part):
            return []
        text = self._text
        find, rfind = text.find, text.rfind
        found = []
        at = find(part)
        while at != -1:
            end = find("\n", at)
            found.append(text[rfind("\n", 0, at) + 1 : end])
            at = find(part, end)
        return found


class Dictionary:
    """Every valid word, each word's SCOWL size, and the bots' word lists.

    The words are one sorted list with a parallel string of size codes, as
    the data file stores them (loading is two splits, no sorting), plus a
    :class:`frozenset` of them for lookups: hashing the words costs about as
    much as the rest of the load, and makes a lookup some 20 times faster
    than a bisect (which missed the 2 µs goal on a busy machine).
    """

    def __init__(
        self,
        words: list[str],
        codes: str,
        sizes: tuple[int, ...],
        version: str,
        supplement: Iterable[str] = (),
    ) -> None:
        self.words = words
        """Every SCOWL word, sorted."""
        self.codes = codes
        """``codes[i]`` is the index in :attr:`sizes` of ``words[i]``'s smallest size."""
        self.sizes = sizes
        self.version = version
        """Where the words come from, e.g. ``SCOWL 2020.12.07-2 + 29 supplement words``."""
        self.supplement = frozenset(word for word in supplement if self._index(word) < 0)
        """The reviewed supplement's words (those not in SCOWL's lists)."""
        if self.supplement:
            self.version += f" + {len(self.supplement)} supplement words"
        self.valid = frozenset(chain(words, self.supplement))
        """Every valid word (SCOWL's and the supplement's): lookups are a hash probe."""

    def _index(self, word: str) -> int:
        index = bisect_left(self.words, word)
        return index if index < len(self.words) and self.words[index] == word else -1

    def __contains__(self, word: object) -> bool:
        return word in self.valid

    def __len__(self) -> int:
        return len(self.words) + len(self.supplement)

    def level(self, word: str) -> int | None:
        """The smallest SCOWL size listing ``word`` (``None``: not a word)."""
        index = self._index(word)
        if index >= 0:
            return self.sizes[int(self.codes[index])]
        return SUPPLEMENT_LEVEL if word in self.supplement else None

    @cached_property
    def common(self) -> WordList:
        """The words of sizes up to :data:`COMMON_LEVEL`: what bots say."""
        keep = "".join(str(i) for i, size in enumerate(self.sizes) if size <= COMMON_LEVEL)
        chosen = [word for word, code in zip(self.words, self.codes, strict=True) if code in keep]
        return WordList(chosen)

    @cached_property
    def everything(self) -> WordList:
        """Every valid word, sorted (for hints that need the rare words too)."""
        return WordList(sorted([*self.words, *self.supplement]))


def parse(text: str, supplement: Iterable[str] = ()) -> Dictionary:
    """The data file's dictionary (see ``build_kiitos_words.py`` for the format)."""
    lines = text.split("\n")
    comments = [line for line in lines if line.startswith("#")]
    body = [line for line in lines if line and not line.startswith("#")]
    if len(body) != 3 or not body[0].startswith("=sizes "):
        raise ValueError("The Kiitos word file is damaged: expected sizes, words and codes")
    sizes = tuple(int(size) for size in body[0].split()[1:])
    words, codes = body[1].split(" "), body[2]
    if len(words) != len(codes):
        raise ValueError("The Kiitos word file is damaged: words and sizes differ in number")
    found = re.search(r"SCOWL (\S+)", comments[0]) if comments else None
    version = f"SCOWL {found.group(1)}" if found else "SCOWL"
    extra = (word for word in supplement if _WORD.fullmatch(word))
    return Dictionary(words, codes, sizes, version, extra)


def supplement_words(text: str) -> list[str]:
    """The supplement's words (one a line, ``#`` comments)."""
    words = []
    for line in text.splitlines():
        word = line.split("#", 1)[0].strip()
        if word:
            words.append(word)
    return words


def _data(name: str) -> bytes:
    return resources.files("engine").joinpath("data", name).read_bytes()


@cache
def dictionary() -> Dictionary:
    """The Kiitos dictionary, loaded on first call and shared afterwards."""
    text = zlib.decompress(_data(DATA_FILE), wbits=31).decode("utf-8")  # 31: gzip framing
    return parse(text, supplement_words(_data(SUPPLEMENT_FILE).decode("utf-8")))


def licence_text() -> str:
    """SCOWL's copyright notice, as shipped (the rules screen may show it)."""
    return _data(LICENCE_FILE).decode("utf-8")
