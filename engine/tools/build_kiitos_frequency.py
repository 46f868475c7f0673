"""Rebuild ``kiitos-frequency.txt.gz``: the Kiitos words people use most, commonest first.

The coach and the rules suggest words from it (``engine/games/kiitos/words.py``,
:func:`frequency`): SCOWL's sizes alone let them suggest ANECDOTA (size 20, as
the plural of a common word) and ALIGHTED (35) before LIKE or MORE.

Run it from the repository root with ``wordfreq`` importable; it is a build
tool only (the game and the tests read the shipped file, never ``wordfreq``),
so install it outside the project's environment, e.g.::

    .venv/bin/python -m pip install --target /tmp/wordfreq wordfreq==3.1.1
    PYTHONPATH=/tmp/wordfreq .venv/bin/python engine/tools/build_kiitos_frequency.py

Source: wordfreq (Robyn Speer; code Apache-2.0, its word lists CC BY-SA 4.0),
its English ``large`` list, which pools subtitles, books, Wikipedia, news, web
text and more (see the licence file). What goes in: the Kiitos dictionary's
commoner words, the ones the bots and the coach may say (SCOWL sizes up to
``words.COMMON_LEVEL``), that wordfreq rates at a Zipf frequency of at least
:data:`MIN_ZIPF` (at least once in 100 million words); most frequent first,
ties in alphabetical order. Rarer words are left out: a word the list lacks
ranks after every word it holds.

Format, gzip'd UTF-8 text (made to load with one split)::

    # comment lines (source, version, licence)
    that with this have ...       (the words, commonest first, one line)

The licence travels beside it as ``kiitos-frequency-LICENSE.txt``: the list is
an adaptation of wordfreq's data, so it is CC BY-SA 4.0 (the rest of Clowder
stays MIT), with wordfreq's licence and attribution section verbatim. The
output is deterministic: the same wordfreq and dictionary give the same bytes.
"""

from __future__ import annotations

import gzip
import importlib
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = HERE.parent / "games" / "kiitos" / "data"
OUTPUT = DATA / "kiitos-frequency.txt.gz"
LICENCE_OUTPUT = DATA / "kiitos-frequency-LICENSE.txt"

LANGUAGE = "en"
WORDLIST = "large"
MIN_ZIPF = 2.0
"""The rarest word kept: Zipf 2 is once in 100 million words (about 44,000 of the 64,000
commoner Kiitos words; a ranked word rarer still would not be suggested anyway)."""
MIN_FREQUENCY = 10 ** (MIN_ZIPF - 9)
""":data:`MIN_ZIPF` as a word frequency (Zipf is log10 of the frequency per billion words)."""


def common_words() -> tuple[list[str], int]:
    """The Kiitos dictionary's commoner words and the largest SCOWL size they come from (the
    shipped data: run from the repository)."""
    sys.path.insert(0, str(ROOT))
    from engine.games.kiitos.words import COMMON_LEVEL, dictionary

    return dictionary().common.words, COMMON_LEVEL


def ranked(words: list[str], frequencies: dict[str, float]) -> list[str]:
    """``words`` that are frequent enough, most frequent first (ties alphabetical)."""
    kept = [word for word in words if frequencies.get(word, 0.0) >= MIN_FREQUENCY]
    return sorted(kept, key=lambda word: (-frequencies[word], word))


def render(words: list[str], version: str, considered: int, level: int) -> bytes:
    lines = [
        f"# Kiitos word frequencies: {len(words)} of the dictionary's {considered} commoner words",
        f"# (SCOWL sizes <= {level}), commonest first, from wordfreq {version} ({LANGUAGE},"
        f" '{WORDLIST}' list):",
        f"# the words of Zipf frequency {MIN_ZIPF} or more (at least once in 100 million words),",
        "# ties in alphabetical order. Licence: CC BY-SA 4.0, see kiitos-frequency-LICENSE.txt.",
        "# Built by engine/tools/build_kiitos_frequency.py.",
        " ".join(words),
    ]
    text = "\n".join(lines) + "\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def licence(version: str) -> str:
    """The licence file: what the list is and its terms, then wordfreq's licence section,
    its citation and the works it credits, verbatim from its package's description."""
    description = str(metadata.metadata("wordfreq").json["description"])
    start = description.index("## License")
    head = f"""\
kiitos-frequency.txt.gz: licence and attribution
================================================

kiitos-frequency.txt.gz lists Kiitos dictionary words in order of how often
they are used. It is made from the English word frequencies of wordfreq
{version} by Robyn Speer (https://github.com/rspeer/wordfreq/, the package
`wordfreq` on PyPI) by engine/tools/build_kiitos_frequency.py, which keeps
only the order of the commoner Kiitos words that wordfreq rates at a Zipf
frequency of {MIN_ZIPF} or more.

wordfreq's code is under the Apache License 2.0; its word frequency data is
under the Creative Commons Attribution-ShareAlike 4.0 International licence
(CC BY-SA 4.0, https://creativecommons.org/licenses/by-sa/4.0/). This list is
an adaptation of that data, so kiitos-frequency.txt.gz is likewise licensed
under CC BY-SA 4.0. (The rest of Clowder, including the code that reads this
list, is under the MIT licence; SCOWL's word list has its own licence, in
kiitos-words-LICENSE.txt.)

Credit, as wordfreq asks: the data comes from wordfreq, which is built on the
sources below, including the SUBTLEX word lists by Marc Brysbaert et al.,
which are freely available data. wordfreq's own licence and attribution
section, and its citations, follow verbatim.

"""
    return head + description[start:].rstrip() + "\n"


def main() -> int:
    try:
        wordfreq: Any = importlib.import_module("wordfreq")
    except ImportError:
        print(
            "wordfreq is not importable: pip install --target DIR wordfreq, PYTHONPATH=DIR",
            file=sys.stderr,
        )
        return 1
    version = metadata.version("wordfreq")
    words, level = common_words()
    frequencies = wordfreq.get_frequency_dict(LANGUAGE, WORDLIST)
    order = ranked(words, frequencies)
    OUTPUT.write_bytes(render(order, version, len(words), level))
    LICENCE_OUTPUT.write_text(licence(version), encoding="utf-8")
    print(f"{OUTPUT.name}: {len(order)} of {len(words)} words from wordfreq {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
