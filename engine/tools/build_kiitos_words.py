"""Rebuild ``kiitos-words.txt.gz``, the Kiitos dictionary, from the installed SCOWL lists.

Run it from the repository root after installing SCOWL (build time only; the
game never needs it)::

    apt-get install -y scowl               # /usr/share/dict/scowl, /usr/share/doc/scowl
    .venv/bin/python engine/tools/build_kiitos_words.py

What goes in (the Kiitos section of ``shared/rules/CLARIFICATIONS.md``): the
``*-words`` lists (never ``proper-names``, ``abbreviations``, ``contractions``
or ``upper``) of the spellings ``english``, ``american``, ``british``,
``british_z``, ``variant_1``, ``variant_2``, ``british_variant_1`` and
``british_variant_2`` at sizes up to 80 (80 holds ENABLE and UKACD: the words
people use in word games). ``variant_3`` ("seldom used and may not even be
considered correct") and the Canadian and Australian lists are left out.
Only lower-case ``a-z`` words of 4 letters or more are kept: a target word is
at least 4 letters, and anything with an apostrophe, accent, hyphen or
capital is no Kiitos word.

The output keeps each word's smallest size (its commonness: 10 is the most
common, 80 the rarest) so that bots can say common words. Format, gzip'd
UTF-8 text, made to load fast (two splits, no sorting, no hashing)::

    # comment lines (source, version, licence)
    =sizes 10 20 35 40 50 55 60 70 80
    aahed aahing aardvark ...     (every word, sorted, one line)
    805...                        (one digit per word: its size's index in =sizes)

The licence travels beside it as ``kiitos-words-LICENSE.txt`` (SCOWL's
copyright file, verbatim). The reviewed supplement, ``kiitos-supplement.txt``,
is hand-written and merged at load time, not here. The output is
deterministic: the same SCOWL gives the same bytes.
"""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "games" / "kiitos" / "data"
OUTPUT = DATA / "kiitos-words.txt.gz"
LICENCE_OUTPUT = DATA / "kiitos-words-LICENSE.txt"
SCOWL = Path("/usr/share/dict/scowl")
COPYRIGHT = Path("/usr/share/doc/scowl/copyright")

SPELLINGS = (
    "english",
    "american",
    "british",
    "british_z",
    "variant_1",
    "variant_2",
    "british_variant_1",
    "british_variant_2",
)
SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80)
MIN_LENGTH = 4
WORD = re.compile(rf"[a-z]{{{MIN_LENGTH},}}")


def scowl_version() -> str:
    """The installed Debian package's version (``2020.12.07-2``)."""
    result = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", "scowl"],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def read_levels() -> dict[str, int]:
    """Every kept word with the smallest size that lists it."""
    levels: dict[str, int] = {}
    for size in SIZES:
        for spelling in SPELLINGS:
            path = SCOWL / f"{spelling}-words.{size}"
            if not path.exists():
                continue
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                word = line.strip()
                if WORD.fullmatch(word) and word not in levels:
                    levels[word] = size
    return levels


def render(levels: dict[str, int], version: str) -> bytes:
    words = sorted(levels)
    codes = "".join(str(SIZES.index(levels[word])) for word in words)
    lines = [
        f"# Kiitos dictionary: {len(words)} words from SCOWL {version} (Debian package scowl)",
        f"# spellings: {' '.join(SPELLINGS)}; *-words lists at sizes <= {SIZES[-1]};",
        f"# lower-case a-z only, {MIN_LENGTH}+ letters. Below: the sizes, the words (sorted),",
        "# then one digit per word: the index of its smallest size in the sizes line.",
        "# Licence: kiitos-words-LICENSE.txt (SCOWL's copyright notice, verbatim).",
        "# Built by engine/tools/build_kiitos_words.py.",
        "=sizes " + " ".join(str(size) for size in SIZES),
        " ".join(words),
        codes,
    ]
    text = "\n".join(lines) + "\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main() -> int:
    if not SCOWL.is_dir() or not COPYRIGHT.exists():
        print("SCOWL is not installed: apt-get install -y scowl", file=sys.stderr)
        return 1
    version = scowl_version()
    levels = read_levels()
    OUTPUT.write_bytes(render(levels, version))
    shutil.copyfile(COPYRIGHT, LICENCE_OUTPUT)
    print(f"{OUTPUT.name}: {len(levels)} words from SCOWL {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
