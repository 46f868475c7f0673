"""The Kiitos dictionary: which words a challenge upholds, and word lists for bots.

The data is SCOWL's word lists (``engine/games/kiitos/data/kiitos-words.txt.gz``, built by
``engine/tools/build_kiitos_words.py``; licence in ``kiitos-words-LICENSE.txt``)
plus the reviewed ``kiitos-supplement.txt``. Nothing is read when this module
is imported: :func:`dictionary` loads the file on first use and keeps it (the
registry imports every engine module, and most processes never need words).

How often people use the commoner words (:func:`frequency`, from
``kiitos-frequency.txt.gz``, built by ``engine/tools/build_kiitos_frequency.py`` from
wordfreq's English lists; CC BY-SA 4.0, in ``kiitos-frequency-LICENSE.txt``) orders the
words the game suggests: SCOWL's sizes alone put ANECDOTA (size 20) beside LIKE.

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
FREQUENCY_FILE = "kiitos-frequency.txt.gz"
FREQUENCY_LICENCE_FILE = "kiitos-frequency-LICENSE.txt"

COMMON_LEVEL = 50
"""Assumed: bots choose their own words from sizes up to this one (the data keeps each
word's SCOWL size, 10 for the most common words up to 80 for the rarest: ENABLE, UKACD)."""
SUPPLEMENT_LEVEL = 80
"""The supplement's words count as the rarest size: valid, but bots do not choose them."""

SEARCH_CACHE = 4096
"""How many substring searches of more than :data:`SHORT` letters a :class:`WordList`
remembers (the oldest is forgotten first)."""
SHORT = 3
"""Searches of up to this many letters are kept for good: every longer one starts from them."""

_WORD = re.compile(r"[a-z]+")


class WordList:
    """A sorted list of words with prefix and substring searches.

    Prefixes are a bisect on the sorted list. Substrings are narrowed from a
    shorter search: every word holding ``"cat"`` holds ``"ca"`` and ``"at"``,
    so ``"cat"`` is looked for only in the (remembered) words with ``"ca"`` or
    ``"at"``, whichever list is shorter, and a single letter in every word.
    Tables grow a letter at a time, so the shorter search is nearly always
    remembered already. Measured on the common words (64,000): a letter
    about 3 ms (once: letters are kept), a pair from its rarer letter up to
    2 ms, longer strings from their pairs well under 1 ms; a scan of the
    words joined one per line took 1 to 50 ms a search, and a table of each
    word's letter pairs 450 ms and 4 MB to build, which every process with a
    bot would pay up front.
    """

    def __init__(self, words: list[str]) -> None:
        self.words = words
        """Sorted, lower-case."""
        self._short: dict[str, list[str]] = {}
        """The words of each letter, pair and triple of letters asked for (kept: longer
        searches start from them). About 10 MB for the common words' once all are built."""
        self._ranges: dict[str, tuple[int, int]] = {}
        """Recent :meth:`prefix_range` answers."""
        self._found: dict[str, list[str]] = {}
        """Recent :meth:`containing` answers for longer strings (tables repeat themselves)."""

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` is in the list (a bisect: no set of the words is kept)."""
        if not isinstance(word, str):
            return False
        index = bisect_left(self.words, word)
        return index < len(self.words) and self.words[index] == word

    def with_prefix(self, prefix: str) -> list[str]:
        """Every word starting with ``prefix`` (the prefix itself included), in order."""
        start, end = self.prefix_range(prefix)
        return self.words[start:end]

    def prefix_range(self, prefix: str) -> tuple[int, int]:
        """Where :meth:`with_prefix`'s words are in :attr:`words` (start, end), without a copy."""
        found = self._ranges.get(prefix)
        if found is None:
            start = bisect_left(self.words, prefix)
            found = start, bisect_left(self.words, prefix + "{", start)  # "{" sorts after "z"
            if len(self._ranges) >= SEARCH_CACHE:  # forget the oldest
                del self._ranges[next(iter(self._ranges))]
            self._ranges[prefix] = found
        return found

    def containing(self, part: str) -> list[str]:
        """Every word with ``part`` somewhere in it, in order (do not change the list)."""
        short = len(part) <= SHORT
        found = (self._short if short else self._found).get(part)
        if found is None:
            if not _WORD.fullmatch(part):
                return []
            found = self._search(part)
            if short:
                self._short[part] = found
            else:
                if len(self._found) >= SEARCH_CACHE:  # forget the oldest
                    del self._found[next(iter(self._found))]
                self._found[part] = found
        return found

    def _search(self, part: str) -> list[str]:
        """The words with ``part``, from a shorter search's words (a letter: from all)."""
        if len(part) == 1:
            pools = [self.words]
        elif len(part) == 2:
            pools = [self.containing(part[0]), self.containing(part[1])]
        else:
            known = self._short if len(part) <= SHORT + 1 else self._found
            remembered = (known.get(part[:-1]), known.get(part[1:]))
            pools = [found for found in remembered if found is not None]
            if not pools:  # its head's search then starts from the head's head, and so on
                pools = [self.containing(part[:-1])]
        return [word for word in min(pools, key=len) if part in word]


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


class Frequency:
    """The commoner words in order of use, most used first: what the game suggests first.

    A word's :meth:`key` is its rank (0 for the commonest); a word the list lacks (rarer
    than once in 100 million words, or not one of the commoner sizes) ranks after them all.
    The ranks are a dict, built once when the list is first loaded (about 44,000 words).
    """

    def __init__(self, ranked: list[str], source: str = "") -> None:
        self.ranked = ranked
        """The words, most used first."""
        self.source = source
        """Where the order comes from, e.g. ``wordfreq 3.1.1``."""
        self.rank = {word: index for index, word in enumerate(ranked)}

    def __len__(self) -> int:
        return len(self.ranked)

    def __contains__(self, word: object) -> bool:
        return word in self.rank

    def key(self, word: str) -> int:
        """``word``'s rank, as a sort key: commonest first, the words the list lacks last."""
        return self.rank.get(word, len(self.ranked))


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


def parse_frequency(text: str) -> Frequency:
    """The frequency file's order (see ``build_kiitos_frequency.py`` for the format)."""
    lines = text.split("\n")
    comments = [line for line in lines if line.startswith("#")]
    body = [line for line in lines if line and not line.startswith("#")]
    if len(body) != 1:
        raise ValueError("The Kiitos frequency file is damaged: expected one line of words")
    found = re.search(r"wordfreq (\S+)", " ".join(comments))
    order = Frequency(body[0].split(" "), f"wordfreq {found.group(1)}" if found else "wordfreq")
    if len(order.rank) != len(order.ranked):
        raise ValueError("The Kiitos frequency file is damaged: a word is listed twice")
    return order


def supplement_words(text: str) -> list[str]:
    """The supplement's words (one a line, ``#`` comments)."""
    words = []
    for line in text.splitlines():
        word = line.split("#", 1)[0].strip()
        if word:
            words.append(word)
    return words


def _data(name: str) -> bytes:
    return resources.files("engine.games.kiitos").joinpath("data", name).read_bytes()


@cache
def dictionary() -> Dictionary:
    """The Kiitos dictionary, loaded on first call and shared afterwards."""
    text = zlib.decompress(_data(DATA_FILE), wbits=31).decode("utf-8")  # 31: gzip framing
    return parse(text, supplement_words(_data(SUPPLEMENT_FILE).decode("utf-8")))


@cache
def frequency() -> Frequency:
    """The commoner words in order of use, loaded on first call and shared afterwards."""
    text = zlib.decompress(_data(FREQUENCY_FILE), wbits=31).decode("utf-8")
    return parse_frequency(text)


def licence_text() -> str:
    """SCOWL's copyright notice, as shipped (the rules screen may show it)."""
    return _data(LICENCE_FILE).decode("utf-8")


def frequency_licence_text() -> str:
    """The frequency list's licence (CC BY-SA 4.0) and wordfreq's attribution, as shipped."""
    return _data(FREQUENCY_LICENCE_FILE).decode("utf-8")
